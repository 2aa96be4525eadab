"""How: two meld rule sets told apart by Z3, fewest cards first.

The smallest sizes (as long as they hold few hands) are enumerated hand by hand with the
reference decider. Each larger size n is first settled at once by `prove_melds`, for each
contract whose rules differ and both directions: a proof that no hand of n cards is laid
down whole under one spec and not the other, or such a hand (judged again by both specs'
deciders), which is then the smallest, every smaller size having been proven first.

From the first size that proof leaves unknown (Z3's resource limit per query), a
counterexample-guided loop takes over: the solver of one spec is asked for a hand of n
cards it may lay down whole (the hand left free, the deck's copies as its bounds); the
other spec's solver then judges that hand. A hand legal under one and not the other is
the witness; a hand legal under both is blocked and the solver asked again, until the
solver has no further hand of n cards: then every hand of n cards legal under either
spec has been judged under both, so no hand of n cards tells them apart. Both directions
are searched. A first pass gives every size a few hands (so a level of 7 or 12 cards is
reached when a smaller size holds more legal hands than the budget can judge); then
sizes are completed smallest first. A budget of hands proposed (units of work, never
seconds) stops the loop and says at which size; nothing past the last size searched in
full is claimed. A witness the loop finds before the smaller sizes were completed goes
back to `prove_melds` for them; the answer says "smallest: proven" or "smallest found,
not proven".
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import z3

from rulings import reference, z3melds, z3terms
from rulings.spec import Spec

from .hands import Search, count_hands, smallest
from .prove_melds import prove_smallest

ENUMERATE = 40_000      # hands of one size judged by plain enumeration before Z3 takes over


@dataclass
class MeldSearch:
    found: tuple | None       # (hand, contract, legal under a, legal under b)
    size_reached: int         # every hand of this many cards and fewer was searched in full
    hands: int                # hands proposed by a solver and judged under the other spec
    complete: bool            # with a witness: no smaller hand is left unsearched (it has the fewest
                              # cards); without: every size up to max_cards was searched in full
    seconds: float
    unknown: int = 0          # solver answers `unknown` (the size is then not complete)
    max_cards: int = 0
    enumerated: int = 0       # hands of the smallest sizes judged by plain enumeration first
    proof: str = ""           # with a witness: whether Z3 proved no smaller hand differs (`prove_melds`)
    at_once: tuple = ()       # (first, last): the sizes Z3 settled at once before any hand was proposed
    stuck: int = 0            # the size that proof left unknown, where the loop took over (0: none)

    def how(self, game: str) -> str:
        if self.found is not None and self.enumerated and self.hands == self.enumerated:
            return (f"every {game} hand of 1 to {self.size_reached + 1} cards enumerated with the reference decider, "
                    f"fewest cards first, every contract whose rules differ ({self.hands} hands); the witness "
                    "judged by Z3 under both")
        if self.found is not None and self.proof:
            stop = f"; {self.proof}"
        elif self.found is not None:
            stop = ("" if self.complete else f"; smaller hands were searched in full only up to {self.size_reached} "
                    "cards, so a smaller witness may exist")
        else:
            stop = "" if self.complete else f"; the budget of hands stopped it inside {self.size_reached + 1}-card hands"
        unk = f"; Z3 answered unknown {self.unknown} time(s)" if self.unknown else ""
        first = (f"every hand of the smallest sizes enumerated with the reference decider ({self.enumerated} "
                 "hands), then " if self.enumerated else "")
        if self.at_once:
            lo, hi = self.at_once
            sizes = f"{lo} to {hi} cards" if hi > lo else f"{lo} cards"
            first += (f"Z3, fewest cards first, each size at once ({sizes}), for every contract whose rules differ, "
                      "both directions: a hand one spec lays down whole and the other does not, or a proof that "
                      "there is none" + ("" if self.hands else f"{'; ' + self.proof if self.proof else ''}{unk}"))
            if not self.hands:
                return first
        if self.stuck:
            first += (f"{'; ' if self.at_once else ''}Z3 could not settle {self.stuck}-card hands at once within its "
                      f"share of the resource limit, so from there ")
        elif self.at_once:
            first += "; then "
        return (f"{first}Z3, fewest cards first: for each hand size up to {self.max_cards} and each contract whose rules "
                f"differ, every {game} hand one spec lays down whole was proposed by its solver and judged by the "
                f"other's ({self.hands} hands), both directions; hands of 1 to {self.size_reached} cards searched "
                f"in full{' (by this loop, or at once by the proof below)' if self.proof else ''}{stop}{unk}")


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


def _other_than(H, hand: tuple, kinds: list[int]):
    """Any hand but `hand`, among hands of as many cards of `kinds` (the sum is asserted
    beside it): such a hand differs from it exactly where it holds fewer of some card that
    `hand` holds, so the clause names only the cards `hand` holds (a handful, not every kind)."""
    return z3.Or([H[i] < hand[i] for i in kinds if hand[i] > 0])


def _one_way(spec_p: Spec, spec_q: Spec, name: str, n: int, deck, hands: int, counter: list,
             blocked: list, cap: int | None):
    """Hands of n cards legal under spec_p's contract `name`, each judged under spec_q's
    (hands in `blocked` were judged before). Returns ("found", hand), ("done",) when no
    hand is left, ("cap",) after `cap` hands, ("budget",) once `hands` hands have been
    proposed in all (`counter`), or ("unknown",)."""
    sp = z3melds.solver_for(spec_p, spec_p.contracts[name], (n,))
    H = sp.H
    kinds = [t.index for t in spec_p.cards.types if not t.special]
    sp.s.push()
    try:
        sp.s.add(z3.Sum([H[i] for i in kinds]) == n)
        for t in spec_p.cards.types:
            sp.s.add(H[t.index] >= 0, H[t.index] <= (0 if t.special else deck[t.index]))
        read = z3terms.Counts([H[i] for i in kinds], n)      # each count 0..n: the bounds and sum above
        for hand in blocked:
            sp.s.add(_other_than(H, hand, kinds))
        asked = 0
        while True:
            if counter[0] >= hands:
                return ("budget",)
            if cap is not None and asked >= cap:
                return ("cap",)
            r = sp._check([sp.all_laid])
            if r == z3.unknown:
                return ("unknown",)
            if r == z3.unsat:
                return ("done",)
            held = dict(zip(kinds, read(sp.s.model())))
            hand = tuple(held.get(t.index, 0) for t in spec_p.cards.types)
            counter[0] += 1
            asked += 1
            vq = z3melds.decide(spec_q, spec_q.contracts[name], hand, explain=False, witness=False)
            if vq.legal is None:
                return ("unknown",)
            if not vq.legal:
                return ("found", hand)
            blocked.append(hand)
            sp.s.add(_other_than(H, hand, kinds))
    finally:
        sp.s.pop()


def meld_difference(spec_a: Spec, spec_b: Spec, bound: int, budget: int):
    """The smallest hand (then the first contract) on which the two specs' meld verdicts
    differ, every hand of 1..bound cards enumerated with the reference decider (contracts
    whose rules are the same in both specs are skipped: they cannot differ), at most
    `budget` hands."""
    deck = _deck(spec_a, spec_b)
    types = [t.index for t in spec_a.cards.types if not t.special and deck[t.index] > 0]
    names = [k for k in _contract_order(spec_a) if k in spec_b.contracts and _differs(spec_a, spec_b, k)]
    fewest = {k: min(_least(spec_a, k), _least(spec_b, k)) for k in names}

    seen = [0, 0]          # the size being searched, hands asked

    def ask(hand):
        n = sum(hand)
        seen[0] = n
        seen[1] += 1
        for k in names:
            if fewest[k] > n:
                continue
            a = reference._Search(spec_a, spec_a.contracts[k], hand).run() is not None
            b = reference._Search(spec_b, spec_b.contracts[k], hand).run() is not None
            if a != b:
                return k, a, b
        return None

    return smallest(deck, types, bound, ask, budget)


# The proof before any hand is proposed has a share of `rlimit` a query: where that is too
# little, the loop finds what it can and the full `rlimit` proves the sizes below its
# witness, as when the loop ran alone. Level 8's sizes are settled as well at a tenth (the
# same sizes proven, the same witnesses), and a size the proof cannot settle (Level 8's
# six wild cards laid alone) costs about 3 s instead of 11.
AT_ONCE_SHARE = 10

FIRST_PASS = 25     # hands per (size, contract, direction) before every size has been tried once


def _confirmed(spec_a: Spec, spec_b: Spec, found) -> bool:
    """A hand the proof met: both specs' deciders judge it as the proof says."""
    hand, name, la, lb = found
    va = z3melds.decide(spec_a, spec_a.contracts[name], hand, explain=False, witness=False).legal
    vb = z3melds.decide(spec_b, spec_b.contracts[name], hand, explain=False, witness=False).legal
    return (va, vb) == (la, lb)


def meld_difference_z3(spec_a: Spec, spec_b: Spec, max_cards: int | None = None, hands: int = 2000,
                       rlimit: int = 20_000_000, enumerate: int = ENUMERATE) -> MeldSearch:
    """The fewest-cards hand (then the first contract) whose whole lay-down one spec
    allows and the other does not.

    Past the enumerated sizes, Z3 settles each size at once (`prove_smallest`, with
    `rlimit // AT_ONCE_SHARE` a query) until a witness or a size it leaves unknown; the
    loop then searches from that size. A first pass gives each (size, contract,
    direction) a few hands, so that a level of many cards is reached even where smaller sizes hold more legal hands than the budget
    can judge; every size is then searched in full, smallest first, until a witness has
    no smaller size left unsearched (or the budget ends: `complete` then says whether the
    witness is known to be the smallest). `hands`: the hands the solvers may propose in
    all; `rlimit`: Z3's resource limit for each query of the proof of smallness."""
    t0 = time.perf_counter()
    names = [k for k in _contract_order(spec_a) if k in spec_b.contracts and _differs(spec_a, spec_b, k)]
    if max_cards is None:
        max_cards = max([max(_least(spec_a, k), _least(spec_b, k)) for k in names] or [0]) + 3
    deck = _deck(spec_a, spec_b)
    max_cards = min(max_cards, sum(deck))
    counter = [0]
    # small sizes: every hand, plain enumeration (as long as a size holds few hands)
    types = [t.index for t in spec_a.cards.types if not t.special and deck[t.index] > 0]
    upto = 0
    total = 0
    while upto < max_cards and total + count_hands(len(types), upto + 1) <= enumerate:
        upto += 1
        total += count_hands(len(types), upto)
    enumerated = 0
    if upto and names:
        ex = meld_difference(spec_a, spec_b, upto, enumerate)
        enumerated = ex.hands
        if ex.found is None and not ex.complete:
            return MeldSearch(None, ex.size_reached, 0, False, time.perf_counter() - t0, 0, max_cards, enumerated)
        if ex.found is not None:
            hand, (k, la, lb) = ex.found
            return MeldSearch((hand, k, la, lb), ex.size_reached - 1, ex.hands, True, time.perf_counter() - t0,
                              0, max_cards, enumerated)
        upto = ex.size_reached
    # the sizes past the enumeration: Z3 settles each at once (`prove_melds`: no hand of that
    # size differs, or one that does), smallest first; the hand-by-hand loop below takes over
    # from the first size it leaves unknown (within `rlimit` a query)
    settled: tuple = ()
    stuck = 0
    least = {x: min(_least(spec_a, x), _least(spec_b, x)) for x in names}
    if names and upto < max_cards:
        pr = prove_smallest(spec_a, spec_b, names, least, max_cards + 1, upto, deck, rlimit=rlimit // AT_ONCE_SHARE,
                            polish=rlimit)
        at_once = upto
        while pr.sizes.get(at_once + 1) == "proven":
            at_once += 1
        if pr.smaller is not None and _confirmed(spec_a, spec_b, pr.smaller):
            n = sum(pr.smaller[0])
            return MeldSearch(pr.smaller, at_once, 0, True, time.perf_counter() - t0, 0, max_cards, enumerated,
                              f"smallest: proven (no hand of fewer than {n} cards differs: {pr.summary()})",
                              (upto + 1, n))
        if pr.proven:
            return MeldSearch(None, max_cards, 0, True, time.perf_counter() - t0, 0, max_cards, enumerated,
                              f"no hand of {upto + 1} to {max_cards} cards differs ({pr.summary()})",
                              (upto + 1, max_cards))
        settled, upto = ((upto + 1, at_once) if at_once > upto else ()), at_once
        if pr.sizes.get(at_once + 1) == "unknown":
            stuck = at_once + 1
    tasks = [(n, k, side) for n in range(upto + 1, max_cards + 1) for k in names
             if min(_least(spec_a, k), _least(spec_b, k)) <= n for side in (True, False)]
    blocked: dict = {t: [] for t in tasks}
    state: dict = {t: "open" for t in tasks}       # open, done, unknown
    best = None                                      # (n, task order, hand, contract, side)
    unknown = 0
    budget_hit = False

    def run(task, cap):
        nonlocal best, unknown
        n, k, side = task
        p, q = (spec_a, spec_b) if side else (spec_b, spec_a)
        try:
            out = _one_way(p, q, k, n, deck, hands, counter, blocked[task], cap)
        except (z3melds.Unsupported, ValueError):
            out = ("unknown",)
        if out[0] == "found":
            if best is None or (n, tasks.index(task)) < best[:2]:
                best = (n, tasks.index(task), out[1], k, side)
            state[task] = "found"
        elif out[0] == "done":
            state[task] = "done"
        elif out[0] == "unknown":
            state[task] = "unknown"
            unknown += 1
        return out[0]

    for cap in (FIRST_PASS, None):
        for task in tasks:
            if state[task] != "open" or (best is not None and task[0] >= best[0]):
                continue
            if run(task, cap) == "budget":
                budget_hit = True
                break
        if budget_hit:
            break
    # the sizes searched in full: every task of every smaller size done
    reached = upto
    for n in range(upto + 1, max_cards + 1):
        if all(state[t] == "done" for t in tasks if t[0] == n):
            reached = n
        else:
            break
    seconds_used = time.perf_counter() - t0
    if best is not None:
        n, _, hand, k, side = best
        found = (hand, k, True, False) if side else (hand, k, False, True)
        proof = ""
        if reached < n - 1:         # the sizes the loop left: settled at once by Z3 (`prove_melds`, the full rlimit)
            pr = prove_smallest(spec_a, spec_b, names, least, n, reached, deck, rlimit=rlimit)
            proof = pr.words()
            if pr.smaller is not None and _confirmed(spec_a, spec_b, pr.smaller):
                found, n = pr.smaller, sum(pr.smaller[0])
                proof = f"smallest: proven (every smaller size proven first; {pr.words()})"
                pr.proven = True
            if pr.proven:
                reached = n - 1
        return MeldSearch(found, reached, counter[0], reached >= n - 1, time.perf_counter() - t0, unknown, max_cards,
                          enumerated, proof, settled, stuck)
    return MeldSearch(None, reached, counter[0], not budget_hit and not unknown, seconds_used, unknown, max_cards,
                      enumerated, at_once=settled, stuck=stuck)


__all__ = ["MeldSearch", "meld_difference_z3"]
