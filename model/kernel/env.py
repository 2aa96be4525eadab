"""The names a spec expression may read, for one player in one state.

    players, seat, is_dealer, round, turns_finished, turn (= turns_finished + 1)
    each counter (the player's own value for a counter of each player)
    each input (this round's value), the spec's params
    size(ZONE), points(ZONE)   cards in a zone, and their printed values (the player's own zone)
    top(ZONE), first(ZONE)     the card put there last, and first (a pile's top, a trick's lead)
    count(ZONE, ...), sum(ZONE, ...)   read the zone's cards (`cards(ZONE)` in the environment)
    seat_to_play, direction    whose turn it is, and 1 or -1 as play goes the spec's way or back
    the names mechanics and zone kinds give (`down`, `able`, `lines(ZONE)`: see their modules)
    went_out                   the player went out (at the end of a round)
    contract_cards             cards the player's contract asks for (0 without one)
    able                       the player could rearrange the table now (model/kernel/mechanics/table.py)
    most_drawn                 the most cards the player's counters let one turn's draw bring
                               (each draw move at every unit its costs allow; without a cost,
                               the whole deck)

Values are computed when an expression reads them.
"""
from __future__ import annotations

from collections.abc import Mapping

from .registry import FUNCTIONS_OF_MOVES, MECHANICS, zone_kind
from .rules import Undecided, rules
from . import vocabulary as V


def zone_size(zone, value) -> int:
    return zone_kind(zone.kind).size(value)


def zone_points(spec, zone, value) -> int:
    return zone_kind(zone.kind).points(spec, value)


def contract_cards(state, seat: int) -> int:
    r = rules(state.spec)
    lay = r.lay_move()
    if lay is None or lay.f.get("contract") is None:
        return 0
    which = lay.f["contract"]
    value = state.counter(which, seat) if which in r.counters else None
    key = ("contract_cards", value)
    if key not in r.memo:
        c = r.contract(value, lay)
        r.memo[key] = sum(s.size for s in c.required) if c is not None else 0
    return r.memo[key]


def _draws(r) -> list[tuple]:
    """Each draw move as (cards a unit brings, {counter: cost of a unit}, whether units vary)."""
    if ("draws",) not in r.memo:
        r.memo[("draws",)] = [
            (sum(int(n) for n in m.f["from"].values()),
             {cnt: int(c) for cnt, c in (m.f.get("cost") or {}).items() if int(c) > 0},
             m.f.get("units") is not None)
            for m in r.moves.values() if m.mechanic == "draw"]
    return r.memo[("draws",)]


def most_drawn(state, seat: int) -> int:
    r = rules(state.spec)
    best = 0
    for per_unit, cost, varying in _draws(r):
        if not varying:                              # one unit a move
            units = 1 if all(state.counter(cnt, seat) >= c for cnt, c in cost.items()) else 0
        elif cost:                                   # every unit the counters pay for
            units = min(state.counter(cnt, seat) // c for cnt, c in cost.items())
        else:                                        # free units: nothing bounds the hand but the deck
            return len(r.deck(state.players))
        best = max(best, units * per_unit)
    return best


def _input(name: str):
    def get(st, seat):
        v = st.input(name)
        if v is None:
            v = rules(st.spec).inputs[name].default
        if v is None:
            raise Undecided(V.question(f"inputs.{name}.default"), f"inputs.{name}.default",
                            f"{name} in round {st.round}")
        return bool(v)
    return get


def _zone_value(fn: str, zid: str, r):
    z = r.zones[zid]
    kind = zone_kind(z.kind)
    if fn == "size":
        return lambda st, seat: kind.size(st.zone(zid, seat))
    if fn == "points":
        return lambda st, seat: kind.points(st.spec, st.zone(zid, seat))
    if fn == "cards":
        return lambda st, seat: tuple(kind.cards(st.zone(zid, seat)))
    if fn in ("top", "first"):
        read = kind.top if fn == "top" else kind.first

        def card(st, seat):
            c = read(st.zone(zid, seat))
            if c is None:
                raise Undecided(f"which card is the {'top' if fn == 'top' else 'first'} of {zid}, when it holds none?",
                                None, f"{fn}({zid}) read with {zid} empty")
            return c
        return card
    get = kind.names().get(fn)
    return (lambda st, seat: get(st, zid, seat)) if get is not None else None


def _variable(name: str, c):
    def get(st, seat):
        v = st.counter(name, seat)
        if v is None:
            raise Undecided(f"what is {name} before anything sets it?", f"counters.{name}.start",
                            f"{name} read before it was set")
        return v
    return get


_STATE_NAMES = {
    "players": lambda st, seat: st.players,
    "seat": lambda st, seat: seat,
    "is_dealer": lambda st, seat: seat == st.dealer,
    "turns_finished": lambda st, seat: st.turns_finished,
    "turn": lambda st, seat: st.turns_finished + 1,
    "round": lambda st, seat: st.round,
    "went_out": lambda st, seat: False,
    "contract_cards": contract_cards,
    "most_drawn": most_drawn,
    "seat_to_play": lambda st, seat: st.current,
    "direction": lambda st, seat: st.direction,
}


def _getter(r, spec, name: str):
    """How to read one name in any state of this spec (None: the name means nothing here)."""
    if name in r.counters:
        c = r.counters[name]
        if c.type != "number" or c.start is None:
            return _variable(name, c)
        return lambda st, seat: st.counter(name, seat)
    if name in r.inputs:
        return _input(name)
    if name in spec.params:
        value = spec.params[name]
        return lambda st, seat: value
    if name.endswith(")") and "(" in name:
        fn, zid = name[:-1].split("(", 1)
        if fn in FUNCTIONS_OF_MOVES and zid in r.moves:
            return FUNCTIONS_OF_MOVES[fn](zid)
        if zid in r.zones:
            return _zone_value(fn, zid, r)
        return None
    if name in _STATE_NAMES:
        return _STATE_NAMES[name]
    for m in MECHANICS.values():
        get = m.names().get(name)
        if get is not None:
            return get
    return None


class Env(Mapping):
    """A lazy mapping of names to values for `Expr.evaluate`."""

    def __init__(self, state, seat: int, extra: Mapping | None = None):
        self.state, self.seat = state, seat
        self.known = dict(extra) if extra else {}     # the names given, then each value read once
        self.getters = rules(state.spec).env_getters

    def __getitem__(self, name: str):
        try:
            return self.known[name]
        except KeyError:
            pass
        get = self.getters.get(name)
        if get is None:
            st = self.state
            get = self.getters[name] = _getter(rules(st.spec), st.spec, name)
            if get is None:
                del self.getters[name]
                raise KeyError(name)
        # an Env lives for one evaluation, in which the state does not change: a name read
        # for every card of a count() is worked out once
        value = self.known[name] = get(self.state, self.seat)
        return value

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0


def evaluate(expr, state, seat: int, **extra):
    return expr.evaluate(Env(state, seat, extra))
