"""`rulings games` and `rulings validate`: the specs themselves."""
from __future__ import annotations

import json
import sys

import click

from ..spec import SpecErrors, load, packaged_games, rulebooks_dir, validate as validate_specs
from ..specfile import FileProblem
from .common import EXIT_NO, EXIT_OK, EXIT_USAGE


def game_entry(s) -> dict:
    """One game as `rulings games --json` lists it."""
    players = s.rule("players")[1] or {}
    return {"game": s.game, "title": s.title, "summary": s.summary,
            "players": [players.get("min"), players.get("max")],
            "contracts": list(s.contracts), "clauses": len(s.clauses),
            "readings": {c: {"adopted": s.chosen[c], "all": r} for c, r in s.reading_choices().items()}}


def games_document(loader=None) -> list[dict]:
    """What `rulings games --json` prints: every packaged game, one entry each (each spec
    read by `loader`, `rulings.spec.load` unless given: a server keeps the specs it read)."""
    out = []
    for name in packaged_games():
        try:
            s = (loader or load)(name)
        except SpecErrors as e:
            out.append({"game": name, "error": str(e)})
            continue
        out.append(game_entry(s))
    return out


def validate_document(targets: list[str], errors) -> dict:
    """What `rulings validate --json` prints for these files and the problems found."""
    return {"files": targets, "ok": not errors, "errors": [e.__dict__ for e in errors]}


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--readings", is_flag=True, help="Also list each clause's readings.")
def games(as_json: bool, readings: bool):
    """List the games whose specs are known, one line each.

    \b
    Example:  rulings games --readings
    """
    out = games_document()
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    for g in out:
        if "error" in g:
            click.echo(f"{g['game']:10} (spec has errors)")
            continue
        click.echo(f"{g['game']:10} {g['title']}: {g['summary']}; {g['players'][0]}-{g['players'][1]} players; "
                   f"{g['clauses']} clauses; contracts: {', '.join(g['contracts'])}")
        if readings:
            for c, r in g["readings"].items():
                click.echo(f"    {c}: {', '.join(x + (' (adopted)' if x == r['adopted'] else '') for x in r['all'])}")


@click.command()
@click.argument("files", nargs=-1)
@click.option("--rulebooks", type=click.Path(file_okay=False), default=None,
              help="Folder of the rulebook texts, to check line counts (default: $RULINGS_RULEBOOKS).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def validate(files: tuple[str, ...], rulebooks: str | None, as_json: bool):
    """Check spec files against the schema and their own references.

    With no FILE, checks every packaged spec. Each problem is printed as
    FILE:LINE:COL: what is wrong. Exit 0 when all are sound, 1 when a spec has
    problems, 2 when a FILE cannot be read (missing, a folder, unreadable).

    \b
    Example:  rulings validate spec/tick.yaml --rulebooks ../shared/rulebooks
    """
    targets = list(files) or packaged_games()
    errors = validate_specs(targets, rulebooks)
    if as_json:
        click.echo(json.dumps(validate_document(targets, errors), indent=2))
    else:
        for e in errors:
            if isinstance(e, FileProblem):
                click.echo(f"rulings: {e.file}: {e.message}", err=True)
            else:
                click.echo(str(e))
        books = rulebooks_dir(rulebooks)
        if not errors:
            click.echo(f"ok: {', '.join(targets)}" + (f" (line counts checked against {books})" if books else ""))
    unreadable = any(isinstance(e, FileProblem) for e in errors)
    sys.exit(EXIT_USAGE if unreadable else EXIT_NO if errors else EXIT_OK)

