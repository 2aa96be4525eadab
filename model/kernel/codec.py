"""One codec for moves and states: the scenario form (JSON/YAML, cards as the game's tokens),
the kernel's values, and words for people.

A move is written `{MOVE: ARGUMENT}`, the argument shaped by the move's mechanic:

    draw      the pile it takes from ({draw: stock}), the number of units when the player
              chooses it ({tick: 2}), or the seat whose pile it takes from ({take: 1})
    lay       the cards ({lay: [5, 5, SW]})
    extend    {cards: [...], seat: S, meld: I}: the cards, whose meld, which of their melds
    discard   the card ({discard: 9})
    give      the seat given the card ({skip: 2})
    move_all  the zone emptied ({pass: skipped})
    rearrange the whole new table, a list of melds ({play: [[k7, k8, k9], [r5, o5, b5]]},
              or one string with '|' between melds: {play: "k7 k8 k9 | r5 o5 b5"})
    fill      the position the held card goes to ({place_card: 7})
    mark      the card and the space, {card: C, at: [row, column]}; for a move of one card
              (a token), the space alone ([row, column])
    unmark    the space ([row, column])
    exchange  the card

A state is a scenario's situation: the kernel's fields (seed, round, players, dealer,
to_play, phase, turns_finished, lays_this_turn, reshuffles, winners), one field per zone
the spec declares (a list per seat for a zone of each player), one per counter, one per
input. Every problem is collected as `field: what is wrong`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..cards import CardError
from .rules import Move as MoveDecl, rules
from .moves import Move
from .state import OVER, State, cards_of, counts

FORMAT = 1
KERNEL_FIELDS = {
    # field: (required, what it holds)
    "format": (True, "the scenario format version, 1"),
    "game": (True, "the game's spec: a packaged game name or a spec file"),
    "readings": (False, "readings of clauses to judge under, {clause: reading}"),
    "description": (False, "what the scenario shows, in words"),
    "cites": (False, "the clauses the scenario illustrates"),
    "seed": (False, "the kernel's random streams (reshuffles, later deals)"),
    "round": (False, "the round being played, from 1 (names the random streams of its shuffles)"),
    "players": (True, "how many players"),
    "dealer": (True, "the dealer's seat"),
    "to_play": (True, "whose turn it is (a seat)"),
    "phase": (True, "the part of the turn: a phase of the spec, or over"),
    "turns_finished": (True, "turns of this round already finished, all players together"),
    "lays_this_turn": (False, "lays already made in this turn"),
    "reshuffles": (False, "how often the stock was refilled this round"),
    "winners": (False, "the winning seats, when the game is over"),
    "finished": (False, "seats that finished this round while the others play their last turns"),
    "move": (False, "the proposed move"),
    "moves": (False, "the proposed moves, in order"),
    "expect": (False, "what a judge should answer (for tests and conformance)"),
}


class CodecError(ValueError):
    """A move or state that does not describe one of the game: one message per problem."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def fields(spec) -> dict[str, tuple[bool, str]]:
    """Every field a scenario of this game may hold."""
    r = rules(spec)
    out = dict(KERNEL_FIELDS)
    for z in r.zones.values():
        out[z.id] = (z.kind == "hand", f"{'each seat' + chr(39) + 's ' if z.each else 'the '}{z.kind} {z.id}")
    for c in r.counters.values():
        out[c.id] = (False, f"{'each seat' + chr(39) + 's ' if c.each else 'the '}{c.id} (start {c.start})")
    for i in r.inputs.values():
        out[i.id] = (False, f"this round's {i.id} (true or false)")
    return out


# ---- moves ----------------------------------------------------------------------------------

def _toks(spec, cards) -> list[str]:
    return [spec.cards.types[t].token for t in cards]


def _arg_kind(r, decl: MoveDecl) -> str:
    if decl.mechanic == "draw":
        if decl.f.get("units") is not None:
            return "units"
        if any(r.zones[z].each for z in decl.f["from"]):
            return "seat"
        return "zone"
    if decl.mechanic == "mark":
        return "at" if "card" in decl.f else "card_at"
    return {"lay": "cards", "extend": "extend", "discard": "card", "give": "seat", "move_all": "zone",
            "rearrange": "table", "fill": "position", "unmark": "at", "exchange": "card"}[decl.mechanic]


def _at(spec, cell):
    from .board import grid

    return list(grid(spec).where(cell)) if cell is not None else None


def move_to_doc(spec, move: Move) -> dict:
    r = rules(spec)
    decl = r.moves[move.id]
    kind = _arg_kind(r, decl)
    if kind == "zone":
        return {move.id: decl.f["from"] if isinstance(decl.f["from"], str) else next(iter(decl.f["from"]))}
    if kind == "units":
        return {move.id: move.units}
    if kind == "seat":
        return {move.id: move.seat}
    if kind == "cards":
        return {move.id: _toks(spec, move.cards)}
    if kind == "card":
        return {move.id: _toks(spec, move.cards)[0]}
    if kind == "table":
        return {move.id: [_toks(spec, m) for m in move.melds or ()]}
    if kind == "position":
        return {move.id: _position_name(r, decl, move.group)}
    if kind == "at":
        return {move.id: _at(spec, move.cell)}
    if kind == "card_at":
        return {move.id: {"card": _toks(spec, move.cards)[0] if move.cards else None, "at": _at(spec, move.cell)}}
    return {move.id: {"cards": _toks(spec, move.cards), "seat": move.seat, "meld": move.group}}


def _position_name(r, decl: MoveDecl, p: int | None):
    from .layout import positions

    names = positions(r, decl.f["to"])
    return names[p] if p is not None and 0 <= p < len(names) else p


def move_words(spec, move: Move | Mapping) -> str:
    """A move in words: `draw from the stock`, `tick 2`, `lay 5 5 5`, `discard 9`."""
    doc = move_to_doc(spec, move) if isinstance(move, Move) else move
    if not isinstance(doc, Mapping) or len(doc) != 1:
        return str(doc)
    (mid, arg), = doc.items()
    r = rules(spec)
    decl = r.moves.get(mid)
    kind = _arg_kind(r, decl) if decl else None
    if kind == "zone":
        return f"{mid} from the {arg}" if decl.mechanic == "draw" else f"{mid} ({arg})"
    if kind == "seat":
        return f"{mid} seat {arg}" if decl.mechanic == "give" else f"{mid} from seat {arg}"
    if kind == "position":
        return f"{mid} into position {arg}"
    if kind == "card_at" and isinstance(arg, Mapping):
        return f"{mid} {arg.get('card')} at {arg.get('at')}"
    if kind == "at":
        return f"{mid} at {arg}"
    if kind == "extend" and isinstance(arg, Mapping):
        cards = arg.get("cards")
        return f"{mid} {' '.join(map(str, cards)) if isinstance(cards, list) else cards} to seat {arg.get('seat')}'s meld {arg.get('meld')}"
    if kind == "table" and isinstance(arg, list):
        return f"{mid}: " + " | ".join(" ".join(map(str, m)) if isinstance(m, list) else str(m) for m in arg)
    if isinstance(arg, list):
        return f"{mid} {' '.join(map(str, arg))}"
    return f"{mid} {arg}"


class _Reader:
    """Reads the fields of a scenario document, collecting every problem with its place."""

    def __init__(self, spec, data: Mapping):
        self.spec, self.data = spec, data
        self.problems: list[str] = []

    def bad(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")

    def integer(self, key: str, lo: int | None = None, hi: int | None = None, default=None, value=None,
                where: str | None = None):
        v = self.data.get(key, default) if value is None else value
        where = where or key
        if isinstance(v, bool) or not isinstance(v, int):
            self.bad(where, f"a whole number, got {v!r}")
            return None
        if lo is not None and v < lo or hi is not None and v > hi:
            rng = f"{lo} to {hi}" if hi is not None else f"{lo} or more"
            self.bad(where, f"must be {rng}, got {v}")
            return None
        return v

    def tokens(self, where: str, value) -> list[int] | None:
        """A list of cards: a list of tokens, or one string of tokens separated by spaces."""
        if isinstance(value, str):
            items = value.split()
        elif isinstance(value, list):
            items = value
        else:
            self.bad(where, f"a list of cards (or a string of cards separated by spaces), got {value!r}")
            return None
        out, ok = [], True
        for i, tok in enumerate(items):
            if isinstance(tok, bool) or not isinstance(tok, (str, int)):
                self.bad(f"{where}[{i}]", f"a card token, got {tok!r}")
                ok = False
                continue
            try:
                out.append(self.spec.cards.parse([str(tok)])[0].index)
            except CardError as e:
                self.bad(f"{where}[{i}]", str(e))
                ok = False
        return out if ok else None

    def per_seat(self, key: str, n: int, default=None):
        v = self.data.get(key, default)
        if not isinstance(v, list):
            self.bad(key, f"a list with one entry per seat ({n}), got {v!r}")
            return None
        if len(v) != n:
            self.bad(key, f"one entry per seat: {n} players, {len(v)} entries")
            return None
        return v


def _forms(spec) -> str:
    r = rules(spec)
    out = []
    for d in r.moves.values():
        kind = _arg_kind(r, d)
        src = d.f.get("from")
        arg = {"zone": next(iter(src)) if isinstance(src, Mapping) else src,
               "units": "N", "seat": "SEAT", "cards": "[cards]", "card": "card", "position": "POSITION",
               "extend": "{cards: [...], seat: S, meld: I}", "table": "[[cards], [cards], ...] (the new table)",
               "at": "[row, column]", "card_at": "{card: C, at: [row, column]}"}[kind]
        out.append(f"{{{d.id}: {arg}}}")
    return ", ".join(out)


def read_move(rd: _Reader, where: str, m) -> tuple[Move, dict] | None:
    spec = rd.spec
    r = rules(spec)
    if not isinstance(m, Mapping) or len(m) != 1 or next(iter(m)) not in r.moves:
        rd.bad(where, f"a move is one of {_forms(spec)}, got {m!r}")
        return None
    (mid, arg), = m.items()
    decl = r.moves[mid]
    kind = _arg_kind(r, decl)
    if kind == "zone":
        want = next(iter(decl.f["from"])) if isinstance(decl.f["from"], Mapping) else decl.f["from"]
        if arg != want:
            rd.bad(f"{where}.{mid}", f"{want!r}, got {arg!r}")
            return None
        return Move(mid), {mid: want}
    if kind == "units":
        k = rd.integer("", 1, value=arg, where=f"{where}.{mid}")
        return (Move(mid, units=k), {mid: k}) if k is not None else None
    if kind == "seat":
        s = rd.integer("", 0, value=arg, where=f"{where}.{mid}")
        return (Move(mid, seat=s), {mid: s}) if s is not None else None
    if kind == "cards":
        cards = rd.tokens(f"{where}.{mid}", arg)
        if cards is None:
            return None
        if not cards:
            rd.bad(f"{where}.{mid}", f"a {mid} holds at least one card")
            return None
        return Move(mid, tuple(cards)), {mid: _toks(spec, sorted(cards))}
    if kind == "position":
        from .layout import positions

        names = positions(r, decl.f["to"])
        p = next((i for i, v in enumerate(names) if str(v).upper() == str(arg).upper()), None)
        if p is None or isinstance(arg, bool) or not isinstance(arg, (str, int)):
            rd.bad(f"{where}.{mid}", f"a position of {decl.f['to']}: one of {', '.join(map(str, names))}; got {arg!r}")
            return None
        return Move(mid, group=p), {mid: names[p]}
    if kind == "card":
        if isinstance(arg, int) and not isinstance(arg, bool):
            arg = str(arg)
        cards = rd.tokens(f"{where}.{mid}", arg)
        if cards is None:
            return None
        if len(cards) != 1:
            rd.bad(f"{where}.{mid}", f"exactly one card, got {len(cards)}")
            return None
        return Move(mid, (cards[0],)), {mid: _toks(spec, cards)[0]}
    if kind == "table":
        if isinstance(arg, str):
            arg = [part for part in arg.split("|")]
        if not isinstance(arg, list) or not arg:
            rd.bad(f"{where}.{mid}", f"the new table: a list of melds, each a list of cards (or a string of melds "
                   f"separated by '|'), got {arg!r}")
            return None
        melds = []
        for j, g in enumerate(arg):
            cards = rd.tokens(f"{where}.{mid}[{j}]", g)
            if cards is not None and not cards:
                rd.bad(f"{where}.{mid}[{j}]", "a meld holds at least one card")
            elif cards is not None:
                melds.append(tuple(sorted(cards)))
        if len(melds) != len(arg):
            return None
        return Move(mid, melds=tuple(melds)), {mid: [_toks(spec, m) for m in melds]}
    if kind in ("at", "card_at"):
        return _read_at(rd, where, mid, kind, arg)
    if not isinstance(arg, Mapping) or set(arg) != {"cards", "seat", "meld"}:
        rd.bad(f"{where}.{mid}", f"{{cards: [...], seat: S, meld: I}}, got {arg!r}")
        return None
    cards = rd.tokens(f"{where}.{mid}.cards", arg["cards"])
    s = rd.integer("", 0, value=arg["seat"], where=f"{where}.{mid}.seat")
    g = rd.integer("", 0, value=arg["meld"], where=f"{where}.{mid}.meld")
    if cards is None or s is None or g is None:
        return None
    return Move(mid, tuple(cards), seat=s, group=g), {mid: {"cards": _toks(spec, sorted(cards)), "seat": s, "meld": g}}


def _read_at(rd: _Reader, where: str, mid: str, kind: str, arg) -> tuple[Move, dict] | None:
    from .board import grid

    spec = rd.spec
    g = grid(spec)
    card = None
    if kind == "card_at":
        if not isinstance(arg, Mapping) or set(arg) != {"card", "at"}:
            rd.bad(f"{where}.{mid}", f"{{card: C, at: [row, column]}}, got {arg!r}")
            return None
        c = arg["card"]
        cards = rd.tokens(f"{where}.{mid}.card", str(c) if isinstance(c, int) and not isinstance(c, bool) else c)
        if cards is None:
            return None
        if len(cards) != 1:
            rd.bad(f"{where}.{mid}.card", f"exactly one card, got {len(cards)}")
            return None
        card, at = cards[0], arg["at"]
    else:
        at = arg
    if (not isinstance(at, list) or len(at) != 2 or any(isinstance(x, bool) or not isinstance(x, int) for x in at)
            or g.cell(at[0], at[1]) is None):
        rd.bad(f"{where}.{mid}", f"a space [row, column], rows 0-{g.rows - 1} and columns 0-{g.cols - 1}, got {at!r}")
        return None
    cell = g.cell(at[0], at[1])
    move = Move(mid, () if card is None else (card,), cell=cell)
    return move, move_to_doc(spec, move)


def move_from_doc(spec, m: Mapping, where: str = "move") -> Move:
    rd = _Reader(spec, {})
    got = read_move(rd, where, m)
    if got is None:
        raise CodecError(rd.problems)
    return got[0]


# ---- states ---------------------------------------------------------------------------------

def _zone_doc(spec, z, value):
    if z.kind == "hand":
        return _toks(spec, cards_of(value))
    if z.kind in ("melds", "table"):
        return [_toks(spec, g) for g in value]
    if z.kind == "layout":
        from .layout import to_doc

        return " ".join(to_doc(spec, value))
    if z.kind == "board":
        from ..lines import draw
        from .board import grid

        return draw(grid(spec), value)
    return _toks(spec, value)


def state_to_doc(state: State, moves: Sequence[Move] = ()) -> dict:
    """A state as a scenario document (format 1), with `moves` if given."""
    spec = state.spec
    r = rules(spec)
    out: dict[str, Any] = {
        "format": FORMAT,
        "game": spec.name,
        "readings": dict(spec.chosen),
        "seed": state.seed,
        "round": state.round,
        "players": state.players,
        "dealer": state.dealer,
        "to_play": state.current,
        "phase": state.phase,
        "turns_finished": state.turns_finished,
    }
    if r.lay_move() is not None or any(m.mechanic == "exchange" for m in r.moves.values()):
        out["lays_this_turn"] = state.lays_this_turn
    for z in r.zones.values():
        v = state.zones[z.index]
        out[z.id] = [_zone_doc(spec, z, x) for x in v] if z.each else _zone_doc(spec, z, v)
    for c in r.counters.values():
        v = state.counters[c.index]
        out[c.id] = list(v) if c.each else v
    for i in r.inputs.values():
        v = state.input(i.id)
        out[i.id] = bool(i.default if v is None else v)
    if r.stock is not None:
        out["reshuffles"] = state.reshuffles
    if state.over:
        out["winners"] = list(state.winners)
    if state.finished:
        out["finished"] = list(state.finished)
    if moves:
        out["moves"] = [move_to_doc(spec, m) for m in moves]
    return out


def state_from_doc(spec, data: Mapping) -> State:
    """The state a scenario's situation describes (raises CodecError listing every problem)."""
    r = rules(spec)
    rd = _Reader(spec, data)
    lo, hi = r.players_range()
    n = rd.integer("players", lo, hi)
    if n is None:
        raise CodecError(rd.problems)
    width = len(spec.cards.types)
    seed = rd.integer("seed", default=0)
    round_ = rd.integer("round", 1, default=1)
    dealer = rd.integer("dealer", 0, n - 1)
    to_play = rd.integer("to_play", 0, n - 1)
    phase = data.get("phase")
    phases = list(r.phases) + [OVER]
    if phase not in phases:
        rd.bad("phase", f"one of {', '.join(phases)}, got {phase!r}")
    turns = rd.integer("turns_finished", 0)
    lays_now = rd.integer("lays_this_turn", 0, default=0)
    starts = r.get("turn.starts_with")
    if phase == starts and lays_now and r.lay_move() is not None:
        rd.bad("lays_this_turn", "a turn that has only just started has laid nothing")
    reshuffles = rd.integer("reshuffles", 0, default=0)
    # counters
    counters = []
    for c in r.counters.values():
        if c.each:
            vals = rd.per_seat(c.id, n, default=[c.start] * n) or [c.start] * n
            counters.append(tuple(rd.integer("", value=v, where=f"{c.id}[{i}]") for i, v in enumerate(vals)))
        else:
            counters.append(rd.integer(c.id, default=c.start))
    for m in r.moves.values():
        which = m.f.get("contract")
        if which in r.counters:
            c = r.counters[which]
            values = counters[c.index] if c.each else (counters[c.index],)
            levels = [int(x) for x in spec.levels()]
            for i, v in enumerate(values if isinstance(values, tuple) else (values,)):
                if isinstance(v, int) and v not in levels:
                    rd.bad(f"{which}[{i}]" if c.each else which,
                           f"{spec.game} has {which}s {', '.join(map(str, levels))}, got {v}")
    inputs = []
    for i in r.inputs.values():
        v = data.get(i.id, i.default)
        if v is not None and not isinstance(v, bool):
            rd.bad(i.id, f"true or false, got {v!r}")
            v = None
        inputs.append((i.id, (None,) * (round_ - 1 if isinstance(round_, int) else 0) + (v,), i.default))
    # zones, with every card counted against the deck for this many players
    try:
        deck = counts(r.deck(n), width)
    except Exception as e:      # an undecided deck: no count to check against
        rd.bad("players", f"the deck for {n} players is not known: {e}")
        deck = None
    placed = [0] * width
    zones: list = [None] * len(r.zones)
    deferred = None
    for z in r.zones.values():
        raw = data.get(z.id)
        if raw is None:
            if z.kind == "hand":
                rd.bad(z.id, f"missing ({fields(spec)[z.id][1]})")
            raw = [[] for _ in range(n)] if z.each else []
        if not z.each and z.kind == "pile" and isinstance(raw, Mapping):
            extra = set(raw) - {"top", "rest"}
            if extra or raw.get("rest") != "deck":
                rd.bad(z.id, "a list of cards, or {top: [cards], rest: deck} (the rest of the deck under the top cards)")
                zones[z.index] = ()
            elif deferred is not None:
                rd.bad(z.id, f"only one pile may take the rest of the deck (also {deferred[0]})")
            else:
                top = rd.tokens(f"{z.id}.top", raw.get("top", []))
                for t in top or []:
                    placed[t] += 1
                deferred = (z.id, top or [])
            continue
        seats = rd.per_seat(z.id, n, default=raw) if z.each else [raw]
        values = []
        for i, v in enumerate(seats or []):
            where = f"{z.id}[{i}]" if z.each else z.id
            values.append(_read_zone(rd, spec, z, v, where, placed, width))
        if seats is None:
            values = [_empty(z, width)] * n
        zones[z.index] = tuple(values) if z.each else values[0]
    if deferred is not None:
        zid, top = deferred
        rest = [t for t in range(width) for _ in range(max((deck[t] if deck else 0) - placed[t], 0))]
        for t in rest:
            placed[t] += 1
        zones[r.zones[zid].index] = tuple(rest + list(top))
    if deck is not None:
        for t in range(width):
            if placed[t] > deck[t]:
                rd.bad("cards", f"{placed[t]} cards {spec.cards.types[t].token!r} are placed, but the deck for {n} "
                       f"players holds {deck[t]} (clauses {spec.rule('pack')[0]}, {spec.rule('decks')[0]})")
    winners = data.get("winners", [])
    if not isinstance(winners, list) or any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < n
                                            for w in winners):
        rd.bad("winners", f"a list of seats, got {winners!r}")
        winners = []
    finished = data.get("finished", [])
    if not isinstance(finished, list) or any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < n
                                             for w in finished):
        rd.bad("finished", f"a list of seats, got {finished!r}")
        finished = []
    if rd.problems:
        raise CodecError(rd.problems)
    return State(seed, round_, dealer, to_play, phase, turns, n, tuple(zones), tuple(counters), tuple(inputs),
                 lays_now, reshuffles, (), tuple(winners), spec, tuple(finished))


def _empty(z, width):
    return (0,) * width if z.kind == "hand" else ()


def _read_zone(rd: _Reader, spec, z, v, where: str, placed: list, width: int):
    if z.kind == "table" and isinstance(v, str):
        v = v.split("|")                              # a table written as one string, melds between '|'
    if z.kind == "table" and isinstance(v, list) and any(isinstance(x, str) and len(x.split()) > 1 for x in v):
        v = [x.split() if isinstance(x, str) else x for x in v]     # each string one meld
    if z.kind == "layout":
        from .layout import from_doc

        value = from_doc(rd, spec, where, v) or ()
        for c, _ in value:
            placed[c] += 1
        return value
    if z.kind == "board":
        from ..lines import read
        from .board import grid

        got = read(grid(spec), v) if v != [] else grid(spec).empty_board()
        if isinstance(got, str):
            rd.bad(where, got)
            return grid(spec).empty_board()
        return got
    if z.kind in ("melds", "table"):
        if isinstance(v, str) or (isinstance(v, list) and v and not any(isinstance(x, list) for x in v)):
            v = [v]                                   # one group written as a flat list
        if not isinstance(v, list):
            rd.bad(where, f"a list of groups, each a list of cards, got {v!r}")
            return ()
        groups = []
        for j, g in enumerate(v):
            cards = rd.tokens(f"{where}[{j}]", g)
            if cards is not None and not cards:
                rd.bad(f"{where}[{j}]", "a group holds at least one card")
            elif cards is not None:
                for t in cards:
                    placed[t] += 1
                groups.append(tuple(sorted(cards)))
        return tuple(groups)
    cards = rd.tokens(where, v)
    for t in cards or []:
        placed[t] += 1
    if z.kind == "hand":
        return counts(cards or [], width)
    return tuple(cards or [])
