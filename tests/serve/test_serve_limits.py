"""Hostile and oversized requests get a 4xx with a message, never a traceback or a file of
the server's machine; each question is bounded (a deadline, a worker's memory), and the
long computations run beside the quick questions, not in front of them."""
from __future__ import annotations

import asyncio
import base64
import resource
import time
import zlib

import pytest

from rulings.serve.limits import MAX_BODY
from rulings.serve.situation import encode
from rulings.serve.specs import MAX_UPLOAD

pytestmark = pytest.mark.xdist_group("serve-http")

TICK = {"format": 1, "game": "tick", "players": 2, "dealer": 0, "to_play": 1, "phase": "play",
        "turns_finished": 0, "hands": [["1"], ["5", "9"]], "stock": {"top": [], "rest": "deck"}}


def refused(r, status: int, words: str):
    assert r.status_code == status, (r.status_code, r.text[:500])
    body = r.json() if r.headers["content-type"].startswith("application/json") else {"error": r.text}
    assert words in body["error"], body
    assert "Traceback" not in r.text


def test_malformed_yaml(client):
    r = client.post("/api/judge", json={"game": "tick", "scenario": "players: [2,\n  dealer: {"})
    refused(r, 400, "not valid YAML")


def test_a_body_that_is_not_json(client):
    r = client.post("/api/meld", content=b'{"game": "tick", "cards": [5', headers={"content-type": "application/json"})
    refused(r, 400, "not valid JSON")


def test_deep_nesting(client):
    deep = "[" * 5000 + "]" * 5000
    r = client.post("/api/meld", content=f'{{"game": "tick", "cards": {deep}}}'.encode(),
                    headers={"content-type": "application/json"})
    refused(r, 400, "nests more than 64 levels")
    r = client.post("/api/judge", json={"game": "tick", "scenario": "a: " + "[" * 200 + "]" * 200})
    refused(r, 400, "nests more than 64 levels")


def test_huge_numbers(client):
    r = client.post("/api/meld", content=b'{"game": "tick", "level": 1' + b"0" * 6000 + b', "cards": ["5"]}',
                    headers={"content-type": "application/json"})
    refused(r, 400, "too long to read")
    r = client.post("/api/meld", json={"game": "tick", "level": 10 ** 40, "cards": ["5"]})
    assert r.status_code == 422
    r = client.post("/api/judge", json={"game": "tick", "scenario": dict(TICK, players=10 ** 40, move={"discard": "9"})})
    refused(r, 400, "players: must be 2 to 8")
    r = client.post("/api/judge", json={"game": "tick", "scenario": dict(TICK, phase="draw", move={"tick": 10 ** 30})})
    assert r.status_code in (200, 400) and "Traceback" not in r.text
    if r.status_code == 200:
        assert r.json()["verdict"] == "illegal"


def test_binary_bodies(client):
    r = client.post("/api/meld", content=bytes(range(256)) * 4, headers={"content-type": "application/json"})
    refused(r, 400, "not UTF-8")
    r = client.post("/api/validate?name=x.yaml", content=b"\x00\xff\xfe" * 100)
    assert r.status_code == 200 and r.json()["ok"] is False
    assert "not UTF-8" in r.json()["errors"][0]["message"] or "control character" in r.json()["errors"][0]["message"]
    r = client.post("/upload", files={"file": ("x.yaml", b"\x89PNG\r\n\x1a\n" + bytes(200), "image/png")})
    assert r.status_code == 200 and "problem" in r.text


def test_bodies_and_uploads_past_their_size(client):
    r = client.post("/api/judge", content=b'{"game": "tick", "scenario": "' + b"a" * (MAX_BODY + 10) + b'"}',
                    headers={"content-type": "application/json"})
    refused(r, 413, "larger than")
    r = client.post("/api/validate?name=big.yaml", content=b"# " + b"x" * (MAX_UPLOAD + 40_000))
    refused(r, 413, "larger than")
    r = client.post("/upload", files={"file": ("big.yaml", b"a: 1\n" * (MAX_UPLOAD // 4), "application/yaml")})
    assert r.status_code == 413
    r = client.post("/api/validate?name=big.yaml", content=b"# " + b"x" * (MAX_UPLOAD + 100))
    refused(r, 400, "larger than")


def test_no_request_names_a_file_of_the_server(client, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("format: 1\ngame: tick\n")
    r = client.post("/api/judge", json={"game": "tick", "scenario": dict(TICK, game=str(secret), move={"discard": "9"})})
    refused(r, 400, "the scenario is for")
    refused(client.post("/api/meld", json={"game": str(secret), "level": 1, "cards": ["5"]}), 404, "no game")
    refused(client.post("/api/meld", json={"game": "../spec/tick", "level": 1, "cards": ["5"]}), 404, "no game")
    assert client.get("/games/..%2F..%2Fetc%2Fpasswd").status_code == 404
    r = client.post("/api/validate?name=/etc/passwd", content=b"game: x\n")
    assert r.status_code == 200 and r.json()["files"] == ["passwd.yaml"]


def test_damaged_and_oversized_permalinks(client):
    refused(client.get("/games/tick/ruling?s=not-a-permalink"), 400, "damaged")
    bomb = base64.urlsafe_b64encode(zlib.compress(b"[" + b" " * 5_000_000 + b"]", 9)).decode().rstrip("=")
    refused(client.get(f"/games/tick/ruling?s={bomb}"), 400, "holds more than")
    deep = base64.urlsafe_b64encode(zlib.compress(b"[" * 100 + b"]" * 100)).decode().rstrip("=")
    refused(client.get(f"/games/tick/ruling?s={deep}"), 400, "nests more than")
    refused(client.get("/games/tick/ruling?s=" + "A" * 13_000), 400, "longer than")
    refused(client.get("/games/tick/ask?s=" + "A" * 20_000), 414, "longer than")
    refused(client.get("/games/tick/ruling?s=" + encode([1, 2])), 400, "does not hold a scenario")


def test_workers_have_a_bounded_address_space(client):
    pools = client.app.state.pools
    soft, _ = asyncio.run(pools.run("quick", resource.getrlimit, resource.RLIMIT_AS))
    assert 0 < soft <= 4 * 1024 ** 3


def test_a_question_past_its_deadline_is_ended_and_the_others_still_answered():
    from fastapi.testclient import TestClient

    from rulings.serve.app import create_app
    from rulings.serve.workers import PoolSpec

    app = create_app(pool_specs={"quick": PoolSpec(1, 120.0, 10), "heavy": PoolSpec(1, 0.01, 10),
                                 "jobs": PoolSpec(1, 60.0, 2)}, warm=False)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/api/lay", json={"game": "tick", "level": 1, "cards": "5 5 5 7 7 7 9 B".split()})
        refused(r, 504, "deadline")
        r = c.post("/api/meld", json={"game": "tick", "level": 3, "cards": ["5", "5", "SW", "BW"]})
        assert r.status_code == 200 and r.json()["legal"] is True


def test_a_long_computation_does_not_hold_up_a_quick_question(client):
    """The gap check of Tick runs for a quarter of a minute or more in the jobs pool; a meld
    asked meanwhile is answered while it still runs."""
    r = client.get("/games/tick/findings?kind=gap")
    assert r.status_code == 200 and "Being computed" in r.text
    t0 = time.monotonic()
    r = client.post("/api/meld", json={"game": "tick", "level": 3, "cards": ["5", "5", "SW", "BW"]})
    assert r.status_code == 200 and r.json()["legal"] is True
    waited = time.monotonic() - t0
    assert "Being computed" in client.get("/games/tick/findings?kind=gap").text, \
        f"the check finished before the meld's answer came ({waited:.1f} s): nothing was shown"
