"""The arguments moves carry, by kind: how each is written in a scenario, read and said.

A `Move` carries one argument; its mechanic says which kind (`Mechanic.arg`). The kinds
here are shared by several mechanics; a mechanic with an argument of its own shape
defines its kind in its module.

    Nothing   no argument; the scenario writes the zone the move concerns ({pass: skipped})
    Units     how many units a player chooses ({tick: 2})
    Seat      a seat ({skip: 2}, {take: 1})
    Cards     cards from the hand ({lay: [5, 5, SW]})
    Card      one card ({discard: 9})
    Choice    one value of a declared domain: a card attribute's value, a seat, a number
"""
from __future__ import annotations

from typing import Sequence

from .registry import Arg, cards_tuple, whole


def tokens(spec, cards: Sequence[int]) -> list[str]:
    return [spec.cards.types[t].token for t in cards]


class Nothing(Arg):
    """No argument; the scenario names a zone of the move (the pile drawn from, the zone emptied)."""

    def __init__(self, zone: str, words: str = "{mid} ({zone})"):
        self.zone, self.form, self.pattern = zone, zone, words
        self.kind = "zone"

    def to_doc(self, spec, decl, value):
        return self.zone

    def accepts(self, value):
        return value is None

    def read(self, rd, where, decl, doc):
        if doc != self.zone:
            rd.bad(where, f"{self.zone!r}, got {doc!r}")
            return None
        return None, self.zone

    def words(self, mid, decl, doc):
        return self.pattern.format(mid=mid, zone=doc)


class Units(Arg):
    form, name, kind = "N", "units", "units"

    def accepts(self, value):
        return value is None or whole(value)

    def to_doc(self, spec, decl, value):
        return value

    def read(self, rd, where, decl, doc):
        k = rd.integer("", 1, value=doc, where=where)
        return (k, k) if k is not None else None


class Seat(Arg):
    form, name, kind = "SEAT", "seat", "seat"

    def accepts(self, value):
        return value is None or whole(value)

    def __init__(self, words: str = "{mid} seat {seat}"):
        self.pattern = words

    def to_doc(self, spec, decl, value):
        return value

    def read(self, rd, where, decl, doc):
        s = rd.integer("", 0, value=doc, where=where)
        return (s, s) if s is not None else None

    def words(self, mid, decl, doc):
        return self.pattern.format(mid=mid, seat=doc)


class Cards(Arg):
    form, name, kind = "[cards]", "cards", "cards"

    def accepts(self, value):
        return cards_tuple(value)

    def to_doc(self, spec, decl, value):
        return tokens(spec, value)

    def read(self, rd, where, decl, doc):
        cards = rd.tokens(where, doc)
        if cards is None:
            return None
        if not cards:
            rd.bad(where, f"a {decl.id} holds at least one card")
            return None
        cards = tuple(sorted(cards))
        return cards, tokens(rd.spec, cards)

    def normal(self, value):
        return tuple(sorted(value))


class Card(Arg):
    form, name, kind = "card", "card", "card"

    def accepts(self, value):
        return whole(value)

    def to_doc(self, spec, decl, value):
        return spec.cards.types[value].token

    def read(self, rd, where, decl, doc):
        if isinstance(doc, int) and not isinstance(doc, bool):
            doc = str(doc)
        cards = rd.tokens(where, doc)
        if cards is None:
            return None
        if len(cards) != 1:
            rd.bad(where, f"exactly one card, got {len(cards)}")
            return None
        return cards[0], tokens(rd.spec, cards)[0]


class Choice(Arg):
    """One value of a domain the spec declares (`choose`): its values as a scenario writes
    them, the kernel keeping each as its place in the list (for a card attribute, the same
    code an expression reads)."""

    def __init__(self, values: Sequence, what: str):
        self.values, self.what = list(values), what
        self.form = f"one of {', '.join(map(str, self.values))}" if len(self.values) <= 12 else what
        self.name, self.kind = what, "choice"

    def accepts(self, value):
        return whole(value) and 0 <= value < len(self.values)

    def to_doc(self, spec, decl, value):
        return self.values[value]

    def find(self, doc):
        if isinstance(doc, bool):
            return None
        return next((i for i, v in enumerate(self.values) if v == doc or str(v).upper() == str(doc).upper()), None)

    def read(self, rd, where, decl, doc):
        i = self.find(doc)
        if i is None:
            rd.bad(where, f"a {self.what}: {self.form}; got {doc!r}")
            return None
        return i, self.values[i]


def read_groups(rd, where: str, v, placed: list) -> tuple:
    """Groups of cards from a scenario (melds laid, a table): a list of lists of cards."""
    if isinstance(v, str) or (isinstance(v, list) and v and not any(isinstance(x, list) for x in v)):
        v = [v]                                   # one group written as a flat list
    if not isinstance(v, list):
        rd.bad(where, f"a list of groups, each a list of cards, got {v!r}")
        return ()
    groups = []
    for j, g in enumerate(v):
        cards = rd.tokens(f"{where}[{j}]", g)
        if cards is not None and not cards:
            rd.bad(f"{where}[{j}]", "a group holds at least one card")
        elif cards is not None:
            for t in cards:
                placed[t] += 1
            groups.append(tuple(sorted(cards)))
    return tuple(groups)
