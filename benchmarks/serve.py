"""`rulings serve` under load on the loopback interface: requests per second and the p50
and p99 latency of a meld query (`POST /api/meld`) and of a judged move (`POST
/api/judge`), with 1 and with 8 clients asking back to back.

The server is the command itself (`rulings serve --port 0`, default pools: two quick
workers), started fresh and warmed (each question asked 20 times) before measuring. Each
cell asks for `--seconds` (default 15). The questions vary (hands drawn from a seeded
list, moves from several situations). The machine's load (1-minute load average, from
/proc/loadavg) is printed before and after each cell, and the CPU time the server and its
workers used, in all and per request: on a machine shared with other work the latencies
are only as good as the share of the cores the server got, while the CPU time per request
hardly depends on it.

Goal on 2 cores (issue 29): meld p99 under 50 ms, judged move p99 under 200 ms at 8 clients.

    python benchmarks/serve.py [--seconds 15] [--json]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

BIN = Path(sys.executable).parent
HANDS = [["5", "5", "SW", "BW"], ["5", "SW", "SW", "BW"], ["1", "1", "1", "1"], ["7", "7", "SW", "7"],
         ["2", "2", "2", "B"], ["9", "9", "BW", "BW"], ["3", "3", "3", "3", "SW"], ["10", "10", "10", "SW"]]
TICK = {"format": 1, "game": "tick", "players": 5, "dealer": 0, "to_play": 0, "phase": "play", "turns_finished": 4,
        "hands": [["3", "3", "3", "7", "5", "5"], ["1", "2"], [], [], []], "stock": {"top": [], "rest": "deck"},
        "face_up": ["9"]}
MOVES = [{"lay": ["3", "3", "3"]}, {"discard": "7"}, {"discard": "5"}, {"lay": ["5", "5", "3"]}]


def questions(kind: str, rnd: random.Random) -> dict:
    if kind == "meld":
        return {"game": "tick", "level": 3, "cards": rnd.choice(HANDS)}
    return {"game": "tick", "scenario": dict(TICK, turns_finished=rnd.choice([1, 4, 5]), move=rnd.choice(MOVES))}


def loadavg() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its children, from /proc."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
        for c in children:
            pids += [int(x) for x in Path(f"/proc/{c}/task/{c}/children").read_text().split()]
    except OSError:
        pass
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def start() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([str(BIN / "rulings"), "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    found: list[str] = []
    ready = threading.Event()

    def read():
        for line in proc.stdout:
            m = re.search(r"open (http://[^/ ]+)/", line)
            if m:
                found.append(m.group(1))
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(300):
        proc.kill()
        sys.exit("benchmarks/serve.py: the server did not start")
    return proc, found[0]


async def cell(url: str, kind: str, clients: int, seconds: float, pid: int) -> dict:
    import httpx

    latencies: list[float] = []
    errors = 0
    load_before, cpu_before = loadavg(), cpu_seconds(pid)
    end = time.monotonic() + seconds
    path = "/api/meld" if kind == "meld" else "/api/judge"

    async def client(k: int, c):
        nonlocal errors
        rnd = random.Random(k)
        while time.monotonic() < end:
            t0 = time.perf_counter()
            r = await c.post(path, json=questions(kind, rnd))
            latencies.append(time.perf_counter() - t0)
            errors += r.status_code != 200

    t0 = time.monotonic()
    async with httpx.AsyncClient(base_url=url, timeout=120,
                                 limits=httpx.Limits(max_connections=clients)) as c:
        await asyncio.gather(*(client(k, c) for k in range(clients)))
    wall = time.monotonic() - t0
    latencies.sort()
    n = len(latencies)
    return {"query": kind, "clients": clients, "requests": n, "errors": errors,
            "per_second": round(n / wall, 1),
            "p50_ms": round(1000 * latencies[n // 2], 1), "p99_ms": round(1000 * latencies[min(n - 1, int(n * 0.99))], 1),
            "server_cpu_s": round(cpu_seconds(pid) - cpu_before, 1),
            "cpu_ms_per_request": round(1000 * (cpu_seconds(pid) - cpu_before) / max(n, 1), 1), "load_before": load_before,
            "load_after": loadavg()}


async def measure(url: str, seconds: float, pid: int) -> list[dict]:
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=120) as c:      # warm: every worker has answered
        rnd = random.Random(0)
        for kind in ("meld", "judge"):
            for _ in range(20):
                await c.post("/api/meld" if kind == "meld" else "/api/judge", json=questions(kind, rnd))
    out = []
    for kind in ("meld", "judge"):
        for clients in (1, 8):
            out.append(await cell(url, kind, clients, seconds, pid))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    a = ap.parse_args()
    proc, url = start()
    try:
        rows = asyncio.run(measure(url, a.seconds, proc.pid))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(60)
    info = {"cores": os.cpu_count(), "rows": rows}
    if a.json:
        print(json.dumps(info, indent=2))
        return
    print(f"rulings serve on loopback, {os.cpu_count()} cores; {a.seconds:g} s per cell")
    print(f"{'query':8} {'clients':>7} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} {'server CPU s':>12} "
          f"{'CPU ms/req':>10}  load before -> after")
    for r in rows:
        print(f"{r['query']:8} {r['clients']:>7} {r['per_second']:>7} {r['p50_ms']:>8} {r['p99_ms']:>8} "
              f"{r['errors']:>6} {r['server_cpu_s']:>12} {r['cpu_ms_per_request']:>10}  "
              f"{r['load_before']:.1f} -> {r['load_after']:.1f}")


if __name__ == "__main__":
    main()
