"""rulings.lines: the grid a board key describes, lines on it, and boards as rows of text."""
from __future__ import annotations

from rulings import lines as L

NUMBERS = [[0, 1, 2, 3, 4, 5, 0], [6, 7, 8, 9, 10, 11, 12], [0, 12, 11, 10, 9, 8, 0]]


def test_lines_of_a_small_grid():
    g = L.grid(NUMBERS, 3, 1, True)
    # across: 3 rows of 7 give 5 windows each; down: 7 columns of 3 give 1 each; 5 + 5 diagonals of 3
    assert len(g.lines) == 15 + 7 + 5 + 5
    assert g.spaces_of(12) == (13, 15)


def test_held_counts_free_spaces_and_sharing():
    g = L.grid(NUMBERS, 3, 1, True)
    board = list(g.empty_board())
    board[1] = board[2] = 0                      # with the free corner: one line for side 0
    assert L.count(g, board, 0) == 1 and L.count(g, board, 1) == 0
    board[3] = board[4] = 0                      # 0 1 2 3 4 in the top row: two lines sharing one space
    assert L.count(g, board, 0) == 2
    nobody = L.grid(NUMBERS, 3, 1, False)
    assert L.count(nobody, board, 0) == 1        # without the free corner: 1 2 3, then 3 4 5 would need 5


def test_completing_and_in_held():
    g = L.grid(NUMBERS, 3, 1, True)
    board = list(g.empty_board())
    board[1] = 1
    # beside it (0 1 2 with the corner), and the middle of either end column, between two free corners
    assert L.completing(g, board, 1, range(g.size)) == (2, 7, 13)
    board[2] = 1
    assert L.in_held(g, board, 1) == frozenset({0, 1, 2})


def test_read_and_draw_round_trip_and_errors():
    g = L.grid(NUMBERS, 3, 1, True)
    board = list(g.empty_board())
    board[8] = 2
    rows = L.draw(g, board)
    assert rows == ["*.....*", ".2.....", "*.....*"]
    assert L.read(g, rows) == tuple(board)
    assert "3 rows" in L.read(g, rows[:2])
    assert "free space takes no chip" in L.read(g, ["0.....*"] + rows[1:])
    assert "neither" in L.read(g, ["*..x..*"] + rows[1:])
