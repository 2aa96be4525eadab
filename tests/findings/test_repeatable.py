"""Same input, same findings: `rulings check` run twice, the second time with the
machine kept busy, gives the same JSON byte for byte, timing fields aside. Every budget
is in units of work (hands, Z3 resource units, games, moves, states, situations,
alternatives), so how busy the machine is changes how long a check takes, never what it
finds or what it leaves unsearched."""
from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.xdist_group("heavy")

ARGS = ["check", "tick", "--kind", "reading", "--kind", "what-if", "--what-if-limit", "8", "--json",
        "--workers", "1"]


def _timeless(node):
    if isinstance(node, dict):
        return {k: _timeless(v) for k, v in node.items() if k != "seconds"}
    if isinstance(node, list):
        return [_timeless(v) for v in node]
    return node


def _check() -> str:
    p = subprocess.run([sys.executable, "-c", "from rulings.cli import main; main()", *ARGS], capture_output=True, text=True,
                       env=dict(os.environ), timeout=1800)
    assert p.returncode in (0, 1), p.stderr[-2000:]
    return json.dumps(_timeless(json.loads(p.stdout)), sort_keys=True)


def _spin(stop) -> None:
    x = 0
    while not stop.is_set():
        x = (x * 31 + 7) % 1_000_003


def test_check_gives_the_same_findings_on_a_busy_machine():
    quiet = _check()
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=_spin, args=(stop,)) for _ in range(3)]
    for s in spinners:
        s.start()
    try:
        busy = _check()
    finally:
        stop.set()
        for s in spinners:
            s.join(timeout=10)
    assert quiet == busy
    found = json.loads(quiet)
    assert any(c["findings"] for c in found["checks"]), "the run should find something to compare"
    whatif = next(c for c in found["checks"] if c["kind"] == "what-if")
    assert "the budget of 8 alternatives left" in whatif["note"], whatif["note"][:300]
