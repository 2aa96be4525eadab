"""Small pieces both of Z3's meld encodings use (`rulings.z3melds`, the count encoding, and
`rulings.z3copies`, the copy encoding): the numbers a meld rule reads, "exactly one" as
clauses, whether rules read a number, and the numbers of a one-card meld."""
from __future__ import annotations

import z3

NUMBERS = ("size", "naturals", "wilds", "points", "face_points")


def one_of(bools):
    """Exactly one, as clauses (they propagate better here than PbEq)."""
    return z3.And([z3.Or(bools)] + [z3.Or(z3.Not(a), z3.Not(b)) for i, a in enumerate(bools) for b in bools[i + 1:]])


def reads(name: str, rules) -> bool:
    return any(name in r.expr.names for r in rules)


def single_numbers(card, stand) -> dict:
    """The numbers of a one-card meld: `card`, standing for `stand` if it is a wild."""
    return dict(size=1, naturals=int(card.natural), wilds=int(card.wild), points=stand.value,
                face_points=card.value)
