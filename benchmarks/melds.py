"""Every meld-decision figure of issue 11's table, in one run.

    python benchmarks/melds.py [--seconds S] [--seed N] [--rummikub-hands K] [--json]

Figures (each the median of per-decision times, with the rate over all of them: decisions
per second of total time):

- the bare `collections.Counter(cards)` pass over the same Tick hands, the yardstick;
- the reference decider, verdict only, on *seen* hands (the same 400 hands over and
  over) and on *unseen* hands (every hand decided once, fresh from the same generator);
- the reference decider with its explanation (what `rulings meld --engine reference`
  prints), on unseen hands;
- Z3 with one solver reused per contract: the verdict (with the witness when legal, no
  explanation), and with the evidence (the minimal clause core when illegal);
- building Z3's solver for each Tick level (a fresh build, median of a few);
- Rummikub, "any melds" contract, random racks of 20, 30 and 50 tiles from the 106-tile
  set: Z3's verdict and best lay-down (time, unknowns), and the reference's verdict.

Tick hands are 10 to 14 cards (a hand after drawing, with and without ticks) from the
2-4 player deck, spread over the 8 levels, half random deals and half shaped like
lay-downs. The same hands go to every decider and the verdicts are compared. Nothing
here is asserted; the machine may be shared, so compare medians of interleaved runs.
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import statistics
import sys
import time


def _legal_shaped(spec, rng, level):
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


def tick_hands(spec, count: int, seed: int):
    """(contract, hand counts, card list): half random deals of 10-14 cards, half shaped
    like lay-downs; levels 1-8 in turn. Counts never exceed the deck's."""
    rng = random.Random(seed)
    deck_counts = spec.deck(4)
    deck = [t.index for t in spec.cards.types for _ in range(deck_counts[t.index])]
    out = []
    for i in range(count):
        level = 1 + i % 8
        if i % 2:
            cards = [t.index for t in _legal_shaped(spec, rng, level)]
        else:
            cards = rng.sample(deck, rng.randint(10, 14))
        hand = [0] * len(spec.cards.types)
        for c in cards:
            hand[c] = min(hand[c] + 1, deck_counts[c])
        cards = [t for t, n in enumerate(hand) for _ in range(n)]
        rng.shuffle(cards)
        out.append((spec.contract(level=level), tuple(hand), cards))
    return out


def rummikub_racks(spec, size: int, count: int, seed: int):
    rng = random.Random(seed * 1000 + size)
    counts = spec.deck()
    deck = [t.index for t in spec.cards.types for _ in range(counts[t.index])]
    out = []
    for _ in range(count):
        hand = [0] * len(spec.cards.types)
        for c in rng.sample(deck, size):
            hand[c] += 1
        out.append(tuple(hand))
    return out


def _stats(times: list[float]) -> dict:
    times = sorted(times)
    med = statistics.median(times)
    total = sum(times)
    return {"n": len(times), "median_ms": med * 1e3, "p90_ms": times[int(len(times) * 0.9)] * 1e3,
            "max_ms": times[-1] * 1e3, "per_second": len(times) / total if total else float("inf")}


def timed(fn, cases, seconds: float, once: bool = False):
    """Time fn(case) per case; go round the cases until `seconds` have passed (at least
    once through), or just once through with `once`. Returns (stats, first-pass answers)."""
    times, answers = [], []
    start = time.perf_counter()
    i = 0
    while i < len(cases) or (not once and time.perf_counter() - start < seconds):
        case = cases[i % len(cases)]
        t0 = time.perf_counter()
        a = fn(case)
        times.append(time.perf_counter() - t0)
        if i < len(cases):
            answers.append(a)
        i += 1
    return _stats(times), answers


def _verdict_fn(spec):
    """Verdict only, from the reference: its own verdict-only entry where it has one."""
    from rulings import reference

    legal = getattr(reference, "legal", None)
    if legal is not None:
        return lambda c, h: legal(spec, c, h)
    return lambda c, h: reference._Search(spec, c, h).run() is not None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per warm figure (default 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", type=int, default=400, help="seen Tick hands (default 400)")
    ap.add_argument("--unseen", type=int, default=4000, help="unseen Tick hands (default 4000)")
    ap.add_argument("--rummikub-hands", type=int, default=10, help="racks per size (default 10)")
    ap.add_argument("--rummikub-sizes", default="20,30,50")
    ap.add_argument("--no-reference-rummikub", action="store_true",
                    help="skip the reference on Rummikub racks (slow on large racks)")
    ap.add_argument("--json", action="store_true", help="print the whole output as one JSON object")
    args = ap.parse_args(argv)

    out: dict = {"seed": args.seed}
    lines: list[str] = []

    def row(name, s, extra=""):
        out.setdefault("figures", {})[name] = dict(s, **({"note": extra} if extra else {}))
        lines.append(f"{name:44} {s['per_second']:11.0f}/s  median {s['median_ms']:9.4f} ms  "
                     f"p90 {s['p90_ms']:9.4f} ms  max {s['max_ms']:9.3f} ms  n={s['n']}" + (f"  {extra}" if extra else ""))

    t_import = time.perf_counter()
    from rulings import reference, z3melds
    from rulings.spec import load
    out["import_s"] = time.perf_counter() - t_import

    tick = load("tick")
    seen = tick_hands(tick, args.hands, args.seed)
    unseen = tick_hands(tick, args.unseen, args.seed + 7919)
    verdict = _verdict_fn(tick)
    lines.append(f"Tick: {len(seen)} seen and {len(unseen)} unseen hands of 10-14 cards over levels 1-8, "
                 f"seed {args.seed}")

    # --- the yardstick and the reference -----------------------------------------------------
    s, _ = timed(lambda x: collections.Counter(x[2]), unseen, args.seconds)
    row("Counter(cards) pass", s)
    counter_median = s["median_ms"]
    s, ref_unseen = timed(lambda x: verdict(x[0], x[1]), unseen, 0, once=True)
    row("reference verdict, unseen hands", s, f"{s['median_ms'] / counter_median:.1f}x the Counter pass")
    s, ref_seen = timed(lambda x: verdict(x[0], x[1]), seen, args.seconds)
    row("reference verdict, seen hands", s, f"{s['median_ms'] / counter_median:.1f}x the Counter pass")
    explained = tick_hands(tick, min(args.unseen, 2000), args.seed + 104729)
    s, ref_expl = timed(lambda x: reference.decide(tick, x[0], x[1]).legal, explained, 0, once=True)
    row("reference with explanation, unseen hands", s)

    # --- Z3 on Tick -------------------------------------------------------------------------
    builds = {}
    for level in range(1, 9):
        c = tick.contract(level=level)
        ts = []
        for _ in range(3):
            t0 = time.perf_counter()
            z3melds.MeldSolver(tick, c, 16)
            ts.append(time.perf_counter() - t0)
        builds[level] = statistics.median(ts) * 1e3
    out["z3 build per level (ms)"] = builds
    lines.append(f"{'z3 solver build per level (16 cards)':44} median {statistics.median(builds.values()):.2f} ms, "
                 f"max {max(builds.values()):.2f} ms, all 8 levels {sum(builds.values()):.1f} ms")
    for c, h, _ in seen:   # warm: each contract's reused solver is built before timing queries
        z3melds.decide(tick, c, h, explain=False)
    s, z_seen = timed(lambda x: z3melds.decide(tick, x[0], x[1], explain=False).legal, seen, args.seconds)
    row("z3 verdict, one solver reused", s)
    s, _ = timed(lambda x: z3melds.decide(tick, x[0], x[1]).legal, seen, args.seconds)
    row("z3 verdict + evidence, one solver reused", s)
    s, _ = timed(lambda x: z3melds.decide(tick, x[0], x[1], reuse=False, explain=False).legal, seen[:40], 0,
                 once=True)
    row("z3 verdict, fresh solver per query", s)
    agree_tick = ref_seen == z_seen
    wrong = sum(a != b for a, b in zip(ref_seen, z_seen))
    lines.append(f"Tick verdicts agree (reference == z3 on {len(seen)} hands): {agree_tick}"
                 + (f" ({wrong} differ)" if wrong else ""))
    out["tick_agree"] = agree_tick
    out["tick_legal_seen"] = sum(bool(v) for v in ref_seen)
    out["tick_legal_unseen"] = sum(bool(v) for v in ref_unseen)
    lines.append(f"  legal: {out['tick_legal_seen']} of {len(seen)} seen, {out['tick_legal_unseen']} of "
                 f"{len(unseen)} unseen, {sum(bool(v) for v in ref_expl)} of {len(explained)} explained")

    # --- Rummikub -----------------------------------------------------------------------------
    rk = load("rummikub")
    anyc = rk.contract()
    rk_verdict = _verdict_fn(rk)
    out["rummikub"] = {}
    for size in [int(x) for x in args.rummikub_sizes.split(",") if x]:
        racks = rummikub_racks(rk, size, args.rummikub_hands, args.seed)
        res: dict = {}
        s, zv = timed(lambda h: z3melds.decide(rk, anyc, h, explain=False).legal, racks, 0, once=True)
        res["z3 verdict"] = dict(s, unknown=sum(v is None for v in zv), legal=sum(v is True for v in zv))
        row(f"rummikub {size} tiles: z3 verdict", s, f"{res['z3 verdict']['unknown']} unknown, "
            f"{res['z3 verdict']['legal']} legal")
        s, zb = timed(lambda h: z3melds.best_lay(rk, anyc, h), racks, 0, once=True)
        res["z3 best lay"] = dict(s, unknown=sum(v.legal is None for v in zb))
        row(f"rummikub {size} tiles: z3 best lay", s, f"{res['z3 best lay']['unknown']} unknown")
        if not args.no_reference_rummikub:
            s, rv = timed(lambda h: rk_verdict(anyc, h), racks, 0, once=True)
            res["reference verdict"] = s
            both = [(a, b) for a, b in zip(zv, rv) if a is not None]
            res["agree"] = all(a == b for a, b in both)
            row(f"rummikub {size} tiles: reference verdict", s, f"agrees with z3: {res['agree']}")
        out["rummikub"][size] = res

    if args.json:
        print(json.dumps(out, indent=2, default=str))
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
