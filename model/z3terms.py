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


class Counts:
    """Many integer terms read from a model in one evaluation, not one each (a Python call
    into Z3 per term was most of a meld search's time). The terms are packed as the digits
    of one number in base `most + 1`, which is exact only where the solver holds every term
    to 0..`most`: the caller asserts those bounds beside the query."""

    def __init__(self, terms, most: int):
        self.base, self.n = most + 1, len(terms)
        self.packed = z3.Sum([t * self.base ** i for i, t in enumerate(terms)]) if terms else z3.IntVal(0)

    def __call__(self, model) -> list[int]:
        x, out = model.eval(self.packed, True).as_long(), []
        for _ in range(self.n):
            x, digit = divmod(x, self.base)
            out.append(digit)
        return out
