"""The adapter protocol: how `rulings conform` asks an implementation under test.

Four questions, the same two ways (docs/conformance.md is the reference):

    meld(cards, contract)    -> true | false      may these cards all be laid down together?
    best_lay(cards, contract)-> points | null     the most points a lay-down from this hand lays
    move(state, move)        -> {"legal": false} | {"legal": true, "state": state after}
    score(state)             -> [points, ...]     each player's score for the level that ended

- a Python object (`--adapter package.module:factory`, or `path/to/file.py:factory`):
  `factory()` returns an object with those methods; a missing method, `NotImplementedError`
  or a return of `UNSUPPORTED` (or `{"unsupported": true}`) means "not supported";
- any program (`--cmd "node mytick.js"`) speaking JSON lines over stdin/stdout: one request
  `{"id", "method", "params"}` per line, one response `{"id", "result"}` (or
  `{"unsupported": true}`, or `{"error": "..."}`) per line, each within a time limit. The
  first request is `hello`; a program that cannot answer it cannot be tested.

Every answer comes back as an `Answer`: ok with a value, unsupported, or an error saying
what went wrong (the program crashed, hung, answered something that is not JSON, raised).
"""
from __future__ import annotations

import collections
import importlib
import importlib.util
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

PROTOCOL = 1
METHODS = ("meld", "best_lay", "move", "score")
DEFAULT_TIMEOUT = 10.0


class _Unsupported:
    def __repr__(self):
        return "UNSUPPORTED"


UNSUPPORTED = _Unsupported()   # a Python adapter's method may return this


class AdapterError(Exception):
    """The implementation cannot be tested at all: not importable, command not found, or a
    program that does not answer its first request. `rulings conform` exits 2."""


@dataclass
class Answer:
    status: str               # "ok", "unsupported" or "error"
    value: Any = None
    error: str = ""           # what went wrong, in words
    failure: str = ""         # "crash", "hang", "malformed", "raised", "answered an error"

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


class Adapter:
    """Base: counts requests and the time spent waiting for answers."""

    name = "adapter"

    def __init__(self):
        self.requests = 0
        self.seconds = 0.0

    def ask(self, method: str, params: Mapping) -> Answer:
        t0 = time.perf_counter()
        try:
            return self._ask(method, dict(params))
        finally:
            self.requests += 1
            self.seconds += time.perf_counter() - t0

    def _ask(self, method: str, params: dict) -> Answer:   # pragma: no cover
        raise NotImplementedError

    def start(self) -> None:
        """Make sure the implementation can be asked anything (raises AdapterError)."""

    def close(self) -> None:
        pass

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()


# ---------------------------------------------------------------------------------------
# Python objects


_ARGS = {"meld": ("cards", "contract"), "best_lay": ("cards", "contract"), "move": ("state", "move"),
         "score": ("state",)}


class PythonAdapter(Adapter):
    def __init__(self, obj: Any, name: str = ""):
        super().__init__()
        self.obj = obj
        self.name = name or type(obj).__name__

    def _ask(self, method: str, params: dict) -> Answer:
        fn = getattr(self.obj, method, None)
        if fn is None or not callable(fn):
            return Answer("unsupported")
        try:
            value = fn(*(params[a] for a in _ARGS[method]))
        except NotImplementedError:
            return Answer("unsupported")
        except Exception as e:   # the implementation's own bug: reported, not raised
            where = ""
            tb = e.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if tb is not None:
                where = f" at {Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}"
            return Answer("error", error=f"{method} raised {type(e).__name__}: {e}{where}", failure="raised")
        if value is UNSUPPORTED or (isinstance(value, Mapping) and value.get("unsupported") is True):
            return Answer("unsupported")
        try:
            return Answer("ok", _jsonable(value))
        except (TypeError, ValueError) as e:
            return Answer("error", error=f"{method} returned something that is not JSON data: {e}",
                          failure="malformed")


def load_python(target: str) -> PythonAdapter:
    """`package.module:factory` or `path/to/file.py:factory` (factory defaults to `factory`)."""
    module_name, _, attr = target.partition(":")
    attr = attr or "factory"
    if not module_name:
        raise AdapterError(f"--adapter takes package.module:factory, got {target!r}")
    try:
        if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
            path = Path(module_name)
            if not path.is_file():
                raise AdapterError(f"no file {module_name!r} for the adapter")
            spec = importlib.util.spec_from_file_location(f"_rulings_adapter_{path.stem}", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path and "" not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(module_name)
    except AdapterError:
        raise
    except Exception as e:   # ModuleNotFoundError, SyntaxError, or the module's own error
        raise AdapterError(f"cannot import the adapter module {module_name!r}: {type(e).__name__}: {e}") from None
    if not hasattr(module, attr):
        found = ", ".join(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n)))
        raise AdapterError(f"module {module_name!r} has no {attr!r}" + (f"; it has: {found}" if found else ""))
    factory = getattr(module, attr)
    try:
        obj = factory() if callable(factory) else factory
    except Exception as e:
        raise AdapterError(f"{target}() raised {type(e).__name__}: {e}") from None
    return PythonAdapter(obj, name=target)


# ---------------------------------------------------------------------------------------
# programs speaking JSON lines


_EOF = object()


class CommandAdapter(Adapter):
    """A program started once and asked one JSON line at a time; restarted after a crash or
    a hang (the next request then goes to a fresh process)."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, game: str = "", cwd: str | None = None):
        super().__init__()
        self.command, self.timeout, self.game, self.cwd = command, timeout, game, cwd
        self.name = command
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise AdapterError(f"cannot split the command {command!r}: {e}") from None
        if not self.argv:
            raise AdapterError("--cmd needs a command")
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()
        self.stderr: collections.deque = collections.deque(maxlen=40)
        self.next_id = 0
        self.starts = 0
        self.hello: Any = None

    # ---- the process ------------------------------------------------------------------------
    def _spawn(self) -> None:
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                                         bufsize=1, cwd=self.cwd, start_new_session=True)
        except FileNotFoundError:
            raise AdapterError(f"command not found: {self.argv[0]!r} (from --cmd {self.command!r})") from None
        except PermissionError:
            raise AdapterError(f"cannot run {self.argv[0]!r}: permission denied") from None
        except OSError as e:
            raise AdapterError(f"cannot run {self.command!r}: {e}") from None
        self.starts += 1
        self.lines = queue.Queue()
        self.stderr.clear()
        proc, lines, err = self.proc, self.lines, self.stderr

        def pump_out():
            for line in proc.stdout:
                lines.put(line)
            lines.put(_EOF)

        def pump_err():
            for line in proc.stderr:
                err.append(line.rstrip("\n"))

        threading.Thread(target=pump_out, daemon=True).start()
        threading.Thread(target=pump_err, daemon=True).start()

    def _kill(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:   # pragma: no cover
            pass
        for f in (proc.stdin, proc.stdout, proc.stderr):
            try:
                f.close()
            except Exception:
                pass

    def _stderr_tail(self, wait: float = 0.2) -> str:
        time.sleep(wait)      # let the pump read what the program wrote before it died
        tail = [line for line in self.stderr if line.strip()][-12:]
        return ("; its stderr ends:\n    " + "\n    ".join(tail)) if tail else "; it wrote nothing on stderr"

    def start(self) -> None:
        if self.proc is not None:
            return
        self._spawn()
        answer = self._round_trip("hello", {"game": self.game, "protocol": PROTOCOL, "methods": list(METHODS)})
        if answer.status == "error" and answer.failure in ("crash", "hang", "malformed"):
            self._kill()
            raise AdapterError(f"{self.command!r} does not speak the protocol: {answer.error}")
        self.hello = answer.value

    def close(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            try:
                proc.stdin.close()
                proc.wait(timeout=1)
            except Exception:
                pass
        self._kill()

    # ---- one request ------------------------------------------------------------------------
    def _ask(self, method: str, params: dict) -> Answer:
        if self.proc is None or self.proc.poll() is not None:
            self._kill()
            self._spawn()
        return self._round_trip(method, params)

    def _round_trip(self, method: str, params: dict) -> Answer:
        self.next_id += 1
        rid = self.next_id
        line = json.dumps({"id": rid, "method": method, "params": params}, separators=(",", ":"))
        proc = self.proc
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            code = proc.wait(timeout=5) if proc.poll() is None else proc.returncode
            tail = self._stderr_tail()
            self._kill()
            return Answer("error", error=f"the program had exited (code {code}) before the {method} request{tail}",
                          failure="crash")
        try:
            got = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            self._kill()
            return Answer("error", error=f"no answer to the {method} request within {self.timeout:g} s "
                          "(the program was stopped and is restarted for the next request)", failure="hang")
        if got is _EOF:
            try:
                code = proc.wait(timeout=5)
            except subprocess.TimeoutExpired:   # pragma: no cover
                code = None
            tail = self._stderr_tail()
            self._kill()
            how = f"exited with code {code}" if code is not None and code >= 0 else f"was killed by signal {-code}"
            return Answer("error", error=f"the program {how} instead of answering the {method} request{tail}",
                          failure="crash")
        text = got.strip()
        try:
            data = json.loads(text)
        except ValueError:
            return Answer("error", error=f"the answer to the {method} request is not JSON: {text[:200]!r}",
                          failure="malformed")
        if not isinstance(data, dict):
            return Answer("error", error=f"the answer to the {method} request is not a JSON object: {text[:200]!r}",
                          failure="malformed")
        if "id" in data and data["id"] != rid:
            return Answer("error", error=f"the answer carries id {data['id']!r}, but the request was {rid} "
                          "(one answer per request, in order)", failure="malformed")
        if data.get("unsupported") is True:
            return Answer("unsupported")
        if "error" in data:
            return Answer("error", error=f"the program answered an error: {str(data['error'])[:300]}",
                          failure="answered an error")
        if "result" not in data:
            return Answer("error", error=f"the answer to the {method} request has no 'result': {text[:200]!r}",
                          failure="malformed")
        return Answer("ok", data["result"])


def load(adapter: str | None = None, cmd: str | None = None, timeout: float = DEFAULT_TIMEOUT,
         game: str = "") -> Adapter:
    """The adapter the command line names (exactly one of `adapter` and `cmd`)."""
    if bool(adapter) == bool(cmd):
        raise AdapterError("name the implementation under test with exactly one of --adapter and --cmd")
    if adapter:
        return load_python(adapter)
    return CommandAdapter(cmd, timeout=timeout, game=game)
