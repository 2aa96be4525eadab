"""The `rulings` command line: one package that imports the model and the checks.

Each command lives in a module named after what it asks (`specs`, `melds`, `play`,
`check`, `faq`, `conform`); `common` holds what they share. Nothing in `rulings.checks`
imports this package, so there is no cycle.
"""
from __future__ import annotations

import click

from .check import check
from .common import (EXIT_BUG, EXIT_CODES, EXIT_INTERRUPTED, EXIT_NO, EXIT_OK, EXIT_UNKNOWN,  # noqa: F401
                     EXIT_USAGE, READING_HELP, GuardedGroup)                                 # (re-exported)
from .conform import conform, vectors
from .faq import faq
from .melds import lay, meld
from .play import judge, simulate
from .specs import games, validate
from .table import play


@click.group(cls=GuardedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulings")
@click.option("--debug", is_flag=True, envvar="RULINGS_DEBUG",
              help="Show the Python traceback of an unexpected error (a bug in rulings, exit 70).")
@click.pass_context
def main(ctx: click.Context, debug: bool):
    """Card-game rules as specifications: melds and moves judged with evidence, from the spec.

    Exit codes: 0 yes (legal, possible, valid), 1 no (illegal, impossible, problems
    found), 2 bad usage or input, 3 the solver could not decide, 4 the spec does not
    decide (judge), 5 the implementation misbehaved (conform), 70 a bug in rulings,
    130 interrupted (Ctrl-C).

    \b
    Examples:
      rulings games
      rulings meld tick --level 3 5 5 SW BW
      rulings lay tick --level 1 5 5 5 7 7 7 9 B
      rulings validate spec/tick.yaml
    """
    ctx.meta["rulings.debug"] = debug


for _command in (games, validate, meld, lay, play, check, judge, simulate, faq, vectors, conform):
    main.add_command(_command)

if __name__ == "__main__":   # pragma: no cover
    main()
