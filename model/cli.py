"""The `rulings` command line.

Exit codes: 0 yes / legal / ok, 1 no / illegal / problems found, 2 bad usage or input,
3 the solver could not decide (unknown).
"""
from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import click

from .cards import CardError
from .melds import Verdict
from .spec import ReadingError, Spec, SpecErrors, load, packaged_games, rulebooks_dir, validate as validate_specs

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


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


def _engine(name: str):
    if name == "reference":
        from . import reference

        return reference
    from . import z3melds

    return z3melds


def _contract(spec: Spec, level: int | None, initial: bool):
    try:
        return spec.contract(level=level, initial=initial)
    except KeyError as e:
        _fail(str(e.args[0]) if e.args else str(e))


def _verdict_json(spec: Spec, contract, v: Verdict, cards_in: list[str]) -> dict:
    types = spec.cards.types
    melds, wilds, kinds = [], {}, []
    for m_i, m in enumerate(v.melds):
        melds.append([types[t].token for t in m.cards])
        kinds.append({"kind": m.kind, "required": m.required, "points": m.points})
        kind = spec.meld_kinds[m.kind]
        if kind.same or kind.distinct or kind.run:
            for pos, attrs in m.stands_for:
                wilds[f"{m_i}.{pos}"] = spec.cards.stands_for_token(attrs)
    return {
        "game": spec.game,
        "contract": contract.name,
        "cards": cards_in,
        "legal": v.legal,
        "melds": melds,
        "wilds": wilds,
        "meld_kinds": kinds,
        "violations": [{"clause": x.clause, "source": x.source, "why": x.why} for x in v.violations],
        "engine": v.engine,
        "rests_on": spec.assumptions(contract.clauses),
        **({"note": v.note} if v.note else {}),
    }


def _print_melds(spec: Spec, data: dict) -> None:
    for m_i, (cards, info) in enumerate(zip(data["melds"], data["meld_kinds"])):
        shown = []
        for pos, tok in enumerate(cards):
            stand = data["wilds"].get(f"{m_i}.{pos}")
            shown.append(f"{tok}(={stand})" if stand else tok)
        role = "required" if info["required"] else "further"
        click.echo(f"  {role:8} {info['kind']:10} {' '.join(shown)}")


def _print_violations(data: dict) -> None:
    for x in data["violations"]:
        click.echo(f"  {x['clause']} [{x['source']}]")
        click.echo(f"      {x['why']}")


def _print_rests_on(data: dict) -> None:
    if data["rests_on"]:
        click.echo("  rests on readings and assumptions: " + ", ".join(data["rests_on"]))


READING_HELP = "Choose a reading of a clause, CLAUSE=READING (repeatable); `rulings games --readings` lists them."


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


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--readings", is_flag=True, help="Also list each clause's readings.")
def games(as_json: bool, readings: bool):
    """List the games whose specs are known, one line each.

    \b
    Example:  rulings games --readings
    """
    out = []
    for name in packaged_games():
        try:
            s = load(name)
        except SpecErrors as e:
            out.append({"game": name, "error": str(e)})
            continue
        players = s.rule("players")[1] or {}
        out.append({"game": s.game, "title": s.title, "summary": s.summary,
                    "players": [players.get("min"), players.get("max")],
                    "contracts": list(s.contracts), "clauses": len(s.clauses),
                    "readings": {c: {"adopted": s.chosen[c], "all": r} for c, r in s.reading_choices().items()}})
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


@main.command()
@click.argument("files", nargs=-1)
@click.option("--rulebooks", type=click.Path(file_okay=False), default=None,
              help="Folder of the rulebook texts, to check line counts (default: $RULINGS_RULEBOOKS).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def validate(files: tuple[str, ...], rulebooks: str | None, as_json: bool):
    """Check spec files against the schema and their own references.

    With no FILE, checks every packaged spec. Each problem is printed as
    FILE:LINE:COL: what is wrong. Exit 0 when all are sound, 1 otherwise.

    \b
    Example:  rulings validate spec/tick.yaml --rulebooks ../shared/rulebooks
    """
    targets = list(files) or packaged_games()
    errors = validate_specs(targets, rulebooks)
    if as_json:
        click.echo(json.dumps({"files": targets, "ok": not errors,
                               "errors": [e.__dict__ for e in errors]}, indent=2))
    else:
        for e in errors:
            click.echo(str(e))
        books = rulebooks_dir(rulebooks)
        if not errors:
            click.echo(f"ok: {', '.join(targets)}" + (f" (line counts checked against {books})" if books else ""))
    sys.exit(EXIT_NO if errors else EXIT_OK)


def _hand(spec: Spec, cards: tuple[str, ...]):
    if not cards:
        _fail(f"give the cards to check; accepted: {spec.cards.accepted_forms()}")
    try:
        hand = spec.cards.hand_of(cards)
    except CardError as e:
        _fail(str(e))
    deck = spec.deck()
    if any(deck):
        for t, (n, most) in enumerate(zip(hand, deck)):
            if n > most:
                cid = spec.rule("pack")[0]
                _fail(f"{n} cards {spec.cards.types[t].token!r}, but the deck holds only {most} "
                      f"(clause {cid}: {spec.clauses[cid].says})")
    return hand


_common = [
    click.option("--level", type=int, default=None, help="The level whose minimum lay-down is asked for."),
    click.option("--initial", is_flag=True, help="The initial meld (Rummikub)."),
    click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP),
    click.option("--engine", type=click.Choice(["z3", "reference"]), default="z3", show_default=True,
                 help="z3 gives clause-level evidence; reference is the independent direct search."),
    click.option("--json", "as_json", is_flag=True, help="Print JSON."),
]


def _with_common(f):
    for opt in reversed(_common):
        f = opt(f)
    return f


@main.command()
@click.argument("game")
@_with_common
@click.argument("cards", nargs=-1)
def meld(game, level, initial, readings, engine, as_json, cards):
    """May these cards be laid down together this turn?

    Asked for a player who has not yet laid their level: the level's required melds
    (or the initial meld), plus the further melds the game allows in the same turn,
    using every card. Prints the melds with what each wild stands for, or the clauses
    that forbid it with their rulebook lines. Exit 0 legal, 1 illegal, 2 bad input,
    3 unknown.

    \b
    Examples:
      rulings meld tick --level 3 5 5 SW BW
      rulings meld tick --level 3 5 SW SW BW
      rulings meld rummikub --initial r10 r11 r12 k10 o10 b10
      rulings meld tick --level 2 --reading level-sets-same-rank=distinct 5 5 5 5 5 5
    """
    spec = _load(game, readings)
    contract = _contract(spec, level, initial)
    hand = _hand(spec, cards)
    with _progress("deciding", as_json):
        v = _engine(engine).decide(spec, contract, hand)
    data = _verdict_json(spec, contract, v, list(cards))
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        word = {True: "LEGAL", False: "ILLEGAL", None: "UNKNOWN"}[v.legal]
        click.echo(f"{spec.title}, {contract.name}: {word} ({v.engine})")
        if v.legal:
            _print_melds(spec, data)
        elif v.legal is False:
            click.echo("  forbidden by:")
            _print_violations(data)
        else:
            click.echo(f"  the solver could not decide: {v.note}")
        _print_rests_on(data)
    sys.exit({True: EXIT_OK, False: EXIT_NO, None: EXIT_UNKNOWN}[v.legal])


@main.command()
@click.argument("game")
@_with_common
@click.argument("cards", nargs=-1)
def lay(game, level, initial, readings, engine, as_json, cards):
    """The lay-down that scores most from this hand (after drawing).

    Lays the level (or the initial meld) and any further melds, keeping the cards the
    compulsory discard needs. Prints the melds, the points laid and the card to
    discard (the costliest card kept), or why no lay-down exists.
    Exit 0 possible, 1 impossible, 2 bad input, 3 unknown.

    \b
    Examples:
      rulings lay tick --level 1 5 5 5 7 7 7 9 B
      rulings lay tick --level 8 1 1 1 1 1 1 2 2 2 2 2
    """
    spec = _load(game, readings)
    contract = _contract(spec, level, initial)
    hand = _hand(spec, cards)
    with _progress("searching for the best lay-down", as_json):
        v = _engine(engine).best_lay(spec, contract, hand)
    data = _verdict_json(spec, contract, v, list(cards))
    kept = sorted(v.kept, key=lambda t: -spec.cards.types[t].value)
    discard = spec.cards.types[kept[0]].token if kept else None
    data = {"possible": v.legal, **{k: data[k] for k in ("game", "contract", "cards", "melds", "wilds", "meld_kinds")},
            "discard": discard, "kept": [spec.cards.types[t].token for t in kept[1:]], "points": v.points,
            **{k: data[k] for k in ("violations", "engine", "rests_on")}}
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        word = {True: "POSSIBLE", False: "IMPOSSIBLE", None: "UNKNOWN"}[v.legal]
        click.echo(f"{spec.title}, {contract.name}: lay-down {word} ({v.engine})")
        if v.legal:
            _print_melds(spec, data)
            click.echo(f"  points laid: {v.points}; discard: {discard}"
                       + (f"; kept in hand: {' '.join(data['kept'])}" if data["kept"] else ""))
        elif v.legal is False:
            click.echo("  impossible because of:")
            _print_violations(data)
        else:
            click.echo(f"  the solver could not decide: {v.note}")
        _print_rests_on(data)
    sys.exit({True: EXIT_OK, False: EXIT_NO, None: EXIT_UNKNOWN}[v.legal])


from .checks.cli import check  # noqa: E402  (the rule writer's command lives with the checks)

main.add_command(check)

from .play_cli import judge, simulate  # noqa: E402
main.add_command(judge); main.add_command(simulate)  # noqa: E702

from .checks.conform_cli import conform, vectors  # noqa: E402  (the implementer's commands)

main.add_command(vectors)
main.add_command(conform)

from .checks.faq_cli import faq  # noqa: E402  (the FAQ, answered from the spec)

main.add_command(faq)

if __name__ == "__main__":   # pragma: no cover
    main()
