"""How the greedy player plays on a board (the `mark`, `unmark` and `exchange` mechanics).

In order: a chip that gives its side one line more; the exchange of a card with no space
left; a chip taken off where another side is one chip from a line; otherwise the chip
that builds most, valued over every line through its space that no other side blocks
(4 to the power of the side's chips already on it) plus what it blocks of the others
(3 to the power of theirs). A card that may go anywhere, or take a chip off, is kept back
unless it does much more than the best ordinary card.
"""
from __future__ import annotations

from . import kernel, lines as L
from .kernel.mechanics import board as B

KEEP_BACK_MARGIN = 4 ** 3         # what a card kept back must beat by


def _through(g: L.Grid) -> list[list[tuple[int, ...]]]:
    out: list[list[tuple[int, ...]]] = [[] for _ in range(g.size)]
    for ln in g.lines:
        for c in ln:
            out[c].append(ln)
    return out


_cache: dict = {}


def _lines_through(g: L.Grid):
    key = id(g)
    hit = _cache.get(key)
    if hit is None or hit[0] is not g:
        hit = _cache[key] = (g, _through(g))
    return hit[1]


def worth(g: L.Grid, board, side: int, cell: int) -> int:
    """How much a chip of `side` on `cell` builds and blocks."""
    total = 0
    for ln in _lines_through(g)[cell]:
        own, others = 0, set()
        for c in ln:
            if c == cell:
                continue
            v = board[c]
            if v == side or (v == L.EMPTY and g.free(c) and g.free_everyone):
                own += 1
            elif v != L.EMPTY:
                others.add(v)
        if not others:
            total += 4 ** own
        elif len(others) == 1 and own == 0:
            n = sum(1 for c in ln if board[c] in others)
            total += 3 ** n
    return total


def threat(g: L.Grid, board, side: int, cell: int) -> int:
    """How near the side owning `cell` is to one line more through it: the most of its chips
    on a line through the cell with every other space its own or empty (4 is one chip away)."""
    best = 0
    ours = L.mine(g, board, side)
    for ln in _lines_through(g)[cell]:
        if all(board[c] in (side, L.EMPTY) or (g.free(c) and g.free_everyone) for c in ln):
            best = max(best, sum(1 for c in ln if ours[c]))
    return best


def choose(state, moves):
    r = kernel.rules(state.spec)
    g = B.grid(state.spec)
    z = B.board_zone(state.spec)
    board = state.zone(z.id)
    me = B.side_of(state, state.current)
    marks = [m for m in moves if r.moves[m.id].mechanic == "mark"]
    gaining = set(B.completing_now(state)) if marks else set()
    win = [m for m in marks if B.cell_of(m.arg) in gaining]
    if win:
        return min(win, key=lambda m: ("card" in r.moves[m.id].f, B.cell_of(m.arg)))
    swaps = [m for m in moves if r.moves[m.id].mechanic == "exchange"]
    if swaps:
        return swaps[0]
    takes = [m for m in moves if r.moves[m.id].mechanic == "unmark"]
    if takes:
        best = max(takes, key=lambda m: (threat(g, board, board[m.arg], m.arg), -m.arg))
        if threat(g, board, board[best.arg], best.arg) >= g.line - 1 or not marks:
            return best
    if marks:
        def value(m):
            v = worth(g, board, me, B.cell_of(m.arg))
            return v - KEEP_BACK_MARGIN if "card" in r.moves[m.id].f else v
        return max(marks, key=lambda m: (value(m), -B.cell_of(m.arg)))
    return moves[0]
