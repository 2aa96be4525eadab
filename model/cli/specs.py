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
            "formal": sum(c.has_formal for c in s.clauses.values()),
            "unformalised": [c.id for c in s.clauses.values() if c.unformalised],
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


def validate_document(targets: list[str], errors, notes: list | None = None) -> dict:
    """What `rulings validate --json` prints for these files, the problems found and the
    clauses stated in words only (`informal_notes`)."""
    return {"files": targets, "ok": not errors, "errors": [e.__dict__ for e in errors], "informal": notes or []}


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
            click.echo(f"{g['game']:16} (spec has errors)")
            continue
        unf = f", {len(g['unformalised'])} unformalised" if g["unformalised"] else ""
        click.echo(f"{g['game']:16} {g['title']}: {g['summary']}; {g['players'][0]}-{g['players'][1]} players; "
                   f"{g['clauses']} clauses ({g['formal']} formal{unf}); contracts: {', '.join(g['contracts'])}")
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
    FILE:LINE:COL: what is wrong. A sound spec's clauses that are stated in words only
    (`informal`) are listed too, each at its place, those that could change play first:
    they are not played. Exit 0 when all are sound, 1 when a spec has problems, 2 when a
    FILE cannot be read (missing, a folder, unreadable).

    \b
    Example:  rulings validate spec/tick.yaml --rulebooks ../shared/rulebooks
    """
    targets = list(files) or packaged_games()
    errors = validate_specs(targets, rulebooks)
    notes = [] if errors else informal_notes(targets, rulebooks)
    if as_json:
        click.echo(json.dumps(validate_document(targets, errors, notes), indent=2))
    else:
        for e in errors:
            if isinstance(e, FileProblem):
                click.echo(f"rulings: {e.file}: {e.message}", err=True)
            else:
                click.echo(str(e))
        books = rulebooks_dir(rulebooks)
        for n in notes:
            how = ("could change play: not played" if n["affects_play"] and not n["covered_by"] else
                   f"said formally by {', '.join(n['covered_by'])}" if n["covered_by"] else "does not change play")
            click.echo(f"{n['file']}:{n['line']}:3: informal clause {n['clause']!r} ({how}): {n['why']}")
        if not errors:
            click.echo(f"ok: {', '.join(targets)}" + (f" (line counts checked against {books})" if books else ""))
    unreadable = any(isinstance(e, FileProblem) for e in errors)
    sys.exit(EXIT_USAGE if unreadable else EXIT_NO if errors else EXIT_OK)



def informal_notes(targets, rulebooks) -> list[dict]:
    """The clauses each sound spec states in words only: the ones that could change play
    and that no other clause says first."""
    out = []
    for t in targets:
        s = load(t, rulebooks=rulebooks)
        for c in s.clauses.values():
            if c.informal:
                out.append({"file": s.file, "line": c.line, "clause": c.id, "why": " ".join(str(c.informal["why"]).split()),
                            "affects_play": bool(c.informal["affects_play"]),
                            "covered_by": list(c.informal.get("covered_by") or ())})
    out.sort(key=lambda n: (not (n["affects_play"] and not n["covered_by"]), n["file"], n["line"]))
    return out
