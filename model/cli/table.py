"""`rulings play`: a shared table of melds and a hand — the most the hand can add, rearranging
the table, or whether a new table is a legal result of the turn (`rulings.rearrange`)."""
from __future__ import annotations

import json
import sys

import click

from ..cards import CardError
from .common import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, READING_HELP, fail, load_game
from .melds import BadQuery, engine_module

NOTATION = ("Melds are separated by '|', cards by spaces or commas, in the game's card tokens "
            "(`rulings games` lists them), e.g. \"k7 k8 k9 | r5 o5 b5\".")


def _melds(spec, text: str, what: str) -> list[tuple]:
    out = []
    for i, part in enumerate(text.split("|"), 1):
        tokens = part.replace(",", " ").split()
        if not tokens:
            if text.strip():
                raise BadQuery(f"{what}: meld {i} is empty (melds are separated by '|')")
            continue
        try:
            out.append(spec.cards.hand_of(tokens))
        except CardError as e:
            raise BadQuery(f"{what}, meld {i}: {e}") from None
    return out


def _cards(spec, text: str, what: str) -> tuple:
    try:
        return spec.cards.hand_of(text.replace(",", " ").split())
    except CardError as e:
        raise BadQuery(f"{what}: {e}") from None


def _total(spec, melds) -> tuple:
    return tuple(sum(m[t] for m in melds) for t in range(len(spec.cards.types)))


def _check_deck(spec, counts, what: str) -> None:
    deck = spec.deck()
    for t, (n, most) in enumerate(zip(counts, deck)):
        if any(deck) and n > most:
            raise BadQuery(f"{what}: {n} cards {spec.cards.types[t].token!r}, but the deck holds only {most}")


def _meld_text(spec, m) -> str:
    types = spec.cards.types
    kind = spec.meld_kinds[m.kind]
    shown = [types[t].token for t in m.cards]
    if kind.same or kind.distinct or kind.run:
        for pos, attrs in m.stands_for:
            shown[pos] = f"{shown[pos]}(={spec.cards.stands_for_token(attrs)})"
    return " ".join(shown)


@click.command()
@click.argument("game")
@click.option("--table", "table_text", default="", metavar="MELDS",
              help="The melds on the table now. " + NOTATION)
@click.option("--hand", "--rack", "hand_text", required=True, metavar="CARDS",
              help="The cards the player holds (spaces or commas between them).")
@click.option("--new", "new_text", default=None, metavar="MELDS",
              help="A table proposed as the result of the turn: judged instead of searched.")
@click.option("--initial", is_flag=True,
              help="The player's first melds: from the hand alone, under the game's initial meld (its "
                   "threshold), the table left as it is.")
@click.option("--by", type=click.Choice(["cards", "points"]), default="cards", show_default=True,
              help="What 'the most' counts: cards added, or their face value.")
@click.option("--engine", type=click.Choice(["z3", "reference"]), default="z3", show_default=True,
              help="z3 over the card counts, or the reference's direct search (independent of it).")
@click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def play(game, table_text, hand_text, new_text, initial, by, engine, readings, as_json):
    """The most a hand can add to a shared table of melds, rearranging it freely.

    Every meld on the table must be valid when the player is done, and every card that was
    on the table must still be on it; the rest comes from the hand. Prints what to add and
    a new table that shows it (wilds with what they stand for). With --new, judges that
    table instead: legal, or what is wrong with it. Both hold the play to the game's rules
    of play as `rulings judge` does (the initial meld, a wild locking its meld, a won wild
    reused): the player is taken to have made their initial meld, or, with --initial, to be
    making it. Where the most any rearrangement places breaks such a rule, the play shown
    is the one the kernel offers under it, and the note says so.
    Exit 0 something can be added (or --new is legal), 1 nothing can (or --new is
    illegal), 2 bad input, 3 the solver could not decide.

    \b
    Examples:
      rulings play rummikub --table "k7 k8 k9 | r5 o5 b5" --hand "k10 J b5"
      rulings play rummikub --table "k7 k8 k9" --hand "k10 k11" --by points --json
      rulings play rummikub --table "k7 k8 k9" --hand "k10 k6" --new "k6 k7 k8 k9 k10"
      rulings play rummikub --table "k7 k8 k9" --hand "r10 r11 r12 o13 b13 k13" --initial
    """
    engine_module(engine)
    spec = load_game(game, readings)
    try:
        data, code = table_document(spec, table_text, hand_text, new_text, initial, by, engine)
    except BadQuery as e:
        fail(str(e))
    if as_json:
        click.echo(json.dumps(data, indent=2))
    elif new_text is not None:
        click.echo(f"{spec.game}: {'LEGAL' if data['legal'] else 'ILLEGAL'}: the new table "
                   + (f"adds {' '.join(data['placed']) or 'nothing'} from the hand" if data["legal"]
                      else "is not a result of the turn"))
        for w in data["why"]:
            click.echo(f"  {w}")
        for c in data["clauses"]:
            click.echo(f"  {c['clause']} [{c['source']}]")
        if data.get("note"):
            click.echo(f"  note: {data['note']}")
    elif data["possible"] is None:
        click.echo(f"{spec.game}: UNKNOWN: {data['note']}")
    elif data["possible"] is False:
        click.echo(f"{spec.game}: the table's own cards cannot all be laid out as melds ({data['engine']})")
    elif code == EXIT_NO:
        click.echo(f"{spec.game}: nothing from the hand can be " + ("laid as the initial meld" if initial else
                   "added to the table") + f" ({data['engine']})")
    else:
        unit = "card(s)" if by == "cards" else "points"
        click.echo(f"{spec.game}: add {' '.join(data['placed'])} ({data['value']} {unit}; {data['engine']})")
        click.echo("  new table:")
        for m in data["new_table"]:
            click.echo(f"    {m}")
        click.echo(f"  kept: {' '.join(data['kept']) or 'nothing'}")
    if not as_json and new_text is None and (data.get("note") or data.get("rules_left_out")) \
            and data["possible"] is not None:
        click.echo(f"  note: {data.get('note') or data['rules_left_out']}")
    sys.exit(code)


def table_document(spec, table_text: str, hand_text: str, new_text: str | None = None, initial: bool = False,
                   by: str = "cards", engine: str = "z3") -> tuple[dict, int]:
    """What `rulings play --json` prints for this question, and its exit code; BadQuery for
    a question that cannot be asked (a card unknown, more cards than the deck, a table
    that is not one of valid melds, a game with no shared table)."""
    from .. import rearrange as ra, table_play as tp

    try:
        ra.table_contract(spec)
    except ra.RearrangeError as e:
        raise BadQuery(str(e)) from None
    old = _melds(spec, table_text, "--table")
    hand = _cards(spec, hand_text, "--hand")
    table = _total(spec, old)
    _check_deck(spec, tuple(x + y for x, y in zip(table, hand)), "--table and --hand together")
    bad = ra.judge(spec, old, tuple(0 for _ in hand), old)
    if not bad.legal:
        raise BadQuery("--table is not a table of valid melds: " + "; ".join(bad.why))
    if new_text is not None:
        return _judge(spec, ra, old, hand, _melds(spec, new_text, "--new"), initial)
    try:
        p = ra.best(spec, table, hand, by, engine, initial)
    except ra.RearrangeError as e:
        raise BadQuery(str(e)) from None
    new_table = ([" ".join(spec.cards.tokens(m)) for m in old] if initial else []) \
        + ([_meld_text(spec, m) for m in p.melds] if p.possible else [])
    placed, value, note = (p.placed, p.value, p.note) if p.possible else ((0,) * len(hand), 0, p.note)
    if p.possible and any(p.placed):          # the most any rearrangement places, held to the rules of play
        melds = [spec.cards.hand(spec.cards.types[t] for t in m.cards) for m in p.melds]
        j = tp.judge_play(spec, old, hand, (list(old) if initial else []) + melds, initial)
        if not j.legal:
            kept = tp.offered(spec, old, hand, initial) or list(old)      # none offered: the table stays
            after = _total(spec, kept)
            placed = tuple(max(0, a - b) for a, b in zip(after, table))
            value = sum(placed) if by == "cards" else sum(k * spec.cards.types[t].value for t, k in enumerate(placed))
            new_table = [" ".join(spec.cards.tokens(m)) for m in kept]
            note = (f"the most any rearrangement places breaks a rule of play ({'; '.join(j.why)}: "
                    f"{', '.join(j.clauses)}); shown: the play those rules allow that the kernel offers, the one "
                    "that puts down the most cards it finds" + (" (counted by points, a play worth more may exist)"
                                                         if by == "points" else ""))
    data = {"game": spec.game, "table": [spec.cards.tokens(m) for m in old], "hand": spec.cards.tokens(hand),
            "by": by, "possible": p.possible, "placed": spec.cards.tokens(placed), "value": value,
            "new_table": new_table, "kept": spec.cards.tokens(tuple(h - x for h, x in zip(hand, placed))),
            "engine": p.engine, **({"note": note} if note else {})}
    if tp.play_move(spec) is None:
        data["rules_left_out"] = "the spec's turn rules do not say how a play is made: only the melds are held to"
    if p.possible is None:
        return data, EXIT_UNKNOWN
    return data, EXIT_OK if p.possible and any(placed) else EXIT_NO


def _judge(spec, ra, old, hand, new, initial) -> tuple[dict, int]:
    from .. import table_play as tp

    j = tp.judge_play(spec, old, hand, new, initial)
    data = {"game": spec.game, "legal": j.legal, "placed": spec.cards.tokens(j.placed), "why": j.why,
            "clauses": [{"clause": c, "source": spec.source(c)} for c in j.clauses],
            **({"note": j.note} if j.note else {})}
    return data, EXIT_OK if j.legal else EXIT_NO
