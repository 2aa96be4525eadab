"""`rulings meld` and `rulings lay`: meld legality and the best lay-down, with evidence."""
from __future__ import annotations

import itertools
import json
import sys

import click

from ..cards import CardError
from ..melds import Verdict
from ..spec import Spec, derived
from ..specfile import NotRegularFile, SpecErrors, open_regular, parse_json
from .common import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE, READING_HELP, fail, load_game, progress_bar


def engine_module(name: str):
    if name == "reference":
        from .. import reference

        return reference
    from .. import z3melds

    return z3melds


class BadQuery(ValueError):
    """A query this spec cannot answer: an unknown level, card, or more cards than the deck."""


def contract_of(spec: Spec, level: int | None, initial: bool):
    if not spec.meld_kinds:
        raise BadQuery(f"{spec.game} has no melds: no clause of its spec defines a meld kind, so nothing is laid")
    try:
        return spec.contract(level=level, initial=initial)
    except KeyError as e:
        raise BadQuery(str(e.args[0]) if e.args else str(e)) from None


def _contract(spec: Spec, level: int | None, initial: bool):
    try:
        return contract_of(spec, level, initial)
    except BadQuery as e:
        fail(str(e))


def _rests_on(spec: Spec, contract) -> list[str]:
    """The readings and assumptions an answer under `contract` rests on (read once per
    spec and contract)."""
    memo = derived(spec, "cli rests_on", lambda _: {})
    hit = memo.get(contract.name)
    if hit is None or hit[0] is not contract:
        hit = memo[contract.name] = (contract, spec.assumptions(contract.clauses))
    return list(hit[1])


def verdict_json(spec: Spec, contract, v: Verdict, cards_in: list[str]) -> dict:
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
        "rests_on": _rests_on(spec, contract),
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


def hand_of(spec: Spec, cards, deck: tuple | None = None) -> tuple:
    """The hand these tokens name, within the deck (`deck`: spec.deck(), if known)."""
    if not cards:
        raise BadQuery(f"give the cards to check; accepted: {spec.cards.accepted_forms()}")
    try:
        hand = spec.cards.hand_of(cards)
    except CardError as e:
        raise BadQuery(str(e)) from None
    deck = spec.deck() if deck is None else deck
    if any(deck):
        for t, (n, most) in enumerate(zip(hand, deck)):
            if n > most:
                cid = spec.rule("pack")[0]
                raise BadQuery(f"{n} cards {spec.cards.types[t].token!r}, but the deck holds only {most} "
                                f"(clause {cid}: {spec.clauses[cid].says})")
    return hand


def _hand(spec: Spec, cards: tuple[str, ...]):
    try:
        return hand_of(spec, cards)
    except BadQuery as e:
        fail(str(e))


def lay_json(spec: Spec, contract, v: Verdict, cards_in: list[str]) -> dict:
    data = verdict_json(spec, contract, v, cards_in)
    kept = sorted(v.kept, key=lambda t: -spec.cards.types[t].value)
    discard = spec.cards.types[kept[0]].token if kept else None
    return {"possible": v.legal, **{k: data[k] for k in ("game", "contract", "cards", "melds", "wilds", "meld_kinds")},
            "discard": discard, "kept": [spec.cards.types[t].token for t in kept[1:]], "points": v.points,
            **{k: data[k] for k in ("violations", "engine", "rests_on")}}


def _batch(spec: Spec, engine: str, source, ask, render) -> None:
    """Answer JSON lines from `source` (a path, or - for standard input), one JSON line out
    for each line in, in order: `render(contract, ask(decider, contract, hand), cards)`, the
    object --json prints for the same query alone, or an error object for a line that
    cannot be asked. Exit 0, or 2 if any line was bad.

    A refusal's object depends on the verdict and the cards only, so its text is made once
    per contract and verdict and the cards written into it."""
    decider = engine_module(engine)
    refusals: dict = {}         # (contract, verdict's evidence) -> the answer's text before and after the cards
    bad = 0
    deck = spec.deck()
    contracts: dict = {}        # (level, initial) -> the contract, or why there is none
    out = sys.stdout
    each_line = source == "-"   # answers to standard input go out line by line: a program may wait for each
    try:
        stream = getattr(sys.stdin, "buffer", sys.stdin) if source == "-" else open_regular(source)
    except NotRegularFile as e:
        fail(f"cannot read {source}: {e.strerror} (for a stream, give - and send it to standard input)")
    except OSError as e:
        fail(f"cannot read {source}: {e.strerror or e}")
    with stream:
        for number, line in enumerate(_bounded_lines(stream, source), 1):
            if not isinstance(line, UnicodeDecodeError) and not line.strip():
                continue
            try:
                if isinstance(line, UnicodeDecodeError):
                    raise BadQuery(f"not UTF-8 text: byte 0x{line.object[line.start]:02x}")
                try:
                    query = parse_json(line, f"line {number}")
                except SpecErrors as e:
                    raise BadQuery(f"not JSON: {e.errors[0].message}") from None
                if not isinstance(query, dict) or not isinstance(query.get("cards"), list) \
                        or not all(map(isinstance, query["cards"], itertools.repeat(str))):
                    raise BadQuery('a line is an object with "cards" (a list of card tokens) and '
                                    '"level" (a number) or "initial": true')
                level, initial = query.get("level"), bool(query.get("initial", False))
                if level is not None and (isinstance(level, bool) or not isinstance(level, int)):
                    raise BadQuery(f'"level" must be a whole number, got {level!r}')
                contract = contracts.get((level, initial))
                if contract is None:
                    try:
                        contract = contract_of(spec, level, initial)
                    except BadQuery as e:
                        contract = e
                    contracts[level, initial] = contract
                if isinstance(contract, BadQuery):
                    raise contract
                hand = hand_of(spec, query["cards"], deck)
                v = ask(decider, contract, hand)
                if v.legal is False and not v.melds:
                    key = (id(contract), tuple(v.violations), v.engine, v.note, v.kept, v.points)   # contracts live in spec
                    text = refusals.get(key)
                    if text is None:
                        if len(refusals) > 10_000:
                            refusals.clear()
                        before, _, after = json.dumps(render(contract, v, None)).partition('"cards": null')
                        text = refusals[key] = (before + '"cards": ', after)
                    text = text[0] + json.dumps(query["cards"]) + text[1]
                else:
                    text = json.dumps(render(contract, v, list(query["cards"])))
            except BadQuery as e:
                bad += 1
                text = json.dumps({"error": str(e), "line": number})
            out.write(text + "\n")
            if each_line:
                out.flush()
    out.flush()
    sys.exit(EXIT_USAGE if bad else EXIT_OK)


MAX_LINE = 100_000   # bytes in a --batch line (a query of a whole deck is some 2,000)


def _bounded_lines(stream, source: str):
    """The lines of the binary `stream`, each read up to MAX_LINE bytes and decoded alone
    (a line that is not UTF-8 is given as None: that line is bad, not the batch). A longer
    line (a file with no line's end, such as /dev/zero) ends the batch with exit 2 after
    the answers already given."""
    number = 0
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE:
            fail(f"{source}: line {number} is longer than {MAX_LINE:,} bytes; a query is far shorter")
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as e:
            yield e


def _no_cards_with_batch(cards, level, initial) -> None:
    if cards or level is not None or initial:
        fail("with --batch the cards, level and initial meld come from the file's lines, not the command line")


_common = [
    click.option("--level", type=int, default=None, help="The level whose minimum lay-down is asked for."),
    click.option("--initial", is_flag=True, help="The initial meld, for a game that asks for one instead of levels."),
    click.option("--reading", "readings", multiple=True, metavar="CLAUSE=READING", help=READING_HELP),
    click.option("--engine", type=click.Choice(["z3", "reference"]), default="z3", show_default=True,
                 help="z3 gives clause-level evidence; reference is the independent direct search."),
    click.option("--json", "as_json", is_flag=True, help="Print JSON."),
    click.option("--batch", "batch", metavar="FILE", default=None,
                 help="Answer many queries: JSON lines from FILE (- for standard input), each "
                      '{"level": 3, "cards": [...]} or {"initial": true, "cards": [...]}, the cards as tokens; '
                      "one JSON answer per line out, in order, the object --json prints (a bad line gets "
                      '{"error": ..., "line": N} and the run goes on). Exit 0, or 2 if any line was bad.'),
]


def _with_common(f):
    for opt in reversed(_common):
        f = opt(f)
    return f


@click.command()
@click.argument("game")
@_with_common
@click.argument("cards", nargs=-1)
def meld(game, level, initial, readings, engine, as_json, batch, cards):
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
      rulings meld tick --batch hands.jsonl
    """
    spec = load_game(game, readings)
    if batch is not None:
        _no_cards_with_batch(cards, level, initial)
        _batch(spec, engine, batch, lambda d, c, h: d.decide(spec, c, h),
               lambda c, v, cards: verdict_json(spec, c, v, cards))
    contract = _contract(spec, level, initial)
    hand = _hand(spec, cards)
    with progress_bar("deciding", as_json):
        v = engine_module(engine).decide(spec, contract, hand)
    data = verdict_json(spec, contract, v, list(cards))
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
def lay(game, level, initial, readings, engine, as_json, batch, cards):
    """The lay-down that scores most from this hand (after drawing).

    Lays the level (or the initial meld) and any further melds, keeping the cards the
    compulsory discard needs. Prints the melds, the points laid and the card to
    discard (the costliest card kept), or why no lay-down exists.
    Exit 0 possible, 1 impossible, 2 bad input, 3 unknown.

    \b
    Examples:
      rulings lay tick --level 1 5 5 5 7 7 7 9 B
      rulings lay tick --level 8 1 1 1 1 1 1 2 2 2 2 2
      rulings lay tick --batch - < hands.jsonl
    """
    spec = load_game(game, readings)
    if batch is not None:
        _no_cards_with_batch(cards, level, initial)
        _batch(spec, engine, batch, lambda d, c, h: d.best_lay(spec, c, h),
               lambda c, v, cards: lay_json(spec, c, v, cards))
    contract = _contract(spec, level, initial)
    hand = _hand(spec, cards)
    with progress_bar("searching for the best lay-down", as_json):
        v = engine_module(engine).best_lay(spec, contract, hand)
    data = lay_json(spec, contract, v, list(cards))
    discard = data["discard"]
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

