"""The table question side by side: Z3, the reference and rummikub-solver on the same
positions, in one run.

    python benchmarks/rummikub.py [--per N] [--seed S] [--by cards|points] [--limit SECONDS] [--repeat R] [--json]

Positions (checks/table_positions.py): seeded, realistic: a table built from valid runs
and groups drawn from one 106-tile pack (a joker now and then), a rack of 14 from the
rest. Classes: an empty table (the rack dealt with two melds in it, so there is something
to play), and tables of about 30, 45 and 60 tiles. `--per` positions per class.

Engines, each warmed up on a position of its own first (Z3 builds its solver once per
spec and size, rummikub-solver its cvxpy problem once per rule set):

- z3: `rearrange.best(..., engine="z3")`, the descending "placed >= k" on a reused solver;
- reference: `rearrange.best(..., engine="reference")`, the sweep (model/reference_sweep.py);
- rummikub-solver: examples/rummikub_solver_adapter.py in this process (HiGHS when
  highspy is installed, else SciPy's HiGHS), its tile-count mode.

Engine by engine (no engine runs between another's answers, so none pays for what the
other leaves behind in the process), each answers each position `--repeat` times (3 by
default) and its time there is the fastest of those (as `timeit` reports): the same work each time (Z3 builds its solver anew
for every question), so the spread left is the machine's, not the engine's; every answer
is compared, not only the first. For each engine and class: median and p90 seconds, the slowest single answer (`max`), how many answers took longer than
`--limit` (5 s) or were unknown, and how many answers differ from the reference's. The
rummikub-solver differences are expected where its own restrictions apply (no joker in a
group of four or at the end of a longer run; docs/conformance.md lists them); they are
counted, with the first few shown. Nothing is asserted; the machine may be shared.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

CLASSES = [("empty", 0, 2), ("30", 30, 0), ("45", 45, 0), ("60", 60, 0)]


def _p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per", type=int, default=10, help="positions per class")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--by", choices=("cards", "points"), default="cards")
    ap.add_argument("--limit", type=float, default=5.0, help="seconds past which an answer counts as too slow")
    ap.add_argument("--no-reference", action="store_true", help="leave the reference out (Z3 against the package)")
    ap.add_argument("--repeat", type=int, default=3, help="answers per engine and position; the fastest is its time")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)

    from rulings import rearrange as ra
    from rulings.checks.table_positions import position
    from rulings.spec import load

    spec = load("rummikub")
    engines = {"z3": lambda t, r: ra.best(spec, t, r, a.by, "z3"),
               "reference": lambda t, r: ra.best(spec, t, r, a.by, "reference")}
    if a.no_reference:
        del engines["reference"]
    try:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
        from rummikub_solver_adapter import RummikubSolverAdapter

        pkg = RummikubSolverAdapter()

        def package(t, r, melds):
            tok = spec.cards.tokens
            return pkg.best_play([tok(m) for m in melds], tok(r), a.by, False)["placed"]
    except ImportError as e:
        package = None
        print(f"rummikub-solver is not installed ({e}); its column is left out", file=sys.stderr)

    # warm-up, on positions of their own
    melds, table, rack = position(spec, 10 ** 6 + a.seed, 45)
    for f in engines.values():
        f(table, rack)
    if package:
        package(table, rack, melds)

    rows, report, all_times, all_tiles = [], {}, {}, []
    for name, size, rack_melds in CLASSES:
        times = {e: [] for e in [*engines, *(["rummikub-solver"] if package else [])]}
        worst = {e: 0.0 for e in times}                       # the slowest single answer
        slow = {e: 0 for e in times}
        differ = {e: 0 for e in times}
        shown = []
        tiles = []
        cases = [position(spec, a.seed * 10_000 + size * 100 + i, size, 14, rack_melds) for i in range(a.per)]
        for melds, table, rack in cases:
            tiles.append(sum(table))
            all_tiles.append(sum(table))
        runs = dict(engines)
        if package:
            runs["rummikub-solver"] = None
        answers = [{} for _ in cases]
        for e, f in runs.items():                     # engine by engine: none runs between another's answers
            for i, (melds, table, rack) in enumerate(cases):
                dts, said = [], set()
                for _ in range(max(1, a.repeat)):
                    t0 = time.perf_counter()
                    if f is None:
                        said.add(package(table, rack, melds))
                    else:
                        p = f(table, rack)
                        said.add(p.value if p.possible else None)
                    dts.append(time.perf_counter() - t0)
                times[e].append(min(dts))
                worst[e] = max(worst[e], *dts)
                answers[i][e] = said.pop() if len(said) == 1 else f"varied: {sorted(said, key=str)}"
                slow[e] += max(dts) > a.limit or (f is not None and None in said)
        for i, (melds, table, rack) in enumerate(cases):
            base = answers[i].get("reference", answers[i]["z3"])
            for e, v in answers[i].items():
                if v != base:
                    differ[e] += 1
                    if len(shown) < 3:
                        shown.append({"engine": e, "seed": a.seed * 10_000 + size * 100 + i, "said": v, "reference": base,
                                      "table": [spec.cards.tokens(m) for m in melds], "rack": spec.cards.tokens(rack)})
        report[name] = {"tables": [min(tiles), max(tiles)], "engines": {
            e: {"median": statistics.median(ts), "p90": _p90(ts), "max": worst[e], "over_limit_or_unknown": slow[e],
                "differ_from_reference": differ[e]} for e, ts in times.items()}, "differences": shown}
        for e, ts in times.items():
            all_times.setdefault(e, []).extend(ts)
            rows.append((name, f"{min(tiles)}-{max(tiles)}", e, statistics.median(ts), _p90(ts), worst[e], slow[e],
                         differ[e], len(ts)))
    classes = list(report.values())
    for e, ts in all_times.items():
        slow_n = sum(r["engines"][e]["over_limit_or_unknown"] for r in classes)
        diff = sum(r["engines"][e]["differ_from_reference"] for r in classes)
        most = max(r["engines"][e]["max"] for r in classes)
        rows.append(("all", f"{min(all_tiles)}-{max(all_tiles)}", e, statistics.median(ts), _p90(ts), most, slow_n, diff,
                     len(ts)))
        report.setdefault("all", {"engines": {}})["engines"][e] = {
            "median": statistics.median(ts), "p90": _p90(ts), "max": most, "over_limit_or_unknown": slow_n,
            "differ_from_reference": diff}
    if a.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"rummikub table question, racks of 14, by {a.by}, {a.per} positions per class, seed {a.seed}, "
          f"fastest of {max(1, a.repeat)} per position")
    print(f"{'table':>6} {'tiles':>7} {'engine':>16} {'median s':>9} {'p90 s':>8} {'max s':>7} "
          f"{'>' + str(a.limit) + 's/unk':>9} {'differ':>7}")
    for name, tiles, e, med, p90, most, slow_n, diff, n in rows:
        print(f"{name:>6} {tiles:>7} {e:>16} {med:9.3f} {p90:8.3f} {most:7.3f} {slow_n:>9} {diff:>4}/{n}")
    for name, r in report.items():
        for d in r.get("differences", []):
            print(f"  {name}: {d['engine']} placed {d['said']}, the reference {d['reference']} (seed {d['seed']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
