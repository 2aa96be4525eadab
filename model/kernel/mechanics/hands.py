"""The two plainest zone kinds: a hand (each player's cards, a multiset) and a pile (an
ordered stack of cards, bottom first, top last; face up or face down)."""
from __future__ import annotations

from ..registry import ZoneKind, register
from ..state import cards_of, counts


@register
class Hand(ZoneKind):
    name = "hand"
    says = "each player's cards, a multiset (exactly one hand zone, of each player)"
    owners = ("each",)

    def empty(self, spec, width):
        return (0,) * width

    def size(self, value):
        return sum(value)

    def cards(self, value):
        return ((t, n) for t, n in enumerate(value) if n)

    def top(self, value):
        return None

    def first(self, value):
        return None

    def dealt(self, spec, cards, width):
        return counts(cards, width)

    def to_doc(self, spec, value):
        return [spec.cards.types[t].token for t in cards_of(value)]

    def read(self, rd, spec, where, doc, placed, width):
        cards = rd.tokens(where, doc)
        for t in cards or []:
            placed[t] += 1
        return counts(cards or [], width)

    def finished(self, state, zid, seat):
        return not sum(state.zone(zid, seat))


@register
class Pile(ZoneKind):
    name = "pile"
    says = "an ordered pile of cards, bottom first, top last; face up (its cards seen) or face down"
    fields = {"face": {"enum": ["up", "down"]}}

    def check(self, r, zid, z):
        if "face" not in z:
            r.err(f"zones.{zid}", f"pile {zid!r} needs face: up or down (can players see its cards?)")
