"""Lines on a board, decided two ways: the reference (rulings.lines) and Z3 from the spec
(rulings.z3lines), held equal by Hypothesis on random boards and hands, with an exhaustive
search as a third opinion on the count."""
from __future__ import annotations

from hypothesis import assume, given, strategies as st

from rulings import lines as L, z3lines
from rulings.kernel.mechanics import board as B
from rulings.spec import load

SPEC = load("sequence-numbers")
G = B.grid(SPEC)
Z = z3lines.from_spec(SPEC)
NUMBERED = [i for i in range(G.size) if not G.free(i)]


@st.composite
def boards(draw, sides: int = 3):
    """A board with some chips scattered (35 at most) and a few lines of
    one side laid on purpose (so counts, overlaps and corners come up). Crowded boards
    make the Z3 count slow to prove (see z3lines), so the scatter stays sparse."""
    chips = draw(st.dictionaries(st.integers(0, G.size - 1), st.integers(0, sides - 1), max_size=35))
    board = [L.EMPTY if G.free(i) or i not in chips else chips[i] for i in range(G.size)]
    for j, side in draw(st.lists(st.tuples(st.integers(0, len(G.lines) - 1), st.integers(0, sides - 1)),
                                 max_size=4)):
        for c in G.lines[j]:
            if not G.free(c):
                board[c] = side
    return tuple(board)


@given(boards(), st.integers(0, 2))
def test_count_agrees(board, side):
    ref = L.held(G, board, side)
    assert Z.count(board, side) == len(ref)
    assert len(L.most_together(L.full(G, board, side), G.share)) == len(ref)
    # every counted line is full for the side, and no two share more than the clause allows
    for i, a in enumerate(ref):
        assert all(L.counts_for(G, board, side, c) for c in a)
        for b in ref[i + 1:]:
            assert len(set(a) & set(b)) <= G.share


@given(boards(sides=2), st.integers(0, 1), st.sets(st.integers(1, 48), max_size=6), st.booleans())
def test_completing_agrees(board, side, numbers, anywhere):
    allowed = [i for i in NUMBERED if anywhere or G.numbers[i] in numbers]
    ref = L.completing(G, board, side, allowed)
    assert Z.completing(board, side, numbers, anywhere) == ref
    for c in ref:                                    # and each answer is a real gain
        b = list(board)
        b[c] = side
        assert L.count(G, b, side) == L.count(G, board, side) + 1 or L.count(G, b, side) > L.count(G, board, side)


@given(boards(), st.integers(0, 2), st.integers(0, 4))
def test_other_shares_agree(board, side, share):
    g = L.grid([list(G.numbers[r * G.cols:(r + 1) * G.cols]) for r in range(G.rows)], G.line, share, G.free_everyone)
    assume(share > 0 or len(L.full(g, board, side)) <= 16)     # share 0: the exhaustive search is exponential
    assert len(L.held(g, board, side)) == len(L.most_together(L.full(g, board, side), share))


def test_corners_count_for_everyone():
    board = list(G.empty_board())
    for c in range(1, 5):                             # the top row beside the corner
        board[c] = 1
    assert L.count(G, board, 1) == 1 and Z.count(board, 1) == 1
    assert L.count(G, board, 0) == 0 and Z.count(board, 0) == 0
    board2 = list(board)
    for r in range(1, 5):                             # the left column under the same corner, other side
        board2[r * G.cols] = 0
    assert L.count(G, board2, 0) == 1 and L.count(G, board2, 1) == 1 and Z.count(board2, 0) == 1


def test_why_not_names_clauses():
    board = list(G.empty_board())
    for c in range(1, 4):
        board[c] = 0
    cell = 4                                          # (0, 4) completes the line with the corner
    assert Z.completing(board, 0, {G.numbers[cell]}, False) == (cell,)
    why = Z.why_not(board, 0, cell, set(), False)     # no card for it
    assert why and set(why) <= {SPEC.kernel_rules.clause(f"board.{k}") for k in ("numbers", "line", "share", "free")} | {
        ", ".join(sorted({m.clause for m in SPEC.kernel_rules.moves.values() if m.mechanic == "mark"}))}
