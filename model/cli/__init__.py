"""The `rulings` command line: one package that imports the model and the checks.

Each command lives in a module named after what it asks (`specs`, `melds`, `play`,
`check`, `faq`, `conform`); `common` holds what they share. Nothing in `rulings.checks`
imports this package, so there is no cycle.
"""
from __future__ import annotations

import importlib
from collections.abc import MutableMapping

import click

from .common import (
    EXIT_BUG,
    EXIT_CODES,
    EXIT_INTERRUPTED,
    EXIT_NO,
    EXIT_OK,
    EXIT_UNKNOWN,
    EXIT_USAGE,
    READING_HELP,
    GuardedGroup,
)                                 # (re-exported)

# each command and the module that holds it; a module is imported when its command is
# run or listed (`rulings --help`), so one query loads only what it asks
WHERE = {"games": "specs", "validate": "specs", "meld": "melds", "lay": "melds", "play": "table",
         "check": "check", "judge": "play", "simulate": "play", "faq": "faq", "vectors": "conform",
         "conform": "conform", "serve": "rulings.serve.command"}


class Commands(MutableMapping):
    """The group's commands by name, each imported from its module when first asked for."""

    def __init__(self, where: dict[str, str]):
        self.where, self.loaded = dict(where), {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self.loaded:
            where = self.where[name]       # a module of this package, or a whole module name
            module = importlib.import_module(where if where.startswith("rulings.") else f"{__name__}.{where}")
            self.loaded[name] = getattr(module, name)
        return self.loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self.where.setdefault(name, "")
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self.where[name]
        self.loaded.pop(name, None)

    def __iter__(self):
        return iter(self.where)

    def __len__(self) -> int:
        return len(self.where)


@click.group(cls=GuardedGroup, commands=Commands(WHERE), context_settings={"help_option_names": ["-h", "--help"]})
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


if __name__ == "__main__":   # pragma: no cover
    main()
