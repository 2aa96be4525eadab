"""The gap check finds the situations the rulebook leaves to assumptions, and its traces
replay from the deal."""
from __future__ import annotations

import pytest

import dataclasses

from rulings import kernel
from rulings.checks.search.gaps import exploration, gap_findings, replay
from rulings.kernel.codec import move_from_doc
from rulings.spec import SpecErrors, load


@pytest.fixture(scope="module")
def gaps():
    findings, note = gap_findings(load("tick"))
    return {f.id: f for f in findings}, note


def test_every_finding_of_the_shipped_spec_is_an_assumption_and_its_trace_replays(gaps):
    found, _ = gaps
    spec = load("tick")
    assert found, "the exploration should meet some assumption"
    for f in found.values():
        assert f.kind == "assumed" and f.id.startswith("assumed:") and f.resolved, f.id
        cid = f.clauses[0]
        assert spec.clauses[cid].assumption, cid
        state, bases = replay(spec, f.witness["replay"])
        if f.witness["replay"]["moves"]:
            # the last move of the trace is the one that rested on the assumption
            assert cid in {b.clause for b in bases}, (cid, f.witness["trace"][-3:])


def test_the_empty_stock_is_a_gap_reached_in_play(gaps):
    found, _ = gaps
    assert "assumed:stock-empty" in found
    assert found["assumed:stock-empty"].witness["trace"], "reached after some moves, not at the deal"


def test_no_dead_ends_with_the_shipped_spec(gaps):
    found, _ = gaps
    assert not [f for f in found.values() if not f.resolved]


def test_readings_that_change_an_outcome_in_play_are_recorded():
    spec = load("tick")
    ex = exploration(spec)
    for (cid, other), hit in ex["differs"].items():
        assert other in spec.clauses[cid].readings and other != spec.chosen[cid]
        state = kernel.new_game(spec, hit["players"], hit["seed"])
        for m in hit["moves"][:-1]:
            state = kernel.apply(state, move_from_doc(spec, m))
        last = move_from_doc(spec, hit["moves"][-1]) if hit["moves"] else None
        if last is None:
            continue
        mine = kernel.apply(state, last)
        theirs = kernel.apply(dataclasses.replace(state, spec=load("tick", {cid: other})), last)
        assert (isinstance(mine, kernel.Refusal), mine if not isinstance(mine, kernel.Refusal) else None) != \
            (isinstance(theirs, kernel.Refusal), theirs if not isinstance(theirs, kernel.Refusal) else None), (cid, other)


# ---- gaps are discovered: a clause removed from a copy of a spec --------------------------

def _without(tmp_path, game: str, cid: str):
    from tests.unit.test_kernel_spec import _data, _write

    data = _data(game)
    del data["clauses"][cid]
    try:
        return load(str(_write(tmp_path, data, f"{game}-without-{cid}")))
    except SpecErrors:
        return None


def _undecided_in_play(spec, seeds=(0, 1), max_moves=400):
    """The question the kernel raises when a few seeded games are played (None: they play)."""
    from rulings import players as agents

    try:
        n = kernel.rules(spec).players_range()[0]
    except kernel.Undecided as e:
        return e
    for seed in seeds:
        try:
            state = kernel.new_game(spec, n, seed)
            seats = [agents.RandomPlayer(seed * 7 + i) for i in range(n)]
            for _ in range(max_moves):
                if state.over:
                    break
                state = kernel.apply(state, seats[state.current].choose(state))
        except kernel.Undecided as e:
            return e
    return None


@pytest.mark.parametrize("game", ["tick", "level8"])
def test_removing_a_deciding_clause_is_an_unresolved_gap_with_its_trace(game, tmp_path):
    from tests.unit.test_kernel_spec import _data

    deciding = 0
    for cid in _data(game)["clauses"]:
        spec = _without(tmp_path, game, cid)
        if spec is None:                      # a validation error names what is missing (test_kernel_spec)
            continue
        asked = _undecided_in_play(spec)
        if asked is None:                     # a permissive clause: play goes on without it
            continue
        deciding += 1
        findings, _ = gap_findings(spec, games_per_config=1, max_moves=400)
        open_ = [f for f in findings if f.kind == "gap" and not f.resolved]
        assert open_, f"without {cid} the kernel asks {asked.question!r}, and the gap check reports nothing"
        played = [f for f in open_ if f.witness.get("replay") is not None]
        if not played:                         # nothing can be set up: said at the deal
            assert all("set up" in f.verdict or "did not reach" in f.verdict for f in open_), (cid, open_)
            continue
        for f in played:                       # the trace replays from the deal to the question
            w = f.witness["replay"]
            state = kernel.new_game(spec, w["players"], w["seed"]) if w["moves"] else None
            with pytest.raises(kernel.Undecided):
                if state is None:
                    kernel.new_game(spec, w["players"], w["seed"])
                for m in w["moves"]:
                    state = kernel.apply(state, move_from_doc(spec, m))
                    assert not isinstance(state, kernel.Refusal), (cid, state)
                kernel.legal_moves(state)      # the question may come when the moves are listed
                raise AssertionError(f"without {cid}, the gap's trace replays without reaching the question")
    assert deciding >= 3, f"{game}: too few deciding clauses exercised ({deciding})"


def test_silence_is_claimed_only_where_no_cited_line_decides(gaps):
    """An assumption that only gives a fact of the table (whether the dealer picked the
    exact deal) is no silence: the clause that reads the fact cites the lines deciding
    what follows. Every other assumption reached is silent, saying what decided it."""
    found, _ = gaps
    spec = load("tick")
    for f in found.values():
        cid = f.clauses[0]
        inputs_only = set(spec.formal(cid)) == {"inputs"}
        if inputs_only:
            assert "not a silence" in f.verdict and "silent" not in f.verdict, f.verdict
            rules = f.clauses[1:]
            assert rules and all(spec.clauses[r].source for r in rules)
            assert all(s in f.verdict for r in rules for s in spec.clauses[r].source)
        else:
            assert "silent" in f.verdict and cid in f.verdict, f.verdict
    assert any(set(spec.formal(f.clauses[0])) == {"inputs"} for f in found.values()), \
        "the exploration should reach the dealer's exact deal"
