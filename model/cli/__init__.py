"""The `rulings` command line: one package that imports the model and the checks.

Each command lives in a module named after what it asks (`specs`, `melds`, `play`,
`check`, `faq`, `conform`); `common` holds what they share. Nothing in `rulings.checks`
imports this package, so there is no cycle.
"""
from __future__ import annotations

import click

from .check import check
from .common import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE, READING_HELP  # noqa: F401  (re-exported)
from .conform import conform, vectors
from .faq import faq
from .melds import lay, meld
from .play import judge, simulate
from .specs import games, validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulings")
def main():
    """Card-game rules as specifications: meld legality with evidence, from the spec.

    \b
    Examples:
      rulings games
      rulings meld tick --level 3 5 5 SW BW
      rulings lay tick --level 1 5 5 5 7 7 7 9 B
      rulings validate spec/tick.yaml
    """



for _command in (games, validate, meld, lay, check, judge, simulate, faq, vectors, conform):
    main.add_command(_command)

if __name__ == "__main__":   # pragma: no cover
    main()
