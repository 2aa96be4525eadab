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
              help="Only these kinds of finding (repeatable); default: all (what-if searches for up "
                   "to 150 s).")
@click.option("--bound", type=int, default=6, show_default=True,
              help="Largest hand (cards) explored exhaustively by the reading and conflict checks.")
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--what-if-seconds", "whatif_seconds", type=click.FloatRange(0, None), default=150.0,
              show_default=True, help="The what-if sweep's time budget (alternatives not started by then are "
                                      "listed unsearched); 0: no budget, every alternative searched.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@scale_options
def check(game: str, kinds: tuple[str, ...], bound: int, readings: tuple[str, ...], whatif_seconds: float,
          as_json: bool, workers: int | None, executor: str, scheduler: str | None):
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
      rulings check tick --kind reading --reading go-out-timing=others-have-played
    """
    from .common import _fail, _load

    from ..checks import report
    from ..checks.run import run_checks
    from ..executor import ExecutorError, session

    spec = _load(game, readings)   # a clear error for an unknown game or a broken spec
    if bound < 1:
        _fail("--bound must be at least 1")
    where = dict(workers=workers, executor=executor, scheduler=scheduler, whatif_seconds=whatif_seconds or None)
    t0 = time.perf_counter()
    try:
        with session(executor, workers, scheduler):       # one Dask cluster for every kind of check
            if as_json or not sys.stderr.isatty():
                runs = run_checks(spec, list(kinds) or None, bound, **where)
            else:
                from rich.console import Console

                with Console(stderr=True).status("checking") as status:
                    runs = run_checks(spec, list(kinds) or None, bound,
                                      progress=lambda m: status.update(f"checking: {m}"), **where)
    except ExecutorError as e:
        _fail(str(e))
    seconds = time.perf_counter() - t0
    if as_json:
        click.echo(json.dumps(report.as_json(game, runs, seconds), indent=2))
    else:
        click.echo(report.text(game, runs, seconds))
    sys.exit(1 if any(not f.resolved for r in runs for f in r.findings) else 0)
