"""The names a spec expression may read, for one player in one state.

    players, seat, is_dealer, round, turns_finished, turn (= turns_finished + 1)
    each counter (the player's own value for a counter of each player)
    each input (this round's value), the spec's params
    size(ZONE), points(ZONE)   cards in a zone, and their printed values (the player's own zone)
    down                       the player has laid this round
    went_out                   the player went out (at the end of a round)
    contract_cards             cards the player's contract asks for (0 without one)
    able                       the player could rearrange the table now (model/kernel/table.py)
    most_drawn                 the most cards the player's counters let one turn's draw bring
                               (each draw move at every unit its costs allow; without a cost,
                               the whole deck)

Values are computed when an expression reads them.
"""
from __future__ import annotations

from collections.abc import Mapping

from .rules import Undecided, rules
from . import vocabulary as V


def zone_size(zone, value) -> int:
    if zone.kind == "hand":
        return sum(value)
    if zone.kind in ("melds", "table"):
        return sum(len(g) for g in value)
    if zone.kind == "board":
        return sum(1 for v in value if v >= 0)
    return len(value)


def zone_points(spec, zone, value) -> int:
    types = spec.cards.types
    if zone.kind == "hand":
        return sum(n * types[t].value for t, n in enumerate(value))
    if zone.kind in ("melds", "table"):
        return sum(types[c].value for g in value for c in g)
    if zone.kind == "layout":
        return sum(types[c].value for c, _ in value)
    if zone.kind == "board":
        return 0
    return sum(types[c].value for c in value)


def contract_cards(state, seat: int) -> int:
    r = rules(state.spec)
    lay = r.lay_move()
    if lay is None or lay.f.get("contract") is None:
        return 0
    which = lay.f["contract"]
    value = state.counter(which, seat) if which in r.counters else None
    key = ("contract_cards", value)
    if key not in r._memo:
        c = r.contract(value, lay)
        r._memo[key] = sum(s.size for s in c.required) if c is not None else 0
    return r._memo[key]


def _draws(r) -> list[tuple]:
    """Each draw move as (cards a unit brings, {counter: cost of a unit}, whether units vary)."""
    if ("draws",) not in r._memo:
        r._memo[("draws",)] = [
            (sum(int(n) for n in m.f["from"].values()),
             {cnt: int(c) for cnt, c in (m.f.get("cost") or {}).items() if int(c) > 0},
             m.f.get("units") is not None)
            for m in r.moves.values() if m.mechanic == "draw"]
    return r._memo[("draws",)]


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
    if fn == "size":
        return lambda st, seat: zone_size(z, st.zone(zid, seat))
    return lambda st, seat: zone_points(st.spec, z, st.zone(zid, seat))


_STATE_NAMES = {
    "players": lambda st, seat: st.players,
    "seat": lambda st, seat: seat,
    "is_dealer": lambda st, seat: seat == st.dealer,
    "turns_finished": lambda st, seat: st.turns_finished,
    "turn": lambda st, seat: st.turns_finished + 1,
    "round": lambda st, seat: st.round,
    "down": lambda st, seat: st.down(seat),
    "went_out": lambda st, seat: False,
    "contract_cards": contract_cards,
    "most_drawn": most_drawn,
    "able": lambda st, seat: _able(st, seat),
}


def _able(state, seat: int) -> bool:
    from .table import able
    return able(state, seat)


def _getter(r, spec, name: str):
    """How to read one name in any state of this spec (None: the name means nothing here)."""
    if name in r.counters:
        return lambda st, seat: st.counter(name, seat)
    if name in r.inputs:
        return _input(name)
    if name in spec.params:
        value = spec.params[name]
        return lambda st, seat: value
    if name.endswith(")") and "(" in name:
        fn, zid = name[:-1].split("(", 1)
        if fn in ("size", "points") and zid in r.zones:
            return _zone_value(fn, zid, r)
        if fn == "lines" and zid in r.zones and r.zones[zid].kind == "board":
            from .board import lines_of

            return lambda st, seat: lines_of(st, zid, seat)
        return None
    return _STATE_NAMES.get(name)


class Env(Mapping):
    """A lazy mapping of names to values for `Expr.evaluate`."""

    def __init__(self, state, seat: int, extra: Mapping | None = None):
        self.state, self.seat = state, seat
        self.extra = dict(extra) if extra else None
        self.getters = rules(state.spec).env_getters

    def __getitem__(self, name: str):
        if self.extra and name in self.extra:
            return self.extra[name]
        get = self.getters.get(name)
        if get is None:
            st = self.state
            get = self.getters[name] = _getter(rules(st.spec), st.spec, name)
            if get is None:
                del self.getters[name]
                raise KeyError(name)
        return get(self.state, self.seat)

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0


def evaluate(expr, state, seat: int, **extra):
    return expr.evaluate(Env(state, seat, extra))
