"""Witnesses a person can read: move situations made small, the contradicted clause named."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulings import kernel
from rulings.checks.conformance import cases, conform, report as conform_report, neutral, witness
from rulings.checks.conformance.adapters import load_python

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


# ---- every zone kind (issue 26, item 3) --------------------------------------------------------

def _garbage_planted():
    import importlib.util

    mod_spec = importlib.util.spec_from_file_location("garbage_faithful", EXAMPLES / "garbage_faithful.py")
    mod = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(mod)
    return mod.planted()


def test_a_game_without_hands_is_made_small():
    """Garbage's players hold layouts and piles, no hand: a wrong answer of the planted
    example is made small (fewer seats, shorter piles, shorter layouts with the counter that
    sizes them), every step a situation of the game, and the text says what it came to."""
    from rulings.checks.conformance.adapters import PythonAdapter
    from rulings.spec import load

    spec = load("garbage")
    r = kernel.rules(spec)
    states, _ = cases.seeded_game(spec, 2, max_moves=200)
    st = next(s for s in states if s.players > 2 and s.phase == "placing" and not s.over)
    assert witness.smaller(st) and all(c.players <= st.players for c in witness.smaller(st))
    lay = next(z for z in r.zones.values() if z.kind == "layout")
    shorter = [c for c in witness.smaller(st) if len(c.zone(lay.id, 0)) < len(st.zone(lay.id, 0))]
    sized = r.get("deal.cards_each")
    assert shorter and all(c.counter(sized, 0) == len(c.zone(lay.id, 0)) for c in shorter)
    adapter = PythonAdapter(_garbage_planted())
    report = conform.conform(spec, adapter, {name: {"cases": []} for name in ("melds.json", "best_lay.json",
                                                                             "moves.json", "scores.json",
                                                                             "games.json", "manifest.json")},
                             150, 1)
    found = [d for d in report.divergences if d.outcome.status == "fail"]
    assert found and all(not d.outcome.extra.get("not_shrunk") for d in found)
    small = [d.outcome for d in found if d.outcome.extra.get("shrunk")]
    assert small and all(o.extra["shrunk"]["to"][1] < o.extra["shrunk"]["from"][1] for o in small)
    text = conform_report.text(report)
    assert "made small:" in text
    assert f"seat {small[0].situation['state']['to_play']} holds {lay.id} " in conform_report.describe(small[0].situation)


def test_a_board_is_shown_in_the_situation():
    from rulings.spec import load

    spec = load("sequence-numbers")
    st = cases.situation(spec, cases.RandomChooser("board"))
    text = conform_report.describe({"state": neutral.state_to_neutral(st), "move": {"draw": "stock"}})
    board = neutral.state_to_neutral(st)[next(z.id for z in kernel.rules(spec).zones.values() if z.kind == "board")]
    assert all(f"  {row}" in text for row in board)


def test_an_error_while_shrinking_or_blaming_is_in_the_text(spec, docs, monkeypatch):
    """Making a witness small and blaming a clause are helps: when either fails the run
    goes on, and the text report says so beside the witness (not only --json)."""
    def broken(*a, **k):
        raise RuntimeError("shrinking broke")

    monkeypatch.setattr(witness, "shrink_move", broken)
    monkeypatch.setattr(witness, "contradicted", broken)
    # the move vectors alone, so that the wrong answers the text shows first are moves (the
    # planted meld errors would fill its first dozen, and cards are made small another way)
    moves_only = {k: ({**d, "cases": []} if k in ("melds.json", "best_lay.json") else d) for k, d in docs.items()}
    report = conform.conform(spec, load_python(f"{EXAMPLES / 'tick_planted.py'}:factory"), moves_only, 0, 0)
    text = conform_report.text(report)
    assert "NOT made small: making the witness small failed (RuntimeError: shrinking broke)" in text
    assert "NOT blamed: setting the answer beside the spec's mutants failed (RuntimeError: shrinking broke)" in text
