"""Meld legality decided by Z3, straight from the spec, every rule tagged with its clause.

The questions: may these cards (a hand, as counts by card type) ALL be laid down together
this turn under a contract (a Tick level, a Rummikub initial meld)?  And for `best_lay`:
which part of the hand to lay so the laid face value is greatest while `contract.keep`
cards stay in hand?

A `MeldSolver` holds, for one (spec, contract, capacity N), a fixed pool of melds:

  * one meld per required slot; per extra slot, copies for as many melds as N cards
    could fill (N // the kinds' least size); a meld is *active* when it holds a card;
  * per meld m: Int x[m][t] = cards of type t in it (naturals and wilds) and, where a
    wild's stand-in matters (distinct, run, points), Int y[m][t] = wilds of m standing
    for natural t; same / distinct / run are stated linearly on z = x + y, the cards as
    seen once the wilds are replaced.  A `same` value is a one-hot Bool pick per meld;
  * an extra slot whose kinds hold one card at most (Tick's wilds laid alone) is kept as
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
import re

import z3

from .melds import Contract, PlacedMeld, Verdict, Violation

TIMEOUT_MS = 10_000          # per check
SHRINK_TIMEOUT_MS = 1_000    # per check while shrinking a core (unknown keeps the clause)
CAPACITY_STEP = 8            # hand sizes round up to a multiple of this, to share solvers
_NUMBERS = ("size", "naturals", "wilds", "points", "face_points")
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _one_of(bools):
    """Exactly one, as clauses (they propagate better here than PbEq)."""
    return z3.And([z3.Or(bools)] + [z3.Or(z3.Not(a), z3.Not(b)) for i, a in enumerate(bools) for b in bools[i + 1:]])


def _reads_points(rules) -> bool:
    return any("points" in r.expr.names for r in rules)


def _single_numbers(card, stand) -> dict:
    """The numbers of a one-card meld: `card`, standing for `stand` if it is a wild."""
    return dict(size=1, naturals=int(card.natural), wilds=int(card.wild), points=stand.value,
                face_points=card.value)


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


class MeldSolver:
    """Constraints for one (spec, contract, max_cards), built once; hands come as assumptions."""

    def __init__(self, spec, contract: Contract, max_cards: int):
        self.spec, self.contract, self.N = spec, contract, max_cards
        self.types = [t for t in spec.cards.types if not t.special]
        self.naturals = [t for t in self.types if t.natural]
        self.params = dict(spec.params)
        self.s = z3.Solver()
        self.s.set("timeout", TIMEOUT_MS)
        self.lits: dict[str, z3.BoolRef] = {}         # clause id -> its assumption literal
        self.lit_clause: dict = {}                    # literal -> clause id
        self.rule_uses: dict[str, list] = {}          # clause of a rule -> clauses it reads
        self._hand_lits, self._ge_lits = {}, {}
        kinds = spec.meld_kinds
        product = len(self.naturals) == math.prod(len(v) for v in spec.cards.attributes.values())

        def stand_ins(slot) -> bool:
            """Must the wilds' stand-ins be solved for? Not where they need only share the
            meld's `same` values: a natural with those values is named afterwards."""
            return _reads_points(contract.rules) or any(
                kinds[k].distinct or kinds[k].run or _reads_points(kinds[k].rules)
                or (len(kinds[k].same) > 1 and not product) for k in slot.kinds)

        # --- the pool: required melds, copies of extra melds, single-card counts ----------
        self.copies: list[tuple] = []                 # (extra slot, its copies)
        self.singles: dict[tuple, z3.ArithRef] = {}   # (slot no., kind, card, stand-in) -> Int
        self.melds = [_Meld(f"r{i}", slot, True, self.types, stand_ins(slot)) for i, slot in enumerate(contract.required)]
        runs = [list(g) for _, g in itertools.groupby(self.melds, lambda m: m.slot)]   # interchangeable melds
        for i, slot in enumerate(contract.extras):
            if all(kinds[k].size_max == 1 for k in slot.kinds):
                tracked = _reads_points(contract.rules) or any(_reads_points(kinds[k].rules) for k in slot.kinds)
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

    # ---- tags ----------------------------------------------------------------------------
    def _lit(self, clause: str) -> z3.BoolRef:
        if clause not in self.lits:
            self.lits[clause] = b = z3.Bool(f"clause:{clause}")
            self.lit_clause[b] = clause
        return self.lits[clause]

    def _tag(self, clause: str, constraint) -> None:
        self.s.add(z3.Implies(self._lit(clause), constraint))

    def _rule(self, rule, constraint) -> None:
        uses = self.rule_uses.setdefault(rule.clause, [])
        uses += [c for c in rule.uses if c not in uses]
        self._tag(rule.clause, constraint)

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
    def _hand(self, hand) -> list:
        """Assumption literals pinning H to the hand (each asserted once, then reused); they
        also cap every meld's count of the card, which prunes early."""
        if sum(hand) > self.N:
            raise ValueError(f"a hand of {sum(hand)} cards exceeds this solver's capacity ({self.N})")
        out = []
        for i, k in enumerate(hand):
            if (i, k) not in self._hand_lits:
                self._hand_lits[i, k] = b = z3.Bool(f"hand_{i}_{k}")
                caps = [m.x[i] <= k for m in self.melds if i in m.x] + [v <= k for key, v in self.singles.items()
                                                                        if key[2] == i]
                self.s.add(z3.Implies(b, z3.And([self.H[i] == k] + caps)))
            out.append(self._hand_lits[i, k])
        w = sum(hand[t.index] for t in self.types if t.wild)      # stand-ins: as many as wilds
        if ("wilds", w) not in self._hand_lits:
            self._hand_lits["wilds", w] = b = z3.Bool(f"hand_wilds_{w}")
            self.s.add(z3.Implies(b, z3.And([v <= w for m in self.melds for v in m.y.values()])))
        return out + [self._hand_lits["wilds", w]]

    def _check(self, base: list):
        return self.s.check(base + list(self.lits.values()))

    def _unknown(self, what: str = "") -> Verdict:
        return Verdict(None, engine="z3", note=f"z3 could not decide{what}: {self.s.reason_unknown()}")

    def decide(self, hand, explain: bool = True) -> Verdict:
        """May all these cards be laid down together under the contract?"""
        hand = tuple(hand)
        specials = [t.token for t in self.spec.cards.types if t.special and hand[t.index]]
        if specials:
            c = self.spec.rules("cards")[0][0]
            why = f"{', '.join(specials)} never goes into a meld. {_first_sentence(self.spec.clauses[c].says)}"
            return Verdict(False, violations=[Violation(c, self.spec.source(c), why)], engine="z3")
        base = self._hand(hand) + [self.all_laid]
        r = self._check(base)
        if r == z3.sat:
            return Verdict(True, melds=self._witness(self.s.model(), hand), engine="z3")
        if r == z3.unsat:
            return Verdict(False, violations=self._violations(base) if explain else [], engine="z3")
        return self._unknown()

    def best(self, hand) -> Verdict:
        """The legal lay-down of most face value that leaves contract.keep cards in hand:
        a binary search on "laid face value >= k", each bound an assumption literal."""
        hand = tuple(hand)
        base = self._hand(hand) + ([self.keep_lit] if self.keep_lit is not None else [])
        r = self._check(base)
        if r == z3.unsat:
            return Verdict(False, violations=self._violations(base), engine="z3")
        if r != z3.sat:
            return self._unknown()
        model = self.s.model()
        lo = model.eval(self.laid_face, True).as_long()                                # reached
        hi = sum(n * self.spec.cards.types[i].value for i, n in enumerate(hand)) + 1    # out of reach
        while hi - lo > 1:
            k = (lo + hi + 1) // 2
            if k not in self._ge_lits:
                self._ge_lits[k] = b = z3.Bool(f"laid_ge_{k}")
                self.s.add(z3.Implies(b, self.laid_face >= k))
            r = self._check(base + [self._ge_lits[k]])
            if r == z3.sat:
                model = self.s.model()
                lo = model.eval(self.laid_face, True).as_long()
            elif r == z3.unsat:
                hi = k
            else:
                return self._unknown(" the best lay-down")
        melds = self._witness(model, hand)
        left = list(hand)
        for i in (i for pm in melds for i in pm.cards):
            left[i] -= 1
        kept = tuple(i for i, n in enumerate(left) for _ in range(n))
        return Verdict(True, melds=melds, engine="z3", kept=kept, points=lo)

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

    def _violations(self, base: list) -> list[Violation]:
        """A minimal set of clauses that forbids the lay-down, rule clauses first.

        Z3's core is shrunk by deletion: a clause literal left out of the assumptions is
        free, so the solver may switch that clause's constraints off."""
        core = [b for b in self.s.unsat_core() if b in self.lit_clause]
        fixed = [b for b in base if b not in self.lit_clause]        # the hand and the mode
        self.s.set("timeout", SHRINK_TIMEOUT_MS)
        try:
            for b in list(core):
                trial = [c for c in core if not c.eq(b)]
                if self.s.check(fixed + trial) == z3.unsat:
                    kept = {c.get_id() for c in self.s.unsat_core()}
                    core = [c for c in trial if c.get_id() in kept]
        finally:
            self.s.set("timeout", TIMEOUT_MS)
        order = list(self.contract.clauses)
        clauses = sorted(dict.fromkeys(self.lit_clause[b] for b in core),
                         key=lambda c: (c not in self.rule_uses, order.index(c) if c in order else len(order)))
        clauses = list(dict.fromkeys(u for c in clauses for u in [c] + self.rule_uses.get(c, [])))
        return [Violation(c, self.spec.source(c), self._why(c)) for c in clauses]

    def _why(self, clause: str) -> str:
        c = self.contract
        if any(s.clause == clause for s in c.required):
            return f"{c.name} asks for: {describe_required(c)}"
        says = _first_sentence(self.spec.says(clause)) if clause in self.spec.clauses else clause
        if clause == c.keep_clause:
            return f"{says} ({c.keep} card{'s' if c.keep != 1 else ''} must stay in hand)"
        return says


def _first_sentence(text: str) -> str:
    first = re.split(r"(?<=[.!?])\s+", " ".join(text.split()), maxsplit=1)[0]
    return first if first.endswith((".", "!", "?")) else first + "."


def describe_required(contract: Contract) -> str:
    """What a contract's required slots ask for, e.g. "two sets of at least 6 cards"."""
    groups: dict = {}
    for s in contract.required:
        groups[s] = groups.get(s, 0) + 1
    return ", ".join(f"{_WORDS.get(n, str(n))} {' or '.join(k + 's' * (n > 1) for k in s.kinds)} of "
                     f"{'exactly' if s.exact else 'at least'} {s.size} cards" for s, n in groups.items()) or "nothing"


# ---- module API -------------------------------------------------------------------------------
_CACHE: dict = {}


def _capacity(hand) -> int:
    return max(CAPACITY_STEP, -(-sum(hand) // CAPACITY_STEP) * CAPACITY_STEP)


def solver_for(spec, contract: Contract, hand) -> MeldSolver:
    """The shared solver for this spec file, readings, contract and hand size (rounded up).
    A spec changed in memory under the same key (say, a rule dropped) gets its own."""
    key = (spec.file, tuple(sorted(spec.chosen.items())), contract.name, _capacity(hand))
    solver = _CACHE.get(key)
    if solver is None or not ((solver.spec is spec or (solver.spec.meld_kinds, solver.spec.cards, solver.spec.params)
                               == (spec.meld_kinds, spec.cards, spec.params)) and _shape(solver.contract) == _shape(contract)):
        solver = _CACHE[key] = MeldSolver(spec, contract, key[-1])
    return solver


def _shape(c: Contract) -> tuple:
    """All of a contract that the constraints depend on (its `clauses` list is not)."""
    return c.required, c.extras, c.rules, c.distinct, c.distinct_clause, c.keep, c.keep_clause


def decide(spec, contract: Contract, hand, *, reuse: bool = True, explain: bool = True) -> Verdict:
    """May these cards ALL be laid down together this turn under `contract`?  With
    `explain=False` an illegal verdict comes without its (costlier) violations."""
    solver = solver_for(spec, contract, hand) if reuse else MeldSolver(spec, contract, _capacity(hand))
    return solver.decide(hand, explain)


def best_lay(spec, contract: Contract, hand) -> Verdict:
    """The lay-down of most face value that keeps contract.keep cards in hand."""
    return solver_for(spec, contract, hand).best(hand)
