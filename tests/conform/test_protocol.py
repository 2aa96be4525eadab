"""The adapter protocol has versions (issue 26, item 7): `hello` exchanges them, a run asks
only what the implementation's version holds, a field it does not report is *not
reported* (never a divergence), and last month's Tick example keeps working on the version
it speaks."""
from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.checks.conformance import conform, protocol as proto, report as conform_report
from rulings.checks.conformance.adapters import AdapterError, CommandAdapter, PythonAdapter
from rulings.checks.conformance.mutants import SpecImplementation
from rulings.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _program(tmp_path, hello: dict) -> str:
    p = tmp_path / "hello.py"
    p.write_text(textwrap.dedent(f"""
        import json, sys
        for line in sys.stdin:
            req = json.loads(line)
            if req["method"] == "hello":
                print(json.dumps({{"id": req["id"], "result": {hello!r}}}), flush=True)
            else:
                print(json.dumps({{"id": req["id"], "unsupported": True}}), flush=True)
    """), encoding="utf-8")
    return f"{sys.executable} {p}"


@pytest.mark.parametrize("hello,version", [({"name": "x"}, 1), ({"protocol": 2}, 2), ({"protocol": 3}, 3),
                                           ({"protocol": 99}, proto.CURRENT)])
def test_hello_names_the_version_spoken(tmp_path, hello, version):
    a = CommandAdapter(_program(tmp_path, hello), game="tick")
    try:
        a.start()
        assert a.protocol == version
    finally:
        a.close()


def test_hello_offers_every_version():
    params = proto.hello_params("tick", ["meld"])
    assert params["protocol"] == proto.CURRENT and params["versions"] == list(range(1, proto.CURRENT + 1))
    assert set(proto.LEVEL_OVER_FIELDS.values()) <= set(proto.VERSIONS)


@pytest.mark.parametrize("bad", ["3", 0, True, 2.5])
def test_a_version_that_is_no_version_is_bad_input(tmp_path, bad):
    a = CommandAdapter(_program(tmp_path, {"protocol": bad}), game="tick")
    with pytest.raises(AdapterError, match="protocol"):
        a.start()
    a.close()


class Reports(SpecImplementation):
    """The spec's own answers, speaking `version` and leaving out the round's-end fields named."""

    def __init__(self, spec, version: int, leave_out=()):
        super().__init__(spec)
        self.protocol, self.leave_out, self.scored = version, set(leave_out), []

    def move(self, state, move):
        out = super().move(state, move)
        if isinstance(out.get("state"), dict):
            out = {**out, "state": {k: v for k, v in out["state"].items() if k not in self.leave_out}}
        return out

    def score(self, state):
        self.scored.append(state.get("phase"))
        return super().score(state)


def _run(spec, docs, impl, **kw):
    return conform.conform(spec, PythonAdapter(impl), docs, 0, 0, **kw)


def test_a_field_not_reported_is_never_a_divergence(spec, docs):
    """A version 3 implementation that leaves `next_round` out of its answers has asked
    questions it did not answer in full: the run says which field, how often, and does not
    conform (exit 5), unless unsupported answers are allowed; nothing diverged."""
    report = _run(spec, docs, Reports(spec, 3, {"next_round"}))
    assert not report.wrong and report.outcome == conform.MISBEHAVED
    assert report.unreported()["next_round"] > 0 and set(report.unreported()) == {"next_round"}
    text = conform_report.text(report)
    assert "not reported by the implementation" in text and "next_round" in text.split("result:")[-1]
    allowed = _run(spec, docs, Reports(spec, 3, {"next_round"}), allow_unsupported=True)
    assert allowed.outcome == conform.CONFORMS


def test_an_earlier_version_is_not_asked_the_later_fields(spec, docs):
    """The same answers from an implementation that speaks version 2 conform: next_round is
    a field of version 3, neither asked nor compared, and the report says so; version 1 is
    not asked next_dealer either, and is asked its scores at a level_over situation (the
    game's end too)."""
    two = _run(spec, docs, Reports(spec, 2, {"next_round", "winners"}))
    assert two.outcome == conform.CONFORMS and not two.unreported()
    text = conform_report.text(two)
    assert "protocol: version 2 of 3" in text and "next_round (version 3)" in text
    impl = Reports(spec, 1, {"next_round", "winners", "next_dealer"})
    one = _run(spec, docs, impl)
    assert one.outcome == conform.CONFORMS and set(impl.scored) == {"level_over"}
    three = Reports(spec, 3)
    assert _run(spec, docs, three).outcome == conform.CONFORMS and "round_over" in set(three.scored) <= {
        "round_over", "over"}


def test_a_wrong_answer_of_a_reported_field_still_diverges(spec, docs):
    class WrongDealer(Reports):
        def move(self, state, move):
            out = super().move(state, move)
            s = out.get("state")
            if isinstance(s, dict) and s.get("next_dealer") is not None:
                out = {**out, "state": {**s, "next_dealer": (s["next_dealer"] + 1) % s["players"]}}
            return out

    assert _run(spec, docs, WrongDealer(spec, 2)).outcome == conform.DIVERGED
    assert _run(spec, docs, WrongDealer(spec, 1)).outcome == conform.CONFORMS      # version 1 never says


def test_last_months_tick_example_keeps_working(node, vectors_dir):
    """examples/tick-faithful-v1.js, written before the protocol had versions (its hello
    names none, its level's end has no next dealer): it conforms, on version 1; the current
    example speaks version 3 and conforms too."""
    for name, version in (("tick-faithful-v1.js", 1), ("tick-faithful.js", 3)):
        result = CliRunner().invoke(main, ["conform", "tick", "--cmd", f"{node} {EXAMPLES / name}", "--vectors",
                                           str(vectors_dir), "--random", "20", "--json"])
        assert result.exit_code == 0, result.output[-2000:]
        out = json.loads(result.stdout)
        assert out["protocol"] == version and out["conforms"] is True and not out["not_reported"]
