"""The copy encoding of meld legality: a fixed pool of meld copies, every card counted
per meld. `z3melds` falls back on it for the few spec shapes its count encoding does not
cover (see `z3melds.Unsupported`); both answer the same queries (`z3melds.Queries`).

A `CopySolver` holds, for one (spec, contract, capacity N), a fixed pool of melds:

  * one meld per required slot; per extra slot, copies for as many melds as N cards
    could fill (N // the kinds' least size); a meld is *active* when it holds a card;
  * per meld m: Int x[m][t] = cards of type t in it (naturals and wilds) and, where a
    wild's stand-in matters (distinct, run, points), Int y[m][t] = wilds of m standing
    for natural t; same / distinct / run are stated linearly on z = x + y, the cards as
    seen once the wilds are replaced.  A `same` value is a one-hot Bool pick per meld;
  * an extra slot whose kinds hold one card at most (say, wilds laid alone) is kept as
    counts c[kind, card type, stand-in] of single-card melds, whose numbers are constants.

The hand is never asserted: Int H[t] is pinned per query by assumption literals
`H[t] == k`; the laid part L[t] (== H[t] for `decide`, <= H[t] for `best_lay`) is tied to
the melds by conservation.  Every constraint a rule gives is asserted as
`Implies(p_clause, c)` with p_clause passed as an assumption, so an unsat core names the
clauses that forbid the lay-down.  Conservation and "every card is used" are untagged:
they are the question; so are the symmetry breaking and bookkeeping, which hold whatever
clause is relaxed.  Relaxing a clause keeps the pool's shape: single-card melds stay
single, and copies number at most N // the kinds' least size.
"""
from __future__ import annotations

import itertools
import math

import z3

from .melds import Contract, PlacedMeld
import functools

from .z3terms import (
    NUMBERS as _NUMBERS,
    one_of as _one_of,
    reads as _reads,
    single_numbers as _single_numbers,
)


class _Meld:
    """The variables of one meld of the pool, and its numbers as terms."""

    def __init__(self, tag: str, slot, required: bool, types, stand_ins: bool):
        self.tag, self.slot, self.required = tag, slot, required
        nat = [t for t in types if t.natural]
        self.x = {t.index: z3.Int(f"x_{tag}_{t.index}") for t in types}
        self.y = {t.index: z3.Int(f"y_{tag}_{t.index}") for t in nat} if stand_ins else {}
        self.z = {t.index: self.x[t.index] + self.y.get(t.index, 0) for t in nat}
        self.sel = ({slot.kinds[0]: z3.BoolVal(True)} if len(slot.kinds) == 1
                    else {k: z3.Bool(f"k_{tag}_{k}") for k in slot.kinds})
        self.pick: dict[str, dict] = {}          # `same` attribute -> {value: Bool}
        self.start = z3.Int(f"start_{tag}")       # first value of a run
        self.act = z3.Bool(f"act_{tag}")          # holds a card
        self.naturals = z3.Sum([self.x[t.index] for t in nat])
        self.wilds = z3.Sum([self.x[t.index] for t in types if t.wild])
        self.size = self.naturals + self.wilds
        self.points = z3.Sum([t.value * self.z[t.index] for t in nat])
        self.face_points = z3.Sum([t.value * self.x[t.index] for t in types])


@functools.cache
def copy_solver(base):
    """The copy encoding's solver class, built on `base` (`z3melds.Queries`, the queries both
    encodings answer: passed in, so that this module need not import the other)."""

    class CopySolver(base):
        """Constraints for one (spec, contract, max_cards), built once; hands come as assumptions."""

        def __init__(self, spec, contract: Contract, max_cards: int):
            super().__init__(spec, contract, max_cards)
            kinds = spec.meld_kinds
            product = len(self.naturals) == math.prod(len(v) for v in spec.cards.attributes.values())

            def stand_ins(slot) -> bool:
                """Must the wilds' stand-ins be solved for? Not where they need only share the
                meld's `same` values: a natural with those values is named afterwards."""
                return _reads("points", contract.rules) or any(
                    kinds[k].distinct or kinds[k].run or _reads("points", kinds[k].rules)
                    or (len(kinds[k].same) > 1 and not product) for k in slot.kinds)

            # --- the pool: required melds, copies of extra melds, single-card counts ----------
            self.copies: list[tuple] = []                 # (extra slot, its copies)
            self.singles: dict[tuple, z3.ArithRef] = {}   # (slot no., kind, card, stand-in) -> Int
            self.melds = [_Meld(f"r{i}", slot, True, self.types, stand_ins(slot)) for i, slot in enumerate(contract.required)]
            runs = [list(g) for _, g in itertools.groupby(self.melds, lambda m: m.slot)]   # interchangeable melds
            for i, slot in enumerate(contract.extras):
                if all(kinds[k].size_max == 1 for k in slot.kinds):
                    tracked = _reads("points", contract.rules) or any(_reads("points", kinds[k].rules) for k in slot.kinds)
                    for k in slot.kinds:
                        for t in self.types:
                            for st in [t] if t.natural else self.naturals if tracked else self.naturals[:1]:
                                self.singles[i, k, t.index, st.index] = z3.Int(f"c_{i}_{k}_{t.index}_{st.index}")
                    continue
                least = max(1, min(kinds[k].size_min for k in slot.kinds))
                copies = [_Meld(f"e{i}_{j}", slot, False, self.types, stand_ins(slot)) for j in range(max_cards // least)]
                runs.append(copies)
                self.melds += copies
                self.copies.append((slot, copies))
                for m in copies[max_cards // max(slot.size, least):]:    # the slot's size leaves room
                    self._tag(slot.clause, z3.Not(m.act))                  # for fewer copies

            for m in self.melds:
                self._meld(m, kinds)
            for run in runs:
                for a, b in zip(run, run[1:]):
                    self._order(a, b, kinds)
            self._singles(kinds)
            self._contract()
            self._conservation()

        def _pick(self, m: _Meld, attr: str) -> dict:
            if attr not in m.pick:
                values = dict.fromkeys(t.attrs[attr] for t in self.naturals)
                m.pick[attr] = {v: z3.Bool(f"v_{m.tag}_{attr}_{v}") for v in values}
            return m.pick[attr]

        # ---- constraint groups ---------------------------------------------------------------
        def _meld(self, m: _Meld, kinds) -> None:
            """Bookkeeping (untagged), then the slot (slot.clause) and each kind it allows."""
            s, N = self.s, self.N
            s.add([z3.And(v >= 0, v <= N) for v in list(m.x.values()) + list(m.y.values())])
            s.add(m.start >= -N, m.start <= 10 * N)
            s.add(z3.Implies(m.act, m.size >= 1), z3.Implies(z3.Not(m.act), z3.And([v <= 0 for v in m.x.values()])))
            if m.y:                                          # each wild stands for one natural
                s.add(z3.Sum(list(m.y.values())) == m.wilds)
            if len(m.sel) > 1:                               # one kind among the slot's
                s.add(_one_of(list(m.sel.values())))
            # a required meld exists and has the slot's size; an extra one, if laid, has it
            fits = (m.size == m.slot.size) if m.slot.exact else (m.size >= m.slot.size)
            self._tag(m.slot.clause, z3.And(m.act, fits) if m.required else z3.Implies(m.act, fits))
            for kid, on in m.sel.items():
                self._kind(m, kinds[kid], on)

        def _kind(self, m: _Meld, kind, on) -> None:
            """A meld of this kind: size range, same / distinct / run on the cards as seen
            (kind.clause); then each of the kind's rules under its own clause."""
            cards, nat = self.spec.cards, self.naturals
            cs = [z3.Implies(m.act, m.size >= kind.size_min)]
            if kind.size_max is not None:
                cs.append(m.size <= kind.size_max)
            for a in kind.same:                              # one value of a, shared by all
                pick = self._pick(m, a)
                cs.append(_one_of(list(pick.values())))
                cs += [z3.Implies(z3.Not(pick[t.attrs[a]]), v <= 0)
                       for t in nat for v in [m.x[t.index]] + ([m.y[t.index]] if m.y else [])]
            for a in kind.distinct + ((kind.run,) if kind.run else ()):   # each value at most once
                for value in cards.attributes[a]:
                    group = [m.z[t.index] for t in nat if t.attrs[a] == value]
                    if group:
                        cs.append(z3.Sum(group) <= 1)
            if kind.run:                                     # values fill [start, start + size - 1]
                dom = [cards.code(kind.run, v) for v in cards.attributes[kind.run]]
                end = m.start + m.size - 1
                cs += [m.start >= min(dom), end <= max(dom)]
                for t in nat:
                    r = cards.code(kind.run, t.attrs[kind.run])
                    cs.append(z3.Implies(m.z[t.index] >= 1, z3.And(m.start <= r, r <= end)))
            self._tag(kind.clause, z3.Implies(on, z3.And(cs)))
            env = dict(self.params, **{n: getattr(m, n) for n in _NUMBERS})
            for rule in kind.rules:
                self._rule(rule, z3.Implies(z3.And(on, m.act), rule.expr.to_z3(env)))

        def _order(self, a: _Meld, b: _Meld, kinds) -> None:
            """Symmetry breaking between interchangeable melds: active ones first, then by
            kind, by the value of the first `same` attribute (else the run's start), then the
            larger first. Any lay-down can be sorted so, whatever clause is relaxed."""
            s, ks = self.s, list(a.sel)
            s.add(z3.Implies(b.act, a.act))
            for j, k in enumerate(ks[1:], 1):
                s.add(z3.Implies(z3.And(b.act, b.sel[k]), z3.Or([a.sel[u] for u in ks[:j + 1]])))
            for k in ks:
                both, kind = z3.And(b.act, a.sel[k], b.sel[k]), kinds[k]
                if kind.same:
                    pa, pb = self._pick(a, kind.same[0]), self._pick(b, kind.same[0])
                    values = list(pa)
                    for j, v in enumerate(values):
                        s.add(z3.Implies(z3.And(both, pb[v]), z3.Or([pa[u] for u in values[:j + 1]])))
                        s.add(z3.Implies(z3.And(both, pb[v], pa[v]), a.size >= b.size))
                elif kind.run:
                    s.add(z3.Implies(both, z3.And(a.start <= b.start, z3.Implies(a.start == b.start, a.size >= b.size))))
                else:
                    s.add(z3.Implies(both, a.size >= b.size))

        def _singles(self, kinds) -> None:
            """Single-card melds have constant numbers: a clause that forbids one (kind, card,
            stand-in) forbids its count."""
            types = self.spec.cards.types
            for (i, k, t, st), c in self.singles.items():
                slot, kind = self.contract.extras[i], kinds[k]
                self.s.add(c >= 0, c <= self.N)
                if not slot.fits(1):
                    self._tag(slot.clause, c == 0)
                if kind.size_min > 1:
                    self._tag(kind.clause, c == 0)
                env = dict(self.params, **_single_numbers(types[t], types[st]))
                for rule in kind.rules:
                    if not rule.expr.evaluate(env):
                        self._rule(rule, c == 0)

        def _contract(self) -> None:
            """Distinct values between required melds; rules over the whole lay-down."""
            c, types = self.contract, self.spec.cards.types
            req = [m for m in self.melds if m.required]
            for attr in c.distinct:
                for i, a in enumerate(req):
                    for b in req[i + 1:]:
                        pa, pb = self._pick(a, attr), self._pick(b, attr)
                        self._tag(c.distinct_clause, z3.Implies(z3.And(a.act, b.act),
                                                                z3.And([z3.Not(z3.And(pa[v], pb[v])) for v in pa])))
            for rule in c.rules:                            # numbers summed over the melds counted
                def counted(k, rule=rule):
                    return rule.kinds is None or k in rule.kinds
                env = dict(self.params)
                for n in _NUMBERS:
                    terms = [getattr(m, n) if all(map(counted, m.sel)) else
                             z3.If(z3.Or([b for k, b in m.sel.items() if counted(k)]), getattr(m, n), 0)
                             for m in self.melds if any(map(counted, m.sel))]
                    terms += [cnt * _single_numbers(types[t], types[st])[n]
                              for (_, k, t, st), cnt in self.singles.items() if counted(k)]
                    env[n] = z3.Sum(terms) if terms else z3.IntVal(0)
                self._rule(rule, rule.expr.to_z3(env))

        def _conservation(self) -> None:
            """The hand H, its laid part L, the melds using exactly L (untagged); the keep."""
            s, c = self.s, self.contract
            self.H = {t.index: z3.Int(f"H_{t.index}") for t in self.spec.cards.types}
            self.L = {t.index: z3.Int(f"L_{t.index}") for t in self.types}
            for i, laid in self.L.items():
                used = [m.x[i] for m in self.melds] + [v for k, v in self.singles.items() if k[2] == i]
                s.add(laid >= 0, laid <= self.H[i], z3.Sum(used) == laid)
            laid = z3.Sum(list(self.L.values()))
            need = sum(sl.size for sl in c.required)
            for slot, copies in self.copies:     # copy j laid: so are the required melds and j more
                lits = [self._lit(cl) for cl in dict.fromkeys([sl.clause for sl in c.required] + [slot.clause])]
                for j, m in enumerate(copies):
                    s.add(z3.Implies(z3.And(lits), z3.Implies(m.act, laid >= need + (j + 1) * slot.size)))
            self.all_laid = z3.Bool("mode:all-laid")         # decide: every card is laid
            s.add(z3.Implies(self.all_laid, z3.And([self.L[i] == self.H[i] for i in self.L])))
            self.laid_face = z3.Sum([t.value * self.L[t.index] for t in self.types])
            self.keep_lit = None                             # best_lay: cards stay in hand
            if c.keep:
                self.keep_lit = z3.Bool(f"keep:{c.keep_clause}")
                self.lit_clause[self.keep_lit] = c.keep_clause
                s.add(z3.Implies(self.keep_lit, z3.Sum(list(self.H.values())) - laid >= c.keep))

        # ---- queries -------------------------------------------------------------------------
        def _caps(self, i: int, k: int) -> list:
            """With k cards of type i in hand, no meld holds more of them (prunes early)."""
            return [m.x[i] <= k for m in self.melds if i in m.x] + [v <= k for key, v in self.singles.items()
                                                                      if key[2] == i]

        def _wild_caps(self, w: int) -> list:
            """Stand-ins: as many as the wilds in hand."""
            return [v <= w for m in self.melds for v in m.y.values()]

        # ---- reading the answer --------------------------------------------------------------
        def _witness(self, model, hand) -> list[PlacedMeld]:
            """The melds of a model (only the hand's card types are read: the others are 0)."""
            types, out = self.spec.cards.types, []
            held = [t for t in self.types if hand[t.index]]

            def ev(e):
                return model.eval(e, True).as_long()

            def true(b):
                return z3.is_true(model.eval(b, True))

            for m in self.melds:
                if not true(m.act):
                    continue
                kind = next(k for k, b in m.sel.items() if true(b))
                nat = [t.index for t in held if t.natural for _ in range(ev(m.x[t.index]))]
                wild = [t.index for t in held if t.wild for _ in range(ev(m.x[t.index]))]
                if not wild:
                    stand = []
                elif m.y:
                    stand = [t.index for t in self.naturals for _ in range(ev(m.y[t.index]))]
                else:                                        # a natural with the meld's `same` values
                    fixed = {a: v for a in self.spec.meld_kinds[kind].same for v, b in self._pick(m, a).items() if true(b)}
                    stand = [next(t.index for t in self.naturals
                                  if all(t.attrs[a] == v for a, v in fixed.items()))] * len(wild)
                stands_for = tuple((len(nat) + p, dict(types[i].attrs)) for p, i in enumerate(stand))
                out.append(PlacedMeld(kind, m.required, tuple(nat + wild), stands_for,
                                      sum(types[i].value for i in nat + stand)))
            for (_, k, t, st), c in self.singles.items():
                for _ in range(ev(c) if hand[t] else 0):
                    stands_for = ((0, dict(types[st].attrs)),) if types[t].wild else ()
                    out.append(PlacedMeld(k, False, (t,), stands_for, types[st].value))
            return out

    return CopySolver
