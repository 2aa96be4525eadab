"""How: two meld rule sets told apart by Z3, fewest cards first.

For each hand size n = 1, 2, ... and each contract whose rules differ between the two
specs, the solver of one spec is asked for a hand of n cards it may lay down whole (the
hand left free, the deck's copies as its bounds); the other spec's solver then judges
that hand. A hand legal under one and not the other is the witness; a hand legal under
both is blocked and the solver asked again (a counterexample-guided loop), until the
solver has no further hand of n cards: then every hand of n cards legal under either
spec has been judged under both, so no hand of n cards tells them apart. Both directions
are searched, so the first witness has the fewest cards. A time budget stops the search
and says at which size; nothing past the last size searched in full is claimed.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import z3

from rulings import z3melds
from rulings.spec import Spec


@dataclass
class MeldSearch:
    found: tuple | None       # (hand, contract, legal under a, legal under b)
    size_reached: int         # every hand of this many cards and fewer was searched in full
    hands: int                # hands proposed by a solver and judged under the other spec
    complete: bool            # False when the budget stopped the search inside a size
    seconds: float
    unknown: int = 0          # solver answers `unknown` (the size is then not complete)
    max_cards: int = 0

    def how(self, game: str) -> str:
        stop = "" if self.complete else f"; the time budget stopped it inside {self.size_reached + 1}-card hands"
        unk = f"; Z3 answered unknown {self.unknown} time(s)" if self.unknown else ""
        return (f"Z3, fewest cards first: for each hand size up to {self.max_cards} and each contract whose rules "
                f"differ, every {game} hand one spec lays down whole was proposed by its solver and judged by the "
                f"other's ({self.hands} hands), both directions; hands of 1 to {self.size_reached} cards searched "
                f"in full{stop}{unk}")


def _contract_order(spec: Spec) -> list[str]:
    def key(k):
        parts = k.split()
        num = int(parts[1]) if len(parts) == 2 and parts[1].isdigit() else 0
        return (len(parts) != 2, num, k)
    return sorted(spec.contracts, key=key)


def _differs(spec_a: Spec, spec_b: Spec, name: str) -> bool:
    ca, cb = spec_a.contracts[name], spec_b.contracts[name]
    return (z3melds._shape(ca) != z3melds._shape(cb) or spec_a.meld_kinds != spec_b.meld_kinds
            or spec_a.params != spec_b.params or spec_a.cards != spec_b.cards)


def _least(spec: Spec, name: str) -> int:
    return sum(s.size for s in spec.contracts[name].required)


def _deck(spec_a: Spec, spec_b: Spec) -> tuple[int, ...]:
    return tuple(max(x, y) for x, y in zip(spec_a.deck(), spec_b.deck()))


def _one_way(spec_p: Spec, spec_q: Spec, name: str, n: int, deck, deadline: float, counter: list):
    """Hands of n cards legal under spec_p's contract `name`, each judged under spec_q's.
    Returns ("found", hand, q_legal), ("done",) when no hand is left, ("budget",) or
    ("unknown",)."""
    sp = z3melds.solver_for(spec_p, spec_p.contracts[name], (n,))
    H = sp.H
    kinds = [t.index for t in spec_p.cards.types if not t.special]
    sp.s.push()
    try:
        sp.s.add(z3.Sum([H[i] for i in kinds]) == n)
        for t in spec_p.cards.types:
            sp.s.add(H[t.index] >= 0, H[t.index] <= (0 if t.special else deck[t.index]))
        while True:
            if time.perf_counter() > deadline:
                return ("budget",)
            r = sp._check([sp.all_laid])
            if r == z3.unknown:
                return ("unknown",)
            if r == z3.unsat:
                return ("done",)
            m = sp.s.model()
            hand = tuple(m.eval(H[t.index], True).as_long() if t.index in kinds else 0 for t in spec_p.cards.types)
            counter[0] += 1
            vq = z3melds.decide(spec_q, spec_q.contracts[name], hand, explain=False, witness=False)
            if vq.legal is None:
                return ("unknown",)
            if not vq.legal:
                return ("found", hand, False)
            sp.s.add(z3.Or([H[i] != hand[i] for i in kinds]))
    finally:
        sp.s.pop()


def meld_difference_z3(spec_a: Spec, spec_b: Spec, max_cards: int | None = None, seconds: float = 20.0) -> MeldSearch:
    """The fewest-cards hand (then the first contract) whose whole lay-down one spec
    allows and the other does not."""
    t0 = time.perf_counter()
    deadline = t0 + seconds
    names = [k for k in _contract_order(spec_a) if k in spec_b.contracts and _differs(spec_a, spec_b, k)]
    if max_cards is None:
        max_cards = max([max(_least(spec_a, k), _least(spec_b, k)) for k in names] or [0]) + 3
    deck = _deck(spec_a, spec_b)
    max_cards = min(max_cards, sum(deck))
    counter = [0]
    unknown = 0
    reached = 0
    for n in range(1, max_cards + 1):
        whole = True
        for k in names:
            if min(_least(spec_a, k), _least(spec_b, k)) > n:
                continue
            for p, q, a_side in ((spec_a, spec_b, True), (spec_b, spec_a, False)):
                try:
                    out = _one_way(p, q, k, n, deck, deadline, counter)
                except (z3melds.Unsupported, ValueError):
                    out = ("unknown",)
                if out[0] == "found":
                    hand = out[1]
                    found = (hand, k, True, False) if a_side else (hand, k, False, True)
                    return MeldSearch(found, n, counter[0], True, time.perf_counter() - t0, unknown, max_cards)
                if out[0] == "budget":
                    return MeldSearch(None, reached, counter[0], False, time.perf_counter() - t0, unknown, max_cards)
                if out[0] == "unknown":
                    unknown += 1
                    whole = False
        if not whole:
            return MeldSearch(None, reached, counter[0], False, time.perf_counter() - t0, unknown, max_cards)
        reached = n
    return MeldSearch(None, reached, counter[0], True, time.perf_counter() - t0, unknown, max_cards)


__all__ = ["MeldSearch", "meld_difference_z3"]
