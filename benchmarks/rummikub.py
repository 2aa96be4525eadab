"""The table question side by side: Z3, the reference and rummikub-solver on the same
positions, in one run.

    python benchmarks/rummikub.py [--per N] [--seed S] [--by cards|points] [--limit SECONDS] [--repeat R] [--json]

Positions (checks/conformance/table_positions.py): seeded, realistic: a table built from valid runs
and groups drawn from one 106-tile pack (a joker now and then), a rack of 14 from the
rest. Classes: an empty table (the rack dealt with two melds in it, so there is something
to play), and tables of about 30, 45 and 60 tiles. `--per` positions per class.

Engines, each warmed up on a position of its own first:

- z3: `rearrange.best(..., engine="z3")`: a solver built for the position, every card
  that could go down asked to, one let go per unsat core until yes, then up to the proof;
- reference: `rearrange.best(..., engine="reference")`, the sweep (model/reference_sweep.py);
- rummikub-solver: examples/rummikub_solver_adapter.py (HiGHS when highspy is installed,
  else SciPy's HiGHS), its tile-count mode, its cvxpy problem built once per rule set.

Each engine runs in a fresh process of its own, one after the other: an engine run in a
process another has used pays for what that one left behind (after one rummikub-solver
answer, glibc's heap thresholds, moved by its allocations, made each new Z3 context cost
about 7 ms instead of 1). Each answers each position `--repeat` times (3 by default) and
its time there is the fastest of those, as `timeit` reports: the same work each time (Z3
builds its solver anew for every question), so the spread left is the machine's; every
answer is compared, not only the first. For each engine and class: median and p90
seconds, the slowest single answer (`max`), how many answers took longer than `--limit`
(5 s) or were unknown, and how many differ from the reference's. The rummikub-solver
differences are expected where its own restrictions apply (no joker in a group of four or
at the end of a longer run; docs/conformance.md lists them); they are counted, with the
first few shown. Nothing is asserted; the machine may be shared.
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


def _measure(engine: str, by: str, per: int, seed: int, repeat: int, limit: float) -> dict | str:
    """One engine's answers and times on every class's positions, in the process it is
    called in (a fresh one: `main`). A string when the engine cannot run here."""
    from rulings import rearrange as ra
    from rulings.checks.conformance.table_positions import position
    from rulings.spec import load

    spec = load("rummikub")
    if engine == "rummikub-solver":
        try:
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
            from rummikub_solver_adapter import RummikubSolverAdapter
        except ImportError as e:
            return f"rummikub-solver is not installed ({e}); its column is left out"
        pkg = RummikubSolverAdapter()
        tok = spec.cards.tokens

        def answer(melds, table, rack):
            return pkg.best_play([tok(m) for m in melds], tok(rack), by, False)["placed"], False
    else:
        def answer(melds, table, rack):
            p = ra.best(spec, table, rack, by, engine)
            return (p.value if p.possible else None), p.possible is None

    answer(*position(spec, 10 ** 6 + seed, 45))                      # warm-up, on a position of its own
    out = {}
    for name, size, rack_melds in CLASSES:
        cases = [position(spec, seed * 10_000 + size * 100 + i, size, 14, rack_melds) for i in range(per)]
        got = out[name] = {"tiles": [sum(t) for _, t, _ in cases], "times": [], "answers": [], "worst": 0.0,
                           "slow": 0, "cases": [([spec.cards.tokens(x) for x in m], spec.cards.tokens(r))
                                                for m, _, r in cases]}
        for melds, table, rack in cases:
            dts, said, unknown = [], set(), False
            for _ in range(max(1, repeat)):
                t0 = time.perf_counter()
                v, unk = answer(melds, table, rack)
                dts.append(time.perf_counter() - t0)
                said.add(v)
                unknown |= unk
            got["times"].append(min(dts))
            got["worst"] = max(got["worst"], *dts)
            got["answers"].append(said.pop() if len(said) == 1 else f"varied: {sorted(said, key=str)}")
            got["slow"] += max(dts) > limit or unknown
    return out


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

    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    measured = {}
    for e in ["z3"] + ([] if a.no_reference else ["reference"]) + ["rummikub-solver"]:
        with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as ex:     # one fresh process per engine
            got = ex.submit(_measure, e, a.by, a.per, a.seed, a.repeat, a.limit).result()
        if isinstance(got, str):
            print(got, file=sys.stderr)
        else:
            measured[e] = got

    rows, report, all_times, all_tiles = [], {}, {}, []
    for name, size, rack_melds in CLASSES:
        first = next(iter(measured.values()))[name]
        tiles = first["tiles"]
        all_tiles += tiles
        times = {e: m[name]["times"] for e, m in measured.items()}
        worst = {e: m[name]["worst"] for e, m in measured.items()}
        slow = {e: m[name]["slow"] for e, m in measured.items()}
        differ = {e: 0 for e in measured}
        shown = []
        for i in range(a.per):
            answers = {e: m[name]["answers"][i] for e, m in measured.items()}
            base = answers.get("reference", answers["z3"])
            for e, v in answers.items():
                if v != base:
                    differ[e] += 1
                    if len(shown) < 3:
                        table, rack = first["cases"][i]
                        shown.append({"engine": e, "seed": a.seed * 10_000 + size * 100 + i, "said": v, "reference": base,
                                      "table": table, "rack": rack})
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
