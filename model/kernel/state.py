"""The state of a game: zones and counters the spec declares, and the kernel's own bookkeeping.

A `State` is an immutable value. Zones and counters are held in the order the spec
declares them (`rules.zones`, `rules.counters`); a zone or counter of `each` player holds
a tuple with one value per seat. Zone values by kind:

    hand    a tuple of counts, one per card type (a multiset)
    pile    a tuple of card type indices, bottom first, top last
    melds   a tuple of groups, each a sorted tuple of card type indices, oldest first

The kernel's own fields: the seed of its random streams, the round (deals so far, from
1), the dealer, the seat to play, the phase (a phase id of the spec, or "over"), the
turns finished this round, the lays made this turn, the inputs (facts of each round the
kernel is told, such as whether a deal was exact), how often the stock was refilled this
round, the results of finished rounds and, at the end, the winners.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .rules import Rules, rules

OVER = "over"


@dataclass(frozen=True)
class Refusal:
    """A move the rules do not allow, with the clauses that forbid it."""

    clauses: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class RoundResult:
    round: int
    dealer: int
    went_out: int | None                   # None: the round ended without anyone going out
    turns_finished: int                    # turns finished before the one that ended the round
    how: str                               # went_out, stock_empty, nothing_left, stalled
    void: bool                             # the round counted for nothing
    replayed: bool                         # ... and is dealt again
    shared: tuple[tuple[str, int], ...]    # the shared counters while the round was played
    hands: tuple[tuple[int, ...], ...]     # what each player held at the end (counts)
    laid: tuple[tuple[int, ...], ...]      # what each player had laid (sorted card indices)
    terms: tuple[tuple[str, tuple[int, ...]], ...]   # each scoring term, per player
    bonus: tuple[int, ...]
    scores: tuple[int, ...]                # the round's score of each player, bonus included
    advanced: tuple[tuple[str, Any], ...]  # counters changed by the round end, after the change
    reshuffles: int = 0
    also_out: tuple[int, ...] = ()         # others who went out in the last turns and count as out
    own: tuple[tuple[str, tuple[Any, ...]], ...] = ()   # each player's own counters while the round was played

    def to_json(self) -> dict:
        out: dict[str, Any] = {"round": self.round}
        out.update(dict(self.shared))
        out.update({"went_out": self.went_out, "how": self.how, "void": self.void,
                    "turns_finished": self.turns_finished})
        for name, values in self.terms:
            out[name] = list(values)
        if any(self.bonus):
            out["bonus"] = list(self.bonus)
        elif self.terms:
            out["bonus"] = list(self.bonus)
        if self.terms:
            out["scores"] = list(self.scores)
        if self.replayed:
            out["replayed"] = True
        if self.also_out:
            out["also_out"] = list(self.also_out)
        if self.advanced:
            out["advanced"] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.advanced}
        return out


@dataclass(frozen=True)
class State:
    seed: int
    round: int
    dealer: int
    current: int
    phase: str
    turns_finished: int
    players: int
    zones: tuple                           # values in rules.zones order
    counters: tuple                        # values in rules.counters order
    inputs: tuple = ()                     # each input: (id, values for rounds 1, 2, ..., value for later rounds)
    lays_this_turn: int = 0
    reshuffles: int = 0
    results: tuple[RoundResult, ...] = ()
    winners: tuple[int, ...] = ()
    spec: Any = field(default=None, compare=False, repr=False)
    finished: tuple[int, ...] = ()         # seats that finished this round while others play last turns
    direction: int = 1                     # 1: play goes the way turn.direction says; -1: reversed
    pending: tuple = ()                    # effects kept for the turn's end: (("again", 1), ("draw", N), ("skip", N))

    def replace(self, **changes) -> "State":
        """A copy with these fields changed (what dataclasses.replace does, without its
        per-call introspection: states are copied at every step of play)."""
        new = object.__new__(State)
        d = new.__dict__
        d.update(self.__dict__)
        d.pop("_can", None)                 # what can(MOVE) answered (see common.can) is this state's alone
        d.update(changes)
        return new

    @property
    def n(self) -> int:
        return self.players

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def rules(self) -> Rules:
        return rules(self.spec)

    # ---- zones and counters -------------------------------------------------------------
    def zone(self, zid: str, seat: int | None = None):
        z = rules(self.spec).zones[zid]
        v = self.zones[z.index]
        if z.each:
            return v[self.current if seat is None else seat]
        return v

    def counter(self, cid: str, seat: int | None = None) -> int:
        c = rules(self.spec).counters[cid]
        v = self.counters[c.index]
        if c.each:
            return v[self.current if seat is None else seat]
        return v

    def input(self, iid: str):
        """This round's value of an input, or None when nobody said."""
        for name, values, later in self.inputs:
            if name == iid:
                v = values[self.round - 1] if 0 < self.round <= len(values) else later
                return v
        return None

    def _set(self, slots: tuple, decl, value, seat: int | None) -> tuple:
        """`slots` (the zones or the counters) with `decl`'s slot set to value (the seat's,
        for a per-seat zone or counter: the player to move's unless named)."""
        out = list(slots)
        if decl.each:
            seats = list(out[decl.index])
            seats[self.current if seat is None else seat] = value
            out[decl.index] = tuple(seats)
        else:
            out[decl.index] = value
        return tuple(out)

    def with_zone(self, zid: str, value, seat: int | None = None) -> "State":
        return _replace(self, zones=self._set(self.zones, rules(self.spec).zones[zid], value, seat))

    def with_zones(self, changes, **fields) -> "State":
        """One copy with several zones set, as [(zone, value, seat or None)], and these fields."""
        zones, r = self.zones, rules(self.spec)
        for zid, value, seat in changes:
            zones = self._set(zones, r.zones[zid], value, seat)
        return self.replace(zones=zones, **fields)

    def with_counter(self, cid: str, value: int, seat: int | None = None) -> "State":
        return _replace(self, counters=self._set(self.counters, rules(self.spec).counters[cid], value, seat))

    def hand(self, seat: int | None = None) -> tuple[int, ...]:
        return self.zone(rules(self.spec).hand.id, seat)

    def laid(self, seat: int | None = None) -> tuple[int, ...]:
        """Every card a player has laid this round, sorted."""
        lay = rules(self.spec).lay_move()
        if lay is None:
            return ()
        return tuple(sorted(c for g in self.zone(lay.f["to"], seat) for c in g))

    def down(self, seat: int | None = None) -> bool:
        """Whether a player has laid this round (their contract, where there is one)."""
        lay = rules(self.spec).lay_move()
        return bool(lay is not None and self.zone(lay.f["to"], seat))

    @property
    def scores(self) -> tuple[int, ...]:
        into = (rules(self.spec).get("scoring") or {}).get("into") if isinstance(rules(self.spec).get("scoring"), Mapping) else None
        if into is None:
            return ()
        return tuple(self.counter(into, s) for s in range(self.players))


def _replace(state: State, **changes) -> State:
    return state.replace(**changes)


# ---- hands: counts by card type ---------------------------------------------------------

def counts(cards, width: int) -> tuple[int, ...]:
    out = [0] * width
    for c in cards:
        out[c] += 1
    return tuple(out)


def add(hand, cards) -> tuple[int, ...]:
    h = list(hand)
    for c in cards:
        h[c] += 1
    return tuple(h)


def remove(hand, cards) -> tuple[int, ...] | None:
    """The hand without these cards, or None when it does not hold them all."""
    h = list(hand)
    for c in cards:
        if not 0 <= c < len(h):
            return None
        h[c] -= 1
        if h[c] < 0:
            return None
    return tuple(h)


def cards_of(hand) -> list[int]:
    return [t for t, n in enumerate(hand) for _ in range(n)]
