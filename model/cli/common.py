"""What every `rulings` command shares: exit codes, errors, loading a spec, progress,
checking output paths, and the guard that turns an unexpected exception into one line.

Exit codes: 0 yes / legal / ok, 1 no / illegal / problems found, 2 bad usage or input,
3 the solver could not decide (unknown), 4 undecided (no clause of the spec decides it),
5 the implementation under test misbehaved (conform), 70 a bug in rulings (an unexpected
exception; the code is sysexits' EX_SOFTWARE), 130 interrupted (Ctrl-C: 128 + SIGINT, as
a shell reports it).
"""
from __future__ import annotations

import os
import sys
import traceback
from contextlib import contextmanager
from pathlib import Path

import click

from ..spec import ReadingError, Spec, SpecErrors, load

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNKNOWN, EXIT_UNDECIDED, EXIT_MISBEHAVED = 0, 1, 2, 3, 4, 5
EXIT_BUG = 70
EXIT_INTERRUPTED = 130
EXIT_CODES = (EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNKNOWN, EXIT_UNDECIDED, EXIT_MISBEHAVED, EXIT_BUG,
              EXIT_INTERRUPTED)

READING_HELP = "Choose a reading of a clause, CLAUSE=READING (repeatable); `rulings games --readings` lists them."


def fail(message: str) -> None:
    click.echo(f"rulings: {message}", err=True)
    sys.exit(EXIT_USAGE)


def load_game(game: str, readings: tuple[str, ...]) -> Spec:
    choices = {}
    for r in readings:
        clause, eq, name = r.partition("=")
        if not eq or not clause or not name:
            fail(f"--reading takes CLAUSE=READING, got {r!r}")
        if clause in choices:
            fail(f"--reading names clause {clause!r} twice ({choices[clause]} and {name}); "
                  "give one reading per clause")
        choices[clause] = name
    try:
        return load(game, choices)
    except FileNotFoundError as e:
        fail(str(e.args[0]) if e.args else str(e))
    except SpecErrors as e:
        fail("the spec has errors:\n" + str(e))
    except ReadingError as e:
        fail(str(e))


@contextmanager
def progress_bar(message: str, quiet: bool):
    """A spinner on stderr while a slow step runs (only when stderr is a terminal)."""
    if quiet or not sys.stderr.isatty():
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(message):
        yield



# ---- output paths, checked before any work -------------------------------------------------


def _unusable(path: Path, folder: bool) -> str | None:
    """Why `path` cannot be written (as a folder, or as a file), or None when it can.
    What is missing of it is created later, so the nearest part that exists must be a
    folder we may write in."""
    try:
        if path.exists():
            if folder and not path.is_dir():
                return "it exists and is not a folder"
            if not folder and path.is_dir():
                return "it is a folder; name a file"
            if not os.access(path, os.W_OK | (os.X_OK if folder else 0)):
                return "it is not writable"
            refused = _cannot_create_in(path) if folder else _cannot_open(path)
            return f"it is not writable: {refused}" if refused else None
        if not folder and not path.name:
            return "it names no file"
        parent = path.parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            return f"{parent} is not a folder"
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"the folder {parent} is not writable"
        if not folder and path.parent != parent:
            return f"the folder {path.parent} does not exist"
        refused = _cannot_create_in(parent)
        if refused:
            return f"nothing can be created in {parent}: {refused}"
    except (OSError, ValueError) as e:   # a name too long, a NUL in it
        return f"it cannot be used: {getattr(e, 'strerror', None) or e}"
    return None


def _cannot_open(path: Path) -> str | None:
    """Why the existing regular file `path` cannot be opened for writing (without
    changing it), or None. Other files (a device, a pipe) are left to the writing."""
    if not path.is_file():
        return None
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    except OSError as e:
        return e.strerror or str(e)
    return None


def _cannot_create_in(folder: Path) -> str | None:
    """Why no file can be created in `folder`, found by creating (and removing) one, or
    None. The permission bits say too little: root may write anywhere by them, yet not
    in /proc or /sys, and a read-only or full file system says so only when tried."""
    import tempfile

    try:
        fd, name = tempfile.mkstemp(prefix=".rulings-probe-", dir=folder)
    except OSError as e:
        return e.strerror or str(e)
    os.close(fd)
    os.unlink(name)
    return None


def _output_check(folder: bool):
    what = "into" if folder else ""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is not None:
            why = _unusable(Path(value), folder=folder)
            if why:
                raise click.BadParameter(f"cannot write {what + ' ' if what else ''}{value!r}: {why}", ctx, param)
        return value

    return check


# click callbacks: the option names a folder that can be created or written into, or a
# file that can be written in a folder that exists
output_folder = _output_check(folder=True)
output_file = _output_check(folder=False)


# ---- the guard ---------------------------------------------------------------------------


def _quiet(stream) -> None:
    """Send what is still to be written to `stream` nowhere: its reader went away."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _flushed() -> bool:
    """Whether standard output and error took everything written to them (False: a reader
    closed its end, as `| head` does; what is left is dropped)."""
    ok = True
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            _quiet(stream)
            ok = False
    return ok


class GuardedGroup(click.Group):
    """A click group whose commands cannot end in a traceback: an exception nobody
    expected prints one line saying it is a bug, and exits EXIT_BUG; `--debug` (an option
    of the group) prints the traceback first. Three exceptions are not bugs: the file
    system refusing a named path (a full disk, a folder removed meanwhile) is reported
    with the path and exits EXIT_USAGE; a closed standard output or error (`| head`)
    ends the command quietly with EXIT_USAGE, whatever it was saying (an answer, help, a
    usage error); Ctrl-C exits EXIT_INTERRUPTED."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            super().main(*args, **kwargs)
            code = EXIT_OK
        except SystemExit as e:
            code = e.code
        except BrokenPipeError:      # click was saying what was wrong (usage, 'Aborted!') to a closed pipe
            code = EXIT_USAGE
        if not _flushed():
            code = EXIT_USAGE
        sys.exit(code)

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except BrokenPipeError:      # --help or --version to a closed pipe
            _quiet(sys.stdout)
            raise click.exceptions.Exit(EXIT_USAGE) from None
        except KeyboardInterrupt:
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, EOFError):
            raise
        except KeyboardInterrupt:
            try:
                click.echo("rulings: interrupted", err=True)
            except (OSError, ValueError):
                pass
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            # the reader went away: nothing more to say, and nowhere to say it
            _quiet(sys.stdout)
            ctx.exit(EXIT_USAGE)
        except OSError as e:
            if e.filename is None or ctx.meta.get("rulings.debug"):
                _bug(ctx, e)
            click.echo(f"rulings: {e.filename}: {e.strerror or e}", err=True)
            ctx.exit(EXIT_USAGE)
        except Exception as e:   # noqa: BLE001  (this is the one place that catches everything)
            _bug(ctx, e)


def _bug(ctx: click.Context, e: BaseException):
    if ctx.meta.get("rulings.debug"):
        traceback.print_exception(e)
    what = " ".join(f"{type(e).__name__}: {e}".split()) if str(e) else type(e).__name__
    if len(what) > 200:
        what = what[:200] + "..."
    click.echo(f"rulings: internal error ({what}). This is a bug in rulings: please report it with the "
               "command you ran; run it again with --debug to see the traceback.", err=True)
    ctx.exit(EXIT_BUG)
