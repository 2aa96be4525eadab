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
