"""What the tests of `rulings serve` share: the application behind the framework's test
client (its worker processes started once per test process), and a real server on the
loopback interface started with the command itself (`rulings serve --port 0`), stopped at
the end with Ctrl-C (SIGINT), which must end it cleanly."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"


@pytest.fixture(scope="session")
def client():
    from fastapi.testclient import TestClient

    from rulings.serve.app import create_app
    from rulings.serve.workers import PoolSpec

    app = create_app(pool_specs={"quick": PoolSpec(1, 60.0, 100), "heavy": PoolSpec(1, 120.0, 20),
                                 "jobs": PoolSpec(1, 600.0, 4)}, warm=False)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


class Served:
    """A `rulings serve` process: its address, and what it printed."""

    def __init__(self, proc: subprocess.Popen, url: str, lines: list[str]):
        self.proc, self.url, self.lines = proc, url, lines


def start_server(extra_env: dict | None = None) -> Served:
    env = dict(os.environ, **(extra_env or {}))
    proc = subprocess.Popen([str(Path(sys.executable).parent / "rulings"), "serve", "--port", "0"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    found = threading.Event()
    url = []

    def read():
        for line in proc.stdout:
            lines.append(line)
            m = re.search(r"open (http://127\.0\.0\.1:\d+)/", line)
            if m:
                url.append(m.group(1))
                found.set()

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(180):
        proc.kill()
        pytest.fail("rulings serve did not say its address within 180 s:\n" + "".join(lines))
    return Served(proc, url[0], lines)


def stop_server(s: Served) -> int:
    """Ctrl-C, as a person stops it; its exit code (it must stop within 30 s)."""
    s.proc.send_signal(signal.SIGINT)
    try:
        return s.proc.wait(30)
    except subprocess.TimeoutExpired:
        s.proc.kill()
        s.proc.wait()
        pytest.fail("rulings serve did not stop within 30 s of Ctrl-C")


@pytest.fixture(scope="session")
def server():
    """One server per test process (xdist may run other modules' tests between two of a
    module's); stopped with Ctrl-C at the end, which must end it cleanly."""
    s = start_server({"RULINGS_RULEBOOKS": os.environ.get("RULINGS_RULEBOOKS", "")})
    yield s
    code = stop_server(s)
    time.sleep(0.2)
    assert code == 0, "".join(s.lines)
    assert "rulings serve: stopped" in "".join(s.lines)
    assert "Traceback" not in "".join(s.lines), "".join(s.lines)
