"""Seeded positions for the table question: a table built from valid melds drawn from one
pack, and a rack dealt from the rest of it.

Game-neutral: the melds are runs and groups as the spec's free melds define them (read
through `reference_sweep.plan`), the pack is the spec's deck, wilds join a meld now and
then in place of a card. Every meld is checked by `rearrange.judge` before it goes down.
"""
from __future__ import annotations

import random

from rulings import rearrange as ra
from rulings import reference_sweep


class PositionError(ValueError):
    pass


def _meld(spec, p, rng: random.Random, pack: list[int]) -> list[int] | None:
    """A random run or group from the cards left in `pack` (counts, changed only on success)."""
    kinds = ([("run", None)] if p.run_kind else []) + [("group", s) for s in p.group_kind]
    what, size = rng.choice(kinds)
    nv = len(p.run_values)
    if what == "run":
        top = min(p.run_max or nv, nv, p.run_min + rng.choice((0, 0, 1, 2)))
        n = rng.randint(p.run_min, max(p.run_min, top))
        start = rng.randrange(0, nv - n + 1)
        o = rng.choice(p.other_values)
        cells = [(p.run_values[start + j], o) for j in range(n)]
    else:
        v = rng.choice(p.run_values)
        cells = [(v, o) for o in rng.sample(list(p.other_values), size)]
    cards = []
    left = list(pack)
    for c in cells:
        t = p.cell[c]
        wild = [w for w in p.wilds if left[w]]
        if wild and rng.random() < 0.06:
            t = rng.choice(wild)
        if not left[t]:
            return None
        left[t] -= 1
        cards.append(t)
    pack[:] = left
    return cards


def position(spec, seed: int, table_cards: int, rack_cards: int = 14, rack_melds: int = 0):
    """(melds as counts, table counts, rack counts): melds until the table holds about
    `table_cards` cards (it stops at the first meld that reaches it), then a rack of
    `rack_cards` from what is left, shuffled; with `rack_melds`, the rack starts with that
    many melds' cards (as far as they fit in it)."""
    contract = ra.table_contract(spec)
    p = reference_sweep.plan(spec, contract)
    if p is None:
        raise PositionError(f"{spec.game}'s free melds are not runs and groups the position builder knows")
    rng = random.Random(seed)
    pack = list(spec.deck())
    n = len(pack)
    melds = []
    tries = 0
    while sum(sum(m) for m in melds) < table_cards and tries < 1000:
        tries += 1
        cards = _meld(spec, p, rng, pack)
        if cards is None:
            continue
        m = [0] * n
        for t in cards:
            m[t] += 1
        if not ra.judge(spec, [], m, [tuple(m)]).legal:       # pragma: no cover - the builder's own check
            raise PositionError(f"built an invalid meld: {spec.cards.tokens(m)}")
        melds.append(tuple(m))
    rack = [0] * n
    for _ in range(rack_melds):
        cards = _meld(spec, p, rng, pack) or []
        room = rack_cards - sum(rack)
        for t in cards[:room]:
            rack[t] += 1
        for t in cards[room:]:
            pack[t] += 1                    # what does not fit in the rack goes back
    rest = [t for t in range(n) for _ in range(pack[t])]
    rng.shuffle(rest)
    for t in rest[:rack_cards - sum(rack)]:
        rack[t] += 1
    table = tuple(sum(m[t] for m in melds) for t in range(n))
    return melds, table, tuple(rack)
