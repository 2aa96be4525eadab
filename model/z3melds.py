"""Meld legality decided by Z3, straight from the spec, every rule tagged with its clause.

The questions: may these cards (a hand, as counts by card type) ALL be laid down together
this turn under a contract (a level's minimum lay-down, an initial meld)?  And for `best_lay`:
which part of the hand to lay so the laid face value is greatest while `contract.keep`
cards stay in hand?

The count encoding.  A `MeldSolver` holds, for one (spec, contract, capacity N), integer
counts rather than cards placed in meld copies.  Each meld kind the contract uses is read
from the spec as one of three shapes:

  * *positional* (the kind has `distinct` or `run`): a meld is a set of positions, each
    a cell of like naturals (the values of the kind's same/distinct/run attributes), a
    wild standing in where no natural fills it.  Every possible position set (a run's
    start and length, a group's colours) is a candidate with a multiplicity per slot
    (den Hertog and Hulshof's formulation for tile rummy).  Wilds are counted per cell they
    stand in for; where a meld rule reads the wilds (say, at least one natural), per
    candidate and position, the multiplicity's melds sharing them out evenly;
  * *multiset* (a `size_max`, no distinct/run: say, wilds laid alone): every content
    (cell, naturals, wilds) is a candidate with a multiplicity;
  * *open* (neither: sets of like cards, cards of one colour): one meld per
    required slot, with a count per cell and a one-hot pick of its cell; the further
    melds of a slot are merged into one per cell when the kind's rules and the slot
    survive merging two melds (checked with Z3 once: `wilds <= naturals` does, `size <=
    4` does not), copies otherwise.

Naturals are shared between kinds per card type; a cell's naturals are interchangeable
for the kind.  Every number a rule reads (size, naturals, wilds, points, face_points) is a
linear term of these counts.

The hand is never asserted: Int H[t] is pinned per query by assumption literals
`H[t] == k` (one Boolean per type and count, made when first needed); the laid part L[t]
(== H[t] for `decide`, <= H[t] for `best_lay`) is tied to the counts by conservation.
The exception is a solver built for one position (`for_position`, the table question of
`rulings.rearrange`): there the cards are numbers in the text, a candidate the cards
cannot fill (more empty positions than wilds) is never made, every count is bounded below
only (conservation bounds it above by the position's cards), and, where no rule over the
lay-down reads a kind's wilds, the wilds standing in for a card type are one count for
all kinds: a model several times smaller.

Two twins per contract.  Verdicts, witnesses and best lay-downs come from the *untagged*
one: every clause's constraints asserted outright, candidates no clause allows never made,
and a further meld that splits into two allowed further melds left out (where no rule
reads a meld's wilds: runs of 3 to 5 where runs start at 3).  The *tagged* one, built on the
first explanation, asserts each clause's constraints as `Implies(p_clause, c)` with
p_clause passed as an assumption, so an unsat core names the clauses that forbid the
lay-down; there a kind's own clause gates a *shapeless* twin of the kind (any cards, the
slot's size and the kind's rules kept), usable only when that clause is relaxed.
Conservation and "every card is used" are untagged in both: they are the question; so
are symmetry breaking and bookkeeping, which hold whatever clause is relaxed.

Both are written as SMT-LIB text and parsed in one call (Z3's Python API costs a few
microseconds a term), and a witness reads every variable it needs from one packed number.

What the count encoding does not cover (a kind with both distinct and run, points read
where a cell's naturals differ in value, a meld rule on face_points of a positional kind,
a rule that allows a meld's wilds in two separate ranges) goes to the copy encoding in
`z3copies.py`, which answers the same queries.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import re

import z3

from .melds import Contract, PlacedMeld, Verdict, Violation
from .z3terms import NUMBERS as _NUMBERS, reads as _reads

TIMEOUT_MS = 10_000          # per check
SHRINK_TIMEOUT_MS = 1_000    # per check while shrinking a core (unknown keeps the clause)
RLIMIT = 1_000_000_000       # per check, in Z3 resource units, where asked for (`for_position`): some 15 s loaded
RLIMIT_TIMEOUT_MS = 120_000  # the clock that still stops a check under RLIMIT
WITNESS_BUDGET = 200_000     # states the reference's search may visit for a witness shown (`_arranged`)
CAPACITY_STEP = 8            # hand sizes round up to a multiple of this, to share solvers
SHAPE_LIMIT = 20_000         # positional candidates per kind before the copy encoding takes over
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class Unsupported(Exception):
    """A spec shape the count encoding does not cover (the copy encoding takes it)."""


_CLOSED: dict = {}


def _merge_closed(rules, params) -> bool:
    """Do two melds that meet these rules still meet them as one (numbers added)?  Asked
    of Z3 over all numbers with naturals, wilds >= 0; 'unknown' counts as no."""
    key = (tuple(r.expr.text for r in rules), tuple(sorted(params.items())))
    if key not in _CLOSED:
        s = z3.Solver()
        s.set("timeout", 2_000)
        env = [{n: z3.Int(f"{n}_{side}") for n in _NUMBERS} for side in "ab"]
        for e in env:
            s.add(e["naturals"] >= 0, e["wilds"] >= 0, e["size"] == e["naturals"] + e["wilds"], e["size"] >= 1)
        both = {n: env[0][n] + env[1][n] for n in _NUMBERS}
        for side in env:
            s.add([r.expr.to_z3(dict(params, **side)) for r in rules])
        s.add(z3.Not(z3.And([r.expr.to_z3(dict(params, **both)) for r in rules])))
        _CLOSED[key] = s.check() == z3.unsat
    return _CLOSED[key]


# ---- the queries both encodings answer ----------------------------------------------------------

class Queries:
    """Clause literals, hand literals, decide / best and the unsat-core explanation, over a
    solver `s` with H (hand), L (laid part), `all_laid`, `laid_face` and `keep_lit` set by
    the encoding, which also gives `_witness(model, hand)`. `ctx`: the Z3 context its terms
    live in (None: Z3's main one)."""

    ctx = None

    def __init__(self, spec, contract: Contract, max_cards: int):
        self.spec, self.contract, self.N = spec, contract, max_cards
        self.types = [t for t in spec.cards.types if not t.special]
        self.naturals = [t for t in self.types if t.natural]
        self.wild_types = [t for t in self.types if t.wild]
        self.params = dict(spec.params)
        self.s = self._new_solver()
        self.s.set("timeout", TIMEOUT_MS)
        self.lits: dict[str, z3.BoolRef] = {}         # clause id -> its assumption literal
        self.lit_clause: dict = {}                    # literal -> clause id
        self.rule_uses: dict[str, list] = {}          # clause of a rule -> clauses it reads
        self._hand_lits, self._ge_lits = {}, {}

    def _new_solver(self):
        return z3.Solver()

    # ---- tags ----------------------------------------------------------------------------
    def _lit(self, clause: str) -> z3.BoolRef:
        if clause not in self.lits:
            self.lits[clause] = b = z3.Bool(f"clause:{clause}", self.ctx)
            self.lit_clause[b] = clause
        return self.lits[clause]

    def _tag(self, clause: str, constraint) -> None:
        self.s.add(z3.Implies(self._lit(clause), constraint))

    def _rule(self, rule, constraint) -> None:
        uses = self.rule_uses.setdefault(rule.clause, [])
        uses += [c for c in rule.uses if c not in uses]
        self._tag(rule.clause, constraint)

    # ---- queries -------------------------------------------------------------------------
    def _caps(self, i: int, k: int) -> list:
        return []

    def _wild_caps(self, w: int) -> list:
        return []

    def _hand(self, hand) -> list:
        """Assumption literals pinning H to the hand (each asserted once, then reused)."""
        if sum(hand) > self.N:
            raise ValueError(f"a hand of {sum(hand)} cards exceeds this solver's capacity ({self.N})")
        out = []
        lits = self._hand_lits
        for i, k in enumerate(hand):
            b = lits.get((i, k))
            if b is None:
                lits[i, k] = b = z3.Bool(f"hand_{i}_{k}", self.ctx)
                self.s.add(z3.Implies(b, z3.And([self.H[i] == k] + self._caps(i, k))))
            out.append(b)
        w = sum(hand[t.index] for t in self.wild_types)
        b = lits.get(("wilds", w))
        if b is None:
            caps = self._wild_caps(w)
            lits["wilds", w] = b = z3.Bool(f"hand_wilds_{w}", self.ctx) if caps else None
            if caps:
                self.s.add(z3.Implies(b, z3.And(caps)))
        return out + ([b] if b is not None else [])

    def _check(self, base: list):
        return self.s.check(base + list(self.lits.values()))

    def _unknown(self, what: str = "") -> Verdict:
        return Verdict(None, engine="z3", note=f"z3 could not decide{what}: {self.s.reason_unknown()}")

    def decide(self, hand, explain: bool = True, witness: bool | str = True) -> Verdict:
        """May all these cards be laid down together under the contract?  The witness (the
        melds) is given only with `witness`, the clauses against only with `explain`.
        The melds shown are those of `_arranged` (the same for the same cards, whatever
        this solver was asked before); `witness="model"` reads them from this solver's own
        model instead (what the cross-checks hold to the rules)."""
        hand = tuple(hand)
        specials = [t.token for t in self.spec.cards.types if t.special and hand[t.index]]
        if specials:
            c = self.spec.rules("cards")[0][0]
            why = f"{', '.join(specials)} never goes into a meld. {_first_sentence(self.spec.clauses[c].says)}"
            return Verdict(False, violations=[Violation(c, self.spec.source(c), why)], engine="z3")
        base = self._hand(hand) + [self.all_laid]
        r = self._check(base)
        if r == z3.sat:
            melds = (self._witness(self.s.model(), hand) if witness == "model"
                     else self._arranged(hand, None) if witness else [])
            return Verdict(True, melds=melds, engine="z3")
        if r == z3.unsat:
            return self._refused(hand, best=False, explain=explain)
        return self._unknown()

    def best(self, hand, witness: str = "arranged") -> Verdict:
        """The legal lay-down of most face value that leaves contract.keep cards in hand: a
        descending search on "laid face value >= k", each bound an assumption literal; the
        first bound tried is what the hand could reach at most, then halves of the gap.
        The melds shown: as for `decide` (`witness="model"`: the last model's)."""
        hand = tuple(hand)
        base = self._hand(hand) + ([self.keep_lit] if self.keep_lit is not None else [])
        r = self._check(base)
        if r == z3.unsat:
            return self._refused(hand, best=True)
        if r != z3.sat:
            return self._unknown()
        model = self.s.model()
        lo = model.eval(self.laid_face, True).as_long()                                 # reached
        values = sorted(self.spec.cards.types[i].value for i, n in enumerate(hand)
                        if not self.spec.cards.types[i].special for _ in range(n))
        hi = sum(values[self.contract.keep:]) + 1                                        # out of reach
        first = True
        while hi - lo > 1:
            k = hi - 1 if first else (lo + hi + 1) // 2
            if first and not self.contract.keep and not any(hand[t.index] for t in self.spec.cards.types if t.special):
                bound = self.all_laid          # the whole hand: asked as `decide` asks it, much faster
            else:
                if k not in self._ge_lits:
                    self._ge_lits[k] = b = z3.Bool(f"laid_ge_{k}", self.ctx)
                    self.s.add(z3.Implies(b, self.laid_face >= k))
                bound = self._ge_lits[k]
            first = False
            r = self._check(base + [bound])
            if r == z3.sat:
                model = self.s.model()
                lo = model.eval(self.laid_face, True).as_long()
            elif r == z3.unsat:
                hi = k
            else:
                return self._unknown(" the best lay-down")
        melds = self._witness(model, hand) if witness == "model" else self._arranged(hand, lo)
        left = list(hand)
        for i in (i for pm in melds for i in pm.cards):
            left[i] -= 1
        kept = tuple(i for i, n in enumerate(left) for _ in range(n))
        return Verdict(True, melds=melds, engine="z3", kept=kept, points=lo)

    def _witness(self, model, hand) -> list[PlacedMeld]:
        raise NotImplementedError

    def _arranged(self, hand, at_least: int | None) -> list[PlacedMeld]:
        """The melds shown with a legal answer: the reference
        engine's arrangement of the cards (its search is deterministic, so the same cards
        get the same melds alone or in a batch, whatever this reused solver was asked
        before), which Z3's verdict confirms: the cards all lay down (`at_least` None, as
        `decide` asks), or a lay-down of face value `at_least` is the best there is and
        the reference's is one. Where the reference finds none within WITNESS_BUDGET
        states of its search (or finds another value: the cross-checks hold that it does
        not), the model of a solver built for the question in a Z3 context of its own
        (nothing asked before it, term ids afresh; ~10 ms)."""
        from . import reference

        try:
            if at_least is None:
                melds = reference.lay_down(self.spec, self.contract, hand, budget=WITNESS_BUDGET)
            else:
                found = reference.best_lay_down(self.spec, self.contract, hand, budget=WITNESS_BUDGET)
                melds = found.melds if found is not None and found.points == at_least else None
            if melds is not None:
                return melds
        except reference.OverBudget:
            pass
        return self._own_witness(hand, at_least)

    def _own_witness(self, hand, at_least: int | None) -> list[PlacedMeld]:
        """The witness from a solver with no history: built anew in a context of its own."""
        try:
            fresh = MeldSolver(self.spec, self.contract, self.N, ctx=z3.Context())
        except Unsupported:
            fresh = build(self.spec, self.contract, self.N)
        base = fresh._hand(hand)
        if at_least is None:
            base.append(fresh.all_laid)
        else:
            if fresh.keep_lit is not None:
                base.append(fresh.keep_lit)
            bound = z3.Bool(f"laid_ge_{at_least}", fresh.ctx)
            fresh.s.add(z3.Implies(bound, fresh.laid_face >= at_least))
            base.append(bound)
        if fresh._check(base) != z3.sat:      # pragma: no cover (the reused solver found one)
            raise AssertionError("a fresh solver finds no witness the reused one found")
        return fresh._witness(fresh.s.model(), hand)

    # ---- explaining ----------------------------------------------------------------------
    def _explainer(self) -> "Queries":
        """The solver whose constraints carry their clauses (this one, unless it was built
        without them for speed)."""
        return self

    def _fresh_explainer(self) -> "Queries | None":
        """A second explainer with no history, where the first could not confirm the
        refusal (None: there is none to build)."""
        return None

    def _explain(self, hand, best: bool) -> list[Violation]:
        """The clauses that forbid the lay-down; empty when neither explainer confirmed the
        refusal (unknown within its time limit, or not unsat), which the verdict then says."""
        for make in (self._explainer, self._fresh_explainer):    # the second only if the first fails
            ex = make()
            if ex is None:
                break
            base = ex._hand(hand) + ([ex.keep_lit] if best and ex.keep_lit is not None else [] if best
                                     else [ex.all_laid])
            if ex._check(base) == z3.unsat:
                return ex._violations(base, ex.s.unsat_core())
        return []

    def _refused(self, hand, best: bool, explain: bool = True) -> Verdict:
        if not explain:
            return Verdict(False, engine="z3")
        why = self._explain(hand, best)
        return Verdict(False, violations=why, engine="z3",
                       note="" if why else "z3 could not name the clauses that forbid it (its explainer did not confirm the refusal)")

    def _violations(self, base: list, first_core=()) -> list[Violation]:
        """A minimal set of clauses that forbids the lay-down, rule clauses first.

        Found by deletion over every clause literal, in a fixed order (the meld kinds' own
        clauses first, what the contract asks for last, so it is kept where it alone
        suffices): a literal left out of the assumptions is free, so the solver may switch
        that clause's constraints off.  The set found is the deletion's, whatever the
        solver was asked before, so the same hand gets the same answer alone or in a
        batch: Z3's cores (which depend on that history) only spare checks whose answer
        they already give: a trial that holds an earlier unsat core is unsat (`first_core`:
        the core of the check that confirmed the refusal with every literal). (A model of
        a sat trial never answers a later one: it makes the literal let go false, as the
        set kept is unsat, and every later trial holds that literal.)"""
        fixed = [b for b in base if b not in self.lit_clause]        # the hand and the mode
        order = list(self.contract.clauses)
        slots = {s.clause for s in self.contract.required}
        kinds = {k.clause for k in self.spec.meld_kinds.values()}

        def weight(b):
            c = self.lit_clause[b]
            return ((c in slots) - (c in kinds), order.index(c) if c in order else len(order), c)

        core = sorted(list(self.lits.values()) + [b for b in base if b in self.lit_clause
                                                  and not any(b.eq(x) for x in self.lits.values())], key=weight)
        ids = {b.get_id() for b in core}
        unsat_sets = [frozenset(b.get_id() for b in first_core if b.get_id() in ids)] if first_core else []
        self.s.set("timeout", SHRINK_TIMEOUT_MS)
        try:
            for b in list(core):
                trial = [c for c in core if not c.eq(b)]
                tried = frozenset(c.get_id() for c in trial)
                if any(u <= tried for u in unsat_sets):
                    core = trial
                    continue
                if self.s.check(fixed + trial) == z3.unsat:
                    core = trial
                    unsat_sets.append(frozenset(c.get_id() for c in self.s.unsat_core() if c.get_id() in ids))
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


# ---- the count encoding --------------------------------------------------------------------------
# Built as SMT-LIB text and parsed by Z3 in one call: the Python API's per-term overhead
# made a solver for an eight-card-kind contract cost 30-40 ms to build; text costs a few.

_SIMPLE = re.compile(r"^[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*$")


def _sym(name: str) -> str:
    return name if _SIMPLE.match(name) else "|" + name.replace("|", "_") + "|"


def _sum(terms) -> str:
    terms = [t for t in terms if t != "0"]
    return "0" if not terms else terms[0] if len(terms) == 1 else f"(+ {' '.join(terms)})"


def _mul(k: int, t: str) -> str:
    return "0" if k == 0 or t == "0" else t if k == 1 else f"(* {_num(k)} {t})"


def _num(k: int) -> str:
    return str(k) if k >= 0 else f"(- {-k})"


def _and(cs) -> str:
    cs = list(cs)
    return "true" if not cs else cs[0] if len(cs) == 1 else f"(and {' '.join(cs)})"


def _or(cs) -> str:
    cs = list(cs)
    return "false" if not cs else cs[0] if len(cs) == 1 else f"(or {' '.join(cs)})"


@dataclasses.dataclass
class _Ctx:
    """Where melds go: a group of `count` identical required slots, or one extra slot."""
    slot: object
    required: bool
    count: int
    tag: str


class _Plan:
    """One meld kind as the count encoding reads it, or (shapeless) the same kind with its
    own clause relaxed: any cards, its size bounds and shape gone, its rules kept."""

    def __init__(self, q: "MeldSolver", kind, shapeless: bool, number: int):
        self.kind, self.shapeless = kind, shapeless        # no reference to q: no cycle keeps its context
        self._naturals = q.naturals
        self.id = f"P{number}"
        cards = q.spec.cards
        self.same = () if shapeless else kind.same
        self.distinct = () if shapeless else kind.distinct
        self.run = None if shapeless else kind.run
        self.size_min = 1 if shapeless else kind.size_min
        self.size_max = None if shapeless else kind.size_max
        self.points = q.points_read(kind)
        self.face = _reads("face_points", kind.rules)
        self.mode = ("positional" if self.distinct or self.run else
                     "multiset" if self.size_max is not None else "open")
        if self.distinct and self.run:
            raise Unsupported(f"{kind.id}: distinct and run together")
        if self.mode == "positional" and self.face:
            raise Unsupported(f"{kind.id}: a meld rule on face_points of a positional kind")
        keys = self.same + self.distinct + ((self.run,) if self.run else ())
        by_value = (self.points or self.face) and not (self.mode == "positional")
        if self.mode == "multiset" and by_value and self.size_max > 1:
            by_value = False
            self._uniform(keys, "points of a multiset kind larger than one card")
        if self.mode == "positional" and self.points:
            self._uniform(keys, "points of a positional kind")
        self.classes: dict[tuple, list[int]] = {}
        for t in q.naturals:
            key = tuple(t.attrs[a] for a in keys) + ((t.value,) if by_value else ())
            self.classes.setdefault(key, []).append(t.index)
        self.value = {c: cards.types[ts[0]].value for c, ts in self.classes.items()}
        self.groups: dict[tuple, list[tuple]] = {}                   # same values -> classes
        for c in self.classes:
            self.groups.setdefault(c[:len(self.same)], []).append(c)
        self.demand: dict[tuple, list] = {c: [] for c in self.classes}    # naturals used per class
        self.stand: dict[tuple, str] = {}                             # positional: wilds per class
        self.wild_generic: list = []                                  # wilds of any type
        self.wild_specific: dict[int, list] = {w.index: [] for w in q.wild_types}
        self.sizes: list = []
        self.point_terms: list = []
        self.opens: list[_Open] = []
        self.units: list = []            # (ctx, candidate, n var, per-position wild vars or None)
        self.exact = False               # positional: wilds tracked per candidate and position
        self.u: dict[int, str] = {}      # natural type -> its count in this plan's melds
        self.u_parts: dict[int, tuple] = {}   # ... as (terms summed, a term taken away or None)
        self.u_vars: dict[int, str] = {}

    def _uniform(self, keys, what):
        seen: dict = {}
        for t in self._naturals:
            k = tuple(t.attrs[a] for a in keys)
            if seen.setdefault(k, t.value) != t.value:
                raise Unsupported(f"{self.kind.id}: {what}, with cells of mixed values")


class _Open:
    """One meld of an open plan: counts per class, wilds, a one-hot pick of its group."""

    def __init__(self, q: "MeldSolver", plan: _Plan, ctx: _Ctx, tag: str, groups: list):
        self.plan, self.ctx, self.tag, self.required = plan, ctx, tag, ctx.required
        self.act = q.bool(f"act_{tag}")
        self.pick = ({g: "true" for g in groups} if len(groups) == 1
                     else {g: q.bool(f"pick_{tag}_{i}") for i, g in enumerate(groups)})
        self.a = {c: q.int(f"a_{tag}_{i}") for i, c in enumerate(c for g in groups for c in plan.groups[g])}
        split = plan.face and len({w.value for w in q.wild_types}) > 1
        self.b = ({w.index: q.int(f"b_{tag}_{w.index}") for w in q.wild_types} if split
                  else {None: q.int(f"b_{tag}")})
        self.st = {c: q.int(f"s_{tag}_{i}") for i, c in enumerate(self.a)} if plan.points else {}
        allv = list(self.a.values()) + list(self.b.values()) + list(self.st.values())
        q.add(f"(=> (not {self.act}) {_and(f'(= {v} 0)' for v in allv)})")
        self.naturals = _sum(self.a.values())
        self.wilds = _sum(self.b.values())
        self.size = _sum([self.naturals, self.wilds])
        q.add(f"(=> {self.act} (>= {self.size} 1))")
        if self.st:
            q.add(f"(= {_sum(self.st.values())} {self.wilds})")
        if len(groups) > 1:
            picks = list(self.pick.values())
            q.add(f"(=> {self.act} ((_ pbeq 1 {' '.join('1' for _ in picks)}) {' '.join(picks)}))")
            q.add(f"(=> (not {self.act}) {_and(f'(not {p})' for p in picks)})")
            for g in groups:
                off = [f"(= {v} 0)" for c in plan.groups[g] for v in [self.a[c]] + ([self.st[c]] if self.st else [])]
                q.add(f"(=> (not {self.pick[g]}) {_and(off)})")
        self.points = (_sum(_mul(plan.value[c], _sum([self.a[c], self.st[c]])) for c in self.a) if self.st else "0")
        if plan.face:
            wv = {w.index: w.value for w in q.wild_types}
            one = q.wild_types[0].value if q.wild_types else 0
            self.face = _sum([_mul(plan.value[c], v) for c, v in self.a.items()]
                             + [_mul(wv[w] if w is not None else one, v) for w, v in self.b.items()])
        else:
            self.face = "0"
        for c, v in self.a.items():
            plan.demand[c].append(v)
        for w, v in self.b.items():
            (plan.wild_generic if w is None else plan.wild_specific[w]).append(v)
        plan.sizes.append(self.size)
        plan.point_terms.append(self.points)
        plan.opens.append(self)


class MeldSolver(Queries):
    """The count encoding for one (spec, contract, max_cards), built once; hands come as
    assumptions.  Raises Unsupported for what it does not cover (see the module doc)."""

    def __init__(self, spec, contract: Contract, max_cards: int, tagged: bool = False, ctx=None,
                 position: tuple | None = None):
        self.ctx = ctx
        super().__init__(spec, contract, max_cards)
        self.position = position
        if position is not None:
            if tagged:                               # pragma: no cover (explainers are shared, never per position)
                raise ValueError("a tagged solver is not built for one position")
            cells = spec.cards.types
            self._wilds_at = sum(position[t.index] for t in cells if t.wild)
        self.tagged = tagged
        self._tagged_twin = self if tagged else None
        self._decls: list[str] = []
        self._asserts: list[str] = []
        self._vars: list[tuple[str, bool]] = []      # the variables, in order (is it a Bool?)
        self._rule_fns: dict = {}
        kinds = spec.meld_kinds
        self.plans: list[_Plan] = []
        self._plan_of: dict = {}
        ctxs = []
        for i, (slot, group) in enumerate(itertools.groupby(contract.required)):
            ctxs.append(_Ctx(slot, True, len(list(group)), f"r{i}"))
        ctxs += [_Ctx(slot, False, 0, f"e{i}") for i, slot in enumerate(contract.extras)]
        self.required_units: dict = {}      # attr value pairs for the distinct clause
        for ctx in ctxs:
            counted = []
            for kid in ctx.slot.kinds:
                for shapeless in (False, True) if tagged else (False,):
                    counted += self._place(self._plan(kinds[kid], shapeless), ctx)
            if ctx.required:
                total = _sum(counted)
                self.add(f"(<= {total} {ctx.count})")
                self._tag(ctx.slot.clause, f"(= {total} {ctx.count})")
        self._distinct()
        laid = self._finish()
        self._lay_rules()
        self._conserve_text(laid)
        self.s.from_string("\n".join(self._decls + self._asserts))
        # every variable a witness reads, packed into one number (base N + 1) so that a
        # model is read back in one evaluation
        self._base = self.N + 1
        packed = "0"
        for name, is_bool in reversed(self._vars):
            v = f"(ite {name} 1 0)" if is_bool else name
            packed = v if packed == "0" else f"(+ {v} (* {self._base} {packed}))"
        self._var_decls = "\n".join(d for d in self._decls if d.startswith("(declare-const"))
        self._packed = self.term(packed)
        del self._decls, self._asserts

    # H, L and laid_face as Python terms, made when first asked for (a solver built for
    # one position mostly never asks: its questions go in as text)
    @functools.cached_property
    def H(self) -> dict:
        return {t.index: z3.Int(f"H_{t.index}", self.ctx) for t in self.spec.cards.types}

    @functools.cached_property
    def L(self) -> dict:
        return {t.index: z3.Int(f"L_{t.index}", self.ctx) for t in self.types}

    @functools.cached_property
    def laid_face(self):
        return self.term(self._laid_face_text)

    def term(self, text: str):
        """An integer term over this solver's variables, from SMT-LIB text (one parse; the
        Python API costs a few microseconds a term)."""
        return z3.parse_smt2_string(f"{self._var_decls}\n(assert (= 0 {text}))", ctx=self.ctx)[0].arg(1)

    # ---- text ----------------------------------------------------------------------------
    def int(self, name: str, most: int | None = None) -> str:
        """A new Int, at least 0 and at most `most` (the capacity by default). In a solver
        for one position, at least 0 only: there every count is bounded through
        conservation by the position's cards (L[t] at most its count, numbers in the text),
        and Z3 answered faster without the bounds repeated (by points, 40 positions: 3.3
        -> 1.5 s in all)."""
        self._decls.append(f"(declare-const {name} Int)")
        self._vars.append((name, False))
        if self.position is not None:
            self._asserts.append(f"(assert (>= {name} 0))")
        else:
            self._asserts.append(f"(assert (and (>= {name} 0) (<= {name} {self.N if most is None else most})))")
        return name

    def bool(self, name: str) -> str:
        self._decls.append(f"(declare-const {name} Bool)")
        self._vars.append((name, True))
        return name

    def add(self, c: str) -> None:
        self._asserts.append(f"(assert {c})")

    def _new_solver(self):
        """Linear integer arithmetic throughout: the QF_LIA solver with the arithmetic
        solver that measured fastest on these models (about half the default's time)."""
        s = z3.SolverFor("QF_LIA", ctx=self.ctx)
        s.set("smt.arith.solver", 2)
        return s

    def _explainer(self) -> "MeldSolver":
        if self._tagged_twin is None:
            self._tagged_twin = MeldSolver(self.spec, self.contract, self.N, tagged=True, ctx=self.ctx)
        return self._tagged_twin

    def _fresh_explainer(self) -> "MeldSolver":
        self._tagged_twin = MeldSolver(self.spec, self.contract, self.N, tagged=True, ctx=self.ctx)
        return self._tagged_twin

    def _lit(self, clause: str) -> str:
        if clause not in self.lits:
            name = f"clause:{clause}"
            self.lits[clause] = b = z3.Bool(name, self.ctx)
            self.lit_clause[b] = clause
            self._decls.append(f"(declare-const {_sym(name)} Bool)")
        return _sym(f"clause:{clause}")

    def _tag(self, clause: str, constraint: str) -> None:
        """A clause's constraint: under its literal when tagged, else asserted outright."""
        self.add(f"(=> {self._lit(clause)} {constraint})" if self.tagged else constraint)

    def _rule(self, rule, constraint: str) -> None:
        uses = self.rule_uses.setdefault(rule.clause, [])
        uses += [c for c in rule.uses if c not in uses]
        self._tag(rule.clause, constraint)

    def _apply(self, rule, env: dict) -> str:
        """The rule over these numbers (SMT terms), as a call of a function defined once."""
        fn = self._rule_fns.get(id(rule))
        if fn is None:
            fn = self._rule_fns[id(rule)] = f"rule!{len(self._rule_fns)}"
            body = rule.expr.to_z3(dict(self.params, **{n: z3.Int(n) for n in _NUMBERS})).sexpr()
            args = " ".join(f"({n} Int)" for n in _NUMBERS)
            self._decls.append(f"(define-fun {fn} ({args}) Bool {body})")
        return f"({fn} {' '.join(env[n] for n in _NUMBERS)})"

    def points_read(self, kind) -> bool:
        return _reads("points", kind.rules) or any(
            "points" in r.expr.names and (r.kinds is None or kind.id in r.kinds) for r in self.contract.rules)

    def _plan(self, kind, shapeless: bool) -> _Plan:
        key = (kind.id, shapeless)
        if key not in self._plan_of:
            self._plan_of[key] = p = _Plan(self, kind, shapeless, len(self.plans))
            self.plans.append(p)
        return self._plan_of[key]

    # ---- melds of each shape -------------------------------------------------------------
    def _place(self, plan: _Plan, ctx: _Ctx) -> list:
        """The melds of `plan` in `ctx`; returns the terms counting them (for a required
        group's count)."""
        if plan.mode == "open":
            return self._place_open(plan, ctx)
        if plan.mode == "multiset":
            return self._place_multiset(plan, ctx)
        return self._place_positional(plan, ctx)

    def _gate(self, plan: _Plan, off: str) -> None:
        """A shapeless meld exists only with its kind's clause relaxed."""
        if plan.shapeless:
            self._tag(plan.kind.clause, off)

    def _fits(self, ctx: _Ctx, size: str) -> str:
        return f"(= {size} {ctx.slot.size})" if ctx.slot.exact else f"(>= {size} {ctx.slot.size})"

    def _place_open(self, plan: _Plan, ctx: _Ctx) -> list:
        groups = list(plan.groups)
        lower = max(1, plan.size_min, 0 if ctx.slot.exact else ctx.slot.size)
        merged = not ctx.required and not ctx.slot.exact and _merge_closed(plan.kind.rules, self.params)
        tag = f"{ctx.tag}{plan.id}"
        if ctx.required:
            melds = [_Open(self, plan, ctx, f"{tag}_{j}", groups) for j in range(ctx.count)]
        elif merged:
            melds = [_Open(self, plan, ctx, f"{tag}_g{j}", [g]) for j, g in enumerate(groups)]
        else:
            melds = [_Open(self, plan, ctx, f"{tag}_{j}", groups) for j in range(self.N // lower)]
        for m in melds:
            self._gate(plan, f"(not {m.act})")
            if plan.size_min > 1:
                self.add(f"(=> {m.act} (>= {m.size} {plan.size_min}))")
            self._tag(ctx.slot.clause, f"(=> {m.act} {self._fits(ctx, m.size)})")
            env = dict(size=m.size, naturals=m.naturals, wilds=m.wilds, points=m.points, face_points=m.face)
            for rule in plan.kind.rules:
                self._rule(rule, f"(=> {m.act} {self._apply(rule, env)})")
        if not merged:                                        # interchangeable copies: in order
            for a, b in zip(melds, melds[1:]):
                self.add(f"(=> {b.act} {a.act})")
                for j, g in enumerate(groups):
                    if len(groups) > 1:
                        self.add(f"(=> {b.pick[g]} {_or(a.pick[u] for u in groups[:j + 1])})")
                    self.add(f"(=> {_and([b.act, a.pick[g], b.pick[g]])} (>= {a.size} {b.size}))")
        if ctx.required:
            for m in melds:
                self.required_units.setdefault(id(ctx), []).append(
                    [(dict(zip(plan.same, g)), f"(ite {_and([m.act, p])} 1 0)") for g, p in m.pick.items()])
        return [f"(ite {m.act} 1 0)" for m in melds]

    def _place_multiset(self, plan: _Plan, ctx: _Ctx) -> list:
        wild_values = {w.value for w in self.wild_types}
        specific = plan.face and len(wild_values) > 1
        wild_options = ([tuple(c) for b in range(plan.size_max + 1)
                         for c in itertools.combinations_with_replacement([w.index for w in self.wild_types], b)]
                        if specific else [(None,) * b for b in range(plan.size_max + 1)])
        one = self.wild_types[0].value if self.wild_types else 0
        out = []
        for ci, (cls, ts) in enumerate(plan.classes.items()):
            v = plan.value[cls]
            for a in range(plan.size_max + 1):
                for wo in wild_options:
                    size = a + len(wo)
                    if size < max(1, plan.size_min) or size > plan.size_max or (not self.wild_types and wo):
                        continue
                    if a == 0 and not wo:
                        continue
                    wface = sum(self.spec.cards.types[w].value for w in wo) if specific else len(wo) * one
                    env = dict(self.params, size=size, naturals=a, wilds=len(wo), points=v * size,
                               face_points=v * a + wface)
                    against = [r for r in plan.kind.rules if not r.expr.evaluate(env)]
                    if not self.tagged and (against or not ctx.slot.fits(size)):
                        continue                 # untagged: a candidate no clause allows is never made
                    n = self.int(f"n_{ctx.tag}{plan.id}_{ci}_{a}_{'_'.join(map(str, wo))}".replace("None", "w"),
                                 ctx.count if ctx.required else self.N)
                    self._gate(plan, f"(= {n} 0)")
                    if not ctx.slot.fits(size):
                        self._tag(ctx.slot.clause, f"(= {n} 0)")
                    for rule in against:
                        self._rule(rule, f"(= {n} 0)")
                    if a:
                        plan.demand[cls].append(_mul(a, n))
                    for w in wo:
                        (plan.wild_generic if w is None else plan.wild_specific[w]).append(n)
                    plan.sizes.append(_mul(size, n))
                    plan.point_terms.append(_mul(v * size, n))
                    plan.units.append((ctx, (cls, a, wo), n, None))
                    if ctx.required:
                        self.required_units.setdefault(id(ctx), []).append(
                            [(dict(zip(plan.same, cls[:len(plan.same)])), n)])
                    out.append(n)
        return out

    def _shapes(self, plan: _Plan) -> list[tuple]:
        """Every position set of a positional kind: (group, classes in order)."""
        cards = self.spec.cards
        out = []
        ns = len(plan.same)
        for g, classes in plan.groups.items():
            if plan.run:
                by_code = {cards.code(plan.run, c[ns]): c for c in classes}
                codes = sorted(by_code)
                longest = len(codes) if plan.size_max is None else min(plan.size_max, len(codes))
                for start in codes:
                    for n in range(max(1, plan.size_min), longest + 1):
                        span = [start + i for i in range(n)]
                        if all(x in by_code for x in span):
                            out.append((g, tuple(by_code[x] for x in span)))
            else:
                longest = len(classes) if plan.size_max is None else min(plan.size_max, len(classes))
                for n in range(max(1, plan.size_min), longest + 1):
                    out += [(g, combo) for combo in itertools.combinations(classes, n)]
            if len(out) > SHAPE_LIMIT:
                raise Unsupported(f"{plan.kind.id}: more than {SHAPE_LIMIT} position sets")
        return out

    def _plan_shapes(self, plan: _Plan) -> None:
        """plan.shapes (and plan.exact): each position set with its points, the wild
        limits its kind's rules set and the rules that ban it; read once per kind, card
        set and params (they are frozen) and kept for later builds."""
        try:
            key = (id(plan.kind), plan.shapeless, plan.points, plan.face, id(self.spec.cards),
                   tuple(sorted(self.params.items())))
            hash(key)
        except TypeError:                            # params that do not hash: read afresh
            key = None
        hit = _SHAPES.get(key)
        if hit is not None and hit[0] is plan.kind and hit[1] is self.spec.cards:
            plan.shapes, plan.exact = hit[2], hit[3]
            return
        plan.shapes = []
        for g, pos in self._shapes(plan):
            size, pts = len(pos), sum(plan.value[c] for c in pos)
            limits, banned = [], []
            for rule in plan.kind.rules:
                ok = [k for k in range(size + 1) if rule.expr.evaluate(
                    dict(self.params, size=size, naturals=size - k, wilds=k, points=pts, face_points=0))]
                if not ok:
                    banned.append(rule)
                elif len(ok) < size + 1:
                    if ok != list(range(ok[0], ok[-1] + 1)):
                        raise Unsupported(f"{plan.kind.id}: {rule.expr.text} allows wilds in separate ranges")
                    limits.append((rule, ok[0], ok[-1]))
            plan.exact |= bool(limits)
            plan.shapes.append((g, pos, pts, limits, banned))
        if key is not None:
            if len(_SHAPES) > 256:
                _SHAPES.clear()
            _SHAPES[key] = (plan.kind, self.spec.cards, plan.shapes, plan.exact)

    def _kept(self, plan: _Plan, ctx: _Ctx) -> list[int]:
        """The position sets made candidates in this slot: untagged, those no clause forbids
        and (for further melds, where no rule reads a meld's wilds) those that do not split
        into two allowed ones, which do as well. Read once per kind's sets and slot."""
        key = (id(plan.shapes), ctx.slot, ctx.required, self.tagged, plan.exact)
        hit = _KEPT.get(key)
        if hit is not None and hit[0] is plan.shapes:
            return hit[1]
        allowed = {(g, pos) for g, pos, _, _, banned in plan.shapes if not banned and ctx.slot.fits(len(pos))}
        kept = []
        for si, (g, pos, pts, limits, banned) in enumerate(plan.shapes):
            size = len(pos)
            if not self.tagged and (banned or not ctx.slot.fits(size)):
                continue
            if not self.tagged and not ctx.required and not plan.exact and any(
                    (g, pos[:k]) in allowed and (g, pos[k:]) in allowed for k in range(1, size)):
                continue
            kept.append(si)
        if len(_KEPT) > 256:
            _KEPT.clear()
        _KEPT[key] = (plan.shapes, kept)
        return kept

    def _place_positional(self, plan: _Plan, ctx: _Ctx) -> list:
        if not hasattr(plan, "shapes"):
            self._plan_shapes(plan)
        out = []
        have = None
        if self.position is not None:               # naturals of each cell the position holds
            have = {c: sum(self.position[t] for t in ts) for c, ts in plan.classes.items()}
        for si in self._kept(plan, ctx):
            g, pos, pts, limits, banned = plan.shapes[si]
            size = len(pos)
            most = ctx.count if ctx.required else self.N // size
            if have is not None:                     # a candidate the position's cards cannot fill is never made
                if sum(1 for c in pos if not have[c]) > self._wilds_at:
                    continue
            n = self.int(f"n_{ctx.tag}{plan.id}_{si}", most)
            self._gate(plan, f"(= {n} 0)")
            if not ctx.slot.fits(size):
                self._tag(ctx.slot.clause, f"(= {n} 0)")
            for rule in banned:
                self._rule(rule, f"(= {n} 0)")
            ws = None
            if plan.exact:
                ws = [self.int(f"w_{ctx.tag}{plan.id}_{si}_{j}") for j in range(size)]
                self.add(_and(f"(<= {w} {n})" for w in ws))
                total = _sum(ws)
                for rule, lo, hi in limits:
                    self._rule(rule, f"(and (>= {total} {_mul(lo, n)}) (<= {total} {_mul(hi, n)}))")
                plan.wild_generic.append(total)
                for c, w in zip(pos, ws):
                    plan.demand[c].append(f"(- {n} {w})")
            else:
                for c in pos:
                    plan.demand[c].append(n)
            plan.sizes.append(_mul(size, n))
            plan.point_terms.append(_mul(pts, n))
            plan.units.append((ctx, (g, pos), n, ws))
            if ctx.required:
                self.required_units.setdefault(id(ctx), []).append([(dict(zip(plan.same, g)), n)])
            out.append(n)
        return out

    # ---- the contract --------------------------------------------------------------------
    def _distinct(self) -> None:
        """Required melds differ in the contract's distinct attributes (where their kind
        fixes them)."""
        c = self.contract
        for attr in c.distinct:
            per_value: dict = {}
            for units in self.required_units.values():
                for unit in units:
                    for fixed, term in unit:
                        if attr in fixed:
                            per_value.setdefault(fixed[attr], []).append(term)
            for terms in per_value.values():
                if len(terms) > 1:
                    self._tag(c.distinct_clause, f"(<= {_sum(terms)} 1)")

    def _finish(self) -> dict:
        """Per plan: naturals per card type (a class's naturals split between its types),
        wilds per wild type; the plan's numbers for the lay rules. Returns the laid terms."""
        laid: dict[int, list] = {t.index: [] for t in self.types}
        wild_face_split = len({w.value for w in self.wild_types}) > 1 and _reads("face_points", self.contract.rules)
        generic_all = []
        # A solver for one position, whose contract has no rules over the lay-down (none
        # reads a kind's wilds), counts the wilds standing in for a card type once for all
        # kinds rather than per kind: the same tables (a witness shares them out, kind by
        # kind), 52 counts fewer for 52 card types, and about 40% less of Z3's time.
        merge = self.position is not None and self._wilds_at and not self.contract.rules
        shared: dict[int, list] = {}                  # card type -> its candidates' counts, all kinds
        self.merged: dict[int, str] = {}              # card type -> the wilds standing in for it
        for p in self.plans:
            p.merged = {}
            for ci, (cls, ts) in enumerate(p.classes.items()):
                if not p.demand[cls]:
                    continue
                d = _sum(p.demand[cls])
                sig = None
                if merge and p.mode == "positional" and not p.exact and len(ts) == 1:
                    shared.setdefault(ts[0], []).extend(p.demand[cls])
                    p.merged[cls] = ts[0]
                    p.u[ts[0]] = d
                    p.u_parts[ts[0]] = (p.demand[cls], None)
                    continue
                if p.mode == "positional" and not p.exact and (self.position is None or self._wilds_at):
                    sig = p.stand[cls] = self.int(f"sigma_{p.id}_{ci}")
                    self.add(f"(>= {d} {sig})")
                    p.wild_generic.append(sig)
                    d = f"(- {d} {sig})"
                if len(ts) == 1:
                    p.u[ts[0]] = d
                    p.u_parts[ts[0]] = (p.demand[cls], sig)      # read term by term in a witness
                else:
                    us = [self.int(f"u_{p.id}_{t}") for t in ts]
                    self.add(f"(= {_sum(us)} {d})")
                    p.u.update(zip(ts, us))
                    p.u_vars.update(zip(ts, us))
            for t, u in p.u.items():
                laid[t].append(u)
            p.wilds = _sum(p.wild_generic)
            p.omega = {}
            if wild_face_split and p.wild_generic:
                p.omega = {w.index: self.int(f"omega_{p.id}_{w.index}") for w in self.wild_types}
                self.add(f"(= {_sum(p.omega.values())} {p.wilds})")
                for w, v in p.omega.items():
                    laid[w].append(v)
            elif p.wild_generic:
                generic_all.append(p.wilds)
            for w, terms in p.wild_specific.items():
                laid[w] += terms
        for t, terms in shared.items():
            sig = self.merged[t] = self.int(f"sigma_{t}")
            self.add(f"(>= {_sum(terms)} {sig})")
            laid[t].append(f"(- {sig})")
            generic_all.append(sig)
        self.omega = {}
        if generic_all and self.wild_types:
            if len(self.wild_types) == 1:
                w = self.wild_types[0].index
                self.omega = {w: self.int(f"omega_{w}")}
                self.add(f"(= {self.omega[w]} {_sum(generic_all)})")
                laid[w].append(self.omega[w])
            else:
                self.omega = {w.index: self.int(f"omega_{w.index}") for w in self.wild_types}
                self.add(f"(= {_sum(self.omega.values())} {_sum(generic_all)})")
                for w, v in self.omega.items():
                    laid[w].append(v)
        elif generic_all:
            self.add(f"(= {_sum(generic_all)} 0)")
        return {t: _sum(terms) for t, terms in laid.items()}

    def _plan_numbers(self, p: _Plan) -> dict:
        types = self.spec.cards.types
        size = _sum(p.sizes)
        wilds = _sum([p.wilds] + [t for ts in p.wild_specific.values() for t in ts])
        face = [_mul(types[t].value, u) for t, u in p.u.items()]
        face += [_mul(types[w].value, _sum(ts)) for w, ts in p.wild_specific.items() if ts]
        if p.omega:
            face += [_mul(types[w].value, v) for w, v in p.omega.items()]
        elif self.wild_types:
            face.append(_mul(self.wild_types[0].value, p.wilds))
        return dict(size=size, naturals=f"(- {size} {wilds})", wilds=wilds, points=_sum(p.point_terms),
                    face_points=_sum(face))

    def _lay_rules(self) -> None:
        """Rules over the whole lay-down: numbers summed over the melds of the kinds counted."""
        per_plan = None
        for rule in self.contract.rules:
            if per_plan is None:
                per_plan = [(p, self._plan_numbers(p)) for p in self.plans]
            env = {n: _sum([nums[n] for p, nums in per_plan if rule.kinds is None or p.kind.id in rule.kinds])
                   for n in _NUMBERS}
            self._rule(rule, self._apply(rule, env))

    def _conserve_text(self, laid: dict) -> None:
        """L[t] = the cards of type t the melds use, at most H[t] (for a solver built for one
        position, the position's count, no H declared); all of H in `decide` mode; the keep
        for `best_lay`."""
        c = self.contract
        pos = self.position
        self.layable = {t for t, term in laid.items() if term != "0"}     # types some candidate can take
        if pos is None:
            for t in self.spec.cards.types:
                self._decls.append(f"(declare-const H_{t.index} Int)")
        h = (lambda i: f"H_{i}") if pos is None else (lambda i: str(pos[i]))    # one position: its counts
        for t in self.types:
            self._decls.append(f"(declare-const L_{t.index} Int)")
            self.add(f"(= L_{t.index} {laid[t.index]})")
            self.add(f"(<= L_{t.index} {h(t.index)})")
        self._decls.append("(declare-const mode:all-laid Bool)".replace("mode:all-laid", _sym("mode:all-laid")))
        self.all_laid = z3.Bool("mode:all-laid", self.ctx)
        self.add(f"(=> {_sym('mode:all-laid')} {_and(f'(= L_{t.index} {h(t.index)})' for t in self.types)})")
        self._laid_face_text = _sum([_mul(t.value, f"L_{t.index}") for t in self.types])
        self.keep_lit = None
        if c.keep:
            name = f"keep:{c.keep_clause}"
            self.keep_lit = z3.Bool(name, self.ctx)
            self.lit_clause[self.keep_lit] = c.keep_clause
            self._decls.append(f"(declare-const {_sym(name)} Bool)")
            self.add(f"(=> {_sym(name)} (>= (- {_sum(h(t.index) for t in self.spec.cards.types)} "
                     f"{_sum(f'L_{t.index}' for t in self.types)}) {c.keep}))")

    def _hand(self, hand) -> list:
        """The hand's count literals; those not made yet are made together in one parse.
        A solver built for one position asks about that position's cards only."""
        if self.position is not None:
            if tuple(hand) != tuple(self.position):        # pragma: no cover (a caller's mistake)
                raise ValueError("a solver built for one position is asked about other cards")
            return []
        if sum(hand) > self.N:
            raise ValueError(f"a hand of {sum(hand)} cards exceeds this solver's capacity ({self.N})")
        lits = self._hand_lits
        missing = [(i, k) for i, k in enumerate(hand) if (i, k) not in lits]
        if missing:
            text = [f"(declare-const hand_{i}_{k} Bool)" for i, k in missing]     # H: declared in the build
            text += [f"(assert (=> hand_{i}_{k} (= H_{i} {k})))" for i, k in missing]
            self.s.from_string("\n".join(text))
            for i, k in missing:
                lits[i, k] = z3.Bool(f"hand_{i}_{k}", self.ctx)
        return [lits[i, k] for i, k in enumerate(hand)]

    # ---- reading the answer --------------------------------------------------------------
    def _witness(self, model, hand) -> list[PlacedMeld]:
        """The melds of a model: counts per class turned into cards, type by type. The
        model is read once, as text."""
        types = self.spec.cards.types
        vals: dict = {}
        packed, base = model.eval(self._packed, True).as_long(), self._base
        for name, is_bool in self._vars:
            packed, v = divmod(packed, base)
            vals[name] = bool(v) if is_bool else v

        def ev(term):
            """A term's value: a variable, or a sum / difference / product of them."""
            if term in vals:
                return vals[term]
            if term[0] != "(":
                return int(term) if term.isdigit() else 0
            return _eval_sexpr(term, vals)

        wild_pool: list = [w for w, v in self.omega.items() for _ in range(ev(v))]
        stand_left = {t: ev(v) for t, v in self.merged.items()}     # shared out kind by kind
        out_req, out_extra = [], []
        for p in self.plans:
            taken = {}                                  # merged stand-ins this kind's melds take
            for cls, t in p.merged.items():
                taken[cls] = min(stand_left[t], sum(map(ev, p.demand[cls])))
                stand_left[t] -= taken[cls]
            by_type = {p.merged[c]: n for c, n in taken.items()}
            pool = {}
            def count(t):
                parts = p.u_parts.get(t)
                if parts is None:
                    return ev(p.u[t])
                plus, minus = parts
                return sum(map(ev, plus)) - (ev(minus) if minus is not None else 0) - by_type.get(t, 0)

            for cls, ts in p.classes.items():
                got = [t for t in ts if t in p.u for _ in range(count(t))]
                if got:
                    pool[cls] = got
            wilds = [w for w, v in p.omega.items() for _ in range(ev(v))] if p.omega else wild_pool
            first = {c: ts[0] for c, ts in p.classes.items()}

            def meld(required, nats, wl, stand, kind=p.kind.id):
                nats, wl = sorted(nats), sorted(wl)
                stands_for = tuple((len(nats) + i, dict(types[t].attrs)) for i, t in enumerate(stand))
                pm = PlacedMeld(kind, required, tuple(nats + wl), stands_for,
                                sum(types[t].value for t in nats + list(stand)))
                (out_req if required else out_extra).append(pm)

            for m in p.opens:
                if not vals.get(m.act, False):
                    continue
                nats = [pool[c].pop() for c, v in m.a.items() for _ in range(vals.get(v, 0))]
                wl = [w for w, v in m.b.items() if w is not None for _ in range(vals.get(v, 0))]
                if None in m.b:
                    wl += [wilds.pop() for _ in range(vals.get(m.b[None], 0))]
                if m.st:
                    stand = [first[c] for c, v in m.st.items() for _ in range(vals.get(v, 0))]
                else:
                    g = next(g for g, pk in m.pick.items() if pk == "true" or vals.get(pk, False))
                    stand = [first[p.groups[g][0]]] * len(wl)
                meld(m.required, nats, wl, stand)
            laid_out = []                       # positional melds: (ctx, positions, which are wild)
            for ctx, cand, n, ws in p.units:
                k = vals.get(n, 0)
                if not k:
                    continue
                if p.mode == "multiset":
                    cls, a, wo = cand
                    for _ in range(k):
                        wl = [w if w is not None else wilds.pop() for w in wo]
                        meld(ctx.required, [pool[cls].pop() for _ in range(a)], wl, [first[cls]] * len(wl))
                    continue
                pos = cand[1]
                copies = [[False] * len(pos) for _ in range(k)]
                if ws is not None:              # round robin: each meld's wilds differ by one at most
                    r = 0
                    for j, w in enumerate(ws):
                        for _ in range(vals.get(w, 0)):
                            copies[r % k][j] = True
                            r += 1
                laid_out += [(ctx, pos, cp) for cp in copies]
            holes = {c: vals.get(v, 0) for c, v in p.stand.items()}
            holes.update(taken)
            for ctx, pos, cp in laid_out:
                for j, c in enumerate(pos):
                    if holes.get(c, 0) > 0:
                        cp[j] = True
                        holes[c] -= 1
                nats = [pool[c].pop() for c, wild in zip(pos, cp) if not wild]
                stand = [first[c] for c, wild in zip(pos, cp) if wild]
                meld(ctx.required, nats, [wilds.pop() for _ in stand], stand)
        return out_req + out_extra


_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def _eval_sexpr(text: str, vals: dict) -> int:
    """The value of an SMT-LIB integer term made of +, -, * over numbers and variables."""
    tokens = _TOKEN.findall(text)
    pos = 0

    def term():
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok != "(":
            return vals.get(tok, 0) if not tok.isdigit() else int(tok)
        op = tokens[pos]
        pos += 1
        args = []
        while tokens[pos] != ")":
            args.append(term())
        pos += 1
        if op == "+":
            return sum(args)
        if op == "-":
            return -args[0] if len(args) == 1 else args[0] - sum(args[1:])
        if op == "*":
            out = 1
            for a in args:
                out *= a
            return out
        raise ValueError(f"cannot read {op!r} in a witness term")

    return term()


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
_SHAPES: dict = {}          # (kind, card set, params) -> its position sets, read (`_plan_shapes`)
_KEPT: dict = {}            # (those sets, slot, ...) -> the ones made candidates (`_kept`)


def _capacity(hand) -> int:
    return max(CAPACITY_STEP, -(-sum(hand) // CAPACITY_STEP) * CAPACITY_STEP)


def build(spec, contract: Contract, max_cards: int) -> Queries:
    """The count encoding, or the copy encoding where the count encoding does not reach."""
    try:
        return MeldSolver(spec, contract, max_cards)
    except Unsupported:
        from .z3copies import copy_solver

        return copy_solver(Queries)(spec, contract, max_cards)


def for_position(spec, contract: Contract, position) -> Queries:
    """A solver for one position (card counts) and nothing else, whose answers depend on
    the position and the questions asked of it only, so that the same questions get the
    same models in any process, whatever ran there before and however busy the machine:
    the count encoding built in a Z3 context of its own (term ids, which order some of Z3's
    choices, start afresh) with the position's cards as numbers, so candidates its cards
    cannot fill are never made and every bound is the most its cards allow; each check is
    stopped at Z3's resource count RLIMIT rather than at a clock (RLIMIT_TIMEOUT_MS, far past
    it, still stops one). Where the count encoding does not reach, the copy encoding
    answers, in Z3's main context: there the models may depend on what ran before."""
    position = tuple(position)
    key = ("unsupported", id(spec), contract.name)
    if _CACHE.get(key) is not spec:
        try:
            q = MeldSolver(spec, contract, max(1, sum(position)), ctx=z3.Context(), position=position)
        except Unsupported:
            _CACHE[key] = spec
        else:
            return _limited(q)
    from .z3copies import copy_solver

    return _limited(copy_solver(Queries)(spec, contract, _capacity(position)))


def _limited(q: Queries) -> Queries:
    q.s.set(rlimit=RLIMIT, timeout=RLIMIT_TIMEOUT_MS)
    return q


def _same(solver, spec, contract) -> bool:
    """Was this cached solver built for this spec and contract (or one like it in every
    way the constraints read)?"""
    return ((solver.spec is spec or (solver.spec.meld_kinds, solver.spec.cards, solver.spec.params)
             == (spec.meld_kinds, spec.cards, spec.params)) and _shape(solver.contract) == _shape(contract))


def solver_for(spec, contract: Contract, hand) -> Queries:
    """The shared solver for this spec file, readings, contract and hand size (rounded up).
    A spec changed in memory under the same key (say, a rule dropped) gets its own."""
    key = (spec.file, tuple(sorted(spec.chosen.items())), contract.name, _capacity(hand))
    solver = _CACHE.get(key)
    if solver is None or not _same(solver, spec, contract):
        solver = _CACHE[key] = build(spec, contract, key[-1])
    return solver


def _shape(c: Contract) -> tuple:
    """All of a contract that the constraints depend on (its `clauses` list is not)."""
    return c.required, c.extras, c.rules, c.distinct, c.distinct_clause, c.keep, c.keep_clause


def decide(spec, contract: Contract, hand, *, reuse: bool = True, explain: bool = True,
           witness: bool | str = True) -> Verdict:
    """May these cards ALL be laid down together this turn under `contract`?  With
    `explain=False` an illegal verdict comes without its (costlier) violations; with
    `witness=False` a legal one without its melds, with `witness="model"` with the melds
    of Z3's own model (see `Queries.decide`)."""
    solver = solver_for(spec, contract, hand) if reuse else build(spec, contract, _capacity(hand))
    return solver.decide(hand, explain, witness)


def best_lay(spec, contract: Contract, hand, witness: str = "arranged") -> Verdict:
    """The lay-down of most face value that keeps contract.keep cards in hand (`witness`:
    see `Queries.best`)."""
    return solver_for(spec, contract, hand).best(hand, witness)
