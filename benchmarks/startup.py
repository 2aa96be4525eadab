"""How long one CLI query takes, start-up included: the time a user waits for an answer.

Each command runs as a fresh process, `--runs` times after one warm-up run (which also
writes the bytecode caches; `PYTHONDONTWRITEBYTECODE` is removed from the environment, as
a user's shell does not set it, so what is measured is a start with the caches present).
Printed: the median wall time and the median CPU time (user + system) of each command,
beside a bare `python -c pass` and `import rulings.cli` from the same interpreter; the CPU
time is the steadier figure on a busy machine.

    python benchmarks/startup.py [--runs 15] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import rulings.cli": [sys.executable, "-c", "import rulings.cli"],
    "rulings meld tick --level 3 5 5 SW BW (z3)": [str(BIN / "rulings"), "meld", "tick", "--level", "3", "5", "5", "SW", "BW"],
    "rulings meld ... --engine reference": [str(BIN / "rulings"), "meld", "tick", "--level", "3", "5", "5", "SW", "BW",
                                            "--engine", "reference"],
    "rulings games": [str(BIN / "rulings"), "games"],
}


def _run(cmd: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(runs: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = {}
    for name, cmd in COMMANDS.items():
        _run(cmd, env)                                   # warm-up: bytecode caches written
        walls, cpus = zip(*(_run(cmd, env) for _ in range(runs)))
        out[name] = {"wall_ms": round(1000 * statistics.median(walls), 1),
                     "cpu_ms": round(1000 * statistics.median(cpus), 1), "runs": runs}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--json", action="store_true", help="print the whole output as JSON")
    a = ap.parse_args()
    res = measure(a.runs)
    if a.json:
        print(json.dumps(res, indent=2))
        return
    print(f"{'command':<48}{'wall ms':>10}{'cpu ms':>10}   (medians of {a.runs} runs)")
    for name, r in res.items():
        print(f"{name:<48}{r['wall_ms']:>10}{r['cpu_ms']:>10}")


if __name__ == "__main__":
    main()
