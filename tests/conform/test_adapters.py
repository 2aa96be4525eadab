"""The adapter protocol: Python objects and JSON-lines programs, and every way the
implementation under test can misbehave (crash, hang, malformed answers), reported, not raised."""
from __future__ import annotations

import sys
import textwrap
import time

import pytest

from rulings.checks.conformance import adapters
from rulings.checks.conformance.adapters import UNSUPPORTED, AdapterError, CommandAdapter, PythonAdapter


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
        def send(text):
            sys.stdout.write(text + "\\n"); sys.stdout.flush()
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
        if m == "meld" and p["cards"] == ["slow"]:
            time.sleep(30)
        answer({"id": req["id"], "result": False})
    """)
    with CommandAdapter(cmd, timeout=0.5) as a:
        t0 = time.monotonic()
        got = a.ask("meld", {"cards": ["slow"], "contract": "level 1"})
        assert got.status == "error" and got.failure == "hang" and "0.5 s" in got.error
        again = a.ask("meld", {"cards": [], "contract": "level 1"})        # not sent: fails at once
        assert again.failure == "not asked" and f"hung on meld request {got.request}" in again.error
        assert time.monotonic() - t0 < 3
        assert a.ask("score", {"state": {}}).value is False               # other methods: a fresh process
        assert a.starts == 2 and a.summary()["not_asked"].keys() == {"meld"}


@pytest.mark.parametrize("line,what", [
    ("send('{\"id\": %d, \"result\": tru' % req['id'])", "is not JSON"),
    ("answer([1, 2])", "not a JSON object"),
    ("answer(True)", "not a JSON object"),
    ("send('{\"id\": %d, \"result\": %s}' % (req['id'], '[' * 900 + ']' * 900))", "more than 32 deep"),
    ("answer({'id': req['id']})", "has no 'result'"),
    ("answer({'id': req['id'], 'error': 'my own error'})", "my own error"),
])
def test_command_malformed_answers(tmp_path, line, what):
    with CommandAdapter(program(tmp_path, line), timeout=5) as a:
        got = a.ask("meld", {"cards": [], "contract": "level 1"})
        assert got.status == "error" and what in got.error and got.request == 2


def test_stray_lines_are_skipped_and_answers_matched_by_id(tmp_path):
    """A log line, an answer to another id, a JSON log object: skipped, counted, quoted
    once; an answer without an id is taken as the answer to the request in flight."""
    cmd = program(tmp_path, """
        if p["cards"] == ["1"]:
            print("log: thinking about it", flush=True)
            answer({"id": 999, "result": "stale"})
            answer({"level": "info", "msg": "structured log"})
            answer({"id": req["id"], "result": True})
        elif p["cards"] == ["2"]:
            answer({"result": False})
        else:
            answer({"id": req["id"], "result": len(p["cards"])})
    """)
    with CommandAdapter(cmd, timeout=5) as a:
        assert a.ask("meld", {"cards": ["1"], "contract": "level 1"}).value is True
        assert a.ask("meld", {"cards": ["2"], "contract": "level 1"}).value is False
        assert a.ask("meld", {"cards": ["3", "3", "3"], "contract": "level 1"}).value == 3
        s = a.summary()
        assert s["stray_lines"] == 3 and s["stray_quoted"][0] == "'log: thinking about it'"
        assert a.starts == 1


def test_only_stray_lines_then_nothing_is_a_hang(tmp_path):
    with CommandAdapter(program(tmp_path, "print('not json at all', flush=True)"), timeout=0.5) as a:
        got = a.ask("meld", {"cards": [], "contract": "level 1"})
        assert got.failure == "hang" and a.summary()["stray_quoted"] == ["'not json at all'"]


def test_a_partial_line_does_not_defeat_the_time_limit(tmp_path):
    cmd = program(tmp_path, """
        while True:
            sys.stdout.write("{"); sys.stdout.flush(); time.sleep(0.01)
    """)
    with CommandAdapter(cmd, timeout=0.5) as a:
        t0 = time.monotonic()
        got = a.ask("meld", {"cards": [], "contract": "level 1"})
        assert got.failure == "hang" and "bytes of a line without ending it: '{{{" in got.error
        assert time.monotonic() - t0 < 3


def test_an_oversized_answer_is_cut_and_the_program_started_again(tmp_path):
    cmd = program(tmp_path, """
        if p["cards"] == ["big"]:
            send('{"id": %d, "result": "%s"}' % (req["id"], "x" * 100000))
        else:
            answer({"id": req["id"], "result": True})
    """)
    with CommandAdapter(cmd, timeout=5, max_answer=10000) as a:
        got = a.ask("meld", {"cards": ["big"], "contract": "level 1"})
        assert got.failure == "oversized" and "longer than 10000 bytes" in got.error
        assert a.ask("meld", {"cards": [], "contract": "level 1"}).value is True and a.starts == 2


def test_a_flood_of_lines_is_stopped(tmp_path):
    cmd = program(tmp_path, """
        while True:
            print("log line", flush=False)
    """)
    with CommandAdapter(cmd, timeout=5) as a:
        got = a.ask("meld", {"cards": [], "contract": "level 1"})
        assert got.failure == "flood" and "lines that answer no request" in got.error


def test_the_deadline_bounds_a_request_and_stops_the_rest(tmp_path):
    cmd = program(tmp_path, """
        time.sleep(30)
    """)
    with CommandAdapter(cmd, timeout=20) as a:
        a.deadline = time.monotonic() + 0.5
        t0 = time.monotonic()
        got = a.ask("meld", {"cards": [], "contract": "level 1"})
        assert got.failure == "deadline" and time.monotonic() - t0 < 3
        assert a.ask("score", {"state": {}}).failure == "deadline" and a.requests == 1
        assert a.expired()


def test_stderr_kept_is_bounded(tmp_path):
    cmd = program(tmp_path, """
        sys.stderr.write(("noise " * 100 + "\\n") * 5000); sys.stderr.write("the last words\\n"); sys.exit(1)
    """)
    with CommandAdapter(cmd, timeout=5) as a:
        got = a.ask("meld", {"cards": [], "contract": "level 1"})
        assert got.failure == "crash" and "the last words" in got.error and len(got.error) < 5000
        assert len(a.err) <= adapters.STDERR_KEPT and a.err_bytes > 2_000_000


def test_command_that_cannot_be_tested(tmp_path):
    with pytest.raises(AdapterError, match="command not found"):
        CommandAdapter("no-such-program-rulings --x").start()
    with pytest.raises(AdapterError, match="does not speak the protocol.*exited with code 2"):
        CommandAdapter(f"{sys.executable} {tmp_path / 'missing.py'}", timeout=5).start()
    (tmp_path / "mute.py").write_text("import time\ntime.sleep(30)\n")
    with pytest.raises(AdapterError, match="does not speak the protocol.*no answer"):
        CommandAdapter(f"{sys.executable} {tmp_path / 'mute.py'}", timeout=0.5, hello_timeout=0.5).start()


# ---- Python adapters: in this process, and in a child process of their own


def test_python_adapter_sys_exit_is_an_error_not_an_exit():
    class Quitter:
        def meld(self, cards, contract):
            sys.exit(0)

    got = PythonAdapter(Quitter()).ask("meld", {"cards": [], "contract": "level 1"})
    assert got.status == "error" and got.failure == "exited" and "sys.exit(0)" in got.error


def test_python_adapter_answers_are_bounded():
    class Big:
        def meld(self, cards, contract):
            return "x" * 2_000_000

        def score(self, state):
            deep = []
            for _ in range(100):
                deep = [deep]
            return deep

    a = PythonAdapter(Big())
    assert a.ask("meld", {"cards": [], "contract": "level 1"}).failure == "oversized"
    assert a.ask("score", {"state": {}}).failure == "malformed"


def test_python_adapter_with_no_methods_cannot_be_loaded(tmp_path):
    (tmp_path / "nothing.py").write_text("class Nothing:\n    pass\ndef factory():\n    return Nothing()\n")
    with pytest.raises(AdapterError, match="none of the methods"):
        adapters.load_python(f"{tmp_path / 'nothing.py'}:factory")
    with pytest.raises(AdapterError, match="none of the methods"):
        adapters.load(f"{tmp_path / 'nothing.py'}:factory", timeout=5).start()


def test_python_adapter_in_a_child_process(tmp_path):
    """Run by `serve`: its prints stay off the protocol, its exceptions and exits are
    reported with their kind, and `os._exit` is a crash it is started again after."""
    (tmp_path / "mine.py").write_text(textwrap.dedent("""
        import os, sys
        class Mine:
            def meld(self, cards, contract):
                print("thinking aloud")
                return len(cards) >= 3
            def best_lay(self, cards, contract):
                sys.exit(0)
            def score(self, state):
                os._exit(5)
            def move(self, state, move):
                raise KeyError("oops")
        def factory():
            return Mine()
    """))
    with adapters.load(f"{tmp_path / 'mine.py'}:factory", timeout=5) as a:
        assert isinstance(a, adapters.PythonHostAdapter)
        assert a.hello["methods"] == ["meld", "best_lay", "move", "score"]
        assert a.ask("meld", {"cards": ["5", "5", "5"], "contract": "level 1"}).value is True
        assert a.ask("best_lay", {"cards": [], "contract": "level 1"}).failure == "exited"
        raised = a.ask("move", {"state": {}, "move": {}})
        assert raised.failure == "raised" and "KeyError" in raised.error and "mine.py" in raised.error
        crashed = a.ask("score", {"state": {}})
        assert crashed.failure == "crash" and "exited with code 5" in crashed.error
        assert a.ask("meld", {"cards": ["5"], "contract": "level 1"}).value is False and a.starts == 2
    with pytest.raises(AdapterError, match="cannot import"):
        adapters.load("no_such_module_here_either:factory", timeout=5).start()


def test_an_answer_before_the_request_is_read_in_full_restarts_the_program(tmp_path):
    """A program that answers (without an id) before it has read the whole request leaves
    the rest of it unread: the answer counts, and the program is started afresh."""
    (tmp_path / "eager.py").write_text(textwrap.dedent("""
        import json, sys, time
        hello = json.loads(sys.stdin.readline())
        print(json.dumps({"id": hello["id"], "result": {}}), flush=True)
        time.sleep(0.3)
        print(json.dumps({"result": True}), flush=True)
        time.sleep(30)
    """))
    with CommandAdapter(f"{sys.executable} {tmp_path / 'eager.py'}", timeout=5) as a:
        got = a.ask("move", {"state": {"stock": ["5"] * 200_000}, "move": {"draw": "stock"}})
        assert got.value is True and a.proc is None
        assert a.ask("meld", {"cards": [], "contract": "level 1"}).value is True    # started again, eager again
        assert a.starts == 2 and a.proc is not None
