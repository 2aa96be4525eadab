"""Every row of issue 28's table in one run: what a user waits for, measured from outside.

    python benchmarks/answers.py [--hands N] [--z3-hands K] [--runs R] [--games G] [--tests] [--json]

Each figure runs `rulings` (the console script beside this interpreter) as a user would,
in a fresh process, and is timed from outside: wall time, and the CPU time of the child
(user + system), the steadier figure on a shared machine.

- the bare pass: a Python process reading the same JSON lines file, parsing each line,
  counting its cards with `collections.Counter` and writing a JSON line back; the yardstick
  for the batch rows, printed beside each of them;
- `rulings meld tick --engine reference --batch FILE`: N unseen Tick hands (10-14 cards,
  levels 1 to 8 in turn, half random deals and half shaped like lay-downs; the hands of
  `benchmarks/melds.py`), each answered with its melds or the clauses against it;
- `rulings meld tick --batch FILE` (Z3): the first K of those hands;
- `rulings lay tick --batch FILE`, both engines, on the first K hands;
- one query, `rulings meld tick --level 3 5 5 SW BW`, start-up included: the median of R
  runs after a warm-up (bytecode caches written, as a user's installed copy has them);
- `rulings simulate tick --players 4 --games G` (greedy players, default workers): games
  a second of wall time;
- with `--tests`: the README's test command (`python -m pytest -q` from the project
  folder), its wall time. It takes minutes, so it is asked for by name.

Per hand: the wall (or CPU) time of the whole command over the file divided by the number
of hands, start-up included (at 50,000 hands it is a few microseconds a hand). The
answers of each batch are checked for one line out per line in. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = Path(sys.executable).parent
RULINGS = str(BIN / "rulings")

BARE = r"""
import collections, json, sys
out = sys.stdout
with open(sys.argv[1], "rb") as f:
    for line in f:
        q = json.loads(line)
        out.write(json.dumps({"cards": q["cards"], "counts": collections.Counter(q["cards"])}) + "\n")
"""


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.pop("RULINGS_WORKERS", None)
    return env


def run(cmd: list[str], stdout=subprocess.DEVNULL) -> dict:
    """Wall and CPU seconds of one child process, and its exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=_env(), stdout=stdout, stderr=subprocess.PIPE, cwd=ROOT, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "code": p.returncode, "stderr": p.stderr.decode(errors="replace")[-500:]}


def write_hands(path: Path, count: int, seed: int) -> None:
    sys.path.insert(0, str(HERE))
    from melds import tick_hands
    from rulings.spec import load

    tick = load("tick")
    tokens = [t.token for t in tick.cards.types]
    with open(path, "w") as f:
        for contract, _, cards in tick_hands(tick, count, seed):
            f.write(json.dumps({"level": int(contract.name.split()[1]), "cards": [tokens[t] for t in cards]}) + "\n")


def batch(cmd: list[str], path: Path, hands: int, empty: Path) -> dict:
    """The command over the file: per hand, the whole time over the hands (start-up
    included) and the marginal time (less the same command over an empty file)."""
    start = run(cmd + [str(empty)])
    with tempfile.TemporaryFile() as out:
        r = run(cmd + [str(path)], stdout=out)
        out.seek(0)
        lines = out.read().count(b"\n")
    r.update(hands=hands, lines_out=lines, us_per_hand_wall=1e6 * r["wall_s"] / hands,
             us_per_hand_cpu=1e6 * r["cpu_s"] / hands, startup_wall_s=start["wall_s"], startup_cpu_s=start["cpu_s"],
             marginal_us_per_hand_cpu=1e6 * (r["cpu_s"] - start["cpu_s"]) / hands)
    return r


def one_query(runs: int) -> dict:
    cmd = [RULINGS, "meld", "tick", "--level", "3", "5", "5", "SW", "BW"]
    run(cmd)                                                  # warm-up: bytecode caches written
    rs = [run(cmd) for _ in range(runs)]
    return {"wall_ms": 1e3 * statistics.median(r["wall_s"] for r in rs),
            "cpu_ms": 1e3 * statistics.median(r["cpu_s"] for r in rs), "runs": runs, "code": rs[0]["code"]}


def simulate(games: int) -> dict:
    r = run([RULINGS, "simulate", "tick", "--players", "4", "--games", str(games)])
    return dict(r, games=games, games_per_s=games / r["wall_s"], games_per_cpu_s=games / r["cpu_s"])


def tests() -> dict:
    r = run([sys.executable, "-m", "pytest", "-q"])
    return dict(r, minutes=r["wall_s"] / 60)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=50_000, help="hands for the reference batch (default 50,000)")
    ap.add_argument("--z3-hands", type=int, default=5_000, help="hands for the Z3 and lay batches (default 5,000)")
    ap.add_argument("--runs", type=int, default=5, help="runs of the one query (default 5)")
    ap.add_argument("--games", type=int, default=50, help="games simulated (default 50)")
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--tests", action="store_true", help="also time the README's test command (minutes)")
    ap.add_argument("--json", action="store_true", help="print the whole output as one JSON object")
    ap.add_argument("--show", metavar="FILE", help="print the table of a run saved with --json, and measure nothing")
    a = ap.parse_args(argv)
    if a.show:
        show(json.loads(Path(a.show).read_text()))
        return 0

    out: dict = {"load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        big, small, empty = (Path(tmp) / name for name in ("hands.jsonl", "hands-small.jsonl", "empty.jsonl"))
        empty.write_text("")
        write_hands(big, a.hands, a.seed)
        with open(big) as f, open(small, "w") as g:
            for _, line in zip(range(a.z3_hands), f):
                g.write(line)
        bare = [sys.executable, "-c", BARE]
        for name, cmd, path, n in (
                ("bare pass", bare, big, a.hands),
                ("reference meld batch", [RULINGS, "meld", "tick", "--engine", "reference", "--batch"], big, a.hands),
                ("bare pass (small)", bare, small, a.z3_hands),
                ("z3 meld batch", [RULINGS, "meld", "tick", "--batch"], small, a.z3_hands),
                ("reference lay batch", [RULINGS, "lay", "tick", "--engine", "reference", "--batch"], small,
                 a.z3_hands),
                ("z3 lay batch", [RULINGS, "lay", "tick", "--batch"], small, a.z3_hands)):
            out[name] = batch(cmd, path, n, empty)
    out["one query"] = one_query(a.runs)
    out["simulate"] = simulate(a.games)
    if a.tests:
        out["tests"] = tests()
    out["load_after"] = os.getloadavg()
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        show(out)
    return 0


def show(out: dict) -> None:
    print(f"load average before {out['load_before'][0]:.2f}, after {out['load_after'][0]:.2f} (2 idle cores: ~0)")
    print(f"{'row (per hand)':30}{'wall':>13}{'cpu':>13}{'cpu past start-up':>19}   goal; cpu against the bare pass")
    for name, bare_name, goal in (("reference meld batch", "bare pass", "<= 3x the bare pass"),
                                  ("z3 meld batch", "bare pass (small)", "<= 1 ms a hand"),
                                  ("reference lay batch", "bare pass (small)", "-"),
                                  ("z3 lay batch", "bare pass (small)", "-")):
        r, b = out[name], out[bare_name]
        print(f"{name + ' (' + str(r['hands']) + ')':30}"
              f"{r['us_per_hand_wall']:10.1f} µs{r['us_per_hand_cpu']:10.1f} µs"
              f"{r['marginal_us_per_hand_cpu']:16.1f} µs   {goal}; "
              f"{r['us_per_hand_cpu'] / b['us_per_hand_cpu']:.1f}x, "
              f"{r['marginal_us_per_hand_cpu'] / b['marginal_us_per_hand_cpu']:.1f}x past start-up"
              + ("" if r["lines_out"] == r["hands"] else f"  !! {r['lines_out']} lines out"))
        print(f"{'  bare pass, same file':30}{b['us_per_hand_wall']:10.1f} µs{b['us_per_hand_cpu']:10.1f} µs"
              f"{b['marginal_us_per_hand_cpu']:16.1f} µs")
    q = out["one query"]
    print(f"{'one query (median of ' + str(q['runs']) + ')':30}{q['wall_ms']:10.1f} ms{q['cpu_ms']:10.1f} ms"
          f"{'':19}   < 200 ms")
    s = out["simulate"]
    print(f"{'simulate tick 4p, ' + str(s['games']) + ' games':30}"
          f"{s['games_per_s']:8.1f} g/s{s['games_per_cpu_s']:8.1f} g/cpu-s"
          f"{'':17}   >= 50 games/s")
    if "tests" in out:
        t = out["tests"]
        print(f"{'the README test command':30}{t['minutes']:9.1f} min{t['cpu_s'] / 60:9.1f} min{'':19}   <= 10 min "
              f"(exit {t['code']})")


if __name__ == "__main__":
    sys.exit(main())
