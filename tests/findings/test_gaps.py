"""The gap check finds the situations the rulebook leaves to assumptions, and its traces
replay from the deal."""
from __future__ import annotations

import pytest

import dataclasses

from rulings import kernel
from rulings.checks.gaps import exploration, gap_findings, replay
from rulings.kernel.codec import move_from_doc
from rulings.spec import load


@pytest.fixture(scope="module")
def gaps():
    findings, note = gap_findings(load("tick"))
    return {f.id: f for f in findings}, note


def test_every_gap_is_an_assumption_and_its_trace_replays(gaps):
    found, _ = gaps
    spec = load("tick")
    assert found, "the exploration should meet some assumption"
    for f in found.values():
        if f.id.startswith("gap:dead-end"):
            continue
        cid = f.clauses[0]
        assert spec.clauses[cid].assumption, cid
        state, bases = replay(spec, f.witness["replay"])
        if f.witness["replay"]["moves"]:
            # the last move of the trace is the one that rested on the assumption
            assert cid in {b.clause for b in bases}, (cid, f.witness["trace"][-3:])


def test_the_empty_stock_is_a_gap_reached_in_play(gaps):
    found, _ = gaps
    assert "gap:stock-empty" in found
    assert found["gap:stock-empty"].witness["trace"], "reached after some moves, not at the deal"


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
