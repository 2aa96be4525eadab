"""`rulings play`: the most a hand adds to a shared table, and a proposed table judged."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent / "rulings"


def run(*args):
    p = subprocess.run([str(BIN), "play", *args], capture_output=True, text=True, timeout=300)
    assert "Traceback" not in p.stderr
    return p


def test_the_most_the_hand_adds_with_the_new_table():
    p = run("rummikub", "--table", "k7 k8 k9 | r5 o5 b5", "--hand", "k10 J b5", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert sorted(d["placed"]) == ["J", "k10"] and d["kept"] == ["b5"] and d["value"] == 2
    assert any(m.startswith("k7 k8 k9 k10") for m in d["new_table"])


@pytest.mark.parametrize("engine", ["z3", "reference"])
def test_nothing_to_add_is_exit_1(engine):
    p = run("rummikub", "--table", "k7 k8 k9", "--hand", "r1 o13", "--engine", engine)
    assert p.returncode == 1 and "nothing from the hand" in p.stdout


def test_a_proposed_table_is_judged():
    ok = run("rummikub", "--table", "k7 k8 k9", "--hand", "k10 k6", "--new", "k6 k7 k8 k9 k10")
    assert ok.returncode == 0 and "LEGAL" in ok.stdout
    bad = run("rummikub", "--table", "k7 k8 k9", "--hand", "k10 k6", "--new", "k6 k7 k8 | k9 k10")
    assert bad.returncode == 1 and "meld 2 (k9 k10)" in bad.stdout


@pytest.mark.parametrize("args, message", [
    (["rummikub", "--table", "k7 k8 k9", "--hand", "x10"], "--hand: unknown card 'x10'"),
    (["rummikub", "--table", "k7 k8", "--hand", "k10"], "--table is not a table of valid melds: meld 1 (k7 k8)"),
    (["rummikub", "--table", "k7 k8 k9 || k1 k2 k3", "--hand", "k10"], "--table: meld 2 is empty"),
    (["tick", "--hand", "5 5"], "no shared table"),
    (["rummikub", "--table", "k7 k8 k9 | k7 k8 k9 | k7 k8 k9", "--hand", "k7"], "the deck holds only 2"),
])
def test_bad_input_is_exit_2_with_what_is_wrong(args, message):
    p = run(*args)
    assert p.returncode == 2 and message in p.stderr, p.stderr


# ---- one judgement: `play --new`, the play `play` offers and `judge` decide alike (issue 26) ----

SCENARIOS = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "rummikub"


def judge(game, scenario):
    p = subprocess.run([str(BIN), "judge", game, str(scenario), "--json"], capture_output=True, text=True, timeout=300)
    assert "Traceback" not in p.stderr
    return p


@pytest.mark.parametrize("scenario,table,hand,new,clause", [
    ("joker-locks-its-meld.yaml", "r5 J r7", "k5 o5 r8 b9", "r5 k5 o5 | J r7 r8", "joker-locks-meld"),
    ("joker-won-not-reused.yaml", "r5 J r7 | k1 k2 k3", "r6 b2", "r5 r6 r7 | k1 k2 k3 J", "joker-reuse"),
])
def test_play_new_refuses_what_judge_refuses(scenario, table, hand, new, clause):
    j = judge("rummikub", SCENARIOS / scenario)
    assert j.returncode == 1 and clause in {c["clause"] for c in json.loads(j.stdout)["clauses"]}
    p = run("rummikub", "--table", table, "--hand", hand, "--new", new, "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 1 and d["legal"] is False and clause in {c["clause"] for c in d["clauses"]}, d


def test_the_play_offered_keeps_the_wild_rules_and_says_so():
    """The most any rearrangement places takes r5 out of the run holding the joker; the play
    shown is the one the rules allow, with a note, and `play --new` judges it legal."""
    p = run("rummikub", "--table", "r5 J r7", "--hand", "k5 o5 r8", "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 0 and d["placed"] == ["r8"] and "joker-locks-meld" in d["note"]
    again = run("rummikub", "--table", "r5 J r7", "--hand", "k5 o5 r8", "--new", " | ".join(d["new_table"]))
    assert again.returncode == 0 and "LEGAL" in again.stdout


@pytest.mark.parametrize("args", [("--table", "", "--hand", "k1 k2", "--initial"),
                                  ("--table", "", "--hand", "k1 k2"),
                                  ("--table", "k1 k2 k3", "--hand", "r9")])
@pytest.mark.parametrize("engine", ["z3", "reference"])
def test_nothing_to_place_is_one_answer(args, engine):
    """Whatever the engine, nothing to place is `possible: true`, nothing placed, 0; only a
    table whose own cards are no melds is `possible: false`."""
    p = run("rummikub", *args, "--engine", engine, "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 1 and d["possible"] is True and d["placed"] == [] and d["value"] == 0, d
    assert "cannot all be laid out" not in d.get("note", "")


def test_judge_names_no_other_games_words():
    p = subprocess.run([str(BIN), "judge", "rummikub", str(SCENARIOS / "go-out-and-score.yaml")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "round 1 ended" in p.stdout and "level" not in p.stdout.lower()
