"""The plays the table mechanic's search (`table.options`) makes around melds holding a
wild, under `wild_locks`: melds that must stay whole (cards may be added to them), and,
under `swap`, wilds won from them.

A meld of the old table holding a wild is *held*. Every play built here keeps each held
meld inside one new meld; the rest of the table (the *free* melds) is laid out again by
the solver (`best(table counts, hand counts)`, the most the hand can add, every table
card used). What is searched:

- `kept_tries`: the held melds kept, the free melds rearranged with the hand, then the
  hand's leftovers added to the held melds (`grow`); and the held melds first grown from
  the whole hand, the free melds then rearranged with what is left.
- `swap_tries` (under `swap`): every *swap* (a held meld, one wild in it, and a natural
  type that makes the meld valid in the wild's place, from the hand, or, under `swap:
  {from: table}`, from a free meld too), every single swap and every pair of swaps on two
  different held melds (so one or two wilds won in one play, one per meld, as `check`
  allows). For each: the won wilds laid out with the free melds' cards and the rest of the
  hand; the free melds laid out without them and the wilds added to the held melds or
  another swapped one (`grow`, the play dropped if a wild is left over or goes back into
  the meld it was won from); and under `reuse`, the won wilds
  laid out first with cards of the hand alone (each in a meld with hand cards), the free
  melds then with what is left. The held and swapped melds then take the hand's leftovers
  (`grow`).

`grow` adds loose cards to melds one at a time, each step leaving a valid meld, naturals
before wilds, in card order: it never takes a card out, and finds no growth that needs
two cards at once (a card that fits only once another is in is added when that other
one is). Not searched: a natural taken out of a held meld, two wilds won from one meld,
three or more wilds won in one play, a held meld's growth traded against the free melds'
(a card the solver used on the free melds is not tried in a held one, except in the
held-first try without a swap). Every play built is a candidate only: `table.check`
decides which are legal.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable, Iterator

from ... import rearrange as ra
from ..memo import PerSpec
from ..state import counts

Table = tuple[tuple[int, ...], ...]
Best = Callable  # (spec, table counts, hand counts, initial) -> rearrange.Placement

_valid = PerSpec(50_000)


def valid(spec, meld: tuple[int, ...]) -> bool:
    """Whether these cards alone make one valid meld of the spec's free melds (remembered)."""
    def judge():
        m = counts(meld, len(spec.cards.types))
        return ra.judge(spec, [], m, [m]).legal

    return _valid.get(spec, meld, judge)


def grow(spec, melds: list[tuple[int, ...]], which, loose: Counter) -> Counter:
    """Add cards of `loose` to the melds at indices `which` (in place), one at a time while
    each stays valid; the cards left loose."""
    types = spec.cards.types
    loose = +loose
    order = sorted(loose, key=lambda c: (types[c].wild, c))
    for i in which:
        added = True
        while added and loose:
            added = False
            for c in order:
                if loose[c] <= 0:
                    continue
                bigger = tuple(sorted(melds[i] + (c,)))
                if valid(spec, bigger):
                    melds[i] = bigger
                    loose[c] -= 1
                    added = True
    return +loose


def _held(spec, old: Table) -> list[int]:
    types = spec.cards.types
    return [i for i, m in enumerate(old) if any(types[c].wild for c in m)]


def _melds(p) -> list[tuple[int, ...]]:
    return [tuple(sorted(m.cards)) for m in p.melds]


def _left(hand: tuple, placed) -> Counter:
    return Counter({t: n - placed[t] for t, n in enumerate(hand) if n - placed[t] > 0})


def _minus(a: tuple, b: Counter) -> tuple:
    return tuple(n - b.get(t, 0) for t, n in enumerate(a))


def _plus(a: tuple, b: Counter) -> tuple:
    return tuple(n + b.get(t, 0) for t, n in enumerate(a))


def _table(melds) -> Table:
    return tuple(tuple(sorted(m)) for m in melds)


def kept_tries(spec, best: Best, old: Table, hand: tuple) -> Iterator[Table]:
    """The held melds kept whole (and grown), the free melds rearranged with the hand."""
    width = len(spec.cards.types)
    held = _held(spec, old)
    if not held:
        return
    keep = [old[i] for i in held]
    free = counts([c for j, m in enumerate(old) if j not in held for c in m], width)
    p = best(spec, free, hand, False)
    if p.possible:
        melds = keep + _melds(p)
        grow(spec, melds, range(len(keep)), _left(hand, p.placed))
        if sum(map(len, melds)) > sum(map(len, old)):
            yield _table(melds)
    first = list(keep)                                   # the held melds grown from the whole hand first
    loose = grow(spec, first, range(len(keep)), Counter({t: n for t, n in enumerate(hand) if n}))
    used = Counter({t: n for t, n in enumerate(hand) if n}) - loose
    if used:
        q = best(spec, free, _minus(hand, used), False)
        if q.possible:
            yield _table(first + _melds(q))


def swaps(spec, decl_f: dict, old: Table, hand: tuple) -> list[tuple[int, int, int, str]]:
    """Every swap: (held meld index, wild type, natural type, "hand" or "table")."""
    types = spec.cards.types
    width = len(types)
    held = _held(spec, old)
    from_table = (decl_f.get("swap") or {}).get("from") == "table"
    free = counts([c for j, m in enumerate(old) if j not in held for c in m], width)
    out = []
    for i in held:
        for w in sorted({c for c in old[i] if types[c].wild}):
            rest = list(old[i])
            rest.remove(w)
            for t in range(width):
                if not types[t].natural or not (hand[t] or (from_table and free[t])):
                    continue
                if not valid(spec, tuple(sorted(rest + [t]))):
                    continue
                if hand[t]:
                    out.append((i, w, t, "hand"))
                if from_table and free[t]:
                    out.append((i, w, t, "table"))
    return out


def swap_tries(spec, best: Best, decl_f: dict, old: Table, hand: tuple) -> Iterator[Table]:
    """Plays that win one wild, or two from two held melds, by swaps (see the module doc),
    built one at a time (the caller may stop early)."""
    if not (decl_f.get("wild_locks") and decl_f.get("swap")):
        return
    width = len(spec.cards.types)
    held = _held(spec, old)
    options = swaps(spec, decl_f, old, hand)
    combos = [(s,) for s in options]
    combos += [(a, b) for k, a in enumerate(options) for b in options[k + 1:] if a[0] != b[0]]
    free = counts([c for j, m in enumerate(old) if j not in held for c in m], width)
    for combo in combos:
        from_hand = Counter(t for _, _, t, src in combo if src == "hand")
        from_table = Counter(t for _, _, t, src in combo if src == "table")
        if any(hand[t] < n for t, n in from_hand.items()) or any(free[t] < n for t, n in from_table.items()):
            continue
        won = Counter(w for _, w, _, _ in combo)
        swapped = []
        for i, w, t, _ in combo:
            rest = list(old[i])
            rest.remove(w)
            swapped.append(tuple(sorted(rest + [t])))
        keep = [old[i] for i in held if i not in {c[0] for c in combo}]
        base = keep + swapped
        left = _minus(hand, from_hand)
        rest_table = _minus(free, from_table)
        p = best(spec, _plus(rest_table, won), left, False)
        if p.possible:                                   # the won wilds laid out with the free melds
            melds = base + _melds(p)
            grow(spec, melds, range(len(base)), _left(left, p.placed))
            yield _table(melds)
        p = best(spec, rest_table, left, False)
        if p.possible:                                   # the won wilds added to the held or other swapped melds
            melds = list(base)
            loose = grow(spec, melds, range(len(base)), won + _left(left, p.placed))
            back = any(melds[len(keep) + k].count(w) > swapped[k].count(w) for k, (_, w, _, _) in enumerate(combo))
            if not any(loose[w] for w in won) and not back:     # (a wild back in its own meld: no swap)
                yield _table(melds + _melds(p))
        if decl_f.get("reuse"):                          # the won wilds with hand cards first
            q = best(spec, _plus((0,) * width, won), left, False)
            if q.possible and any(q.placed):
                left2 = _minus(left, Counter({t: n for t, n in enumerate(q.placed) if n}))
                p = best(spec, rest_table, left2, False)
                if p.possible:
                    melds = base + _melds(q) + _melds(p)
                    grow(spec, melds, range(len(base)), _left(left2, p.placed))
                    yield _table(melds)
