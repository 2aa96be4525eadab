"""Throughput of the parallel work at 1, 2 and all local workers, in this process, on local
worker processes and on a Dask LocalCluster, and what a chunk costs.

    python benchmarks/scale.py [--games G] [--cases N] [--game tick] [--json]

Every row plays games and cases of its own seeds (the caches a row warms would make the
next one fast otherwise). Every row pays the same set-up: this process is warmed once
before any row (`warm`: imports, the spec, the kernel's and Hypothesis' first use), local
workers are forked from it, a Dask row's cluster is started and its workers warmed the
same way before its timing starts (those seconds are printed apart, as set-up), and in
every row each process that plays starts the implementation under test once.

- simulate: G seeded games of 4 greedy players (`simulate.play_chunk`, the chunks
  `rulings simulate` cuts), games per second;
- conformance search: N cases of each question (`conform_chunks.hunt_chunk`, batches of
  `conform_chunks.BATCH`) asked of the faithful JavaScript example (node) when node is
  installed, else of the planted Python example; cases per second;
- outside: the row's wall time less its chunks' wall time shared among its workers (what
  the row spent outside the work: starting processes, sending chunks, waiting);
- overhead: empty chunks through each executor, milliseconds per chunk (what cutting
  the work costs, apart from the work).

Every chunk is timed inside the worker that plays it: its wall time and its CPU time
(`time.process_time`). On a machine shared with other work the wall-clock throughput
says little; the CPU seconds per chunk do not depend on the load, and (with the
overhead) give the throughput a machine of W idle cores would reach: about
W / (CPU per chunk + overhead per chunk) chunks a second while there are chunks enough
for every worker. The table prints that estimate for 16 cores and for 4 machines of 16.
Nothing here is asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> dict:
    """CPU seconds of this process's child processes (the implementation under test)."""
    try:
        import psutil

        out = {}
        for p in psutil.Process().children(recursive=True):
            try:
                t = p.cpu_times()
                out[p.pid] = t.user + t.system
            except psutil.Error:
                pass
        return out
    except ImportError:
        return {}


def timed(job):
    """A chunk played and timed where it is played: (wall, cpu, how many units of work);
    the CPU time counts the chunk's process and its children (an implementation's own
    process, as the conformance search starts one)."""
    fn, inner, units = job
    kids = _children_cpu()
    w, c = time.perf_counter(), time.process_time()
    fn(inner)
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    cpu += sum(t - kids.get(pid, 0.0) for pid, t in _children_cpu().items())
    return wall, cpu, units


def empty(job):
    return job


def _run(jobs, executor, workers):
    from rulings import executor as ex

    t0 = time.perf_counter()
    out = ex.run(timed, jobs, executor=executor, workers=workers)
    wall = time.perf_counter() - t0
    units = sum(u for _, _, u in out.results)
    return {"wall_s": round(wall, 2), "units": units, "per_s": round(units / wall, 2),
            "chunks": len(jobs), "chunk_wall_s": round(statistics.median(w for w, _, _ in out.results), 4),
            "chunk_cpu_s": round(statistics.median(c for _, c, _ in out.results), 4),
            "cpu_s": round(sum(c for _, c, _ in out.results), 2),
            "outside_chunks_s": round(wall - sum(w for w, _, _ in out.results) / max(1, min(workers, len(jobs))), 2),
            "where": out.where}


def simulate_jobs(game: str, games: int, workers: int, seed: int):
    from rulings import executor as ex, simulate as sim
    from rulings.spec import load

    key = ex.spec_key(load(game))
    return [(sim.play_chunk, (key, 4, seed, tuple(c), "greedy", 200_000), len(c))
            for c in ex.chunked(range(games), workers)]


def conform_jobs(game: str, cases: int, seed: int):
    from rulings import executor as ex
    from rulings.checks.conformance import conform, chunks as cc
    from rulings.spec import load

    spec = load(game)
    node = shutil.which("node")
    if node and game == "tick":
        recipe = cc.Recipe(None, f"{node} {ROOT / 'examples' / 'tick-faithful.js'}", 10.0, spec.game)
    else:
        recipe = cc.Recipe(f"{ROOT / 'examples' / 'tick_planted.py'}:factory", None, 10.0, spec.game)
    key = ex.spec_key(spec)
    return [(cc.hunt_chunk, (key, recipe, f, n, seed + cc._BATCH_SEED * b, (), True), n)
            for f in conform.FAMILIES for b, n in enumerate(cc.batches(cases))], recipe


def overhead(executor: str, workers: int, chunks: int = 200) -> float:
    """Seconds per empty chunk (a Dask cluster's start not counted: call it in a session)."""
    from rulings import executor as ex

    ex.run(empty, list(range(workers)), executor=executor, workers=workers)
    t0 = time.perf_counter()
    ex.run(empty, list(range(chunks)), executor=executor, workers=workers)
    return (time.perf_counter() - t0) / chunks


def warm(jobs) -> float:
    """A process made ready before any row is timed: a small chunk of each kind of work
    played (the imports, the spec loaded, the kernel's and Hypothesis' first-use set-up),
    then the implementation it started closed again, so that every row starts its
    implementation once in every process that plays (a fork of this one, or a Dask
    worker warmed with this). Seconds it took."""
    from rulings.checks.conformance import chunks as cc

    t0 = time.perf_counter()
    for fn, inner, _ in jobs:
        fn(inner)
    for _, impl in list(cc._adapters.values()):
        impl.close()
    cc._adapters.clear()
    return time.perf_counter() - t0


def warm_jobs(game: str, recipe) -> list:
    """The small chunks `warm` plays: one game, a few cases of each question (seeds no row uses)."""
    from rulings import executor as ex, simulate as sim
    from rulings.checks.conformance import conform, chunks as cc
    from rulings.spec import load

    key = ex.spec_key(load(game))
    return ([(sim.play_chunk, (key, 4, 999, (0,), "greedy", 200_000), 1)]
            + [(cc.hunt_chunk, (key, recipe, f, 3, 999, (), True), 3) for f in conform.FAMILIES])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="tick")
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--cases", type=int, default=500, help="cases of each question in the conformance search "
                    "(500: 80 chunks, about 10 s of work on one core; with 100 the fixed cost of starting a "
                    "worker and its implementation is a large part of a row)")
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    import warnings

    warnings.simplefilter("ignore")          # Hypothesis' notes on the search's strategies are not the measure
    from rulings import executor as ex

    try:
        import cloudpickle

        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    except ImportError:
        pass
    cores = ex.default_workers()
    counts = sorted({1, 2, cores})
    places = [("local", w) for w in counts]
    if not a.no_dask:
        try:
            import distributed  # noqa: F401

            places += [("dask", w) for w in counts]
        except ImportError:
            print("(no Dask: pip install 'rulings[dask]' to measure a LocalCluster)", file=sys.stderr)
    rows = []
    _, recipe = conform_jobs(a.game, 1, 0)
    setup = {"warm this process": round(warm(warm_jobs(a.game, recipe)), 2)}
    print(f"... set-up, not timed: this process warmed in {setup['warm this process']} s", file=sys.stderr)
    over = {}
    for i, (executor, w) in enumerate(places):
        # fresh seeds for every row: the games and cases of a row played before would be
        # answered from caches warmed in this process (and in the workers forked from it)
        cjobs, recipe = conform_jobs(a.game, a.cases, 1000 + i)
        what = recipe.cmd or recipe.adapter
        t0 = time.perf_counter()
        with ex.session(executor, w):        # a Dask cluster started, and its workers warmed, before timing
            if executor == "dask":
                from distributed import get_client

                get_client().run(warm, warm_jobs(a.game, recipe))
                setup[f"dask x{w}: cluster started, workers warmed"] = round(time.perf_counter() - t0, 2)
                print(f"... set-up, not timed: dask x{w} cluster started and warmed in "
                      f"{setup[f'dask x{w}: cluster started, workers warmed']} s", file=sys.stderr)
            for name, jobs in (("simulate (games)", simulate_jobs(a.game, a.games, w, 1000 + i)),
                               (f"conform search (cases; {Path(what.split()[-1]).name})", cjobs)):
                r = _run(jobs, executor, w)
                rows.append(dict(what=name, executor=executor, workers=w, **r))
                print(f"... {name} {executor} x{w}: {r['per_s']}/s", file=sys.stderr)
            over[f"{executor} x{w}"] = round(overhead(executor, w) * 1000, 2)
    base = {r["what"]: r for r in rows if r["executor"] == "local" and r["workers"] == 1}
    est = {}
    for name, r in base.items():
        unit_cpu = r["cpu_s"] / r["units"]                     # CPU seconds per unit of work
        per_chunk = r["units"] / r["chunks"]
        local = unit_cpu * per_chunk + over.get("local x2", 0) / 1000       # a chunk on a core of this machine
        dask = unit_cpu * per_chunk + over.get("dask x2", over.get("local x2", 0)) / 1000   # ... on a cluster
        est[name] = {"cpu_s_per_unit": round(unit_cpu, 4), "units_per_chunk": round(per_chunk, 1),
                     "1_idle_core_per_s": round(per_chunk / local, 1),
                     "16_cores_per_s": round(16 * per_chunk / local, 1),
                     "4x16_cores_per_s": round(64 * per_chunk / dask, 1)}
    load = os.getloadavg()
    result = {"cores": cores, "load_average": [round(x, 2) for x in load], "setup_s_not_timed": setup, "rows": rows,
              "overhead_ms_per_chunk": over, "estimate_from_cpu": est}
    if a.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{cores} cores; load average {load[0]:.1f} (a busy machine makes the wall-clock columns small)")
    print(f"{'work':44} {'where':7} {'w':>3} {'per s':>8} {'wall s':>7} {'chunks':>6} {'chunk wall':>10} "
          f"{'chunk CPU':>9} {'CPU s':>7} {'outside':>7}")
    for r in rows:
        print(f"{r['what']:44} {r['executor']:7} {r['workers']:>3} {r['per_s']:>8} {r['wall_s']:>7} {r['chunks']:>6} "
              f"{r['chunk_wall_s']:>10} {r['chunk_cpu_s']:>9} {r['cpu_s']:>7} {r['outside_chunks_s']:>7}")
    for name in base:
        one = next(r for r in rows if r["what"] == name and r["executor"] == "local" and r["workers"] == 1)
        two = next((r for r in rows if r["what"] == name and r["executor"] == "local" and r["workers"] == 2), None)
        if two:
            print(f"{name}: 2 local workers / 1 = {two['per_s'] / one['per_s']:.2f}x (wall clock)")
    print("overhead per empty chunk (ms): " + ", ".join(f"{k} {v}" for k, v in over.items()))
    print("set-up before timing, not in any row (s): " + ", ".join(f"{k} {v}" for k, v in setup.items()))
    print("from the CPU seconds per unit of work and the overhead per chunk, on idle cores:")
    for name, e in est.items():
        print(f"  {name}: {e['cpu_s_per_unit']} CPU s each, {e['units_per_chunk']} a chunk -> "
              f"{e['1_idle_core_per_s']}/s on one core, {e['16_cores_per_s']}/s on 16, "
              f"{e['4x16_cores_per_s']}/s on 4 machines of 16")
    return 0


if __name__ == "__main__":
    sys.exit(main())
