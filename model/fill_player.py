"""A sensible player for games whose turns fill a layout (the `fill` mechanic): which pile
to draw from, and where a wild goes.

- It takes a face-up card offered by a draw when the card fits its layout now (its own
  position is still face down or shows a wild, or it is wild and a position is face
  down); otherwise it draws blind.
- A wild goes onto the face-down position whose own cards are scarcest: the one with the
  most cards of its value already seen face up (in every layout and in the face-up
  piles), so the wild stands where the right card is least likely to come; ties go to the
  later position.
- It places every card that fits (displacing a wild whenever it can, to move the wild on)
  and ends the turn only when nothing fits.
"""
from __future__ import annotations

from collections import Counter

from . import kernel
from .kernel import Move, State
from .kernel.mechanics import layout


def _fills(r):
    return [m for m in r.moves.values() if m.mechanic == "fill"]


def plays_layouts(state: State) -> bool:
    return bool(_fills(kernel.rules(state.spec)))


def _seen(state: State, r) -> Counter:
    """Cards of each type seen face up: every layout's face-up positions and the face-up piles."""
    out: Counter = Counter()
    for z in r.zones.values():
        seats = state.zones[z.index] if z.each else (state.zones[z.index],)
        for v in seats:
            if z.kind == "layout":
                out.update(c for c, up in v if up)
            elif z.kind == "pile" and z.face == "up":
                out.update(v)
    return out


def _value_seen(state: State, r, decl, position: int) -> int:
    """How many cards naming this position have been seen face up."""
    zid = decl.f["to"]
    seen = _seen(state, r)
    return sum(n for c, n in seen.items() if layout.position_of(r, zid, c, position + 1) == position)


def _fits(state: State, r, card: int) -> bool:
    for decl in _fills(r):
        held = state.zone(decl.f["from"])
        trial = state.with_zone(decl.f["from"], held + (card,))
        if layout.options(trial, decl):
            return True
    return False


class FillPlayer:
    def choose(self, state: State) -> Move:
        moves = kernel.legal_moves(state)
        r = kernel.rules(state.spec)
        draws = [m for m in moves if r.moves[m.id].mechanic == "draw"]
        if draws:
            for m in draws:
                decl = r.moves[m.id]
                pile_id = next(iter(decl.f["from"]))
                z = r.zones[pile_id]
                if z.face != "up":
                    continue
                pile = state.zone(pile_id, m.arg if z.each else None)
                if pile and _fits(state, r, pile[-1]):
                    return m
            blind = [m for m in draws if all(r.zones[z].face == "down" for z in r.moves[m.id].f["from"])]
            return (blind or draws)[0]
        fills = [m for m in moves if r.moves[m.id].mechanic == "fill"]
        if fills:
            decl = r.moves[fills[0].id]
            if len(fills) == 1:
                return fills[0]
            return max(fills, key=lambda m: (_value_seen(state, r, decl, m.arg), m.arg))
        return moves[0]
