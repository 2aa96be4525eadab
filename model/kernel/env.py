"""The names a spec expression may read, for one player in one state.

    players, seat, is_dealer, round, turns_finished, turn (= turns_finished + 1)
    each counter (the player's own value for a counter of each player)
    each input (this round's value), the spec's params
    size(ZONE), points(ZONE)   cards in a zone, and their printed values (the player's own zone)
    down                       the player has laid this round
    went_out                   the player went out (at the end of a round)
    contract_cards             cards the player's contract asks for (0 without one)
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
    if zone.kind == "melds":
        return sum(len(g) for g in value)
    return len(value)


def zone_points(spec, zone, value) -> int:
    types = spec.cards.types
    if zone.kind == "hand":
        return sum(n * types[t].value for t, n in enumerate(value))
    if zone.kind == "melds":
        return sum(types[c].value for g in value for c in g)
    return sum(types[c].value for c in value)


def contract_cards(state, seat: int) -> int:
    r = rules(state.spec)
    lay = r.lay_move()
    if lay is None or lay.f.get("contract") is None:
        return 0
    which = lay.f["contract"]
    value = state.counter(which, seat) if which in r.counters else None
    c = r.contract(value, lay)
    return sum(s.size for s in c.required) if c is not None else 0


def most_drawn(state, seat: int) -> int:
    r = rules(state.spec)
    best = 0
    for m in r.moves.values():
        if m.mechanic != "draw":
            continue
        per_unit = sum(int(n) for n in m.f["from"].values())
        cost = {cnt: int(c) for cnt, c in (m.f.get("cost") or {}).items() if int(c) > 0}
        if m.f.get("units") is None:                 # one unit a move
            units = 1 if all(state.counter(cnt, seat) >= c for cnt, c in cost.items()) else 0
        elif cost:                                   # every unit the counters pay for
            units = min(state.counter(cnt, seat) // c for cnt, c in cost.items())
        else:                                        # free units: nothing bounds the hand but the deck
            return len(r.deck(state.players))
        best = max(best, units * per_unit)
    return best


class Env(Mapping):
    """A lazy mapping of names to values for `Expr.evaluate`."""

    def __init__(self, state, seat: int, extra: Mapping | None = None):
        self.state, self.seat = state, seat
        self.extra = dict(extra or {})

    def __getitem__(self, name: str):
        if name in self.extra:
            return self.extra[name]
        st, seat = self.state, self.seat
        r = rules(st.spec)
        if name in r.counters:
            return st.counter(name, seat)
        if name in r.inputs:
            v = st.input(name)
            if v is None:
                v = r.inputs[name].default
            if v is None:
                raise Undecided(V.question(f"inputs.{name}.default"), f"inputs.{name}.default",
                                f"{name} in round {st.round}")
            return bool(v)
        if name in st.spec.params:
            return st.spec.params[name]
        if name.endswith(")") and "(" in name:
            fn, zid = name[:-1].split("(", 1)
            z = r.zones[zid]
            value = st.zone(zid, seat)
            return zone_size(z, value) if fn == "size" else zone_points(st.spec, z, value)
        if name == "players":
            return st.players
        if name == "seat":
            return seat
        if name == "is_dealer":
            return seat == st.dealer
        if name == "turns_finished":
            return st.turns_finished
        if name == "turn":
            return st.turns_finished + 1
        if name == "round":
            return st.round
        if name == "down":
            return st.down(seat)
        if name == "went_out":
            return False
        if name == "contract_cards":
            return contract_cards(st, seat)
        if name == "most_drawn":
            return most_drawn(st, seat)
        raise KeyError(name)

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0


def evaluate(expr, state, seat: int, **extra):
    return expr.evaluate(Env(state, seat, extra))
