"""The board questions (checks/search/board_questions.py) find what the Sequence Numbers text leaves
open, each with a witness the kernel replays."""
from __future__ import annotations

import pytest

from rulings import kernel, lines as L
from rulings.checks.search.board_questions import board_findings
from rulings.kernel.mechanics import board as B
from rulings.kernel import codec
from rulings.spec import load

SPEC = load("sequence-numbers")


@pytest.fixture(scope="module")
def found():
    return {f.id: f for f in board_findings(SPEC)}


def test_no_board_no_findings():
    assert board_findings(load("tick")) == []


def test_shared_spaces_reading_has_a_witness(found):
    f = found["reading:second-sequence:shared-spaces"]
    assert f.resolved and "one-space counts 1, any-spaces counts 2" in f.verdict
    rows = f.witness["boards"]["overlap 1"]
    g = B.grid(SPEC)
    board = L.read(g, rows)
    assert L.count(g, board, 0) == 2                        # nine in a row: two lines sharing one chip
    assert L.count(B.grid(SPEC.with_readings({"second-sequence": "any-spaces"})), board, 0) == 5


def test_free_space_counts_for_two_sides(found):
    f = found["gap:corner-spaces:free-space-shared"]
    g = B.grid(SPEC)
    board = L.read(g, f.witness["board"])
    assert L.count(g, board, 0) == 1 and L.count(g, board, 1) == 1


def test_unmark_of_an_unfinished_line_replays_legal(found):
    f = found["gap:uncover:unfinished-line"]
    assert f.witness["legal"] is True
    doc = f.witness["scenario"]
    st = codec.state_from_doc(SPEC, doc)
    after = kernel.apply(st, codec.move_from_doc(SPEC, doc["move"]))
    assert not isinstance(after, kernel.Refusal)


def test_dead_replacement_is_an_unresolved_gap(found):
    f = found["gap:swap_dead:replacement-dead"]
    assert not f.resolved and f.witness["question"]
    doc = f.witness["scenario"]
    st = codec.state_from_doc(SPEC, doc)
    first, second = (codec.move_from_doc(SPEC, m) for m in doc["moves"])
    mid = kernel.apply(st, first)
    assert not isinstance(mid, kernel.Refusal)
    assert isinstance(kernel.apply(mid, second), kernel.Refusal)
    # the text leaves the stuck player open; the spec's named assumption is all that is offered
    offered = kernel.legal_moves(mid)
    clauses = {kernel.rules(SPEC).moves[m.id].clause for m in offered}
    assert offered and clauses == set(f.witness["assumed"]) and "no-playable-card" in clauses
    assert all(SPEC.clauses[c].assumption for c in clauses)


def test_team_orders(found):
    f = found["reading:teams-of-six:side-order-6"]
    assert f.witness["sides by seat"] == {"two-teams": "ABABAB", "three-teams": "ABCABC"}
    assert found["reading:teams-of-five:side-order-5"].witness["sides by seat"] == {
        "three-against-two": "ABABA", "three-teams": "ABCAB", "each-alone": "ABCDE"}
