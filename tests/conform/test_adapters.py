"""The adapter protocol: Python objects and JSON-lines programs, and every way the
implementation under test can misbehave (crash, hang, malformed answers), reported, not raised."""
from __future__ import annotations

import sys
import textwrap

import pytest

from rulings.checks import adapters
from rulings.checks.adapters import UNSUPPORTED, AdapterError, CommandAdapter, PythonAdapter


class Partial:
    def meld(self, cards, contract):
        return len(cards) >= 3

    def best_lay(self, cards, contract):
        raise NotImplementedError

    def score(self, state):
        return UNSUPPORTED

    def move(self, state, move):
        raise KeyError("oops")


def test_python_adapter_answers_and_unsupported():
    a = PythonAdapter(Partial())
    assert a.ask("meld", {"cards": ["5", "5", "5"], "contract": "level 1"}).value is True
    assert a.ask("best_lay", {"cards": [], "contract": "level 1"}).status == "unsupported"
    assert a.ask("score", {"state": {}}).status == "unsupported"
    bad = a.ask("move", {"state": {}, "move": {}})
    assert bad.status == "error" and bad.failure == "raised" and "KeyError" in bad.error and "test_adapters.py" in bad.error
    assert PythonAdapter(object()).ask("meld", {"cards": [], "contract": "level 1"}).status == "unsupported"
    assert a.requests == 4


def test_python_adapter_answer_must_be_json():
    class Weird:
        def meld(self, cards, contract):
            return {1, 2}

    got = PythonAdapter(Weird()).ask("meld", {"cards": [], "contract": "level 1"})
    assert got.status == "error" and got.failure == "malformed"


def test_load_python_by_module_and_by_file(tmp_path, monkeypatch):
    (tmp_path / "mytick_mod.py").write_text("class T:\n    def meld(self, c, k):\n        return True\n"
                                           "def make():\n    return T()\n")
    monkeypatch.chdir(tmp_path)
    assert adapters.load_python("mytick_mod:make").ask("meld", {"cards": [], "contract": "x"}).value is True
    assert adapters.load_python(str(tmp_path / "mytick_mod.py") + ":make").obj.meld([], "") is True
    with pytest.raises(AdapterError, match="no 'factory'"):
        adapters.load_python("mytick_mod")
    with pytest.raises(AdapterError, match="cannot import"):
        adapters.load_python("no_such_module_here:factory")
    with pytest.raises(AdapterError, match="no file"):
        adapters.load_python("missing/file.py:factory")
    with pytest.raises(AdapterError, match="exactly one"):
        adapters.load(None, None)


def program(tmp_path, body: str) -> str:
    """A small JSON-lines program (Python, so the test needs nothing else)."""
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent("""
        import json, sys, time
        def answer(obj):
            sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
        for line in sys.stdin:
            req = json.loads(line)
            m, p = req["method"], req["params"]
            if m == "hello":
                answer({"id": req["id"], "result": {"name": "prog"}}); continue
    """) + textwrap.indent(textwrap.dedent(body), "    "))
    return f"{sys.executable} {path}"


def test_command_answers_in_order(tmp_path):
    cmd = program(tmp_path, """
        if m == "meld":
            answer({"id": req["id"], "result": len(p["cards"]) >= 3})
        else:
            answer({"id": req["id"], "unsupported": True})
    """)
    with CommandAdapter(cmd, timeout=5) as a:
        assert a.hello == {"name": "prog"}
        assert a.ask("meld", {"cards": ["1", "1", "1"], "contract": "level 1"}).value is True
        assert a.ask("meld", {"cards": ["1"], "contract": "level 1"}).value is False
        assert a.ask("score", {"state": {}}).status == "unsupported"


def test_command_crash_is_reported_with_stderr_and_restarted(tmp_path):
    cmd = program(tmp_path, """
        if p["cards"] == ["boom"]:
            sys.stderr.write("Traceback: boom went the implementation\\n"); sys.exit(3)
        answer({"id": req["id"], "result": True})
    """)
    with CommandAdapter(cmd, timeout=5) as a:
        got = a.ask("meld", {"cards": ["boom"], "contract": "level 1"})
        assert got.status == "error" and got.failure == "crash"
        assert "exited with code 3" in got.error and "boom went the implementation" in got.error
        assert a.ask("meld", {"cards": ["5"], "contract": "level 1"}).value is True     # a fresh process
        assert a.starts == 2


def test_command_hang_is_stopped_at_the_time_limit(tmp_path):
    cmd = program(tmp_path, """
        if p["cards"] == ["slow"]:
            time.sleep(30)
        answer({"id": req["id"], "result": False})
    """)
    with CommandAdapter(cmd, timeout=0.5) as a:
        got = a.ask("meld", {"cards": ["slow"], "contract": "level 1"})
        assert got.status == "error" and got.failure == "hang" and "0.5 s" in got.error
        assert a.ask("meld", {"cards": [], "contract": "level 1"}).value is False


@pytest.mark.parametrize("line,what", [
    ("print('not json at all', flush=True)", "not JSON"),
    ("answer([1, 2])", "not a JSON object"),
    ("answer({'id': 999, 'result': True})", "carries id 999"),
    ("answer({'id': req['id']})", "has no 'result'"),
    ("answer({'id': req['id'], 'error': 'my own error'})", "my own error"),
])
def test_command_malformed_answers(tmp_path, line, what):
    with CommandAdapter(program(tmp_path, line), timeout=5) as a:
        got = a.ask("meld", {"cards": [], "contract": "level 1"})
        assert got.status == "error" and what in got.error


def test_command_that_cannot_be_tested(tmp_path):
    with pytest.raises(AdapterError, match="command not found"):
        CommandAdapter("no-such-program-rulings --x").start()
    with pytest.raises(AdapterError, match="does not speak the protocol.*exited with code 2"):
        CommandAdapter(f"{sys.executable} {tmp_path / 'missing.py'}", timeout=5).start()
    (tmp_path / "mute.py").write_text("import time\ntime.sleep(30)\n")
    with pytest.raises(AdapterError, match="does not speak the protocol.*no answer"):
        CommandAdapter(f"{sys.executable} {tmp_path / 'mute.py'}", timeout=0.5).start()
