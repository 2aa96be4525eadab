"""The adapter protocol: how `rulings conform` asks an implementation under test.

Four questions, the same two ways (docs/conformance.md is the reference):

    meld(cards, contract)    -> true | false      may these cards all be laid down together?
    best_lay(cards, contract)-> points | null     the most points a lay-down from this hand lays
    move(state, move)        -> {"legal": false} | {"legal": true, "state": state after}
    score(state)             -> [points, ...]     each player's score for the level that ended
    best_play(table, rack, by, initial) -> {"placed": n, "table": [[card, ...], ...]}
                                                  the most a rack adds to a shared table of melds

- a Python object (`--adapter package.module:factory`, or `path/to/file.py:factory`):
  `factory()` returns an object with those methods; a missing method, `NotImplementedError`
  or a return of `UNSUPPORTED` (or `{"unsupported": true}`) means "not supported". The
  command line runs it in a child process of its own (`PythonHostAdapter`, speaking the
  JSON-lines protocol through `serve`), so that it is bounded like any program;
  `PythonAdapter` asks an object in this process;
- any program (`--cmd "node mytick.js"`) speaking JSON lines over stdin/stdout: one request
  `{"id", "method", "params"}` per line, one response `{"id", "result"}` (or
  `{"unsupported": true}`, or `{"error": "..."}`) per line. The first request is `hello`; a
  program that cannot answer it cannot be tested.

Whatever a program does, asking it is bounded: each request has a time limit (that also
holds while a line is only partly written), the run has a deadline, one answer line has a
size limit, only the end of its stderr is kept, stray stdout lines are skipped (answers are
matched to requests by id), and the program runs in a process group of its own, killed
whole. After a hang, later requests of the same method are not sent (they fail at once).

Every answer comes back as an `Answer`: ok with a value, unsupported, or an error saying
what went wrong (the program crashed, hung, answered something that is not JSON, raised).
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .protocol import CURRENT as PROTOCOL, ProtocolError, hello_params, spoken

METHODS = ("meld", "best_lay", "move", "score")
TABLE_METHODS = ("best_play",)     # asked of games with a shared table of melds (table.py)
DEFAULT_TIMEOUT = 10.0
HELLO_TIMEOUT = 5.0            # starting a program may take longer than one answer: max(this, --timeout)
MAX_ANSWER = 1 << 20           # bytes in one line of the program's stdout
STDERR_KEPT = 64 << 10         # the end of the program's stderr kept for the report
STDERR_LINES = 12              # ... of which this many lines are quoted
MAX_STRAY_LINES = 1000         # lines that answer nothing, while one request waits: past this, a flood
STRAY_QUOTED = 3               # stray lines quoted in the report
QUOTE = 200                    # characters of a line quoted
MAX_DEPTH = 32                 # lists and objects within each other in one answer (a state needs about 4)

# An answer's `failure`, when it is an error. Every one means the implementation misbehaved.
FAILURES = {
    "hang": "no answer within the time limit",
    "crash": "the program exited (or closed its output) instead of answering",
    "malformed": "an answer that is not JSON or not of the protocol's shape",
    "oversized": "an answer line longer than the size limit",
    "flood": "too many stdout lines that answer no request",
    "raised": "the Python adapter raised an exception",
    "exited": "the Python adapter called sys.exit",
    "answered an error": "the implementation answered {\"error\": ...}",
    "not asked": ("not sent: the program hung on an earlier request of the same method, failed two of them in a "
                  "row, or could not be restarted"),
    "deadline": "the run's deadline passed while the request waited",
}


REPEATED = ("crash", "oversized", "flood")   # failures after which the program is restarted
MAX_STREAK = 2          # so many of them in a row for one method, and that method is not asked again


class _Unsupported:
    def __repr__(self):
        return "UNSUPPORTED"


UNSUPPORTED = _Unsupported()   # a Python adapter's method may return this


class AdapterError(Exception):
    """The implementation cannot be tested at all: not importable, command not found, a
    program that does not answer its first request, an object with none of the methods.
    `rulings conform` exits 2."""


@dataclass
class Answer:
    status: str               # "ok", "unsupported" or "error"
    value: Any = None
    error: str = ""           # what went wrong, in words
    failure: str = ""         # one of FAILURES
    request: int | None = None   # the request's number (the protocol's id for a program)

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def _quote(text: str | bytes, n: int = QUOTE) -> str:
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text[: 4 * n]).decode("utf-8", "replace")
    return repr(text[:n]) + (" ..." if len(text) > n else "")


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and objects nest more than `limit` deep in `value` (looked at without
    recursion: a deeper answer would break whatever recurses over it later)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (list, tuple, dict)):
            if depth > limit:
                return True
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


class Adapter:
    """Base: counts requests, the time spent waiting for answers and the failures; holds
    the run's deadline (`time.monotonic()` seconds, or None)."""

    name = "adapter"

    def __init__(self):
        self.requests = 0
        self.seconds = 0.0
        self.deadline: float | None = None
        self.failures: Counter = Counter()
        self.last_request = 0       # the number of the last request sent (the protocol's id for a program)
        self.protocol = 1           # the protocol version the implementation speaks (protocol.py)

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def unavailable(self, method: str) -> tuple[str, str]:
        """(failure, why) when `method` is no longer asked, else ("", "")."""
        if self.expired():
            return "deadline", "not sent: the run's deadline had passed"
        return "", ""

    def ask(self, method: str, params: Mapping) -> Answer:
        failure, why = self.unavailable(method)
        if failure:
            self.failures[failure] += 1
            return Answer("error", error=why, failure=failure)
        t0 = time.perf_counter()
        try:
            answer = self._ask(method, dict(params))
        finally:
            self.requests += 1
            self.seconds += time.perf_counter() - t0
        if answer.request is None:
            answer.request = self.requests
        self.last_request = answer.request
        if answer.status == "error":
            self.failures[answer.failure] += 1
        return answer

    def _ask(self, method: str, params: dict) -> Answer:   # pragma: no cover
        raise NotImplementedError

    def start(self) -> None:
        """Make sure the implementation can be asked anything (raises AdapterError)."""

    def close(self) -> None:
        pass

    def summary(self) -> dict:
        """What the harness saw, beyond the answers, for the report."""
        return {"failures": dict(self.failures)}

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()


# ---------------------------------------------------------------------------------------
# Python objects


_ARGS = {"meld": ("cards", "contract"), "best_lay": ("cards", "contract"), "move": ("state", "move"),
         "score": ("state",), "best_play": ("table", "rack", "by", "initial")}


def _where(e: BaseException) -> str:
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return f" at {Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}" if tb is not None else ""


def supported(obj: Any) -> list[str]:
    """The protocol's methods an object has."""
    return [m for m in METHODS + TABLE_METHODS if callable(getattr(obj, m, None))]


class PythonAdapter(Adapter):
    """An object asked in this process: its exceptions and `sys.exit` are reported, not
    raised; it has no time limit (the command line runs adapters in a child process,
    `PythonHostAdapter`, for that)."""

    def __init__(self, obj: Any, name: str = "", max_answer: int = MAX_ANSWER):
        super().__init__()
        self.obj = obj
        self.name = name or type(obj).__name__
        self.max_answer = max_answer
        try:
            self.protocol = spoken({"protocol": getattr(obj, "protocol", None)})
        except ProtocolError as e:
            raise AdapterError(f"{self.name}: {e}") from None

    def _ask(self, method: str, params: dict) -> Answer:
        fn = getattr(self.obj, method, None)
        if fn is None or not callable(fn) or method not in _ARGS:
            return Answer("unsupported")
        try:
            value = fn(*(params[a] for a in _ARGS[method]))
        except NotImplementedError:
            return Answer("unsupported")
        except SystemExit as e:   # the adapter tried to end the process: an error, never "conforms"
            return Answer("error", error=f"{method} called sys.exit({e.code!r}){_where(e)}; an adapter must "
                          "return its answer", failure="exited")
        except Exception as e:   # the implementation's own bug: reported, not raised
            return Answer("error", error=f"{method} raised {type(e).__name__}: {str(e)[:QUOTE]}{_where(e)}",
                          failure="raised")
        if value is UNSUPPORTED or (isinstance(value, Mapping) and value.get("unsupported") is True):
            return Answer("unsupported")
        if too_deep(value):
            return Answer("error", error=f"{method} returned lists or objects nested more than {MAX_DEPTH} deep",
                          failure="malformed")
        try:
            text = json.dumps(value)
        except (TypeError, ValueError, RecursionError) as e:
            return Answer("error", error=f"{method} returned something that is not JSON data: {str(e)[:QUOTE]}",
                          failure="malformed")
        if len(text) > self.max_answer:
            return Answer("error", error=f"{method} returned {len(text)} characters of JSON, more than the "
                          f"{self.max_answer} an answer may have", failure="oversized")
        return Answer("ok", json.loads(text))


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
    except (Exception, SystemExit) as e:   # ModuleNotFoundError, SyntaxError, or the module's own error
        raise AdapterError(f"cannot import the adapter module {module_name!r}: {type(e).__name__}: {e}") from None
    if not hasattr(module, attr):
        found = ", ".join(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n)))
        raise AdapterError(f"module {module_name!r} has no {attr!r}" + (f"; it has: {found}" if found else ""))
    factory = getattr(module, attr)
    try:
        obj = factory() if callable(factory) else factory
    except (Exception, SystemExit) as e:
        raise AdapterError(f"{target}() raised {type(e).__name__}: {e}") from None
    if not supported(obj):
        raise AdapterError(f"{target} gives a {type(obj).__name__} with none of the methods "
                           f"{', '.join(METHODS + TABLE_METHODS)}: there is nothing to ask it")
    return PythonAdapter(obj, name=target)


# ---------------------------------------------------------------------------------------
# programs speaking JSON lines


class CommandAdapter(Adapter):
    """A program started once and asked one JSON line at a time, in a process group of its
    own. Nothing it does can block `rulings`: its pipes are read and written without
    blocking, against a time limit per request and the run's deadline. After a crash or an
    oversized answer it is killed (its whole group) and restarted, with a new `hello`, for
    the next request; after a hang, later requests of that method are not sent."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, game: str = "", cwd: str | None = None, *,
                 argv: list[str] | None = None, max_answer: int = MAX_ANSWER, hello_timeout: float | None = None,
                 deadline: float | None = None):
        super().__init__()
        self.command, self.timeout, self.game, self.cwd = command, timeout, game, cwd
        self.name = command
        self.max_answer = max_answer
        self.hello_timeout = max(timeout, HELLO_TIMEOUT) if hello_timeout is None else hello_timeout
        self.deadline = deadline
        if argv is None:
            try:
                argv = shlex.split(command)
            except ValueError as e:
                raise AdapterError(f"cannot split the command {command!r}: {e}") from None
        if not argv:
            raise AdapterError("--cmd needs a command")
        self.argv = argv
        self.proc: subprocess.Popen | None = None
        self.sel: selectors.BaseSelector | None = None
        self.buf = bytearray()                  # stdout read but not yet taken as lines
        self.err = bytearray()                  # the end of stderr
        self.err_bytes = 0
        self.next_id = 0
        self.starts = 0
        self.hello: Any = None
        self.dead: dict[str, str] = {}          # method -> why it is no longer asked
        self.streak: dict[str, int] = {}        # method -> its failures in a row that cost a restart
        self.broken = ""                        # why nothing is asked any more
        self.stray = 0
        self.stray_quoted: list[str] = []
        self._out = memoryview(b"")             # the part of the request in flight not yet written

    # ---- the process ------------------------------------------------------------------------
    def _spawn(self) -> None:
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    bufsize=0, cwd=self.cwd, start_new_session=True)
        except FileNotFoundError:
            raise AdapterError(f"command not found: {self.argv[0]!r} (from --cmd {self.command!r})") from None
        except PermissionError:
            raise AdapterError(f"cannot run {self.argv[0]!r}: permission denied") from None
        except OSError as e:
            raise AdapterError(f"cannot run {self.command!r}: {e}") from None
        self.starts += 1
        self.proc = proc
        for f in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(f.fileno(), False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(proc.stdout, selectors.EVENT_READ, "out")
        self.sel.register(proc.stderr, selectors.EVENT_READ, "err")
        self.buf = bytearray()
        self.err = bytearray()

    def _kill(self) -> None:
        """Kill the program's whole process group (whatever it started too) and close its pipes."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)     # the group outlives its leader while a member lives
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.kill()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:   # pragma: no cover  (a process SIGKILL cannot end at once)
            pass
        if self.sel is not None:
            self.sel.close()
            self.sel = None
        for f in (proc.stdin, proc.stdout, proc.stderr):
            try:
                f.close()
            except OSError:
                pass

    def _read_err(self, chunks: int = 16) -> None:
        """Take what the program has written on stderr, keeping only its end."""
        proc = self.proc
        if proc is None or proc.stderr.closed:
            return
        for _ in range(chunks):
            try:
                chunk = os.read(proc.stderr.fileno(), 65536)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            if not chunk:
                try:
                    self.sel.unregister(proc.stderr)
                except (KeyError, ValueError):
                    pass
                return
            self.err_bytes += len(chunk)
            self.err += chunk
            if len(self.err) > STDERR_KEPT:
                del self.err[: len(self.err) - STDERR_KEPT]

    def _stderr_tail(self) -> str:
        self._read_err()
        lines = [line.strip() for line in self.err.decode("utf-8", "replace").splitlines() if line.strip()]
        tail = [line[:300] + (" ..." if len(line) > 300 else "") for line in lines[-STDERR_LINES:]]
        return ("; its stderr ends:\n    " + "\n    ".join(tail)) if tail else "; it wrote nothing on stderr"

    def start(self) -> None:
        if self.proc is not None:
            return
        self._spawn()
        answer = self._hello()
        if answer.status == "error" and answer.failure != "answered an error":
            self._kill()
            raise AdapterError(f"{self.command!r} does not speak the protocol: {answer.error}")
        self.hello = answer.value
        self._version()

    def _version(self) -> None:
        """The protocol version the program's hello names (1 when it names none)."""
        try:
            self.protocol = spoken(self.hello)
        except ProtocolError as e:
            self._kill()
            raise AdapterError(f"{self.command!r}: {e}") from None

    def _hello(self) -> Answer:
        return self._exchange("hello", hello_params(self.game, METHODS), self.hello_timeout)

    def close(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            try:
                proc.stdin.close()        # the polite way to end: end of input
                proc.wait(timeout=0.5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()

    def summary(self) -> dict:
        return {"failures": dict(self.failures), "starts": self.starts, "stray_lines": self.stray,
                "stray_quoted": list(self.stray_quoted), "stderr_bytes": self.err_bytes,
                "not_asked": dict(self.dead), **({"broken": self.broken} if self.broken else {}),
                "timeout": self.timeout, "max_answer": self.max_answer}

    # ---- one request ------------------------------------------------------------------------
    def unavailable(self, method: str) -> tuple[str, str]:
        failure, why = super().unavailable(method)
        if failure:
            return failure, why
        if self.broken:
            return "not asked", f"not sent: {self.broken}"
        if method in self.dead:
            return "not asked", f"not sent: {self.dead[method]}"
        return "", ""

    def _time_left(self, limit: float) -> float:
        if self.deadline is None:
            return limit
        return max(0.0, min(limit, self.deadline - time.monotonic()))

    def _ask(self, method: str, params: dict) -> Answer:
        if self.proc is None or self.proc.poll() is not None:
            self._kill()
            try:
                self._spawn()
            except AdapterError as e:
                self.broken = f"the program could not be started again: {e}"
                return Answer("error", error=self.broken, failure="crash")
            hello = self._hello()
            if hello.status == "error" and hello.failure != "answered an error":
                self._kill()
                if hello.failure != "deadline":
                    self.broken = f"the program was started again and failed its hello: {hello.error}"
                return Answer("error", error=f"the program was started again for this {method} request and "
                              f"failed its hello: {hello.error}", failure=hello.failure, request=hello.request)
        answer = self._exchange(method, params, self.timeout)
        if answer.failure == "hang":
            self.dead[method] = (f"the program hung on {method} request {answer.request}, so later {method} "
                                 "requests are not sent")
        elif answer.failure in REPEATED:
            streak = self.streak[method] = self.streak.get(method, 0) + 1
            if streak >= MAX_STREAK:       # each costs a restart: a program that always does it is not asked again
                self.dead[method] = (f"the program failed {streak} {method} requests in a row (the last: "
                                     f"{answer.failure}, request {answer.request}), so later {method} requests "
                                     "are not sent")
        else:
            self.streak.pop(method, None)
        return answer

    def _drain(self) -> None:
        """Read what the program has written so far, without waiting."""
        for _ in range(16):
            try:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
            except (BlockingIOError, InterruptedError, OSError):
                return
            if not chunk:
                return
            self.buf += chunk

    def _exchange(self, method: str, params: dict, limit: float) -> Answer:
        """Send one request, wait (at most `limit` seconds, and not past the deadline) for
        the line that answers it. A request left half written (the program answered, or
        misbehaved, before reading all of it) leaves its input out of step: it is stopped."""
        self.next_id += 1
        rid = self.next_id
        self._drain()
        self._take_lines(None, method)              # whatever came before this request answers nothing
        self._out = memoryview((json.dumps({"id": rid, "method": method, "params": params},
                                           separators=(",", ":")) + "\n").encode("utf-8"))
        self.sel.register(self.proc.stdin, selectors.EVENT_WRITE, "in")
        try:
            return self._converse(method, rid, self._time_left(limit), limit)
        finally:
            if self.proc is not None:
                try:
                    self.sel.unregister(self.proc.stdin)
                except (KeyError, ValueError):
                    pass
                if self._out:
                    self._kill()

    def _converse(self, method: str, rid: int, timeout: float, limit: float) -> Answer:
        proc, sel = self.proc, self.sel
        stdin = proc.stdin
        cut_by_deadline = timeout < limit
        end = time.monotonic() + timeout
        strays = {"n": 0}

        def fail(failure: str, error: str, kill: bool) -> Answer:
            if kill:
                tail = self._stderr_tail() if failure in ("hang", "crash") else ""
                self._kill()
                error += tail
            return Answer("error", error=error, failure=failure, request=rid)

        while True:
            now = time.monotonic()
            if now >= end:
                partial = (f"; it had written {len(self.buf)} bytes of a line without ending it: "
                           f"{_quote(self.buf)}") if self.buf else ""
                if cut_by_deadline:
                    return fail("deadline", f"no answer to the {method} request (request {rid}) before the run's "
                                "deadline" + partial, True)
                later = "" if method == "hello" else f", and later {method} requests are not sent"
                return fail("hang", f"no answer to the {method} request (request {rid}) within {timeout:g} s; the "
                            f"program was stopped{later}" + partial, True)
            try:
                events = sel.select(min(end - now, 0.05))
            except InterruptedError:   # pragma: no cover
                continue
            for key, _ in events:
                if key.data == "in":
                    try:
                        n = os.write(stdin.fileno(), self._out[:65536])
                        self._out = self._out[n:]
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError:            # it closed its input: whether it answers, its output will tell
                        self._out = self._out[len(self._out):]
                    if not self._out:
                        sel.unregister(stdin)
                elif key.data == "err":
                    self._read_err(1)
                else:
                    try:
                        chunk = os.read(proc.stdout.fileno(), 65536)
                    except (BlockingIOError, InterruptedError):
                        continue
                    if not chunk:
                        return self._crashed(method, rid, fail, closed=True)
                    self.buf += chunk
                    got = self._take_lines(rid, method, strays)
                    if got is not None:
                        return self._unless_killed(got, fail)
                    if len(self.buf) > self.max_answer:
                        return fail("oversized", f"the answer to the {method} request (request {rid}) is longer "
                                    f"than {self.max_answer} bytes: {len(self.buf)} bytes without a line's end, "
                                    f"starting {_quote(self.buf, 60)}; the program was stopped and is started again "
                                    "for the next request", True)
            if proc.poll() is not None:          # its leader exited: take what it wrote, then it crashed
                eof = False
                for _ in range(64):
                    try:
                        chunk = os.read(proc.stdout.fileno(), 65536)
                    except (BlockingIOError, InterruptedError, OSError):
                        break
                    if not chunk:
                        eof = True
                        break
                    self.buf += chunk
                    got = self._take_lines(rid, method, strays)
                    if got is not None:
                        return self._unless_killed(got, fail)
                    if len(self.buf) > self.max_answer:
                        break
                return self._crashed(method, rid, fail, closed=eof)

    def _unless_killed(self, got: Answer, fail) -> Answer:
        if got.failure in ("oversized", "flood"):
            return fail(got.failure, got.error, True)
        return got

    def _crashed(self, method: str, rid: int, fail, closed: bool) -> Answer:
        proc = self.proc
        try:
            code = proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            how = "closed its standard output"
        elif code >= 0:
            how = f"exited with code {code}"
        else:
            how = f"was killed by signal {-code}"
        if code is not None and not closed:
            how += " (a process it started still held its standard output open)"
        what = "answering hello" if method == "hello" else f"answering the {method} request (request {rid})"
        return fail("crash", f"the program {how} instead of {what}", True)

    def _take_lines(self, rid: int | None, method: str, strays: dict | None = None) -> Answer | None:
        """The answer among the complete lines read, if one is; every other line is stray
        (counted, a few quoted, skipped). `rid` None: no request in flight, every line is stray."""
        buf = self.buf
        start = 0
        answer = None
        while answer is None:
            i = buf.find(b"\n", start)
            if i < 0:
                break
            line = bytes(buf[start:i])
            start = i + 1
            if rid is not None and len(line) > self.max_answer:
                answer = Answer("error", error=f"the answer to the {method} request (request {rid}) is a line of "
                                f"{len(line)} bytes, more than the {self.max_answer} an answer may have",
                                failure="oversized", request=rid)
                break
            answer = self._classify(line, rid, method)
            if answer is None:
                self.stray += 1
                if len(self.stray_quoted) < STRAY_QUOTED:
                    self.stray_quoted.append(_quote(line))
                if strays is not None:
                    strays["n"] += 1
                    if strays["n"] > MAX_STRAY_LINES:
                        answer = Answer("error", error=f"while the {method} request (request {rid}) waited, the "
                                        f"program wrote more than {MAX_STRAY_LINES} lines that answer no request; "
                                        "it was stopped and is started again for the next request",
                                        failure="flood", request=rid)
        del buf[:start]
        return answer

    def _classify(self, line: bytes, rid: int | None, method: str) -> Answer | None:
        """This request's answer, or None for a line that answers no request in flight: one
        that is not JSON and does not begin with `{` (a log line), a JSON object with another
        id, or one with no id and none of result, error, unsupported."""
        text = line.decode("utf-8", "replace").strip()
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            if rid is not None and text.startswith("{"):
                return Answer("error", error=f"the answer to the {method} request (request {rid}) is not JSON: "
                              f"{_quote(text)}", failure="malformed", request=rid)
            return None
        if rid is None:
            return None
        if too_deep(data):
            return Answer("error", error=f"the answer to the {method} request (request {rid}) nests lists or objects "
                          f"more than {MAX_DEPTH} deep: {_quote(text)}", failure="malformed", request=rid)
        if not isinstance(data, dict):
            return Answer("error", error=f"the answer to the {method} request (request {rid}) is not a JSON "
                          f"object: {_quote(text)}", failure="malformed", request=rid)
        if "id" in data:
            if data["id"] != rid and str(data["id"]) != str(rid):
                return None
        elif not any(k in data for k in ("result", "error", "unsupported")):
            return None
        if data.get("unsupported") is True:
            return Answer("unsupported", request=rid)
        if "error" in data:
            return self._answered_error(data, rid)
        if "result" not in data:
            return Answer("error", error=f"the answer to the {method} request (request {rid}) has no 'result': "
                          f"{_quote(text)}", failure="malformed", request=rid)
        return Answer("ok", data["result"], request=rid)

    def _answered_error(self, data: dict, rid: int) -> Answer:
        return Answer("error", error=f"the program answered an error: {str(data['error'])[:300]}",
                      failure="answered an error", request=rid)


# ---------------------------------------------------------------------------------------
# a Python adapter in a child process


_SERVE = "import sys; from rulings.checks.conformance.adapters import serve; sys.exit(serve(sys.argv[1]))"


class PythonHostAdapter(CommandAdapter):
    """A Python adapter (`module:factory`) run by `serve` in a child process, so that
    whatever it does (loops, exits, prints, answers too much) is bounded like a program's."""

    def __init__(self, target: str, timeout: float = DEFAULT_TIMEOUT, game: str = "", **kw):
        super().__init__(target, timeout, game, argv=[sys.executable, "-c", _SERVE, target], **kw)

    def start(self) -> None:
        if self.proc is not None:
            return
        self._spawn()
        answer = self._hello()
        if answer.status != "ok":
            self._kill()
            if answer.failure == "answered an error":      # serve could not load it: say why, as in-process
                raise AdapterError(answer.error.removeprefix("the program answered an error: "))
            raise AdapterError(f"the adapter {self.command!r} could not be started: {answer.error}")
        self.hello = answer.value
        self._version()

    def _answered_error(self, data: dict, rid: int) -> Answer:
        failure = data.get("failure")
        if failure in FAILURES and failure not in ("not asked", "deadline", "hang"):
            return Answer("error", error=str(data["error"])[:2000], failure=failure, request=rid)
        return super()._answered_error(data, rid)


def serve(target: str) -> int:
    """Run the Python adapter `target` as a JSON-lines program on stdin/stdout. What it
    prints goes to stderr; the protocol keeps stdout to itself."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    try:
        adapter, error = load_python(target), ""
    except AdapterError as e:
        adapter, error = None, str(e)
    for line in sys.stdin:
        try:
            req = json.loads(line)
            rid, method, params = req.get("id"), req.get("method"), req.get("params") or {}
        except (ValueError, AttributeError):
            continue
        if error:
            answer = {"error": error}
        elif method == "hello":
            answer = {"result": {"name": target, "methods": supported(adapter.obj), "protocol": adapter.protocol}}
        elif method not in _ARGS or any(a not in params for a in _ARGS[method]):
            answer = {"unsupported": True}
        else:
            a = adapter.ask(method, params)
            answer = ({"result": a.value} if a.ok else {"unsupported": True} if a.status == "unsupported"
                      else {"error": a.error, "failure": a.failure})
        out.write(json.dumps({"id": rid, **answer}) + "\n")
        out.flush()
    return 0


def load(adapter: str | None = None, cmd: str | None = None, timeout: float = DEFAULT_TIMEOUT,
         game: str = "", deadline: float | None = None, isolate: bool = True) -> Adapter:
    """The adapter the command line names (exactly one of `adapter` and `cmd`). A Python
    adapter runs in a child process unless `isolate` is false."""
    if bool(adapter) == bool(cmd):
        raise AdapterError("name the implementation under test with exactly one of --adapter and --cmd")
    if adapter:
        if not isolate:
            return load_python(adapter)
        return PythonHostAdapter(adapter, timeout=timeout, game=game, deadline=deadline)
    return CommandAdapter(cmd, timeout=timeout, game=game, deadline=deadline)
