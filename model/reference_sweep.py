"""The reference's fast answer to "the most a hand can add to a table of free melds": a
sweep over the run attribute, no solver.

It applies when the spec's free melds have the two shapes a two-attribute card set allows
(the shape of the meld kinds decides it, never a game's name): *runs* (one value of the
second attribute, consecutive values of the first, the run attribute) and *groups* (one
value of the run attribute, every card a different value of the second). Then every meld
lies within one stretch of run values, so the cards can be laid cell by cell (a cell: one
run value and one value of the second attribute, in that order) while remembering only

- per value of the second attribute, the lengths of the runs still open (capped where
  longer makes no difference),
- the cards given to groups at the current run value so far, per value of the second
  attribute (checked to split into groups when the run value is done),
- how many wilds stand in so far.

At each cell the search chooses how many of the cell's cards to lay (every table card,
any number of the hand's), how many wilds stand in there, how many of these go to groups,
and which open runs they extend; a run left behind must be long enough to close. The best
gain from each state is remembered, so each state is solved once. Kinds with rules over
anything but their size, or other shapes, are not this module's: `plan` returns None and
the caller uses the general search (`reference._Search`).

Independent of the Z3 compiler by design: Hypothesis holds the two equal.
"""
from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass

from .melds import Contract, PlacedMeld


_NONE = -10 ** 9          # the value of a state with no way to finish: no lay-out exists


@dataclass(frozen=True)
class Plan:
    run_attr: str                  # the attribute runs climb (the sweep's order)
    other: str                     # the attribute runs share and groups keep distinct
    run_values: tuple              # codes of run_attr, in order
    other_values: tuple            # codes of other
    cell: dict                     # (run code, other code) -> natural type index
    run_kind: str | None           # kind id for runs (None: no runs)
    run_min: int
    run_max: int | None            # None: unbounded
    group_kind: dict               # group size -> kind id
    wilds: tuple                   # wild type indices


def _size_only(kind, params) -> bool:
    return all(r.expr.names <= {"size"} | set(params) for r in kind.rules)


def plan(spec, contract: Contract) -> Plan | None:
    """How the sweep reads this spec's free melds, or None when it cannot."""
    attrs = list(spec.cards.attributes)
    if contract.required or contract.rules or contract.distinct or len(attrs) != 2:
        return None
    if any(t.special for t in spec.cards.types):
        return None
    params = dict(spec.params)
    runs, groups = [], []
    for slot in contract.extras:
        for kid in slot.kinds:
            k = spec.meld_kinds[kid]
            lo = max(k.size_min, slot.size)
            hi = slot.size if slot.exact else k.size_max
            if k.run is not None and len(k.same) == 1 and not k.distinct and k.run != k.same[0]:
                if k.rules:
                    return None
                runs.append((k, lo, hi))
            elif k.run is None and len(k.same) == 1 and len(k.distinct) == 1 and k.same[0] != k.distinct[0]:
                if not _size_only(k, params):
                    return None
                groups.append((k, lo, hi))
            else:
                return None
    run_attr = {k.run for k, _, _ in runs} | {k.same[0] for k, _, _ in groups}
    other = {k.same[0] for k, _, _ in runs} | {k.distinct[0] for k, _, _ in groups}
    if len(run_attr) != 1 or len(other) != 1 or run_attr == other:
        return None
    ra, ob = run_attr.pop(), other.pop()
    codes = lambda a: tuple(sorted(spec.cards.code(a, v) for v in spec.cards.attributes[a]))  # noqa: E731
    rv, ov = codes(ra), codes(ob)
    if any(b - a != 1 for a, b in zip(rv, rv[1:])):
        return None                               # runs climb by one; a gap in the codes is not this sweep's
    cell = {}
    for t in spec.cards.types:
        if t.natural:
            cell[(spec.cards.code(ra, t.attrs[ra]), spec.cards.code(ob, t.attrs[ob]))] = t.index
    if len(cell) != len(rv) * len(ov):
        return None
    # run lengths that may close: one interval [lo, hi] for all run slots, or not this sweep's
    lengths = set()
    for _, lo, hi in runs:
        lengths |= set(range(lo, (hi if hi is not None else len(rv)) + 1))
    lengths &= set(range(1, len(rv) + 1))
    run_kind = runs[0][0].id if runs else None
    if len({k.id for k, _, _ in runs}) > 1:
        return None
    run_min = run_max = None
    if lengths:
        run_min, top = min(lengths), max(lengths)
        if lengths != set(range(run_min, top + 1)):
            return None
        run_max = None if top == len(rv) else top
    gk: dict[int, str] = {}
    for k, lo, hi in groups:
        for s in range(lo, min(hi if hi is not None else len(ov), len(ov)) + 1):
            env = dict(params, size=s)
            if all(r.expr.evaluate(env) for r in k.rules):
                gk.setdefault(s, k.id)
    wilds = tuple(t.index for t in spec.cards.types if t.wild)
    return Plan(ra, ob, rv, ov, cell, run_kind if lengths else None, run_min or 0, run_max, gk, wilds)


class Sweep:
    """The most `hand` adds to `table` (counts per card type): `run()` gives
    (gain, melds) or None when the table's own cards cannot all be laid out."""

    def __init__(self, spec, p: Plan, table: tuple, hand: tuple, score: str = "cards"):
        self.spec, self.p = spec, p
        self.table, self.hand, self.score = table, hand, score
        types = spec.cards.types
        self.cells = [(v, o, p.cell[(v, o)]) for v in p.run_values for o in p.other_values]
        self.nb = len(p.other_values)
        self.w_table = sum(table[w] for w in p.wilds)
        self.w_total = self.w_table + sum(hand[w] for w in p.wilds)
        hand_w = sorted((types[w].value if score == "points" else 1 for w in p.wilds for _ in range(hand[w])),
                        reverse=True)
        self.w_gain = [sum(hand_w[:i]) for i in range(len(hand_w) + 1)]
        self.cap = p.run_max if p.run_max is not None else p.run_min     # lengths kept exactly up to here
        self.memo: dict = {}
        self.groups_memo: dict = {}
        # what the cards still to come could add, for each cell onwards (a bound, for pruning nothing
        # but the choice of how many hand cards to lay: laying fewer never lets more be laid later)
        self.value = [(types[t].value if score == "points" else 1) for _, _, t in self.cells]
        # the cards each cell could lay (none past the last run value)
        self.room = [table[t] + hand[t] for _, _, t in self.cells] + [0] * self.nb
        # the most the hand's cards from each cell onwards could add: a state that reaches it
        # needs no other choice tried
        self.most = [0] * (len(self.cells) + 1)
        for i in range(len(self.cells) - 1, -1, -1):
            self.most[i] = self.most[i + 1] + hand[self.cells[i][2]] * self.value[i]
        self.most = [m + self.w_gain[-1] for m in self.most]

    # ---- groups at one run value --------------------------------------------------------------
    def split(self, g: tuple):
        """One way to split cards per value of the second attribute into groups (a list of
        tuples of positions), or None."""
        if g in self.groups_memo:
            return self.groups_memo[g]
        first = next((i for i, n in enumerate(g) if n), None)
        if first is None:
            return []
        out = None
        others = [i for i in range(first + 1, len(g)) if g[i]]
        for s in sorted(self.p.group_kind, reverse=True):
            for rest in itertools.combinations(others, s - 1):
                members = (first,) + rest
                left = tuple(n - (i in members) for i, n in enumerate(g))
                sub = self.split(left)
                if sub is not None:
                    out = [members] + sub
                    break
            if out is not None:
                break
        self.groups_memo[g] = out
        return out

    # ---- runs of one value of the second attribute ----------------------------------------------
    def closable(self, length: int) -> bool:
        return self.p.run_kind is not None and length >= self.p.run_min

    def run_moves(self, open_runs: tuple, r: int):
        """Ways to lay r cards on the runs of one value of the second attribute: (lengths
        extended, new open lengths). Runs not extended close (they must be long enough)."""
        if self.p.run_kind is None:
            if r == 0 and not open_runs:
                yield (), ()
            return
        distinct = sorted(set(open_runs))
        have = {x: open_runs.count(x) for x in distinct}
        for e in range(0, min(r, len(open_runs)) + 1):
            for combo in _multisubsets(distinct, have, e):
                closed = list(open_runs)
                for x in combo:
                    closed.remove(x)
                if not all(self.closable(x) for x in closed):
                    continue
                grown = [x + 1 for x in combo]
                if self.p.run_max is not None and any(x > self.p.run_max for x in grown):
                    continue
                new = tuple(sorted([min(x, self.cap) for x in grown] + [1] * (r - e)))
                yield combo, new

    def can_grow(self, i, new, wilds_left) -> bool:
        """Whether the cells ahead of cell i could grow every run too short to close that
        it leaves open (a lookahead that only ever prunes states with no way to finish)."""
        for d in range(1, self.p.run_min):
            need = sum(x + d <= self.p.run_min for x in new)
            if need == 0:
                return True
            j = i + d * self.nb
            if need > (self.room[j] if j < len(self.cells) else 0) + wilds_left:
                return False
        return True

    # ---- the sweep -----------------------------------------------------------------------------
    def run(self):
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20 * len(self.cells) + 1000))
        try:
            start = (0, tuple(() for _ in range(self.nb)), (), 0)
            best, exact = self.solve(*start)
            assert exact
            if best == _NONE:
                return None
            return best, self.witness(start)
        finally:
            sys.setrecursionlimit(old)

    def solve(self, i, runs, g, k, need=_NONE + 1):
        """(value, exact) of the best from this state on; when not exact, value is an upper
        bound below `need` (the search stopped once nothing here could reach it)."""
        key = (i, runs, g, k)
        e = self.memo.get(key)
        if e is not None and (e[1] or e[0] < need):
            return e[0], e[1]
        if self.most[i] < need:
            return self.most[i], False
        best, how, upper = _NONE, None, _NONE
        for gain, choice, nxt in self.moves(i, runs, g, k):
            if nxt is None:
                sub, exact = self.finish(runs, k), True
            else:
                sub, exact = self.solve(*nxt, max(need, best + 1) - gain)
            if not exact:
                upper = max(upper, gain + sub)
            elif sub > _NONE and gain + sub > best:
                best, how = gain + sub, (choice, nxt)
                if best == self.most[i]:
                    break
        if best >= need or upper == _NONE:
            self.memo[key] = (best, True, how)
            return best, True
        value = max(best, upper)
        self.memo[key] = (value, False, None)
        return value, False

    def finish(self, runs, k):
        if not all(self.closable(x) for rs in runs for x in rs):
            return _NONE
        if k < self.w_table or k - self.w_table >= len(self.w_gain):
            return _NONE
        return self.w_gain[k - self.w_table]

    def moves(self, i, runs, g, k):
        if i == len(self.cells):
            yield 0, None, None
            return
        _, _, t = self.cells[i]
        b = i % self.nb
        last_of_value = b == self.nb - 1
        a, h = self.table[t], self.hand[t]
        for u in range(a + h, a - 1, -1):          # the most first: a state that lays all it can stops there
            for kv in range(0, self.w_total - k + 1):
                n = u + kv
                for gc in range(0, n + 1):
                    g2 = g + (gc,)
                    if last_of_value and self.split(g2) is None:
                        continue
                    for combo, new in self.run_moves(runs[b], n - gc):
                        if new and new[0] < self.p.run_min and not self.can_grow(i, new, self.w_total - k - kv):
                            continue
                        runs2 = runs[:b] + (new,) + runs[b + 1:]
                        nxt = (i + 1, runs2, () if last_of_value else g2, k + kv)
                        yield (u - a) * self.value[i], (u, kv, gc, combo), nxt
                        # the end of the sweep is reached through the next state

    # ---- the witness ----------------------------------------------------------------------------
    def witness(self, start) -> list[PlacedMeld]:
        """Replay the remembered choices with the actual cards, into melds."""
        spec, p = self.spec, self.p
        types = spec.cards.types
        open_runs: list[list[list]] = [[] for _ in range(self.nb)]    # per other value: runs (lists of items)
        done: list[tuple[str, list]] = []
        pending: list[list] = [[] for _ in range(self.nb)]           # group items at this run value
        state = start
        while state[0] < len(self.cells):
            how = self.memo[state][2]
            (u, kv, gc, combo), nxt = how
            v, o, t = self.cells[state[0]]
            b = state[0] % self.nb
            items = [("card", t)] * u + [("wild", t)] * kv      # a wild standing for the cell's natural
            pending[b] += items[:gc]
            runs_items = items[gc:]
            rs = open_runs[b]
            extended, keep = [], []
            want = list(combo)
            for run in sorted(rs, key=len):
                ln = min(len(run), self.cap)
                if ln in want:
                    want.remove(ln)
                    extended.append(run)
                else:
                    keep.append(run)
            for run in keep:
                done.append((p.run_kind, run))
            for run, item in zip(extended, runs_items):
                run.append(item)
            open_runs[b] = extended + [[item] for item in runs_items[len(extended):]]
            if b == self.nb - 1:
                for members in self.split(tuple(len(x) for x in pending)) or []:
                    done.append((p.group_kind[len(members)], [pending[m].pop() for m in members]))
                pending = [[] for _ in range(self.nb)]
            state = nxt
        for rs in open_runs:
            done += [(p.run_kind, run) for run in rs]
        # the wilds that stand in: every one of the table's, then the hand's best
        k = state[3]
        table_w = [w for w in p.wilds for _ in range(self.table[w])]
        hand_w = sorted((w for w in p.wilds for _ in range(self.hand[w])),
                        key=lambda w: -(types[w].value if self.score == "points" else 1))
        pool = (table_w + hand_w)[:k]
        melds = []
        for kind, items in done:
            nats = [t for what, t in items if what == "card"]
            stand = [t for what, t in items if what == "wild"]
            wl = [pool.pop() for _ in stand]
            melds.append(PlacedMeld(kind, False, tuple(nats + wl),
                                    tuple((len(nats) + j, dict(types[t].attrs)) for j, t in enumerate(stand)),
                                    sum(types[t].value for t in nats + stand)))
        return melds


def _multisubsets(distinct, have, e):
    """Sub-multisets of size e of a multiset given as distinct values and their counts."""
    def rec(j, left):
        if left == 0:
            yield ()
            return
        if j == len(distinct):
            return
        x = distinct[j]
        for c in range(min(have[x], left), -1, -1):
            for rest in rec(j + 1, left - c):
                yield (x,) * c + rest
    yield from rec(0, e)


def best(spec, contract: Contract, table: tuple, hand: tuple, score: str):
    """(gain, melds), None when the table cannot be laid out, or NotImplemented when the
    spec's free melds are not of the sweep's shapes."""
    p = plan(spec, contract)
    if p is None:
        return NotImplemented
    return Sweep(spec, p, tuple(table), tuple(hand), score).run()
