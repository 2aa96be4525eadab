"""Lines on a board of spaces: the reference decider.

A `Grid` is what a spec's `board` key describes: rows of numbered spaces (0 for a free
space with no number), how many spaces in a straight row make a line (`line`), whose
chip a free space counts as (`free`: everyone or nobody), and how many spaces two lines
of one side may have in common (`share`). A board is a tuple with one value per space,
row by row: -1 for an empty space, else the side (0, 1, ...) whose chip covers it.

Two questions, answered here by direct algorithms and in `z3lines.py` by Z3 (held equal
by tests/crosscheck/test_lines.py):

- `held(grid, board, side)`: the lines the side holds, as many as can be counted together
  (no two with more than `share` spaces in common), and so how many;
- `completing(grid, board, side, allowed)`: the spaces among `allowed` where one more chip
  of the side makes it hold more lines than it does now.

Two lines in different directions cross in one space at most, so only lines along the
same row, column or diagonal can overlap by more than one: the count is the sum, over
every such stripe, of the most windows with starts at least `line - share` apart, which
taking the earliest full window first finds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

EMPTY = -1
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))     # across, down, the two diagonals


@dataclass(frozen=True)
class Grid:
    rows: int
    cols: int
    numbers: tuple[int, ...]          # per space, 0 for a free space
    line: int
    share: int
    free_everyone: bool
    stripes: tuple[tuple[int, ...], ...]     # the spaces of every straight stripe at least `line` long
    lines: tuple[tuple[int, ...], ...]       # every window of `line` spaces on a stripe
    through: tuple[tuple[int, ...], ...]     # per space, the stripes (by index) it lies on

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def free(self, cell: int) -> bool:
        return self.numbers[cell] == 0

    def where(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def cell(self, row: int, col: int) -> int | None:
        return row * self.cols + col if 0 <= row < self.rows and 0 <= col < self.cols else None

    def spaces_of(self, number: int) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.numbers) if n == number)

    def empty_board(self) -> tuple[int, ...]:
        return (EMPTY,) * self.size


def grid(numbers: Sequence[Sequence[int]], line: int, share: int, free_everyone: bool) -> Grid:
    rows, cols = len(numbers), len(numbers[0])
    flat = tuple(int(x) for row in numbers for x in row)
    stripes = []
    for dr, dc in DIRECTIONS:
        for r in range(rows):
            for c in range(cols):
                pr, pc = r - dr, c - dc
                if 0 <= pr < rows and 0 <= pc < cols:
                    continue                       # not the start of a stripe
                cells = []
                rr, cc = r, c
                while 0 <= rr < rows and 0 <= cc < cols:
                    cells.append(rr * cols + cc)
                    rr, cc = rr + dr, cc + dc
                if len(cells) >= line:
                    stripes.append(tuple(cells))
    lines = tuple(s[i:i + line] for s in stripes for i in range(len(s) - line + 1))
    through = tuple(tuple(k for k, s in enumerate(stripes) if cell in s) for cell in range(rows * cols))
    return Grid(rows, cols, flat, line, share, free_everyone, tuple(stripes), lines, through)


def grid_of(board: Mapping) -> Grid:
    """The grid a spec's merged `board` key describes."""
    return grid(board["numbers"], int(board["line"]), int(board["share"]), board["free"] == "everyone")


def mine(g: Grid, board: Sequence[int], side: int) -> list[bool]:
    """Per space, whether it counts for the side: its chip is the side's, or it is a free
    space left empty and free spaces count for everyone."""
    fe = g.free_everyone
    return [v == side or (fe and v == EMPTY and n == 0) for v, n in zip(board, g.numbers)]


def counts_for(g: Grid, board: Sequence[int], side: int, cell: int) -> bool:
    """Whether one space counts for the side (`mine`, for one space)."""
    return mine(g, board, side)[cell]


def full(g: Grid, board: Sequence[int], side: int) -> tuple[tuple[int, ...], ...]:
    """Every line all of whose spaces count for the side."""
    ours = mine(g, board, side)
    return tuple(ln for ln in g.lines if all(ours[c] for c in ln))


def most_together(lines: Sequence[tuple[int, ...]], share: int) -> tuple[tuple[int, ...], ...]:
    """The most of these lines no two of which have more than `share` spaces in common, by
    exhaustive search (for share 0, where crossing lines exclude each other too)."""
    lines = list(lines)
    # lines that exclude no other line of their part are searched apart from other parts
    parts: list[list] = []
    left = set(range(len(lines)))
    while left:
        todo, part = [left.pop()], []
        while todo:
            i = todo.pop()
            part.append(i)
            near = {j for j in left if len(set(lines[i]).intersection(lines[j])) > share}
            left -= near
            todo += near
        parts.append(sorted(part))
    if len(parts) > 1:
        return tuple(ln for part in parts for ln in most_together([lines[i] for i in part], share))
    best: list = []

    def go(i: int, chosen: list) -> None:
        nonlocal best
        if len(chosen) + len(lines) - i <= len(best):
            return
        if i == len(lines):
            best = list(chosen)
            return
        ln = set(lines[i])
        if all(len(ln.intersection(o)) <= share for o in chosen):
            chosen.append(lines[i])
            go(i + 1, chosen)
            chosen.pop()
        go(i + 1, chosen)

    go(0, [])
    return tuple(best)


def _starts(g: Grid, stripe: tuple[int, ...], ours) -> list[int]:
    """Where the lines counted on one stripe start: the earliest full window, then the
    earliest one at least `line - share` further on, and so on. A window is full where the
    run of the side's spaces ending at its last space is `line` long."""
    step, line = max(g.line - g.share, 1), g.line
    out, run, after = [], 0, 0          # after: the first start the next line may have
    for j, c in enumerate(stripe):
        run = run + 1 if ours[c] else 0
        i = j - line + 1
        if run >= line and i >= after:
            out.append(i)
            after = i + step
    return out


def held(g: Grid, board: Sequence[int], side: int) -> tuple[tuple[int, ...], ...]:
    """The lines `side` holds, as many as count together (see the module's note)."""
    if g.share == 0:
        return most_together(full(g, board, side), 0)
    ours = mine(g, board, side)     # once per board, not per stripe
    return tuple(stripe[i:i + g.line] for stripe in g.stripes for i in _starts(g, stripe, ours))


def count(g: Grid, board: Sequence[int], side: int) -> int:
    return len(held(g, board, side))


def completing(g: Grid, board: Sequence[int], side: int, allowed) -> tuple[int, ...]:
    """The spaces of `allowed` (empty, numbered spaces) where one more chip of `side` makes it
    hold more lines than now. Where lines may share spaces (share > 0) the count is a sum
    over stripes, so a chip changes only the stripes through its space: those are counted
    again, not the whole board."""
    cells = [c for c in sorted(set(allowed)) if board[c] == EMPTY and not g.free(c)]
    if g.share == 0:
        now = count(g, board, side)
        out = []
        b = list(board)
        for c in cells:
            b[c] = side
            if count(g, b, side) > now:
                out.append(c)
            b[c] = EMPTY
        return tuple(out)
    ours = mine(g, board, side)
    per = {}
    out = []
    for c in cells:
        before = 0
        for k in g.through[c]:
            if k not in per:
                per[k] = len(_starts(g, g.stripes[k], ours))
            before += per[k]
        ours[c] = True
        after = sum(len(_starts(g, g.stripes[k], ours)) for k in g.through[c])
        ours[c] = False
        if after > before:
            out.append(c)
    return tuple(out)


def in_held(g: Grid, board: Sequence[int], side: int) -> frozenset[int]:
    """The spaces that lie on some full line of the side (counted or not): a line, once full,
    is complete whichever lines are counted with it."""
    return frozenset(c for ln in full(g, board, side) for c in ln)


def draw(g: Grid, board: Sequence[int], marks: str = "0123456789") -> list[str]:
    """The board as rows of text: '*' a free space, '.' an empty one, a side's digit its chip."""
    rows = []
    for r in range(g.rows):
        row = []
        for c in range(g.cols):
            i = r * g.cols + c
            v = board[i]
            row.append("*" if g.free(i) and v == EMPTY else "." if v == EMPTY else marks[v])
        rows.append("".join(row))
    return rows


def read(g: Grid, rows) -> tuple[int, ...] | str:
    """A board from rows of text (as `draw` writes them), or what is wrong with them."""
    if not isinstance(rows, list) or len(rows) != g.rows or not all(isinstance(x, str) for x in rows):
        return f"{g.rows} rows of {g.cols} characters ('.' empty, '*' free, a side's digit), got {rows!r}"
    out = []
    for r, text in enumerate(rows):
        if len(text) != g.cols:
            return f"row {r} has {len(text)} characters, not {g.cols}"
        for c, ch in enumerate(text):
            i = r * g.cols + c
            if ch == "*" or ch == ".":
                if (ch == "*") != g.free(i):
                    return f"row {r}, column {c}: {'*' if g.free(i) else '.'} expected ({'a free' if g.free(i) else 'a numbered'} space)"
                out.append(EMPTY)
            elif ch.isdigit():
                if g.free(i):
                    return f"row {r}, column {c}: a free space takes no chip"
                out.append(int(ch))
            else:
                return f"row {r}, column {c}: {ch!r} is neither '.', '*' nor a side's digit"
    return tuple(out)
