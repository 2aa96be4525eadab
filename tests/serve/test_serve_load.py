"""A load test of `rulings serve` on the loopback interface: 50 clients at once, each
asking a mix of questions back to back (pages, melds, judged moves, the moves offered,
the best lay-down, the table question, a permalink's ruling, a static file, a bad
question) for SERVE_LOAD_SECONDS (10 s in the suite, so that the README's test command
keeps its budget; `SERVE_LOAD_SECONDS=30 .venv/bin/python -m pytest -n 0
tests/serve/test_serve_load.py` is the full 30 s of the issue). Every request sent must be
answered, with the status its question deserves (never a 5xx, never a dropped
connection), and the memory of the server and its workers must stay bounded: under a
ceiling, and growing by little between the first and the last third of the run."""
from __future__ import annotations

import asyncio
import os
import random
import time

import pytest

from rulings.serve.situation import encode

pytestmark = pytest.mark.xdist_group("serve-load")

CLIENTS = 50
SECONDS = float(os.environ.get("SERVE_LOAD_SECONDS", "10"))
MEMORY_CEILING = 4 * 1024 ** 3          # bytes, the server and its workers together
MEMORY_GROWTH = 300 * 1024 ** 2         # bytes, first third to last third of the run

TICK = {"format": 1, "game": "tick", "players": 5, "dealer": 0, "to_play": 0, "phase": "play", "turns_finished": 4,
        "hands": [["3", "3", "3", "7"], [], [], [], []], "stock": {"top": [], "rest": "deck"}, "face_up": ["9"]}


def mix() -> list[tuple[str, str, dict | None, int]]:
    """(method, path, JSON body, the status it must get)."""
    token = encode(dict(TICK, move={"lay": ["3", "3", "3"]}))
    return [
        ("GET", "/", None, 200),
        ("GET", "/games/tick", None, 200),
        ("GET", "/static/builder.js", None, 200),
        ("POST", "/api/meld", {"game": "tick", "level": 3, "cards": ["5", "5", "SW", "BW"]}, 200),
        ("POST", "/api/meld", {"game": "tick", "level": 3, "cards": ["5", "SW", "SW", "BW"]}, 200),
        ("POST", "/api/meld", {"game": "rummikub", "initial": True, "cards": "r10 r11 r12 k10 o10 b10".split()}, 200),
        ("POST", "/api/judge", {"game": "tick", "scenario": dict(TICK, move={"lay": ["3", "3", "3"]})}, 200),
        ("POST", "/api/judge", {"game": "tick", "scenario": dict(TICK, move={"discard": "7"})}, 200),
        ("POST", "/api/moves", {"game": "tick", "scenario": TICK}, 200),
        ("POST", "/api/lay", {"game": "tick", "level": 1, "cards": "5 5 5 7 7 7 9 B".split()}, 200),
        ("POST", "/api/play", {"game": "rummikub", "table": "k7 k8 k9 | r5 o5 b5", "hand": "k10 J b5"}, 200),
        ("GET", f"/games/tick/ruling?s={token}", None, 200),
        ("POST", "/api/meld", {"game": "tick", "level": 3, "cards": ["5", "11"]}, 400),
    ]


def memory(pid: int) -> int:
    import psutil

    try:
        p = psutil.Process(pid)
        procs = [p] + p.children(recursive=True)
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for q in procs:
        try:
            total += q.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


async def load(url: str, pid: int, seconds: float) -> dict:
    import httpx

    requests = mix()
    sent = answered = 0
    wrong: list[str] = []
    lost: list[str] = []
    latencies: list[float] = []
    samples: list[tuple[float, int]] = []
    end = time.monotonic() + seconds
    # a client lets a connection go after 10 s idle, before the server does (30 s)
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS, keepalive_expiry=10)

    async def one_client(k: int, client):
        nonlocal sent, answered
        rnd = random.Random(k)
        while time.monotonic() < end:
            method, path, body, want = rnd.choice(requests)
            sent += 1
            t0 = time.monotonic()
            try:
                r = await client.request(method, path, json=body)
            except httpx.HTTPError as e:
                lost.append(f"{method} {path[:40]}: {type(e).__name__}: {e}")
                continue
            latencies.append(time.monotonic() - t0)
            answered += 1
            if r.status_code != want:
                wrong.append(f"{method} {path[:40]}: {r.status_code} {r.text[:200]}")

    async def watch():
        t0 = time.monotonic()
        while time.monotonic() < end:
            samples.append((time.monotonic() - t0, memory(pid)))
            await asyncio.sleep(0.5)

    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        await asyncio.gather(watch(), *(one_client(k, client) for k in range(CLIENTS)))
    latencies.sort()
    return {"sent": sent, "answered": answered, "wrong": wrong, "lost": lost, "samples": samples,
            "p50": latencies[len(latencies) // 2] if latencies else None,
            "p99": latencies[int(len(latencies) * 0.99)] if latencies else None}


def test_fifty_clients_all_answered_memory_bounded(server):
    import httpx

    assert httpx.get(server.url + "/api/games", timeout=60).status_code == 200      # started and answering
    out = asyncio.run(load(server.url, server.proc.pid, SECONDS))
    print(f"\n{out['sent']} requests from {CLIENTS} clients in {SECONDS:g} s: {out['answered']} answered, "
          f"p50 {out['p50']:.3f} s, p99 {out['p99']:.3f} s; memory {out['samples'][0][1] >> 20} -> "
          f"{max(m for _, m in out['samples']) >> 20} MiB")
    assert not out["lost"], out["lost"][:5]
    assert out["answered"] == out["sent"] and out["sent"] >= CLIENTS
    assert not out["wrong"], out["wrong"][:5]
    mem = [m for _, m in out["samples"] if m]
    assert mem and max(mem) < MEMORY_CEILING, f"{max(mem) >> 20} MiB"
    third = max(len(mem) // 3, 1)
    early, late = max(mem[:third]), max(mem[-third:])
    assert late - early < MEMORY_GROWTH, f"memory grew {early >> 20} -> {late >> 20} MiB"
