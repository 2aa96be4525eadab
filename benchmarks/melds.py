"""Meld decisions per second for each decider, on 10-14 card hands across every level.

    python benchmarks/melds.py [--seconds S] [--seed N]

Deciders: the reference (direct search); Z3 with a fresh solver per query; Z3 reusing one
solver per contract, the hand passed as assumptions. The hands are random Tick hands of
10 to 14 cards (a hand after drawing, with and without ticks), drawn from the 2-4 player
deck, spread over the 8 levels; the same hands go to every decider, and the verdicts are
compared. Prints medians and rates; nothing here is asserted.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time


def _legal_shaped(spec, rng, level, deck_left):
    """Cards laid out as the level's sets plus further sets (3-4 cards, wilds never more
    than naturals), 10-14 cards in all; about a third get one card swapped, so some are
    near misses."""
    contract = spec.contract(level=level)
    naturals = list(spec.cards.naturals)
    wilds = list(spec.cards.wilds)
    sizes = [s.size for s in contract.required]
    while sum(sizes) < 10:
        sizes.append(rng.choice([3, 4]))
    cards = []
    for size in sizes:
        rank = rng.choice(naturals)
        w = rng.randint(0, size // 2)
        cards += [rank] * (size - w) + [rng.choice(wilds) for _ in range(w)]
    if rng.random() < 0.35:
        cards[rng.randrange(len(cards))] = rng.choice(spec.cards.types)
    return cards[:14]


def hands(spec, count: int, seed: int):
    """Half random deals of 10-14 cards, half shaped like lay-downs; levels 1-8 in turn."""
    rng = random.Random(seed)
    deck = [t.index for t in spec.cards.types for _ in range(spec.deck(4)[t.index])]
    out = []
    for i in range(count):
        level = 1 + i % 8
        if i % 2:
            cards = [t.index for t in _legal_shaped(spec, rng, level, deck)]
        else:
            cards = rng.sample(deck, rng.randint(10, 14))
        hand = [0] * len(spec.cards.types)
        for c in cards:
            hand[c] += 1
        out.append((spec.contract(level=level), tuple(hand)))
    return out


def run(name, decide, cases, seconds):
    """Time each decision; go round the cases until `seconds` have passed (at least once)."""
    times, verdicts = [], []
    start = time.perf_counter()
    i = 0
    while i < len(cases) or time.perf_counter() - start < seconds:
        contract, hand = cases[i % len(cases)]
        t0 = time.perf_counter()
        v = decide(contract, hand)
        times.append(time.perf_counter() - t0)
        if i < len(cases):
            verdicts.append(v)
        i += 1
    total = sum(times)
    print(f"{name:34} {len(times) / total:10.0f} decisions/s   median {statistics.median(times) * 1e3:8.3f} ms"
          f"   p90 {sorted(times)[int(len(times) * 0.9)] * 1e3:8.3f} ms   ({len(times)} decisions)")
    return verdicts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per decider (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", type=int, default=400, help="distinct hands (default 400)")
    args = ap.parse_args(argv)

    from rulings import reference, z3melds
    from rulings.spec import load

    spec = load("tick")
    cases = hands(spec, args.hands, args.seed)
    legal = sum(reference.decide(spec, c, h).legal for c, h in cases)
    print(f"Tick, {len(cases)} hands of 10-14 cards over levels 1-8 ({legal} legal), seed {args.seed}")
    print(f"{'decider':34} {'rate':>10}                {'median':>8}          {'p90':>8}")

    from rulings.reference import _Search

    ref = run("reference (verdict only)", lambda c, h: _Search(spec, c, h).run() is not None, cases, args.seconds)
    run("reference (verdict + explanation)", lambda c, h: reference.decide(spec, c, h).legal, cases, args.seconds)
    # warm the reused solvers so building them is not counted as query time
    t0 = time.perf_counter()
    for c, h in cases:
        z3melds.decide(spec, c, h, reuse=True)
    print(f"{'  (building the reused solvers)':34} {time.perf_counter() - t0:10.2f} s for the first pass")
    reused = run("z3, one solver reused (verdict only)",
                 lambda c, h: z3melds.decide(spec, c, h, reuse=True, explain=False).legal, cases, args.seconds)
    run("z3, one solver reused (+ evidence)", lambda c, h: z3melds.decide(spec, c, h, reuse=True).legal, cases,
        args.seconds)
    fresh = run("z3, fresh solver per query (verdict)",
                lambda c, h: z3melds.decide(spec, c, h, reuse=False, explain=False).legal, cases, min(args.seconds, 1.0))
    n = min(len(fresh), len(cases))
    agree = ref[:n] == reused[:n] == fresh[:n]
    print(f"verdicts agree across deciders: {agree}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
