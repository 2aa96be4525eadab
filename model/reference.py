"""The reference decider: meld legality and the best lay-down by direct search, no solver.

It implements the meld semantics of `melds.py` constructively: the lowest card still in
hand must belong to some meld, so the search tries every meld that contains it (for each
slot the contract still needs, and each extra slot), and recurses on what is left,
remembering the states that failed. Wilds get stand-ins only as far as a meld needs
them: the stand-in's attributes follow from the meld's shape, and its value only matters
where a rule reads `points`.

Independent of the Z3 compiler by design: Hypothesis holds the two equal.
"""
from __future__ import annotations

import itertools
from typing import Iterator, Mapping

from .melds import Contract, MeldKind, PlacedMeld, Slot, Verdict, Violation
from .spec import derived


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
        self.candidates: dict[tuple, list] = {}      # see _Search.melds


def _game(spec) -> _Game:
    return derived(spec, "reference tables", _Game)


def _sumset(options: list[Mapping[int, tuple]]) -> dict[int, tuple]:
    """Achievable totals of a sequence of independent choices, each {points: witness}."""
    acc: dict[int, tuple] = {0: ()}
    for opt in options:
        acc = {p + q: wa + wb for p, wa in acc.items() for q, wb in opt.items()}
    return acc


class _Search:
    def __init__(self, spec, contract: Contract, hand: tuple, best: bool = False):
        self.g = _game(spec)
        self.spec, self.contract, self.best = spec, contract, best
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
        attribute, per value of the meld's shared attributes too."""
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
        on the counts of the cards that could join the meld, so they are cached per game."""
        g = self.g
        fixed = {a: g.code[first][a] for a in kind.same} if first is not None else {}
        relevant = tuple(rem[t] for t in self.compatible(kind, fixed)) if first is not None else ()
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

    def solve(self, rem, req, used_vals, agg, kept):
        """decide: a list of melds, or None.  best: (points, melds, kept cards) or None."""
        key = (rem, req, used_vals, agg, kept)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = result = self._solve(rem, req, used_vals, agg, kept)
        return result

    def _solve(self, rem, req, used_vals, agg, kept):
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
        if self.best:   # the lowest card may also stay in hand
            card = first if first is not None else first_wild
            rest = rem[:card] + (rem[card] - 1,) + rem[card + 1:]
            sub = self.solve(rest, req, used_vals, agg, min(kept + 1, c.keep))
            if sub is not None:
                better((sub[0], sub[1], [card] + sub[2]))
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
                    sub = self.solve(tuple(left), new_req, new_used, self.lay_agg(agg, kid, env), kept)
                    if sub is None:
                        continue
                    meld = PlacedMeld(kid, i is not None, tuple(nats + wilds),
                                      tuple((len(nats) + j, dict(g.types[t].attrs)) for j, t in enumerate(stand)),
                                      env["points"])
                    if not self.best:
                        return [meld] + sub
                    better((env["face_points"] + sub[0], [meld] + sub[1], sub[2]))
        return best


def _order(melds: list[PlacedMeld]) -> list[PlacedMeld]:
    return sorted(melds, key=lambda m: not m.required)


def decide(spec, contract: Contract, hand) -> Verdict:
    hand = tuple(hand)
    melds = _Search(spec, contract, hand).run()
    if melds is not None:
        return Verdict(True, _order(melds), engine="reference")
    return Verdict(False, violations=explain(spec, contract, hand), engine="reference")


def best_lay(spec, contract: Contract, hand) -> Verdict:
    hand = tuple(hand)
    found = _Search(spec, contract, hand, best=True).run()
    if found is not None:
        points, melds, kept = found
        return Verdict(True, _order(melds), engine="reference", kept=tuple(sorted(kept)), points=points)
    return Verdict(False, violations=explain(spec, contract, hand, best=True), engine="reference")


def explain(spec, contract: Contract, hand, best: bool = False) -> list[Violation]:
    """Why a lay-down fails, without a solver: the clauses whose rules, each dropped on its
    own, would let it through; failing that, every clause the contract rests on."""
    g = _game(spec)
    if not best and any(hand[s] for s in g.specials):
        cid = spec.rules("cards")[0][0]
        names = ", ".join(g.types[s].token for s in g.specials if hand[s])
        return [Violation(cid, spec.source(cid), f"{names} never goes into a meld")]
    culprits = []
    for cid in contract.clauses:
        relaxed = _relax(spec, contract, cid)
        if relaxed is None:
            continue
        s2, c2 = relaxed
        found = _Search(s2, c2, hand, best=best).run()
        if found is not None:
            culprits.append(cid)
    chosen = culprits or list(contract.clauses)
    return [Violation(cid, spec.source(cid), spec.says(cid)) for cid in chosen if cid in spec.clauses]


def _relax(spec, contract: Contract, cid: str):
    """The spec and contract with the rules of clause `cid` dropped (None if dropping it
    cannot make anything legal, e.g. a clause that only adds options)."""
    import dataclasses

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
    return (dataclasses.replace(spec, meld_kinds=kinds),
            dataclasses.replace(contract, rules=rules, required=required, keep=keep, distinct=distinct))
