"""Melds on a shared table that anyone may rearrange: what a player can add from their hand.

A game whose melds lie on one table for everyone (a contract of free melds, `any`, in the
spec) lets a player take the table apart and lay it out again with cards of their own, as
long as every meld on the table is valid when they are done and every card that was on the
table is still on it. Two questions, each answered two independent ways (Z3 over the card
counts, and the reference's direct search), which the tests hold equal and equal to brute
force on small positions:

- `best`: the most the player can add, counted in cards or in face value, and one table
  that shows it (the witness);
- `judge`: is this new table a legal result of the turn: the old table's cards all on it,
  the rest from the hand, every meld valid (the meld rules broken, by clause, if not).

Both are about one turn's table only; whether the player may rearrange at all yet (say,
before a first meld of their own) is a rule of play, not of this module.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from . import reference
from .melds import Contract, PlacedMeld

BY = ("cards", "points")


class RearrangeError(ValueError):
    """A question this module cannot ask of this spec or position (said in words)."""


@dataclass
class Placement:
    possible: bool | None                 # None: the solver could not decide
    placed: tuple = ()                    # counts per card type, from the hand
    value: int = 0                        # cards or face value placed (as asked)
    melds: list[PlacedMeld] = field(default_factory=list)   # the new table
    engine: str = ""
    note: str = ""


def table_contract(spec) -> Contract:
    """The contract melds on the table are held to: the spec's free melds."""
    if "any" not in spec.contracts:
        raise RearrangeError(f"{spec.game} lays no free melds (its spec has no `any` contract), so it has no "
                             "shared table to rearrange")
    c = spec.contracts["any"]
    if not c.extras:
        raise RearrangeError(f"{spec.game}'s free melds (its `any` contract) name no kind of meld, so it has no "
                             "shared table of melds to rearrange")
    if c.required or c.rules:
        raise RearrangeError(f"{spec.game}'s free melds carry rules over the whole lay-down; a table of them "
                             "cannot be asked about meld by meld")
    return c


def _value(spec, counts, by: str) -> int:
    return sum(counts) if by == "cards" else sum(n * spec.cards.types[t].value for t, n in enumerate(counts))


def _check_position(spec, table, hand, by: str) -> None:
    if by not in BY:
        raise RearrangeError(f"by {by!r}: one of {', '.join(BY)}")
    if len(table) != len(spec.cards.types) or len(hand) != len(spec.cards.types):
        raise RearrangeError("a table and a hand are counts for every card type of the game")
    specials = [spec.cards.types[t].token for t, n in enumerate(map(int.__add__, table, hand))
                if n and spec.cards.types[t].special]
    if specials:
        raise RearrangeError(f"{', '.join(specials)} never goes into a meld")


def best(spec, table, hand, by: str = "cards", engine: str = "z3", initial: bool = False) -> Placement:
    """The most the player can add to the table from `hand` (card counts per type). With
    `initial`, the player's first melds: from the hand alone under the spec's initial
    meld (its threshold honoured), the table left as it is (the melds returned are the new
    ones only)."""
    table, hand = tuple(table), tuple(hand)
    _check_position(spec, table, hand, by)
    contract = table_contract(spec)
    if initial:
        try:
            contract = spec.contract(initial=True)
        except KeyError as e:
            raise RearrangeError(str(e).strip("'\"")) from None
        table = tuple(0 for _ in hand)
    p = _best_reference(spec, contract, table, hand, by) if engine == "reference" else \
        _best_z3(spec, contract, table, hand, by)
    if p.possible is False and not any(table):      # no table to lay out: nothing to place is the answer
        return Placement(True, tuple(0 for _ in hand), 0, [], p.engine, NOTHING_INITIAL if initial else NOTHING)
    return p


NOTHING = "nothing from the hand makes a meld"
NOTHING_INITIAL = "nothing from the hand makes an initial meld (its melds and threshold)"


def _placement(spec, contract, table, hand, melds, engine: str, by: str) -> Placement:
    laid = [0] * len(hand)
    for m in melds:
        for t in m.cards:
            laid[t] += 1
    placed = tuple(x - y for x, y in zip(laid, table))
    if any(n < 0 for n in placed) or any(p > h for p, h in zip(placed, hand)):   # pragma: no cover
        raise AssertionError("a table that loses a card of the old one, or lays cards the hand lacks")
    return Placement(True, placed, _value(spec, placed, by), list(melds), engine)


def _best_reference(spec, contract, table, hand, by) -> Placement:
    from . import reference_sweep

    swept = reference_sweep.best(spec, contract, table, hand, by)      # the sweep, where the melds' shapes allow
    if swept is None:
        return Placement(False, engine="reference", note="the table's own cards cannot all be laid out as melds")
    if swept is not NotImplemented:
        return _placement(spec, contract, table, hand, swept[1], "reference", by)
    return _best_search(spec, contract, table, hand, by)


def _best_search(spec, contract, table, hand, by) -> Placement:
    """The reference's general search (any contract; slow past small tables)."""
    both = tuple(x + y for x, y in zip(table, hand))
    found = reference._Search(spec, contract, both, best=True, keep_at_most=hand, score=by).run()
    if found is None:
        return Placement(False, engine="reference", note="the table's own cards cannot all be laid out as melds")
    _, melds, _ = found
    return _placement(spec, contract, table, hand, melds, "reference", by)


def _laid_text(sp, spec, by: str) -> str:
    """Cards (or face value) laid in all, as SMT-LIB text over the solver's L variables."""
    from . import z3melds

    types = spec.cards.types
    return z3melds._sum([z3melds._mul(1 if by == "cards" else types[t.index].value, f"L_{t.index}")
                         for t in sp.types])


def _best_z3(spec, contract, table, hand, by) -> Placement:
    """The most the hand can add, asked of a solver built for this position alone, in two
    steps:

    - a lower bound, greedily: every card of the hand that some candidate meld of the
      position could take (`layable`: a meld whose other places the position's cards or
      wilds can fill) is asked to go down, one assumption per card; while Z3 says that cannot be, one card
      of the refusal's unsat core (the least worth; of equals, the last type) is let go and
      the rest asked again. These questions fix what is laid card by card, which Z3 answers
      fast; the first yes is a legal table, and when nothing was let go, the answer;
    - then up from there: "placed >= reached + 1" until Z3 says no, which proves the last
      table found the most.

    The last model found is the new table shown. The solver is built for the position
    alone (`z3melds.for_position`): which of several equally good tables is shown, and
    whether Z3 decides at all, depend on the position only, so a game replayed in another
    process, or on a busier machine, picks the same table."""
    import z3

    from . import z3melds

    both = tuple(x + y for x, y in zip(table, hand))
    sp = z3melds.for_position(spec, contract, both)
    base = sp._hand(both)
    offset = _value(spec, table, by)                          # laid = placed + the table's own
    text = isinstance(sp, z3melds.MeldSolver)                 # questions as text: one parse each
    laid_text = _laid_text(sp, spec, by)
    laid = sp.term(laid_text) if text else z3.Sum([(1 if by == "cards" else spec.cards.types[t].value) * sp.L[t]
                                                   for t in sp.L])

    def assume(*named):
        """New assumption literals, each standing for its constraint: (name, SMT-LIB text,
        the same as a function making a Python term); the texts in one parse."""
        if text:
            sp.s.from_string("\n".join(f"(declare-const {n} Bool)\n(assert (=> {n} {c}))" for n, c, _ in named))
        else:
            sp.s.add([z3.Implies(z3.Bool(n, sp.ctx), f()) for n, _, f in named])
        return [z3.Bool(n, sp.ctx) for n, _, _ in named]

    floor = [(t, n) for t, n in enumerate(table) if n]        # the table's cards stay on it
    if text:
        sp.s.from_string("\n".join(f"(assert (>= L_{t} {n}))" for t, n in floor))
    else:
        sp.s.add([sp.L[t] >= n for t, n in floor])

    def reached():
        return sp.s.model().eval(laid, True).as_long() - offset

    def unknown(what=""):
        return Placement(None, engine="z3", note=f"z3 could not decide{what}: {sp.s.reason_unknown()}")

    worth = {t: 1 if by == "cards" else spec.cards.types[t].value for t in range(len(hand))}
    may = getattr(sp, "layable", None)                        # the copy encoding does not say: all asked
    copies = [(t, j) for t, n in enumerate(hand) if may is None or t in may for j in range(1, n + 1)]
    lits = assume(*[(f"lay_{t}_{j}", f"(>= L_{t} {table[t] + j})", lambda t=t, j=j: sp.L[t] >= table[t] + j)
                    for t, j in copies])
    asked = [(t, j, lit) for (t, j), lit in zip(copies, lits)]   # (type, copy, literal): this copy goes down
    hi = sum(worth[t] for t, _, _ in asked) + 1               # out of reach
    everything = len(asked)
    while True:
        r = sp._check(base + [lit for _, _, lit in asked])
        if r == z3.sat:
            model, lo = sp.s.model(), reached()
            break
        if r != z3.unsat:
            return unknown()
        core = {lit.get_id() for lit in sp.s.unsat_core()}
        held = [(t, j) for t, j, lit in asked if lit.get_id() in core]
        if not held:                                          # nothing from the hand: the table itself
            return Placement(False, engine="z3", note="the table's own cards cannot all be laid out as melds")
        t = min(held, key=lambda x: (worth[x[0]], -x[0]))[0]
        drop = max((x for x in asked if x[0] == t), key=lambda x: x[1])      # its last copy asked
        if len(asked) == everything and all(worth[x[0]] > 0 for x in asked):
            hi -= 1                                           # all of them at once cannot be
        asked.remove(drop)
    while hi - lo > 1:
        k = lo + 1
        bound, = assume((f"placed_ge_{by}_{k}", f"(>= {laid_text} {k + offset})", lambda: laid >= k + offset))
        r = sp._check(base + [bound])
        if r == z3.sat:
            model, lo = sp.s.model(), reached()
        elif r == z3.unsat:
            hi = k
        else:
            return unknown(" the most")
    return _placement(spec, contract, table, hand, sp._witness(model, both), "z3", by)


# ---- a new table, judged -------------------------------------------------------------------------

@dataclass
class Judgement:
    legal: bool
    placed: tuple = ()                    # what the new table took from the hand
    why: list[str] = field(default_factory=list)              # what is wrong, in words
    clauses: list[str] = field(default_factory=list)          # the rules the new table breaks
    note: str = ""                                            # what was not judged, when something was not


def judge(spec, old: list[tuple], hand, new: list[tuple]) -> Judgement:
    """Is `new` (melds as card counts) a legal result of a turn that found `old` on the
    table and the player holding `hand`?"""
    contract = table_contract(spec)
    n = len(spec.cards.types)
    before = [sum(m[t] for m in old) for t in range(n)]
    after = [sum(m[t] for m in new) for t in range(n)]
    placed = tuple(a - b for a, b in zip(after, before))
    why, clauses = [], []
    lost = [spec.cards.types[t].token for t in range(n) if placed[t] < 0 for _ in range(-placed[t])]
    if lost:
        why.append(f"cards of the old table are missing from the new one: {' '.join(lost)}")
    extra = [spec.cards.types[t].token for t in range(n) if placed[t] > hand[t] for _ in range(placed[t] - hand[t])]
    if extra:
        why.append(f"the new table holds cards neither the old table nor the hand had: {' '.join(extra)}")
    for i, m in enumerate(new, 1):
        tries = [reference.decide(spec, dataclasses.replace(contract, required=(slot,), extras=()), m)
                 for slot in contract.extras]
        if not any(v.legal for v in tries):
            broken = list(dict.fromkeys(x.clause for v in tries for x in v.violations)) or list(contract.clauses)
            rules_broken = (f"the rules it breaks: {', '.join(broken)}" if broken else
                            f"{spec.game} names no rule for a meld on the table")
            why.append(f"meld {i} ({' '.join(spec.cards.tokens(m))}) is not a valid meld ({rules_broken})")
            clauses += [c for c in broken if c not in clauses]
    return Judgement(not why, tuple(max(0, p) for p in placed), why, clauses)
