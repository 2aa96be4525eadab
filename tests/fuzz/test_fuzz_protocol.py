"""The adapter protocol fuzzed: a program that answers each request with the bytes
Hypothesis chose (well-formed answers, wrong or missing ids, broken JSON, any bytes, stray
lines, answers nested deep or past the size limit, no line's end, an exit instead of an
answer, noise on stderr) is asked one request by `CommandAdapter`. Whatever it sends,
the harness gives an Answer (ok, unsupported, or an error with one of the documented
failures) within its time limit and raises nothing; a well-formed answer is taken as
sent."""
from __future__ import annotations

import base64
import json
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import given, strategies as st

from rulings.checks.conformance.adapters import FAILURES, MAX_DEPTH, CommandAdapter, too_deep

PROGRAM = r"""
import base64, json, os, sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    req = json.loads(line)
    if req["method"] == "hello":
        out.write(json.dumps({"id": req["id"], "result": {"name": "fuzzed"}}).encode() + b"\n")
        out.flush()
        continue
    p = req["params"]
    sys.stderr.buffer.write(base64.b64decode(p["stderr"]))
    sys.stderr.flush()
    out.write(base64.b64decode(p["reply"]).replace(b"@ID@", str(req["id"]).encode()))
    out.flush()
    if p["exit"] is not None:
        os._exit(p["exit"])
"""

PATH = Path(tempfile.mkdtemp(prefix="rulings-fuzz-protocol-")) / "answers.py"
PATH.write_text(PROGRAM)
TIMEOUT = 0.3
MAX_ANSWER = 4096

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
              st.text(max_size=20)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20)


def line(obj) -> bytes:
    return json.dumps(obj).encode().replace(b'"@ID@"', b"@ID@") + b"\n"


well_formed = json_values.map(lambda v: (line({"id": "@ID@", "result": v}), v))

replies = st.one_of(
    well_formed.map(lambda t: t[0]),
    st.just(line({"id": "@ID@", "unsupported": True})),
    st.text(max_size=30).map(lambda e: line({"id": "@ID@", "error": e})),
    json_values.map(lambda v: line({"id": "@ID@", "result": v})[:-3] + b"\n"),          # cut short
    st.tuples(st.integers(), json_values).map(lambda t: line({"id": t[0], "result": t[1]})),   # another id
    json_values.map(lambda v: line({"result": v})),                                    # no id
    json_values.map(lambda v: line({"id": "x", "result": v})),
    st.integers(2, 3000).map(lambda n: b'{"id": @ID@, "result": ' + b"[" * n + b"]" * n + b"}\n"),
    st.integers(MAX_ANSWER, 3 * MAX_ANSWER).map(lambda n: line({"id": "@ID@", "result": "x" * n})),
    st.binary(max_size=60).map(lambda b: b + b"\n"),
    st.binary(max_size=60),                                                            # no line's end
    st.just(b'{"id": @ID@, "result": ' + b"9" * 5000 + b"}\n"),
    st.just(b'{"id": @ID@, "result": NaN}\n'),
    st.just(b'{"id": @ID@, "id": @ID@, "result": 1}\n'),
    st.just(b"\xff\xfe\n"),
    st.just(b""),
)


@st.composite
def conversations(draw) -> dict:
    """What the program sends for one request: stray lines, then a reply, then perhaps
    its exit; and what it writes on stderr."""
    strays = draw(st.lists(st.one_of(st.binary(max_size=20).map(lambda b: b.replace(b"\n", b"") + b"\n"),
                                     st.just(line({"id": 10 ** 6, "result": 1}))), max_size=3))
    reply = draw(replies)
    return {"reply": base64.b64encode(b"".join(strays) + reply).decode(),
            "stderr": base64.b64encode(draw(st.binary(max_size=200))).decode(),
            "exit": draw(st.sampled_from([None, None, None, 0, 1, 3]))}


@given(conversations())
def test_any_reply_is_an_answer_within_the_time_limit(params):
    with CommandAdapter(f"{sys.executable} -I -S {PATH}", timeout=TIMEOUT, game="tick",
                        max_answer=MAX_ANSWER, hello_timeout=10) as adapter:
        t0 = time.monotonic()
        answer = adapter.ask("meld", params)
        took = time.monotonic() - t0
    assert took < TIMEOUT + 3, took
    assert answer.status in ("ok", "unsupported", "error"), answer
    if answer.status == "error":
        assert answer.failure in FAILURES and answer.error, answer
    if answer.ok:
        assert not too_deep(answer.value, MAX_DEPTH)
        assert len(json.dumps(answer.value)) <= MAX_ANSWER


@given(well_formed, st.sampled_from([None, 0]))
def test_a_well_formed_answer_is_taken_as_sent(reply_and_value, exit_code):
    """(Even when the program exits right after it: the answer was given.)"""
    reply, value = reply_and_value
    params = {"reply": base64.b64encode(reply).decode(), "stderr": "", "exit": exit_code}
    with CommandAdapter(f"{sys.executable} -I -S {PATH}", timeout=5, game="tick", max_answer=1 << 20,
                        hello_timeout=10) as adapter:
        answer = adapter.ask("meld", params)
    if too_deep(value, MAX_DEPTH):
        assert answer.status == "error" and answer.failure == "malformed", answer
    else:
        assert answer.ok and answer.value == value, answer
