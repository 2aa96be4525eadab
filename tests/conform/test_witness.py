"""Witnesses a person can read: move situations made small, the contradicted clause named."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulings import kernel
from rulings.checks import cases, conform, conform_report, neutral, witness
from rulings.checks.adapters import load_python

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def planted_report(spec, docs):
    impl = load_python(f"{EXAMPLES / 'tick_planted.py'}:factory")
    return conform.conform(spec, impl, docs, 0, 0)


def test_shrinking_keeps_the_property_and_cuts_the_situation(spec):
    """On a late state of a seeded game, shrinking for 'the move stays legal' ends on a
    smaller situation on which it still is."""
    states, moves = cases.seeded_game(spec, 2)
    k = len(moves) // 2
    state, move = states[k], moves[k]
    assert not isinstance(kernel.apply(state, move), kernel.Refusal)

    def legal(cand):
        return not isinstance(kernel.apply(cand, move), kernel.Refusal)

    small, asked = witness.shrink_move(spec, state, move, legal)
    before = witness.size(neutral.state_to_neutral(state))
    after = witness.size(neutral.state_to_neutral(small))
    assert asked > 0 and after[1] < before[1] and after[0] <= before[0] and after[2] <= before[2]
    assert legal(small)
    neutral.state_from_neutral(spec, neutral.state_to_neutral(small))     # still a situation of the game


def test_fewer_players_keep_the_mover(spec):
    ch = cases.RandomChooser("seats")
    st = next(s for s in (cases.situation(spec, ch) for _ in range(200)) if s.players > 3)
    cut = witness._without_seat(st, (st.current + 1) % st.players)
    assert cut.players == st.players - 1 and cut.hand() == st.hand()


def test_planted_witnesses_are_small_and_still_wrong(planted_report):
    shrunk = [o for o in planted_report.problems if o.extra.get("shrunk")]
    assert shrunk, "no witness was made smaller"
    for o in shrunk:
        a, b = o.extra["shrunk"]["from"], o.extra["shrunk"]["to"]
        assert o.status == "fail" and b[1] <= a[1] and b[0] <= a[0] and b[2] <= a[2] and b != a
    families = {o.family for o in shrunk}
    assert families & {"move", "game"} and "score" in families, families


def test_a_wrong_meld_answer_is_made_small(spec):
    """A hand the planted adapter wrongly lets through, padded with a set that changes
    nothing, comes back without the padding."""
    impl = load_python(f"{EXAMPLES / 'tick_planted.py'}:factory")
    out = conform._ask_cards(spec, impl, "meld", "padded", ["5", "SW", "SW", "BW", "7", "7", "7"], "level 3")
    assert out.status == "fail"
    small = conform._shrunk_cards(spec, impl, out)
    assert small.status == "fail" and sorted(small.situation["cards"]) == sorted(["5", "SW", "SW", "BW"])
    assert small.extra["shrunk"]["to"][1] == 4 < small.extra["shrunk"]["from"][1] == 7


def test_the_contradicted_clause_is_named(planted_report, spec):
    blamed = {b["clause"] for o in planted_report.problems for b in o.extra.get("contradicts", [])}
    # two of the planted errors are what the spec says under another reading / without a clause
    assert "wild-limit" in blamed and "go-out-timing" in blamed
    text = conform_report.text(planted_report)
    assert "the implementation answers as the spec would with: " in text and "made small:" in text


def test_descriptions_give_the_deciding_facts(spec):
    r = kernel.rules(spec)
    ch = cases.RandomChooser("facts")
    st = next(s for s in (cases.situation(spec, ch) for _ in range(50)) if s.players >= 3)
    text = conform_report.describe({"state": neutral.state_to_neutral(st), "move": {"discard": "5"}})
    assert "the others hold: " in text
    for i in r.inputs:
        assert f" {i} " in text
