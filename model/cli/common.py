"""What every `rulings` command shares: exit codes, errors, loading a spec, progress.

Exit codes: 0 yes / legal / ok, 1 no / illegal / problems found, 2 bad usage or input,
3 the solver could not decide (unknown), 4 undecided (no clause of the spec decides it).
"""
from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from ..spec import ReadingError, Spec, SpecErrors, load

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNKNOWN, EXIT_UNDECIDED = 0, 1, 2, 3, 4

READING_HELP = "Choose a reading of a clause, CLAUSE=READING (repeatable); `rulings games --readings` lists them."


def _fail(message: str) -> None:
    click.echo(f"rulings: {message}", err=True)
    sys.exit(EXIT_USAGE)


def _load(game: str, readings: tuple[str, ...]) -> Spec:
    choices = {}
    for r in readings:
        clause, eq, name = r.partition("=")
        if not eq or not clause or not name:
            _fail(f"--reading takes CLAUSE=READING, got {r!r}")
        choices[clause] = name
    try:
        return load(game, choices)
    except FileNotFoundError as e:
        _fail(str(e.args[0]) if e.args else str(e))
    except SpecErrors as e:
        _fail("the spec has errors:\n" + str(e))
    except ReadingError as e:
        _fail(str(e))


@contextmanager
def _progress(message: str, quiet: bool):
    """A spinner on stderr while a slow step runs (only when stderr is a terminal)."""
    if quiet or not sys.stderr.isatty():
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(message):
        yield

