"""The commands test_fuzz_cli.py does not reach, fuzzed in-process: `play` (tables and hands
for every game, with or without a table), `judge` of every game's worked scenarios made
hostile, `simulate` with any options, and `faq --questions` with hostile questions files.
Whatever goes in, rulings answers with a documented exit code and no traceback
(hostile.invoke), and the answer agrees with what went in. Examples per test come from
the Hypothesis profile (tests/conftest.py); the slower commands take a share of them."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings, strategies as st

from rulings import scenario as sc
from rulings.spec import load

from .hostile import FAQ_GAMES, GAMES, card_tokens, hostile_questions, hostile_scenarios, invoke, numbers, words

VERDICT_CODES = {"legal": 0, "illegal": 1, "undecided": 4}
# the games whose spec has a shared table of melds (`play` answers for them, refuses the others)
TABLE_GAMES = tuple(g for g in GAMES if "any" in load(g).contracts and load(g).contracts["any"].extras)
SHARE = max(1, settings.default.max_examples // 8)      # 50 in CI: each example runs a whole command


def written(content: bytes, suffix: str = ".yaml") -> Path:
    path = Path(tempfile.mkdtemp(prefix="rulings-fuzz-")) / f"hostile{suffix}"
    path.write_bytes(content)
    return path


# ---- play -------------------------------------------------------------------------------------

@st.composite
def tables(draw, game: str) -> str:
    """A table as `--table` takes it: melds of the game's tokens between '|', now and then
    an empty meld, a stray '|' or something that is no token."""
    melds = draw(st.lists(card_tokens(game, most=5), max_size=4))
    text = " | ".join(" ".join(m) for m in melds)
    return draw(st.sampled_from([text, text, text, text + " |", "| " + text, text.replace(" ", ",")]))


@given(st.data())
@settings(max_examples=SHARE)
def test_play(data):
    game = data.draw(st.sampled_from([*GAMES, "nonesuch"]))
    args = ["play", game, "--hand", " ".join(data.draw(card_tokens(game, most=8)))]
    if data.draw(st.booleans()):
        args += ["--table", data.draw(tables(game))]
    if data.draw(st.integers(0, 4)) == 0:
        args += ["--new", data.draw(tables(game))]
    if data.draw(st.booleans()):
        args += ["--by", data.draw(st.sampled_from(["cards", "points", "cards", "nonsense"]))]
    if data.draw(st.integers(0, 3)) == 0:
        args += ["--initial"]
    args += ["--engine", "reference"] if data.draw(st.integers(0, 3)) else ["--engine", data.draw(st.sampled_from(
        ["z3", "nonsense"]))]
    if data.draw(st.booleans()):
        args += ["--json"]
    result = invoke(args)
    options_taken = "nonsense" not in args
    if game in GAMES and game not in TABLE_GAMES and options_taken:
        assert result.exit_code == 2 and "no shared table" in result.stderr, result.output
    if result.exit_code == 1 and "--new" in args and "--json" in args:
        answer = json.loads(result.stdout)
        assert answer["legal"] is False and answer["why"], answer
    assert "the rules it breaks: )" not in result.output


# ---- judge, game by game ------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@given(case=st.data())
@settings(max_examples=SHARE)
def test_judge_every_game(game, case):
    """Each game's worked scenarios made hostile (numbers past every bound among the wrong
    values): a verdict, or exit 2 naming what is wrong; an illegal verdict names the rules
    it breaks."""
    _, content = case.draw(hostile_scenarios(game))
    path = written(content)
    result = invoke(["judge", game, str(path), "--json"])
    try:
        verdict = sc.judge(sc.load(path, load(game))).verdict
    except sc.ScenarioError as e:
        assert result.exit_code == 2 and "the scenario cannot be judged" in result.stderr, result.output
        assert all(p.strip() for p in e.problems)
        return
    assert result.exit_code == VERDICT_CODES[verdict], result.output
    answer = json.loads(result.stdout)
    if verdict == "illegal":
        assert answer["clauses"] and all(c["clause"] for c in answer["clauses"]), answer


# ---- simulate -----------------------------------------------------------------------------------

@st.composite
def simulate_args(draw) -> list[str]:
    """simulate, mostly as a user would ask it and small enough to play at once: a few
    games of few moves, in this process; and now and then an option out of range (no
    games, a billion games, players the game does not take, workers of no number)."""
    rnd = draw(st.randoms(use_true_random=True))

    def sometimes(good, bad, odds=0.15):
        return draw(bad if rnd.random() < odds else good)

    game = sometimes(st.sampled_from(GAMES), words, 0.05)
    args = ["simulate", game, "--players", sometimes(st.integers(2, 4).map(str), numbers)]
    args += ["--games", sometimes(st.integers(1, 2).map(str), st.sampled_from(
        ["0", "-1", "1000001", "100000000", str(10 ** 30), "x"]))]
    args += ["--max-moves", sometimes(st.integers(1, 150).map(str), st.sampled_from(
        ["0", "-5", "100000001", str(10 ** 30), "many"]))]
    if rnd.random() < 0.5:
        args += ["--seed", draw(st.one_of(st.integers(-10, 10 ** 6).map(str), numbers))]
    if rnd.random() < 0.3:
        args += ["--player", sometimes(st.sampled_from(["greedy", "random"]), words)]
    if game in GAMES and rnd.random() < 0.2:
        from .hostile import readings_of

        args += ["--reading", sometimes(st.sampled_from(readings_of(game) or ("x=y",)), words)]
    args += ["--workers", sometimes(st.just("1"), st.sampled_from(["0", "-3", "x", ""]), 0.1)]
    if rnd.random() < 0.1:
        args += draw(st.sampled_from([["--executor", "nonsense"], ["--scheduler", "tcp://127.0.0.1:9"],
                                      ["--scheduler", "nonsense"]]))
    if rnd.random() < 0.3:
        args += ["--json"]
    return args


@given(simulate_args())
@settings(max_examples=SHARE)
def test_simulate(args):
    result = invoke(args)
    games = args[args.index("--games") + 1]
    if games.lstrip("-").isdigit() and not 1 <= int(games) <= 1_000_000:
        assert result.exit_code == 2, result.output
    if result.exit_code == 0 and "--json" in args:
        report = json.loads(result.stdout)
        assert report["games"] == int(games)
        assert report["finished"] + report["unfinished"] + sum(report["undecided"].values()) == int(games)


# ---- faq --questions ----------------------------------------------------------------------------

@given(hostile_questions(), st.sampled_from(["md", "json", "html"]))
@settings(max_examples=SHARE)
def test_faq_questions(case, fmt):
    """Questions files made hostile: answered (exit 0) or refused with exit 2, never a bug.
    The checks the answers link to are left out (they take half a minute and do not read
    the questions): the links then go unresolved, which the FAQ says as a warning."""
    game, content = case
    path = written(content)
    with mock.patch("rulings.checks.faq.build.check_findings", lambda spec: {}):
        result = invoke(["faq", game, "--questions", str(path), "--format", fmt])
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert result.stderr.startswith("rulings: "), result.stderr
    assert game in FAQ_GAMES
