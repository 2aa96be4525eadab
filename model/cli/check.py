"""`rulings check`: the rule writer's command."""
from __future__ import annotations

import json
import sys
import time

import click

from ..checks.findings import KINDS
from .common import READING_HELP
from .scale import scale_options


@click.command()
@click.argument("game")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(KINDS),
              help="Only these kinds of finding (repeatable); default: all.")
@click.option("--bound", type=int, default=6, show_default=True,
              help="Largest hand (cards) explored exhaustively by the reading and conflict checks.")
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--what-if-limit", "whatif_limit", type=click.IntRange(0, None), default=None,
              help="How many what-if alternatives are searched in play, in their order (declared readings "
                   "and alternatives the schema rejects do not count; the rest are listed unsearched; default "
                   "120); 0: every alternative. A budget in units of work: the same findings on every run.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the same as --format json).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True,
              help="text; json; html: a report page (cards drawn, findings grouped by rulebook line, each "
                   "situation replayable with `rulings judge`).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the report to this file instead of printing it.")
@scale_options
def check(game: str, kinds: tuple[str, ...], bound: int, readings: tuple[str, ...], whatif_limit: int | None,
          as_json: bool, fmt: str, output: str | None, workers: int | None, executor: str, scheduler: str | None):
    """Search a game's rules for ambiguities, gaps, conflicts, false claims and
    translation differences, each finding with a replayable witness.

    `--kind what-if` maps, for every clause, the other ways its schema lets it be
    written (another enum value, a number moved by one, a comparison loosened or
    tightened, the clause dropped) that play would notice and no declared reading
    examines. `--reading CLAUSE=READING` runs every check with that reading in force
    (readings are then compared against it). The reading searches, the exploration
    for gaps and the what-if alternatives run on every core (`--workers`) or on a Dask
    cluster (`--executor dask`), with the same findings wherever they run.

    Exit 0 when every finding is resolved (by an adopted reading, a named assumption,
    or because the claim holds), 1 when some finding is unresolved, 2 on bad input.

    \b
    Examples:
      rulings check tick
      rulings check tick --kind reading --kind claim --json
      rulings check tick --kind what-if
      rulings check tick --format html -o tick-check.html
      rulings check tick --kind reading --reading go-out-timing=others-have-played
    """
    from .common import fail, load_game

    from ..checks import report
    from ..checks.run import run_checks
    from ..executor import ExecutorError, session

    spec = load_game(game, readings)   # a clear error for an unknown game or a broken spec
    if bound < 1:
        fail("--bound must be at least 1")
    where = dict(workers=workers, executor=executor, scheduler=scheduler, whatif_limit=whatif_limit)
    t0 = time.perf_counter()
    try:
        with session(executor, workers, scheduler):       # one Dask cluster for every kind of check
            if as_json or fmt != "text" or not sys.stderr.isatty():
                runs = run_checks(spec, list(kinds) or None, bound, **where)
            else:
                from rich.console import Console

                with Console(stderr=True).status("checking") as status:
                    runs = run_checks(spec, list(kinds) or None, bound,
                                      progress=lambda m: status.update(f"checking: {m}"), **where)
    except ExecutorError as e:
        fail(str(e))
    seconds = time.perf_counter() - t0
    fmt = "json" if as_json else fmt
    if fmt == "json":
        shown = json.dumps(report.as_json(game, runs, seconds), indent=2)
    elif fmt == "html":
        from ..checks.report_html import page

        shown = page(spec, runs)
    else:
        shown = report.text(game, runs, seconds)
    if output:
        try:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(shown if shown.endswith("\n") else shown + "\n")
        except OSError as e:
            fail(f"cannot write {output}: {e}")
    else:
        click.echo(shown)
    sys.exit(1 if any(not f.resolved for r in runs for f in r.findings) else 0)
