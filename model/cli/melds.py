"""`rulings meld` and `rulings lay`: meld legality and the best lay-down, with evidence."""
from __future__ import annotations

import json
import sys

import click

from ..cards import CardError
from ..melds import Verdict
from ..spec import Spec
from .common import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, READING_HELP, _fail, _load, _progress


def _engine(name: str):
    if name == "reference":
        from .. import reference

        return reference
    from .. import z3melds

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
    click.option("--initial", is_flag=True, help="The initial meld, for a game that asks for one instead of levels."),
    click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP),
    click.option("--engine", type=click.Choice(["z3", "reference"]), default="z3", show_default=True,
                 help="z3 gives clause-level evidence; reference is the independent direct search."),
    click.option("--json", "as_json", is_flag=True, help="Print JSON."),
]


def _with_common(f):
    for opt in reversed(_common):
        f = opt(f)
    return f


@click.command()
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


@click.command()
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

