"""Board-shaped cases for the conformance questions (checks/conformance/cases.py asks them of any game
with a board zone): boards built from choices, and moves of the board mechanics at spaces
chosen where the rules have something to say.

A board from choices (the simplest: empty): a few straight lines of one side, each full,
one space short, or with one space held by another side; a few chips anywhere; the cards of
the mover's hand whose every space is covered (what the exchange move asks about). The
state is never one whose game is already over: a line that would end it loses a chip.

A move from choices: one the kernel offers; the move at any space (for a move matching a
card's number, with a card of the hand); at a space of a full line (what protection
forbids taking); at a free space.
"""
from __future__ import annotations

from rulings import kernel, lines as L
from rulings.kernel import Move
from rulings.kernel.mechanics import board
from rulings.kernel.rules import Undecided


def _sides(spec, n: int) -> int:
    try:
        return max(board.sides(spec, n)) + 1
    except Undecided:
        return 1


def build(spec, ch, n: int, hand) -> tuple[int, ...]:
    """A board zone's value from choices, for n players and the mover's `hand` (counts)."""
    g = board.grid(spec)
    sides = _sides(spec, n)
    b = list(g.empty_board())
    numbered = [i for i in range(g.size) if not g.free(i)]
    for _ in range(ch.integer(0, 3)):
        ln = g.lines[ch.integer(0, len(g.lines) - 1)]
        side, kind = ch.integer(0, sides - 1), ch.integer(0, 2)    # full, one short, one of another side
        cells = [c for c in ln if not g.free(c)]
        for c in cells:
            b[c] = side
        if kind and cells:
            b[ch.choice(cells)] = L.EMPTY if kind == 1 or sides == 1 else (side + 1) % sides
    for _ in range(ch.integer(0, 12)):
        b[ch.choice(numbered)] = ch.integer(-1, sides - 1)
    marks = [m for m in kernel.rules(spec).moves.values() if m.mechanic == "mark" and "match" in m.f]
    held = [t for t, k in enumerate(hand) if k]
    for _ in range(ch.integer(0, 2) if marks and held else 0):     # a card of the hand left no space
        t = spec.cards.types[ch.choice(held)]
        want = t.attrs.get(marks[0].f["match"]) if t.natural else None
        for c in g.spaces_of(want) if want else ():
            if b[c] == L.EMPTY:
                b[c] = ch.integer(0, sides - 1)
    return tuple(b)


def named_cards(spec, ch, hand: list[int], deck: list[int]) -> list[int]:
    """The mover's hand (counts), with one more of each card a board move names (a token
    that marks any space or unmarks a chip), by choice, as far as the deck holds them."""
    hand = list(hand)
    for m in kernel.rules(spec).moves.values():
        if m.mechanic in board.MECHANICS and "card" in m.f:
            t = spec.cards.by_token()[str(m.f["card"]).upper()].index
            if hand[t] < deck[t] and ch.boolean():
                hand[t] += 1
    return hand


def not_over(state: kernel.State) -> kernel.State:
    """The state with chips taken off full lines until no side has already won."""
    z = board.board_zone(state.spec)
    g = board.grid(state.spec)
    from rulings.kernel.flow import game_over_at_once

    while game_over_at_once(state).over:
        b = list(state.zone(z.id))
        side = next(v for v in b if v != L.EMPTY and L.held(g, b, v))
        ln = L.held(g, b, side)[0]
        b[next(c for c in ln if not g.free(c))] = L.EMPTY
        state = state.with_zone(z.id, tuple(b))
    return state


def move(spec, state: kernel.State, decl, ch, hand: list[int]) -> Move:
    """A move of a board mechanic to ask about (see the module's note)."""
    g = board.grid(spec)
    kind = ch.integer(0, 3)
    if kind == 0:
        try:
            offered = [m for m in kernel.legal_moves(state) if m.id == decl.id]
        except Undecided:
            offered = []
        if offered:
            return ch.choice(offered)
    if decl.mechanic == "exchange":
        return Move(decl.id, ch.choice(hand) if hand else spec.cards.naturals[0].index)
    z = state.zone(board.board_zone(spec).id)
    if kind == 1 and decl.mechanic == "mark" and "card" in decl.f:     # any space is what kind 0 offers
        kind = 2
    if kind == 2 and decl.mechanic == "mark":      # a space that completes a line of the mover's side
        side = board.side_of(state, state.current)
        done = L.completing(g, z, side, [i for i in range(g.size) if z[i] == L.EMPTY and not g.free(i)])
        cell = ch.choice(done) if done else ch.integer(0, g.size - 1)
        if "match" in decl.f:
            fits = [t for t in hand if spec.cards.types[t].natural
                    and spec.cards.types[t].attrs.get(decl.f["match"]) == g.numbers[cell]]
            return Move(decl.id, board.CardAt(ch.choice(fits or hand or [spec.cards.naturals[0].index]), cell))
    elif kind == 2 or (kind == 1 and decl.mechanic == "unmark"):     # a chip to take: any space is mostly empty
        others = {v for v in z if v != L.EMPTY} - ({board.side_of(state, state.current)} if decl.mechanic == "unmark"
                                                    else set())     # a chip to take: another side's
        full = sorted({c for v in others for c in L.in_held(g, z, v) if not g.free(c)})
        cell = ch.choice(full) if full else ch.integer(0, g.size - 1)
    elif kind == 3:
        cell = ch.choice([i for i in range(g.size) if g.free(i)] or [0])
    else:
        cell = ch.integer(0, g.size - 1)
    if decl.mechanic == "mark" and "match" in decl.f:
        t = ch.choice(hand) if hand else spec.cards.naturals[0].index
        want = spec.cards.types[t].attrs.get(decl.f["match"]) if spec.cards.types[t].natural else None
        spaces = g.spaces_of(want) if want else ()
        if kind == 1 and spaces:
            cell = ch.choice(list(spaces))
        return Move(decl.id, board.CardAt(t, cell))
    if decl.mechanic == "mark":
        return Move(decl.id, cell)
    return Move(decl.id, cell)
