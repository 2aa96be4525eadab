"""The reference decider: meld legality and the best lay-down by direct search, no solver.

It implements the meld semantics of `melds.py` constructively: the lowest card still in
hand must belong to some meld, so the search tries every meld that contains it (for each
slot the contract still needs, and each extra slot), and recurses on what is left,
remembering the states that failed. Wilds get stand-ins only as far as a meld needs
them: the stand-in's attributes follow from the meld's shape, and its value only matters
where a rule reads `points`.

Contracts made only of like-card melds (a kind with no distinct, run or size cap, plus
single-card kinds such as wilds laid alone) are decided without that search: a meld of
such a kind is fixed by its cell (the values of the kind's `same` attributes) and its
numbers of naturals and wilds, so a hand reduces to its cell counts. `_LikeCards` works
out, once per cell count, which required melds and how many wilds that cell can take
(a small search over splits into melds), and combines the cells with bit masks of wild
totals. Cells are interchangeable, so a verdict depends only on the sorted cell counts
and the wilds: verdicts are kept per such signature, which unseen hands mostly share.

Independent of the Z3 compiler by design: Hypothesis holds the two equal.
"""
from __future__ import annotations

import dataclasses
import itertools
from operator import itemgetter
from typing import Iterator, Mapping

from .melds import Contract, MeldKind, PlacedMeld, Slot, Verdict, Violation
from .derived import derived


class _Game:
    """Per-spec tables the search uses, built once per spec."""

    def __init__(self, spec):
        self.spec = spec
        self.cards = spec.cards
        self.types = spec.cards.types
        self.naturals = [t.index for t in self.types if t.natural]
        self.wilds = [t.index for t in self.types if t.wild]
        self.specials = [t.index for t in self.types if t.special]
        self.attrs = list(spec.cards.attributes)
        self.code = {t.index: {a: spec.cards.code(a, v) for a, v in t.attrs.items()} for t in self.types if t.natural}
        self.domain = {a: sorted(spec.cards.code(a, v) for v in vs) for a, vs in spec.cards.attributes.items()}
        self.compat: dict[tuple, list[int]] = {}     # fixed attribute codes -> natural types with them
        self.compat_of: dict[tuple, list[int]] = {}  # (a kind's same attributes, a natural) -> those like it
        self.candidates: dict[tuple, list] = {}      # see _Search.melds
        self.standins: dict[tuple, list] = {}        # see _Search.standins
        self.plans: dict = {}                        # contract shape -> _LikeCards or None
        self.relaxed: dict = {}                      # (contract shape, clause) -> (spec, contract) or None
        self.explainers: dict = {}                   # id(contract) -> (contract, _Explainer or None)


def _game(spec) -> _Game:
    return derived(spec, "reference tables", _Game)


def _sumset(options: list[Mapping[int, tuple]]) -> dict[int, tuple]:
    """Achievable totals of a sequence of independent choices, each {points: witness}."""
    acc: dict[int, tuple] = {0: ()}
    for opt in options:
        acc = {p + q: wa + wb for p, wa in acc.items() for q, wb in opt.items()}
    return acc


def _copies_cap(kind: MeldKind, slot: Slot) -> int | None:
    """How many copies of one natural type a single meld of `kind` for `slot` can hold
    (None: no bound but the hand)."""
    if kind.distinct or kind.run is not None:
        return 1
    caps = [c for c in (kind.size_max, slot.size if slot.exact else None) if c is not None]
    return min(caps) if caps else None


class OverBudget(Exception):
    """The search went past the work it was given (states searched): no answer."""


class _Search:
    def __init__(self, spec, contract: Contract, hand: tuple, best: bool = False, first: bool = False,
                 keep_at_most: tuple | None = None, score: str = "points", budget: int | None = None):
        self.g = _game(spec)
        self.budget = budget        # states the search may visit (None: no bound); OverBudget past it
        self.spec, self.contract, self.best = spec, contract, best
        self.first = first          # best mode: stop at the first lay-down found (whether any exists)
        self.cap = keep_at_most     # best mode: at most this many of each card type may stay in hand
        self.score = score          # best mode: what is maximised, "points" (face value) or "cards"
        self.hand = tuple(hand)
        self.kinds = spec.meld_kinds
        self.params = dict(spec.params)
        rule_names = {n for r in contract.rules for n in r.expr.names}
        self.need_points = "points" in rule_names or any(
            "points" in r.expr.names for k in spec.meld_kinds.values() for r in k.rules)
        self.need_fixed = bool(contract.distinct)
        self.slots: list[Slot] = list(contract.required)
        self.memo: dict = {}

    # ---- stand-ins ------------------------------------------------------------------------
    def compatible(self, kind: MeldKind, fixed: Mapping[str, int]) -> list[int]:
        key = tuple(sorted(fixed.items()))
        found = self.g.compat.get(key)
        if found is None:
            g = self.g
            found = g.compat[key] = [t for t in g.naturals if all(g.code[t][a] == v for a, v in fixed.items())]
        return found

    def standins(self, kind: MeldKind, nats: list[int], w: int) -> list[tuple[int, tuple]]:
        """(points of the stand-ins, stand-in types) for w wilds joining naturals `nats`
        (with repetition) in a meld of `kind`; empty when no stand-ins fit. One option per
        points value, and, when the contract's required melds must differ in some
        attribute, per value of the meld's shared attributes too. They depend on nothing of
        the hand but these arguments, so they are kept per game."""
        g = self.g
        key = (kind.id, tuple(nats), w, self.need_points, self.need_fixed)
        found = g.standins.get(key)
        if found is None:
            if len(g.standins) > 200_000:
                g.standins.clear()
            found = g.standins[key] = self._standins(kind, nats, w)
        return found

    def _standins(self, kind: MeldKind, nats: list[int], w: int) -> list[tuple[int, tuple]]:
        g = self.g
        if nats:
            fixed_options = [{a: g.code[nats[0]][a] for a in kind.same}]
        else:
            fixed_options = [dict(zip(kind.same, combo)) for combo in itertools.product(*(g.domain[a] for a in kind.same))]
        found: dict = {}
        for fixed in fixed_options:
            for p, wit in self._standins_fixed(kind, nats, w, fixed).items():
                found.setdefault((p, tuple(sorted(fixed.items()))) if self.need_fixed else p, (p, wit))
                if not self.need_points and not self.need_fixed:
                    return list(found.values())
        return list(found.values())

    def _standins_fixed(self, kind, nats, w, fixed) -> dict[int, tuple]:
        g = self.g
        compat = self.compatible(kind, fixed)
        if w == 0 and kind.run is None:
            return {0: ()}
        value = lambda t: g.types[t].value  # noqa: E731

        def clashes(t, chosen):
            return any(g.code[t][a] == g.code[u][a] for a in kind.distinct for u in chosen)

        if kind.run is not None:
            r = kind.run
            n = len(nats) + w
            vals = {g.code[t][r] for t in nats}
            lo, hi = g.domain[r][0], g.domain[r][-1]
            out: dict[int, tuple] = {}
            for s in range(lo, hi - n + 2):
                if vals and (min(vals) < s or max(vals) > s + n - 1):
                    continue
                missing = [p for p in range(s, s + n) if p not in vals]
                per = [[t for t in compat if g.code[t][r] == p and not clashes(t, nats)] for p in missing]
                if any(not opts for opts in per):
                    continue
                if kind.distinct:
                    for combo in itertools.product(*per):
                        if all(not clashes(t, combo[:i]) for i, t in enumerate(combo)):
                            out.setdefault(sum(map(value, combo)), combo)
                else:
                    for p, wit in _sumset([{value(t): (t,) for t in opts} for opts in per]).items():
                        out.setdefault(p, wit)
                if out and not self.need_points:
                    break
            return out
        if kind.distinct:
            free = [t for t in compat if not clashes(t, nats)]
            out = {}
            for combo in itertools.combinations(free, w):
                if all(not clashes(t, combo[:i]) for i, t in enumerate(combo)):
                    out.setdefault(sum(map(value, combo)), combo)
                    if not self.need_points:
                        break
            return out
        if not compat:
            return {}
        one = {}
        for t in compat:
            one.setdefault(value(t), (t,))
        return _sumset([one] * w)

    # ---- candidate melds -------------------------------------------------------------------
    def nat_choices(self, kind: MeldKind, first: int | None, rem: tuple, most: int) -> Iterator[list[int]]:
        """Multisets of naturals (lists with repetition) for a meld of `kind` that contain
        `first` and are drawn from `rem`, respecting same/distinct/run among naturals, with at
        most `most` cards."""
        g = self.g
        if first is None:
            yield []
            return
        fixed = {a: g.code[first][a] for a in kind.same}
        unique = bool(kind.distinct) or kind.run is not None
        keys = tuple(kind.distinct) + ((kind.run,) if kind.run else ())
        eligible = [t for t in self.compatible(kind, fixed) if t >= first and rem[t] > 0]

        def rec(i, chosen, used):
            if i == len(eligible):
                yield list(chosen)
                return
            t = eligible[i]
            lo = 1 if t == first else 0
            top = min(1 if unique else rem[t], most - len(chosen))
            for k in range(lo, top + 1):
                if k and unique:
                    sig = [(a, g.code[t][a]) for a in keys]
                    if any(s in used for s in sig):
                        continue
                    yield from rec(i + 1, chosen + [t], used | set(sig))
                else:
                    yield from rec(i + 1, chosen + [t] * k, used)

        yield from rec(0, [], frozenset())

    def melds(self, kind: MeldKind, slot: Slot, first: int | None, rem: tuple, first_wild: int | None = None):
        """Every candidate meld of `kind` for `slot` containing `first` (or, with no natural,
        `first_wild`), as (naturals, wilds, stand-ins, meld numbers). Candidates depend only
        on the counts of the cards that could join the meld, so they are cached per game; a
        count matters only up to the copies one meld can hold (one, where the kind's cards
        must differ or run; the slot's size, where it is exact; the kind's cap), so counts are
        kept in the key capped there, and hands that differ only past the cap share them."""
        g = self.g
        if first is not None:
            compat = g.compat_of.get((kind.same, first))
            if compat is None:
                compat = g.compat_of[kind.same, first] = self.compatible(kind, {a: g.code[first][a] for a in kind.same})
            cap = _copies_cap(kind, slot)
            relevant = tuple([rem[t] for t in compat] if cap is None else [min(rem[t], cap) for t in compat])
        else:
            relevant = ()
        key = (kind.id, slot.size, slot.exact, first, first_wild, relevant,
               tuple(rem[w] for w in g.wilds), self.need_points, self.need_fixed)
        found = g.candidates.get(key)
        if found is None:
            if len(g.candidates) > 200_000:
                g.candidates.clear()
            found = g.candidates[key] = list(self._melds(kind, slot, first, rem, first_wild))
        return found

    def _melds(self, kind: MeldKind, slot: Slot, first: int | None, rem: tuple, first_wild: int | None):
        g = self.g
        lo = max(kind.size_min, slot.size)
        hi = sum(rem[t] for t in g.naturals if t >= (first or 0)) + sum(rem[w] for w in g.wilds)
        if kind.size_max is not None:
            hi = min(hi, kind.size_max)
        if slot.exact:
            lo, hi = max(lo, slot.size), min(hi, slot.size)
        wild_types = [w for w in g.wilds if rem[w] > 0 and (first_wild is None or w >= first_wild)]
        for nats in self.nat_choices(kind, first, rem, hi):
            ranges = [range(1 if w == first_wild else 0, rem[w] + 1) for w in wild_types]
            for wc in itertools.product(*ranges):
                nw = sum(wc)
                n = len(nats) + nw
                if n < lo or n > hi or n == 0:
                    continue
                options = self.standins(kind, nats, nw)
                if not options:
                    continue
                face = sum(g.types[t].value for t in nats) + sum(c * g.types[w].value for w, c in zip(wild_types, wc))
                nat_pts = sum(g.types[t].value for t in nats)
                for spts, stand in options:
                    env = dict(self.params, size=n, naturals=len(nats), wilds=nw, points=nat_pts + spts,
                               face_points=face)
                    if all(r.expr.evaluate(env) for r in kind.rules):
                        wilds_list = [w for w, c in zip(wild_types, wc) for _ in range(c)]
                        yield nats, wilds_list, stand, env

    # ---- the search ----------------------------------------------------------------------------
    def lay_agg(self, agg, kind_id, env):
        out = []
        for (r, vals) in zip(self.contract.rules, agg):
            if r.kinds is None or kind_id in r.kinds:
                names = sorted(n for n in r.expr.names if n not in self.params)
                vals = tuple(v + env[n] for v, n in zip(vals, names))
            out.append(vals)
        return tuple(out)

    def rules_hold(self, agg) -> bool:
        for r, vals in zip(self.contract.rules, agg):
            names = sorted(n for n in r.expr.names if n not in self.params)
            if not r.expr.evaluate(dict(self.params, **dict(zip(names, vals)))):
                return False
        return True

    def run(self):
        agg0 = tuple(tuple(0 for n in r.expr.names if n not in self.params) for r in self.contract.rules)
        req = tuple(range(len(self.slots)))
        return self.solve(self.hand, req, (), agg0, 0)

    def solve(self, rem, req, used_vals, agg, kept, here=(None, 0)):
        """decide: a list of melds, or None.  best: (points, melds, kept cards) or None.
        `here`: (the lowest card type left, copies of it kept so far), for `keep_at_most`."""
        key = (rem, req, used_vals, agg, kept, here)
        if key in self.memo:
            return self.memo[key]
        if self.budget is not None:
            if self.budget <= 0:
                raise OverBudget
            self.budget -= 1
        self.memo[key] = result = self._solve(rem, req, used_vals, agg, kept, here)
        return result

    def _solve(self, rem, req, used_vals, agg, kept, here=(None, 0)):
        g, c = self.g, self.contract
        first = next((t for t in g.naturals if rem[t] > 0), None)
        first_wild = None if first is not None else next((w for w in g.wilds if rem[w] > 0), None)
        special = next((s for s in g.specials if rem[s] > 0), None)
        best = None

        def better(cand):
            nonlocal best
            if cand is not None and (best is None or cand[0] > best[0]):
                best = cand

        if first is None and first_wild is None:
            if self.best:
                kept_now = kept + sum(rem)
                if not req and kept_now >= c.keep and self.rules_hold(agg):
                    return (0, [], [t for t in range(len(rem)) for _ in range(rem[t])])
                return None
            if special is not None or req or not self.rules_hold(agg):
                return None
            return []
        card = first if first is not None else first_wild
        held = here[1] if here[0] == card else 0
        if self.best and (self.cap is None or held < self.cap[card]):   # the lowest card may also stay in hand
            rest = rem[:card] + (rem[card] - 1,) + rem[card + 1:]
            sub = self.solve(rest, req, used_vals, agg, min(kept + 1, c.keep),
                             (card, held + 1) if self.cap is not None else here)
            if sub is not None:
                better((sub[0], sub[1], [card] + sub[2]))
                if self.first:
                    return best
        choices = []
        seen = set()
        for i in req:
            s = self.slots[i]
            if (s.kinds, s.size, s.exact) not in seen:
                seen.add((s.kinds, s.size, s.exact))
                choices.append((i, s))
        choices += [(None, s) for s in c.extras]
        for i, slot in choices:
            for kid in slot.kinds:
                kind = self.kinds[kid]
                for nats, wilds, stand, env in self.melds(kind, slot, first, rem, first_wild):
                    new_used = used_vals
                    if i is not None and c.distinct:
                        vals = tuple((a, self.g.code[(nats or list(stand))[0]][a]) for a in c.distinct if a in kind.same)
                        if any(v in used_vals for v in vals):
                            continue
                        new_used = tuple(sorted(used_vals + vals))
                    left = list(rem)
                    for t in nats + wilds:
                        left[t] -= 1
                    new_req = tuple(j for j in req if j != i) if i is not None else req
                    sub = self.solve(tuple(left), new_req, new_used, self.lay_agg(agg, kid, env), kept, here)
                    if sub is None:
                        continue
                    if self.best:
                        gain = (env["face_points"] if self.score == "points" else len(nats) + len(wilds)) + sub[0]
                        if best is not None and gain <= best[0]:
                            continue                   # not better: its meld need not be made
                    meld = PlacedMeld(kid, i is not None, tuple(nats + wilds),
                                      tuple((len(nats) + j, dict(g.types[t].attrs)) for j, t in enumerate(stand)),
                                      env["points"])
                    if not self.best:
                        return [meld] + sub
                    better((gain, [meld] + sub[1], sub[2]))
                    if self.first:
                        return best
        return best


# ---- like-card contracts, decided per cell -----------------------------------------------------

def _shape(c: Contract) -> tuple:
    """All of a contract that a verdict depends on (not its name or its `clauses`)."""
    return c.required, c.extras, c.rules, c.distinct, c.distinct_clause, c.keep, c.keep_clause


def _mask_sum(a: int, b: int) -> int:
    """Bit masks of achievable totals: every sum of one from each."""
    out = 0
    while b:
        low = b & -b
        out |= a << (low.bit_length() - 1)
        b ^= low
    return out


class _LikeCards:
    """A contract of like-card melds (see the module doc), compiled for one spec.

    `legal(hand)` is the verdict; `melds(hand)` a witness.  `plan()` says whether a
    contract has this shape (None if not: runs, distinct colours, lay rules, ...)."""

    @staticmethod
    def plan(spec, contract: Contract):
        kinds = spec.meld_kinds
        used = {k for s in contract.required + contract.extras for k in s.kinds}
        like = [k for k in used if not kinds[k].distinct and kinds[k].run is None and kinds[k].size_max is None]
        single = [k for k in used if not kinds[k].distinct and kinds[k].run is None and kinds[k].size_max == 1]
        if contract.rules or len(like) > 1 or len(like) + len(single) != len(used):
            return None
        if not like and contract.required:
            return None
        kind = kinds[like[0]] if like else None
        if kind is not None and any(n not in ("size", "naturals", "wilds") for r in kind.rules for n in r.expr.names
                                    if n not in spec.params):
            return None
        if any(s.kinds != (kind.id,) for s in contract.required) if kind else False:
            return None
        if contract.distinct and (kind is None or set(contract.distinct) != set(kind.same)):
            return None
        if any(len(s.kinds) > 1 and kind is not None and kind.id in s.kinds for s in contract.extras):
            return None
        return _LikeCards(spec, contract, kind, [kinds[k] for k in single])

    def __init__(self, spec, contract: Contract, kind, singles):
        g = _game(spec)
        self.spec, self.contract, self.kind = spec, contract, kind
        types = spec.cards.types
        self.groups = [(slot, len(list(grp))) for slot, grp in itertools.groupby(contract.required)]
        self.need = tuple(n for _, n in self.groups)
        self.distinct = bool(contract.distinct)
        params = dict(spec.params)
        # one-card melds: which naturals and wilds may go down alone, and as which kind
        self.alone: dict[int, tuple] = {}                    # type -> (kind id, stand-in type)
        for slot in contract.extras:
            for k in slot.kinds:
                sk = spec.meld_kinds[k]
                if sk.size_max != 1 or not slot.fits(1) or sk.size_min > 1:
                    continue
                for t in types:
                    if t.special or t.index in self.alone:
                        continue
                    for st in ([t] if t.natural else [types[n] for n in g.naturals]):
                        env = dict(params, size=1, naturals=int(t.natural), wilds=int(t.wild), points=st.value,
                                   face_points=t.value)
                        if all(r.expr.evaluate(env) for r in sk.rules):
                            self.alone[t.index] = (k, st.index)
                            break
        # cells of like naturals (the kind's `same` values)
        cells: dict = {}
        for t in g.naturals:
            key = tuple(types[t].attrs[a] for a in kind.same) if kind else ()
            cells.setdefault(key, []).append(t)
        self.cells = list(cells.values())
        self.single_type_cells = all(len(c) == 1 for c in self.cells)
        self.nat_get = itemgetter(*g.naturals, 0) if g.naturals else None
        self.n_nat = len(g.naturals)
        wild_alone = [w for w in g.wilds if w in self.alone]
        self.wild_get = itemgetter(*g.wilds, 0) if g.wilds else None
        self.loose_wilds = len(wild_alone) == len(g.wilds)     # every wild may go down alone
        if wild_alone and not self.loose_wilds:
            raise _NotLike
        self.nat_alone = {t for t in g.naturals if t in self.alone}
        self.alone_flags = [t in self.nat_alone for t in g.naturals]
        self.specials = list(g.specials)
        self.fit_req = [self._fits(slot) for slot, _ in self.groups]
        extra_slots = [s for s in contract.extras if kind is not None and s.kinds == (kind.id,)]
        self.fit_extra = [self._fits(s) for s in extra_slots]
        self.rules = kind.rules if kind else ()
        self.params = params
        self._rules_ok: dict = {}
        self._table, self._tc, self._tw = {}, -1, -1
        self.options_memo: dict = {}
        self.verdicts: dict = {}
        self.witness_memo: dict = {}
        self.prefix_memo: dict = {}
        self.wcap = sum(n for t, n in enumerate(spec.deck()) if types[t].wild)   # the most wilds a deck holds
        self.values = [t.value for t in types]
        self.wilds_last_first = list(reversed(g.wilds))

    def _fits(self, slot):
        lo = max(1, self.kind.size_min)
        return lambda n: n >= lo and slot.fits(n)

    def _ok(self, fits, a: int, b: int) -> bool:
        if not fits(a + b):
            return False
        key = (a, b)
        ok = self._rules_ok.get(key)
        if ok is None:
            env = dict(self.params, size=a + b, naturals=a, wilds=b)
            ok = self._rules_ok[key] = all(r.expr.evaluate(env) for r in self.rules)
        return ok

    # ---- one cell ---------------------------------------------------------------------------
    def _tables(self, c: int, w: int) -> dict:
        """{required melds per group: [bit mask over wilds, per number of naturals]}: which
        (naturals, wilds) of one cell split into those required melds and any further
        melds. Built for every cell size at once, as sums of meld shapes over bit masks;
        grown when a hand needs more."""
        if c <= self._tc and w <= self._tw:
            return self._table
        C, W = max(c, self._tc, 4), max(w, self._tw, 4)
        full = (1 << (W + 1)) - 1

        def melds(fits_list):
            return [(a, b) for a in range(C + 1) for b in range(W + 1)
                    if (a or b) and any(self._ok(f, a, b) for f in fits_list)]

        extra = melds(self.fit_extra)
        f0 = [0] * (C + 1)
        f0[0] = 1
        for cc in range(C + 1):                  # further melds, any number of them
            while True:
                before = f0[cc]
                for a, b in extra:
                    if a <= cc and (a or f0[cc]):
                        f0[cc] |= (f0[cc - a] << b) & full
                if f0[cc] == before:
                    break
        table = {(0,) * len(self.need): f0}
        required = [melds([f]) for f in self.fit_req]
        for need in sorted(itertools.product(*[range(n + 1) for n in self.need]), key=sum):
            if not any(need):
                continue
            i = next(i for i, n in enumerate(need) if n)
            prev = table[need[:i] + (need[i] - 1,) + need[i + 1:]]
            cur = [0] * (C + 1)
            for cc in range(C + 1):
                for a, b in required[i]:
                    if a <= cc:
                        cur[cc] |= (prev[cc - a] << b) & full
            table[need] = cur
        self._table, self._tc, self._tw = table, C, W
        self.options_memo.clear()
        return table

    def split(self, c: int, w: int, need: tuple):
        """c naturals and w wilds of one cell as `need` required melds (per group) and any
        further melds: a list of (group index or None, naturals, wilds), or None."""
        table = self._tables(c, w)
        if not table[need][c] >> w & 1:
            return None
        out = []
        while c or w or any(need):
            i = next((i for i, n in enumerate(need) if n), None)
            fits = [self.fit_req[i]] if i is not None else self.fit_extra
            rest = need if i is None else need[:i] + (need[i] - 1,) + need[i + 1:]
            a, b = next((a, b) for a in range(c, -1, -1) for b in range(w + 1)
                        if (a or b) and any(self._ok(f, a, b) for f in fits) and table[rest][c - a] >> (w - b) & 1)
            out.append((i, a, b))
            c, w, need = c - a, w - b, rest
        return out

    def options(self, c: int, alone: int, wmax: int) -> dict:
        """What a cell of c naturals (`alone` of which may go down by themselves) can take:
        {required melds per group: bit mask of the wild counts it can absorb}."""
        key = (c, alone, wmax)
        hit = self.options_memo.get(key)
        if hit is not None:
            return hit
        table = self._tables(c, wmax)
        full = (1 << (wmax + 1)) - 1
        out: dict = {}
        for need, masks in table.items():
            if self.distinct and sum(need) > 1:
                continue
            mask = 0
            for cc in range(c - alone, c + 1):
                mask |= masks[cc]
            if mask & full:
                out[need] = mask & full
        self.options_memo[key] = out
        return out

    # ---- the hand ---------------------------------------------------------------------------
    def signature(self, hand):
        """(sorted cell counts, naturals that may go alone, empty cells), wilds; None when
        the hand holds a card that never melds."""
        if self.specials and any(hand[s] for s in self.specials):
            return None
        w = sum(self.wild_get(hand)) - hand[0] if self.wild_get else 0
        if self.single_type_cells:
            counts = self.nat_get(hand)[:self.n_nat]
            if not self.nat_alone:
                return (tuple(sorted(filter(None, counts))), (), counts.count(0)), w
            cs = sorted((x, x if f else 0) for x, f in zip(counts, self.alone_flags) if x)
            return (tuple(x for x, _ in cs), tuple(y for _, y in cs), counts.count(0)), w
        cells = sorted((sum(hand[t] for t in cell), sum(hand[t] for t in cell if t in self.nat_alone))
                       for cell in self.cells)
        cs = tuple(x for x in cells if x[0])
        return (tuple(x for x, _ in cs), tuple(y for _, y in cs), len(cells) - len(cs)), w

    def reading(self) -> tuple:
        """What `signature` reads of a hand: plans with the same reading give the same
        signature for every hand."""
        found = self.__dict__.get("_reading")
        if found is None:
            found = self._reading = (tuple(self.specials), self.wild_get is not None, self.single_type_cells,
                                     self.n_nat, tuple(map(tuple, self.cells)), tuple(sorted(self.nat_alone)))
        return found

    def legal(self, hand) -> bool:
        return self.legal_sig(self.signature(hand))

    def legal_sig(self, sig) -> bool:
        """The verdict on a hand of this signature (`signature`)."""
        if sig is None:
            return False
        key, w = sig
        if self.loose_wilds and w <= self.wcap:
            # wilds left over go down alone: legal iff the fewest wilds the cells need fit
            least = self.verdicts.get(key, -1)
            if least == -1:
                if len(self.verdicts) > 200_000:
                    self.verdicts.clear()
                final = self._final(key, self.wcap)
                least = self.verdicts[key] = (final & -final).bit_length() - 1 if final else None
            return least is not None and least <= w
        v = self.verdicts.get((key, w))
        if v is None:
            final = self._final(key, w)
            v = self.verdicts[key, w] = bool(final >> (0 if self.loose_wilds else w))
        return v

    def _cells_of(self, key) -> tuple:
        counts, alone, empty = key
        alone = alone or (0,) * len(counts)
        virtual = min(empty, (sum(self.need) + 1) if self.distinct else 1)
        return tuple(zip(counts, alone)) + ((0, 0),) * virtual

    def _final(self, key, w: int) -> int:
        """Bit mask of the wild totals the cells can absorb with every required meld laid."""
        return self._states(self._cells_of(key), w).get(self.need, 0)

    def _states(self, cells: tuple, w: int) -> dict:
        """{required melds placed: bit mask of wilds used} over these cells; kept per
        prefix, since sorted signatures share their prefixes."""
        memo = self.prefix_memo
        i = len(cells)
        while i and (cells[:i], w) not in memo:
            i -= 1
        states = memo[cells[:i], w] if i else {(0,) * len(self.need): 1}
        full = (1 << (w + 1)) - 1
        for j in range(i, len(cells)):
            c, alone = cells[j]
            new: dict = {}
            for need, m in self.options(c, alone, w).items():
                for have, mask in states.items():
                    tot = tuple(x + y for x, y in zip(have, need))
                    if any(x > y for x, y in zip(tot, self.need)):
                        continue
                    new[tot] = new.get(tot, 0) | (_mask_sum(mask, m) & full)
            states = new
            if len(memo) > 500_000:
                memo.clear()
            memo[cells[:j + 1], w] = states
        return states

    def _choices(self, sig) -> list[tuple]:
        """For a legal signature, per cell in its order (virtual empty cells last): the
        required melds it takes, its naturals in melds and the split (see `split`);
        cells taken one by one, each leaving the rest completable."""
        hit = self.witness_memo.get(sig)
        if hit is not None:
            return hit
        cells, w_total = self._cells_of(sig[0]), sig[1]
        lo = 0 if self.loose_wilds else w_total
        full = (1 << (w_total + 1)) - 1
        suffix = [{(0,) * len(self.need): 1}]            # what the cells from j on can do
        for c, alone in reversed(cells):
            opts = self.options(c, alone, w_total)
            new: dict = {}
            for have, mask in suffix[0].items():
                for need, m in opts.items():
                    tot = tuple(x + y for x, y in zip(have, need))
                    if all(x <= y for x, y in zip(tot, self.need)):
                        new[tot] = new.get(tot, 0) | (_mask_sum(mask, m) & full)
            suffix.insert(0, new)
        need_left, wilds_left, out = self.need, w_total, []
        for j, (c, alone) in enumerate(cells):
            chosen = None
            for need, m in self.options(c, alone, w_total).items():
                rest = tuple(x - y for x, y in zip(need_left, need))
                if any(x < 0 for x in rest):
                    continue
                after = suffix[j + 1].get(rest, 0)
                for w in range(wilds_left + 1):
                    left = wilds_left - w
                    low = max(0, lo - (w_total - left))        # the rest uses low..left wilds
                    if m >> w & 1 and (after & ((1 << (left + 1)) - 1)) >> low:
                        chosen = (need, w)
                        break
                if chosen:
                    break
            need, w = chosen
            split = next((cc, sp) for cc in range(c - alone, c + 1) for sp in [self.split(cc, w, need)]
                         if sp is not None)
            out.append(split)
            need_left = rest = tuple(x - y for x, y in zip(need_left, need))
            wilds_left -= w
        if len(self.witness_memo) > 50_000:
            self.witness_memo.clear()
        self.witness_memo[sig] = out
        return out

    def melds(self, hand, sig=None) -> list[PlacedMeld]:
        """A witness for a legal hand: the signature's choices given to its cells (`sig`:
        the hand's signature, if known)."""
        types = self.spec.cards.types
        value = self.values
        if sig is None:
            sig = self.signature(hand)
        alone = self.nat_alone
        cells = []
        for cell in self.cells:
            nats = [cell[0]] * hand[cell[0]] if len(cell) == 1 else [t for t in cell for _ in range(hand[t])]
            cells.append(((len(nats), sum(t in alone for t in nats) if alone else 0), nats, cell))
        cells.sort(key=_first)                      # stable: cells of equal counts stay in their order
        seq = [(nats, cell) for _, nats, cell in cells if nats]
        seq += [(nats, cell) for _, nats, cell in cells if not nats][:len(self._cells_of(sig[0])) - len(seq)]
        # later wild types first, as the general search lays them
        wild_cards = [t for t in self.wilds_last_first for _ in range(hand[t])]
        out_req, out_extra = [], []
        for (nats, cell), (cc, plan) in zip(seq, self._choices(sig)):
            if alone:
                nats = sorted(nats, key=alone.__contains__)
            for t in nats[cc:]:
                out_extra.append(PlacedMeld(self.alone[t][0], False, (t,), (), value[t]))
            nats, stand = nats[:cc], cell[0]
            for grp, a, b in plan:
                ns, nats = sorted(nats[:a]), nats[a:]
                ws, wild_cards = wild_cards[:b], wild_cards[b:]
                attrs = types[stand].attrs
                stands_for = tuple((a + p, dict(attrs)) for p in range(b))
                pm = PlacedMeld(self.kind.id, grp is not None, tuple(ns + sorted(ws)), stands_for,
                                sum(value[t] for t in ns) + b * value[stand])
                (out_req if grp is not None else out_extra).append(pm)
        for t in wild_cards:
            k, st = self.alone[t]
            out_extra.append(PlacedMeld(k, False, (t,), ((0, dict(types[st].attrs)),), value[st]))
        return out_req + out_extra


_first = itemgetter(0)


class _NotLike(Exception):
    """Some wilds may go down alone and others not: left to the general search."""


def _like(spec, contract: Contract):
    """The compiled like-card plan for this contract, or None (cached per spec and shape)."""
    g = _game(spec)
    hit = g.plans.get(id(contract))
    if hit is not None and hit[0] is contract:
        return hit[1]
    shape = _shape(contract)
    plan = g.plans.get(shape, False)
    if plan is False:
        try:
            plan = _LikeCards.plan(spec, contract)
        except _NotLike:
            plan = None
        g.plans[shape] = plan
    if len(g.plans) > 4096:
        g.plans.clear()
    g.plans[id(contract)] = (contract, plan)
    return plan


def legal(spec, contract: Contract, hand) -> bool:
    """The verdict alone: may these cards all be laid down together under `contract`?"""
    plan = _like(spec, contract)
    if plan is not None:
        return plan.legal(hand)
    return _Search(spec, contract, tuple(hand)).run() is not None


def _order(melds: list[PlacedMeld]) -> list[PlacedMeld]:
    return sorted(melds, key=lambda m: not m.required)


def lay_down(spec, contract: Contract, hand, budget: int | None = None) -> list[PlacedMeld] | None:
    """The melds that lay all these cards down under `contract` (required melds first),
    or None when there are none; the same melds for the same cards, whatever was asked
    before. `budget`: the states the general search may visit (OverBudget past it)."""
    hand = tuple(hand)
    plan = _like(spec, contract)
    if plan is not None:
        sig = plan.signature(hand)
        return _order(plan.melds(hand, sig)) if plan.legal_sig(sig) else None
    melds = _Search(spec, contract, hand, budget=budget).run()
    return None if melds is None else _order(melds)


def decide(spec, contract: Contract, hand) -> Verdict:
    hand = tuple(hand)
    plan = _like(spec, contract)
    if plan is not None:                      # lay_down's, the signature kept for the explanation
        sig = plan.signature(hand)
        if plan.legal_sig(sig):
            return Verdict(True, _order(plan.melds(hand, sig)), engine="reference")
        compiled = _explainer(spec, contract) if sig is not None else None
        if compiled is not None:
            return Verdict(False, violations=compiled.explain(hand, (plan.reading(), sig)), engine="reference")
    else:
        melds = lay_down(spec, contract, hand)
        if melds is not None:
            return Verdict(True, melds, engine="reference")
    return Verdict(False, violations=explain(spec, contract, hand), engine="reference")


def best_lay_down(spec, contract: Contract, hand, budget: int | None = None) -> Verdict | None:
    """The lay-down of most face value keeping contract.keep cards (a legal Verdict with
    no explanation), or None when there is none. `budget`: as for `lay_down`, for each
    of the (at most two) searches."""
    hand = tuple(hand)
    if contract.extras and not contract.rules and not can_lay(spec, contract, hand, budget):
        return None
    found = _Search(spec, contract, hand, best=True, budget=budget).run()
    if found is None:
        return None
    points, melds, kept = found
    return Verdict(True, _order(melds), engine="reference", kept=tuple(sorted(kept)), points=points)


def can_lay(spec, contract: Contract, hand, budget: int | None = None) -> bool:
    """Whether `best_lay_down` finds a lay-down (keeping contract.keep cards), without
    looking for the best one: the search stops at the first it meets."""
    hand = tuple(hand)
    if contract.extras and not contract.rules:
        # Without rules over the whole lay-down, further melds are optional: a lay with them
        # is a lay of the required melds alone with more cards kept, so those alone decide.
        contract = dataclasses.replace(contract, extras=())
    return _Search(spec, contract, hand, best=True, first=True, budget=budget).run() is not None


def best_lay(spec, contract: Contract, hand) -> Verdict:
    hand = tuple(hand)
    found = best_lay_down(spec, contract, hand)
    if found is not None:
        return found
    return Verdict(False, violations=explain(spec, contract, hand, best=True), engine="reference")


def explain(spec, contract: Contract, hand, best: bool = False) -> list[Violation]:
    """Why a lay-down fails, without a solver: the clauses whose rules, each dropped on its
    own, would let it through; failing that, every clause the contract rests on."""
    g = _game(spec)
    if not best and any(hand[s] for s in g.specials):
        cid = spec.rules("cards")[0][0]
        names = ", ".join(g.types[s].token for s in g.specials if hand[s])
        return [Violation(cid, spec.source(cid), f"{names} never goes into a meld")]
    if not best:
        compiled = _explainer(spec, contract)
        if compiled is not None:
            return compiled.explain(hand)
    culprits = []
    for cid, relaxed in _relaxations(spec, contract):
        if relaxed is None:
            continue
        s2, c2 = relaxed
        if best:
            found = _Search(s2, c2, hand, best=True).run() is not None
        else:
            found = legal(s2, c2, hand)
        if found:
            culprits.append(cid)
    return _violations(spec, contract, culprits)


def _violations(spec, contract: Contract, culprits) -> list[Violation]:
    chosen = culprits or list(contract.clauses)
    return [Violation(cid, spec.source(cid), spec.says(cid)) for cid in chosen if cid in spec.clauses]


class _Explainer:
    """`explain` (not `best`) for one contract whose relaxed contracts are all decided per
    cell (`_LikeCards`), compiled: the relaxed plans grouped by what they read of a hand
    (one signature per group, see `_LikeCards.reading`), and the violations kept per
    combination of signatures, on which they alone depend."""

    def __init__(self, spec, contract: Contract, relaxed: list):
        self.spec, self.contract = spec, contract
        readings: dict = {}
        self.checks = []                 # (clause, plan, index of its group)
        self.readers = []                # a plan of each group
        for cid, plan in relaxed:
            group = readings.setdefault(plan.reading(), len(readings))
            if group == len(self.readers):
                self.readers.append(plan)
            self.checks.append((cid, plan, group))
        self.memo: dict = {}

    def explain(self, hand, known: tuple | None = None) -> list[Violation]:
        """`known`: (a plan's reading, the hand's signature under it), if one is known."""
        sigs = tuple(known[1] if known is not None and plan.reading() == known[0] else plan.signature(hand)
                     for plan in self.readers)
        hit = self.memo.get(sigs)
        if hit is None:
            culprits = [cid for cid, plan, group in self.checks if plan.legal_sig(sigs[group])]
            if len(self.memo) > 100_000:
                self.memo.clear()
            hit = self.memo[sigs] = tuple(_violations(self.spec, self.contract, culprits))
        return list(hit)


def _explainer(spec, contract: Contract) -> "_Explainer | None":
    """The compiled explainer of this contract, or None where some relaxed contract needs
    the general search (cached with the spec's tables, by contract identity)."""
    g = _game(spec)
    hit = g.explainers.get(id(contract))
    if hit is not None and hit[0] is contract:
        return hit[1]
    relaxed = []
    for cid, r in _relaxations(spec, contract):
        if r is None:
            continue
        plan = _like(*r)
        if plan is None:
            relaxed = None
            break
        relaxed.append((cid, plan))
    found = _Explainer(spec, contract, relaxed) if relaxed is not None else None
    if len(g.explainers) > 4096:
        g.explainers.clear()
    g.explainers[id(contract)] = (contract, found)
    return found


def _relaxations(spec, contract: Contract) -> list[tuple]:
    """(clause, relaxed spec and contract or None) for each clause of the contract, kept
    with the spec's tables (by contract identity, then by its shape)."""
    g = _game(spec)
    hit = g.relaxed.get(id(contract))
    if hit is not None and hit[0] is contract:
        return hit[1]
    shape = (_shape(contract), contract.clauses)
    found = g.relaxed.get(shape)
    if found is None:
        found = g.relaxed[shape] = [(cid, _relax(spec, contract, cid)) for cid in contract.clauses]
    if len(g.relaxed) > 4096:
        g.relaxed.clear()
    g.relaxed[id(contract)] = (contract, found)
    return found


def _relax(spec, contract: Contract, cid: str):
    """The spec and contract with the rules of clause `cid` dropped (None if dropping it
    cannot make anything legal, e.g. a clause that only adds options). The spec itself is
    kept where its meld kinds do not change, so its tables serve the relaxed contract too."""
    kinds = {k: dataclasses.replace(m, rules=tuple(r for r in m.rules if r.clause != cid and cid not in r.uses))
             for k, m in spec.meld_kinds.items()}
    rules = tuple(r for r in contract.rules if r.clause != cid and cid not in r.uses)
    required = tuple(s for s in contract.required if s.clause != cid)
    keep = 0 if contract.keep_clause == cid else contract.keep
    distinct = () if contract.distinct_clause == cid else contract.distinct
    changed = (kinds != dict(spec.meld_kinds) or rules != contract.rules or required != contract.required
               or keep != contract.keep or distinct != contract.distinct)
    if not changed:
        return None
    return (spec if kinds == dict(spec.meld_kinds) else dataclasses.replace(spec, meld_kinds=kinds),
            dataclasses.replace(contract, rules=rules, required=required, keep=keep, distinct=distinct))
