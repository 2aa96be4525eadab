"""Brute force meld legality for small hands: the definition, executed literally.

Every partition of the cards into blocks; every way of giving each wild a stand-in
natural card; every way of assigning blocks to the contract's slots. Exponential on
purpose: it shares no search idea with the reference decider or the Z3 compiler, so the
three agreeing means something. Only for hands of a few cards.
"""
from __future__ import annotations

import itertools
from functools import lru_cache


def partitions(items):
    """Every set partition of a list (as lists of lists)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]
        yield [[first]] + part


class BruteForce:
    def __init__(self, spec):
        self.spec = spec
        self.types = spec.cards.types
        self.naturals = [t for t in self.types if t.natural]

    def _shape_ok(self, kind, cards) -> bool:
        """same / distinct / run on fully natural cards (wilds already replaced)."""
        for a in kind.same:
            if len({c.attrs[a] for c in cards}) > 1:
                return False
        for a in kind.distinct:
            vals = [c.attrs[a] for c in cards]
            if len(set(vals)) != len(vals):
                return False
        if kind.run is not None:
            vals = sorted(c.attrs[kind.run] for c in cards)
            domain = sorted(self.spec.cards.attributes[kind.run])
            if len(set(vals)) != len(vals) or vals[-1] - vals[0] != len(vals) - 1:
                return False
            if vals[0] < domain[0] or vals[-1] > domain[-1]:
                return False
        return True

    @lru_cache(maxsize=None)
    def block_options(self, kind_id: str, block: tuple[int, ...]) -> frozenset:
        """Achievable (numbers, same-values) of a block as a meld of this kind."""
        kind = self.spec.meld_kinds[kind_id]
        cards = [self.types[i] for i in block]
        if any(c.special for c in cards):
            return frozenset()
        n = len(cards)
        if n < kind.size_min or (kind.size_max is not None and n > kind.size_max):
            return frozenset()
        nats = [c for c in cards if c.natural]
        wilds = [c for c in cards if c.wild]
        out = set()
        for stand in itertools.product(self.naturals, repeat=len(wilds)):
            full = nats + list(stand)
            if not self._shape_ok(kind, full):
                continue
            env = dict(self.spec.params, size=n, naturals=len(nats), wilds=len(wilds),
                       points=sum(c.value for c in full), face_points=sum(c.value for c in cards))
            if all(r.expr.evaluate(env) for r in kind.rules):
                same = tuple((a, full[0].attrs[a]) for a in kind.same)
                out.add((tuple(sorted(env.items())), same))
        return frozenset(out)

    def decide(self, contract, hand) -> bool:
        cards = [i for i, k in enumerate(hand) for _ in range(k)]
        if not cards:
            return not contract.required and self._whole_ok(contract, [])
        for part in partitions(cards):
            if self._partition_ok(contract, [tuple(sorted(b)) for b in part]):
                return True
        return False

    def _partition_ok(self, contract, blocks) -> bool:
        req = list(contract.required)
        if len(blocks) < len(req):
            return False
        # choose which block fills each required slot (an injective assignment)
        for chosen in itertools.permutations(range(len(blocks)), len(req)):
            per_block = []
            ok = True
            for b_i, block in enumerate(blocks):
                if b_i in chosen:
                    slot = req[chosen.index(b_i)]
                    slots = [slot]
                else:
                    slots = list(contract.extras)
                opts = [(kid, o) for s in slots if s.fits(len(block)) for kid in s.kinds
                        for o in self.block_options(kid, block)]
                if not opts:
                    ok = False
                    break
                per_block.append((b_i in chosen, opts))
            if not ok:
                continue
            for combo in itertools.product(*(opts for _, opts in per_block)):
                if self._whole_ok(contract, [(r, kid, o) for (r, _), (kid, o) in zip(per_block, combo)]):
                    return True
        return False

    def _whole_ok(self, contract, melds) -> bool:
        if contract.distinct:
            seen = set()
            for required, kid, (_, same) in melds:
                if not required:
                    continue
                vals = tuple(v for v in same if v[0] in contract.distinct)
                if any(v in seen for v in vals):
                    return False
                seen.update(vals)
        for rule in contract.rules:
            totals = dict(self.spec.params)
            for name in ("size", "naturals", "wilds", "points", "face_points"):
                totals[name] = sum(dict(env)[name] for _, kid, (env, _) in melds
                                   if rule.kinds is None or kid in rule.kinds)
            if not rule.expr.evaluate(totals):
                return False
        return True
