"""`rulings faq`: the FAQ of a game, every answer computed from its spec. Registered by cli.py."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import output_file


@click.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["md", "html", "json"]), default="md", show_default=True,
              help="Markdown, one self-contained HTML page, or JSON (a list of entries).")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, writable=True), default=None,
              callback=output_file, help="Write to this file instead of standard output.")
@click.option("--questions", type=click.Path(dir_okay=False, exists=True), default=None,
              help="A questions file to answer instead of the game's own (faq/GAME.yaml beside the spec, "
                   "else the packaged spec/faq/GAME.yaml).")
def faq(game: str, fmt: str, output: str | None, questions: str | None):
    """The questions players ask about a game, answered from its spec.

    Each answer is computed: a situation judged move by move by the engine (or a hand by
    both meld deciders), with a one-line answer in the form the question asks for, the
    ruling, the rules it rests on with their rulebook lines, the readings, variants and
    assumptions it depends on, and the worked example with its contrast. GAME is a
    packaged game or a spec file (its questions: faq/GAME.yaml beside it, else the
    packaged ones). Exit 0 on success, 2 on bad input.

    \b
    Examples:
      rulings faq tick
      rulings faq tick --format html -o tick-faq.html
      rulings faq tick --format json
    """
    from .common import fail, load_game

    from ..checks.faq import build as faq_mod
    from ..checks.faq.render import RENDERERS

    spec = load_game(game, ())
    if questions is not None:
        _readable(questions)
    try:
        if sys.stderr.isatty() and output:
            from rich.console import Console

            with Console(stderr=True).status("answering (the checks run first)"):
                built = faq_mod.build(spec, questions)
        else:
            built = faq_mod.build(spec, questions)
    except FileNotFoundError as e:
        fail(str(e.args[0]) if e.args else str(e))
    except faq_mod.FaqError as e:
        fail("the FAQ questions cannot be answered:\n  " + "\n  ".join(e.problems))
    for m in built.missing_links:
        click.echo(f"rulings faq: warning: {m}", err=True)
    text = RENDERERS[fmt](built)
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as e:
            fail(f"cannot write {output}: {e.strerror or e}")
        click.echo(f"{len(built.entries)} answers written to {output}", err=True)
    else:
        click.echo(text, nl=False)


def _readable(path: str) -> None:
    """Fail (exit 2) unless `path` reads as a questions file may: at most MAX_BYTES (not
    /dev/zero), UTF-8, no whole number longer than Python reads. (What it holds is
    checked when the questions are answered.)"""
    from ..specfile import FileProblem, SpecErrors, read_text, too_long_number
    from .common import fail

    try:
        text = read_text(path, what="a questions file")
    except SpecErrors as e:
        err = e.errors[0]
        fail("the FAQ questions cannot be answered:\n  " + (f"{path}: {err.message}" if isinstance(err, FileProblem)
                                                               else str(err)))
    import yaml

    from ..specfile import Loader

    try:
        yaml.load(text, Loader=Loader)
    except yaml.YAMLError:
        pass   # answered, with its place, when the questions are read
    except ValueError:   # a whole number too long for Python to read: the parser's error has no place
        long = too_long_number(text, path)
        fail("the FAQ questions cannot be answered:\n  " + (str(long) if long else f"{path}: not valid YAML"))
