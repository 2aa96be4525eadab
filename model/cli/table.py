"""`rulings play`: a shared table of melds and a hand — the most the hand can add, rearranging
the table, or whether a new table is a legal result of the turn (`rulings.rearrange`)."""
from __future__ import annotations

import json
import sys

import click

from ..cards import CardError
from .common import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, READING_HELP, _fail, _load
from .melds import _engine

NOTATION = ("Melds are separated by '|', cards by spaces or commas, in the game's card tokens "
            "(`rulings games` lists them), e.g. \"k7 k8 k9 | r5 o5 b5\".")


def _melds(spec, text: str, what: str) -> list[tuple]:
    out = []
    for i, part in enumerate(text.split("|"), 1):
        tokens = part.replace(",", " ").split()
        if not tokens:
            if text.strip():
                _fail(f"{what}: meld {i} is empty (melds are separated by '|')")
            continue
        try:
            out.append(spec.cards.hand_of(tokens))
        except CardError as e:
            _fail(f"{what}, meld {i}: {e}")
    return out


def _cards(spec, text: str, what: str) -> tuple:
    try:
        return spec.cards.hand_of(text.replace(",", " ").split())
    except CardError as e:
        _fail(f"{what}: {e}")


def _total(spec, melds) -> tuple:
    return tuple(sum(m[t] for m in melds) for t in range(len(spec.cards.types)))


def _check_deck(spec, counts, what: str) -> None:
    deck = spec.deck()
    for t, (n, most) in enumerate(zip(counts, deck)):
        if any(deck) and n > most:
            _fail(f"{what}: {n} cards {spec.cards.types[t].token!r}, but the deck holds only {most}")


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
    from .. import rearrange as ra

    _engine(engine)
    spec = _load(game, readings)
    try:
        ra.table_contract(spec)
    except ra.RearrangeError as e:
        _fail(str(e))
    old = _melds(spec, table_text, "--table")
    hand = _cards(spec, hand_text, "--hand")
    table = _total(spec, old)
    _check_deck(spec, tuple(x + y for x, y in zip(table, hand)), "--table and --hand together")
    bad = ra.judge(spec, old, tuple(0 for _ in hand), old)
    if not bad.legal:
        _fail("--table is not a table of valid melds: " + "; ".join(bad.why))
    if new_text is not None:
        _judge(spec, ra, old, hand, _melds(spec, new_text, "--new"), initial, as_json)
    try:
        p = ra.best(spec, table, hand, by, engine, initial)
    except ra.RearrangeError as e:
        _fail(str(e))
    new_table = ([" ".join(spec.cards.tokens(m)) for m in old] if initial else []) \
        + ([_meld_text(spec, m) for m in p.melds] if p.possible else [])
    placed, value, note = (p.placed, p.value, p.note) if p.possible else ((0,) * len(hand), 0, p.note)
    if p.possible and any(p.placed):          # the most any rearrangement places, held to the rules of play
        melds = [spec.cards.hand(spec.cards.types[t] for t in m.cards) for m in p.melds]
        j = ra.judge_play(spec, old, hand, (list(old) if initial else []) + melds, initial)
        if not j.legal:
            kept = ra.offered(spec, old, hand, initial) or list(old)      # none offered: the table stays
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
    if ra.play_move(spec) is None:
        data["rules_left_out"] = "the spec's turn rules do not say how a play is made: only the melds are held to"
    if as_json:
        click.echo(json.dumps(data, indent=2))
    elif p.possible is None:
        click.echo(f"{spec.game}: UNKNOWN: {p.note}")
    elif p.possible is False:
        click.echo(f"{spec.game}: the table's own cards cannot all be laid out as melds ({p.engine})")
    elif not any(placed):
        click.echo(f"{spec.game}: nothing from the hand can be " + ("laid as the initial meld" if initial else
                   "added to the table") + f" ({p.engine})")
    else:
        unit = "card(s)" if by == "cards" else "points"
        click.echo(f"{spec.game}: add {' '.join(data['placed'])} ({value} {unit}; {p.engine})")
        click.echo("  new table:")
        for m in data["new_table"]:
            click.echo(f"    {m}")
        click.echo(f"  kept: {' '.join(data['kept']) or 'nothing'}")
    if not as_json and (data.get("note") or data.get("rules_left_out")) and p.possible is not None:
        click.echo(f"  note: {data.get('note') or data['rules_left_out']}")
    if p.possible is None:
        sys.exit(EXIT_UNKNOWN)
    sys.exit(EXIT_OK if p.possible and any(placed) else EXIT_NO)


def _judge(spec, ra, old, hand, new, initial, as_json) -> None:
    j = ra.judge_play(spec, old, hand, new, initial)
    data = {"game": spec.game, "legal": j.legal, "placed": spec.cards.tokens(j.placed), "why": j.why,
            "clauses": [{"clause": c, "source": spec.source(c)} for c in j.clauses],
            **({"note": j.note} if j.note else {})}
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(f"{spec.game}: {'LEGAL' if j.legal else 'ILLEGAL'}: the new table "
                   + (f"adds {' '.join(data['placed']) or 'nothing'} from the hand" if j.legal else "is not a result of the turn"))
        for w in j.why:
            click.echo(f"  {w}")
        for c in data["clauses"]:
            click.echo(f"  {c['clause']} [{c['source']}]")
        if j.note:
            click.echo(f"  note: {j.note}")
    sys.exit(EXIT_OK if j.legal else EXIT_NO)
