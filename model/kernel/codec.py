"""One codec for moves and states: the scenario form (JSON/YAML, cards as the game's tokens),
the kernel's values, and words for people.

A move is written `{MOVE: ARGUMENT}`, the argument shaped by the move's mechanic (each
mechanic's module says how: its `Arg`): the cards of a lay ({lay: [5, 5, SW]}), the card
of a discard ({discard: 9}), the pile a draw takes from ({draw: stock}), the units a
player chooses ({tick: 2}), a seat ({skip: 2}), a position ({place_card: 7}), a new table
({play: "k7 k8 k9 | r5 o5 b5"}), a space ([row, column]), ... A move that names values
(`choose`) is written {MOVE: {ARG: ..., VARIABLE: value}} ({eight: {card: 8H, suit: hearts}}).

A state is a scenario's situation: the kernel's fields (seed, round, players, dealer,
to_play, phase, turns_finished, lays_this_turn, reshuffles, winners), one field per zone
the spec declares (a list per seat for a zone of each player), one per counter, one per
input. Every problem is collected as `field: what is wrong`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..cards import CardError
from . import common
from .moves import Move
from .registry import mechanic, zone_kind
from .rules import Move as MoveDecl, rules
from .state import OVER, State, counts

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
    "direction": (False, "1 while play goes the way the spec says, -1 once a card has reversed it"),
    "pending": (False, "effects of cards played this turn, kept for its end: {skip: N, draw: N, again: 1, lead: SEAT}"),
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


def arg_of(spec, decl: MoveDecl):
    """How the argument of a move of the spec is written, read and said (its mechanic's)."""
    r = rules(spec)
    return common.arg_of(r, decl, mechanic(decl.mechanic))


def arg_kind(spec, decl: MoveDecl) -> str:
    """The shape of a move's argument (`registry.Arg.kind`): zone, units, seat, card, cards, ..."""
    return arg_of(spec, decl).kind


def move_to_doc(spec, move: Move) -> dict:
    decl = rules(spec).moves[move.id]
    shape = arg_of(spec, decl)
    if not shape.accepts(move.arg):
        raise CodecError([f"move.{move.id}: its argument {move.arg!r} is not of the move's shape, {shape.form}"])
    return {move.id: shape.to_doc(spec, decl, move.arg)}


def move_words(spec, move: Move | Mapping) -> str:
    """A move in words: `draw from the stock`, `tick 2`, `lay 5 5 5`, `discard 9`."""
    doc = move_to_doc(spec, move) if isinstance(move, Move) else move
    if not isinstance(doc, Mapping) or len(doc) != 1:
        return str(doc)
    (mid, arg), = doc.items()
    decl = rules(spec).moves.get(mid)
    if decl is None:
        return f"{mid} {arg}"
    return arg_of(spec, decl).words(mid, decl, arg)


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
    return ", ".join(f"{{{d.id}: {arg_of(spec, d).form}}}" for d in r.moves.values())


def read_move(rd: _Reader, where: str, m) -> tuple[Move, dict] | None:
    spec = rd.spec
    r = rules(spec)
    if not isinstance(m, Mapping) or len(m) != 1 or next(iter(m)) not in r.moves:
        rd.bad(where, f"a move is one of {_forms(spec)}, got {m!r}")
        return None
    (mid, doc), = m.items()
    decl = r.moves[mid]
    got = arg_of(spec, decl).read(rd, f"{where}.{mid}", decl, doc)
    if got is None:
        return None
    value, shown = got
    return Move(mid, value), {mid: shown}


def move_from_doc(spec, m: Mapping, where: str = "move") -> Move:
    rd = _Reader(spec, {})
    got = read_move(rd, where, m)
    if got is None:
        raise CodecError(rd.problems)
    return got[0]


# ---- states ---------------------------------------------------------------------------------

def _zone_doc(spec, z, value):
    return zone_kind(z.kind).to_doc(spec, value)


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
    if any(mechanic(m.mechanic).counts_lays for m in r.moves.values()):
        out["lays_this_turn"] = state.lays_this_turn
    for z in r.zones.values():
        v = state.zones[z.index]
        out[z.id] = [_zone_doc(spec, z, x) for x in v] if z.each else _zone_doc(spec, z, v)
    for c in r.counters.values():
        v = state.counters[c.index]
        out[c.id] = [_var_doc(spec, c, x) for x in v] if c.each else _var_doc(spec, c, v)
    for i in r.inputs.values():
        v = state.input(i.id)
        out[i.id] = bool(i.default if v is None else v)
    if _reverses(r):
        out["direction"] = state.direction
    if state.pending:
        out["pending"] = dict(state.pending)
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
        start = _var_doc(spec, c, c.start)
        if c.each:
            vals = rd.per_seat(c.id, n, default=[start] * n) or [start] * n
            counters.append(tuple(_var_read(rd, spec, c, v, f"{c.id}[{i}]", n) for i, v in enumerate(vals)))
        else:
            counters.append(_var_read(rd, spec, c, data.get(c.id, start), c.id, n))
    direction = data.get("direction", 1)
    if direction not in (1, -1) or isinstance(direction, bool):
        rd.bad("direction", f"1 (play goes the spec's way) or -1 (reversed), got {direction!r}")
        direction = 1
    pending = data.get("pending", {})
    if not isinstance(pending, Mapping) or any(k not in ("skip", "draw", "again", "lead") or isinstance(v, bool)
                                               or not isinstance(v, int) or v < 0 for k, v in pending.items()):
        rd.bad("pending", f"effects kept for the turn's end, {{skip: N, draw: N, again: 1, lead: SEAT}}, got {pending!r}")
        pending = {}
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
            values = [_empty(spec, z, width)] * n
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
                 lays_now, reshuffles, (), tuple(winners), spec, tuple(finished), direction,
                 tuple(sorted(pending.items())))


def _reverses(r) -> bool:
    return any(e.get("reverse") for e in r.effects.values())


def _var_doc(spec, c, v):
    """A counter's or variable's value as a scenario writes it (an attribute's value by
    name, a card by its token, None while unset)."""
    if v is None or c.type in ("number", "seat"):
        return v
    if c.type == "card":
        return spec.cards.types[v].token
    return spec.cards.attributes[c.type][v]


def counter_shown(spec, cid: str, v):
    """A counter's value as a reader sees it: an attribute's value by its name (a suit),
    a card by its token, a number as it is, `unset` while it has no value."""
    from .rules import rules

    c = rules(spec).counters[cid]
    shown = _var_doc(spec, c, v)
    return "unset" if shown is None else shown


def _var_read(rd, spec, c, v, where: str, n: int):
    if c.type == "number":
        return rd.integer("", value=v, where=where)
    if v is None:
        return None
    if c.type == "seat":
        return rd.integer("", 0, n - 1, value=v, where=where)
    if c.type == "card":
        cards = rd.tokens(where, [v] if isinstance(v, (str, int)) and not isinstance(v, bool) else v)
        return cards[0] if cards and len(cards) == 1 else None
    values = spec.cards.attributes[c.type]
    for i, x in enumerate(values):
        if x == v or str(x).upper() == str(v).upper():
            return i
    rd.bad(where, f"a {c.type}: one of {', '.join(map(str, values))}, or null; got {v!r}")
    return None


def _empty(spec, z, width):
    return zone_kind(z.kind).empty(spec, width)


def _read_zone(rd: _Reader, spec, z, v, where: str, placed: list, width: int):
    return zone_kind(z.kind).read(rd, spec, where, v, placed, width)
