"""The Tick game engine: whole games played move by move, every rule read from the spec.

State is an immutable value (`State`, frozen dataclasses of tuples) that round-trips
through JSON. A turn is three kinds of move, each a small value:

    Draw(kind="stock")            take the top stock card
    Draw(kind="tick", count=k)    take k face-up cards from the pile, paying per card what
                                  the `tick` clause prices (chips, stock cards)
    Lay(cards=(i, j, ...))        lay these cards (card type indices) in front of oneself;
                                  the engine finds how they split into melds with
                                  `reference.decide` and refuses the lay if no split is legal;
                                  a turn may hold several lays if the spec allows it
    Discard(card=i)               the compulsory discard; it ends the turn, and ends the
                                  level when it empties the hand (going out)

`apply(state, move)` returns the next State, or a `Refusal` naming the clauses the move
breaks. `legal_moves(state)` is compact: every draw, every distinct discard, and for the
lay the lay-down `reference.best_lay` finds (discarding directly is "lay nothing").

Nothing about Tick is written here: deal size and order, seating, chips, tick price and
what a tick needs, packs, levels, when cards may be laid, going out and when, scoring,
bonus, dealer rotation, the empty stock and game end all come from the clauses in force
(`Rules` reads each field and remembers which clause gave it). Where the rulebook is
silent the spec names an assumption clause; a formal value the engine does not know, or
a field no clause gives, raises `EngineError` rather than guessing.

Which decisions rest on assumptions and readings: `apply_traced(state, move)` applies a
move and returns, beside the outcome, each assumption clause the engine consulted where
it decided something, and each clause with readings whose other readings would have
given another outcome (found by replaying the move under each of them).
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence, Union

from . import reference
from .expr import parse as parse_expr
from .spec import ENGINE_NAMES, Spec, derived, load as load_spec


class EngineError(ValueError):
    """The spec says something the engine does not know how to play."""


# ---------------------------------------------------------------------------------------
# moves


@dataclass(frozen=True)
class Draw:
    kind: str = "stock"            # "stock" or "tick"
    count: int = 1                 # face-up cards taken by a tick

    def to_json(self):
        return {"move": "draw", "kind": self.kind, "count": self.count}


@dataclass(frozen=True)
class Lay:
    cards: tuple[int, ...]         # card type indices, sorted

    def __post_init__(self):
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def to_json(self):
        return {"move": "lay", "cards": list(self.cards)}


@dataclass(frozen=True)
class Discard:
    card: int

    def to_json(self):
        return {"move": "discard", "card": self.card}


Move = Union[Draw, Lay, Discard]


def move_from_json(d: Mapping) -> Move:
    if d["move"] == "draw":
        return Draw(d["kind"], d.get("count", 1))
    if d["move"] == "lay":
        return Lay(tuple(d["cards"]))
    return Discard(d["card"])


@dataclass(frozen=True)
class Refusal:
    """A move the rules do not allow, with the clauses that forbid it."""

    clauses: tuple[str, ...]
    why: str


# ---------------------------------------------------------------------------------------
# state


@dataclass(frozen=True)
class PlayerState:
    hand: tuple[int, ...]                  # counts by card type
    chips: int
    lays: tuple[tuple[int, ...], ...] = ()  # each lay of this level: sorted card type indices
    score: int = 0                         # total of finished levels

    @property
    def laid(self) -> tuple[int, ...]:
        return tuple(sorted(c for lay in self.lays for c in lay))

    @property
    def down(self) -> bool:
        return bool(self.lays)


@dataclass(frozen=True)
class LevelResult:
    level: int
    dealer: int
    went_out: int | None                   # None: the level ended without anyone going out
    turns_finished: int                    # turns finished before the one that ended the level
    exact_deal: bool
    hands: tuple[tuple[int, ...], ...]     # what each player held at the end
    laid: tuple[tuple[int, ...], ...]      # what each player had laid (sorted card indices)
    laid_points: tuple[int, ...]
    hand_points: tuple[int, ...]
    bonus: tuple[int, ...]
    scores: tuple[int, ...]                # the level's score of each player, bonus included
    void: bool = False                     # the level counted for nothing
    how: str = ""                          # went_out, stock_empty, nothing_to_draw or stalled
    reshuffles: int = 0                    # how often the stock was refilled in the level


@dataclass(frozen=True)
class State:
    seed: int
    level: int
    dealer: int
    current: int
    phase: str                             # "draw", "play" (lay or discard), "over"
    turns_finished: int                    # in this level
    players: tuple[PlayerState, ...]
    stock: tuple[int, ...]                 # card type indices, top = last
    face_up: tuple[int, ...]               # top = last
    reshuffles: int = 0                    # in this level
    exact_deals: tuple[bool, ...] = ()     # per level, from 1
    results: tuple[LevelResult, ...] = ()
    winners: tuple[int, ...] = ()
    spec: Spec | None = field(default=None, compare=False, repr=False)
    lays_this_turn: int = 0                # lays made in the turn being played

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.players)

    # ---- JSON -------------------------------------------------------------------------
    def to_json(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "spec"}
        d["players"] = [dataclasses.asdict(p) for p in self.players]
        d["results"] = [dataclasses.asdict(r) for r in self.results]
        s = self.spec
        d["spec"] = {"game": s.game, "file": s.file, "readings": dict(s.chosen)} if s else None
        return json.loads(json.dumps(d))

    @classmethod
    def from_json(cls, d: Mapping, spec: Spec | None = None) -> "State":
        if spec is None and d.get("spec"):
            info = d["spec"]
            src = info["game"] if info["file"].startswith("spec/") else info["file"]
            spec = load_spec(src, info["readings"])

        def tup(x):
            return tuple(tup(v) for v in x) if isinstance(x, list) else x

        players = tuple(PlayerState(tup(p["hand"]), p["chips"], tup(p["lays"]), p["score"]) for p in d["players"])
        results = tuple(LevelResult(**{k: tup(v) for k, v in r.items()}) for r in d["results"])
        return cls(d["seed"], d["level"], d["dealer"], d["current"], d["phase"], d["turns_finished"], players,
                   tup(d["stock"]), tup(d["face_up"]), d.get("reshuffles", 0), tup(d.get("exact_deals", [])),
                   results, tup(d.get("winners", [])), spec, d.get("lays_this_turn", 0))


# ---------------------------------------------------------------------------------------
# what the engine's decisions rest on


@dataclass(frozen=True)
class Basis:
    """One assumption or reading a decision rested on.

    `reading` is the reading in force (None for an assumption without readings);
    `otherwise` maps each other reading that would have decided differently to what the
    move would then have done ("legal", "refused (clauses)", "legal, another outcome")."""

    clause: str
    decided: str
    reading: str | None = None
    otherwise: Mapping[str, str] = field(default_factory=dict)
    part: str = "move"                # "move": the move's own verdict; "deal": a new level's deal

    def to_json(self) -> dict:
        return {"clause": self.clause, "decided": self.decided, "reading": self.reading,
                "otherwise": dict(self.otherwise), "part": self.part}


_trace: list | None = None        # while tracing: (clause id, what it decided), in order
_explain = True                   # False while replaying under other readings: verdicts only


def _rest(cid: str | None, decided: str, part: str = "move") -> None:
    """Note that a decision consulted clause `cid` (only while tracing)."""
    if _trace is not None and cid is not None:
        _trace.append((cid, decided, part))


@contextmanager
def _tracing(on: bool, explain: bool = True):
    global _trace, _explain
    saved = _trace, _explain
    _trace, _explain = ([] if on else None), explain
    try:
        yield _trace
    finally:
        _trace, _explain = saved


_alt_specs: dict[tuple, Spec] = {}


def alt_spec(spec: Spec, cid: str, reading: str) -> Spec:
    """The same spec with clause `cid` read as `reading` (cached)."""
    choices = dict(spec.chosen, **{cid: reading})
    key = (spec.file, tuple(sorted(choices.items())))
    s = _alt_specs.get(key)
    if s is None:
        src = spec.game if spec.file.startswith("spec/") else spec.file
        s = _alt_specs[key] = load_spec(src, choices)
    return s


def _word(result) -> str:
    if isinstance(result, Refusal):
        return f"refused ({', '.join(result.clauses)})"
    return "legal"


def traced(spec: Spec, run: Callable[[Spec], Any]) -> tuple[Any, list[Basis]]:
    """Run `run(spec)` (a move, a deal) and say which assumptions and readings its
    outcome rests on: every assumption clause consulted, and every clause with readings
    consulted whose other readings change the outcome of `run(other spec)`."""
    with _tracing(True) as seen:
        result = run(spec)
    out: list[Basis] = []
    done: set[str] = set()
    for cid, decided, part in seen:
        if cid in done or cid not in spec.clauses:
            continue
        done.add(cid)
        c = spec.clauses[cid]
        if c.readings:
            otherwise = {}
            for name in c.readings:
                if name == spec.chosen[cid]:
                    continue
                with _tracing(False, explain=False):
                    other = run(alt_spec(spec, cid, name))
                a_ref, b_ref = isinstance(result, Refusal), isinstance(other, Refusal)
                if a_ref != b_ref:
                    otherwise[name] = _word(other)
                elif not a_ref and other != result:
                    otherwise[name] = "legal, another outcome"
            if otherwise:
                out.append(Basis(cid, decided, spec.chosen[cid], otherwise, part))
        elif c.assumption:
            out.append(Basis(cid, decided, part=part))
    return result, out


def apply_traced(state: State, move: Move) -> tuple[Union[State, Refusal], list[Basis]]:
    """`apply`, and the assumptions and readings the outcome rests on."""
    return traced(state.spec, lambda s: apply(dataclasses.replace(state, spec=s), move))


def new_game_traced(spec: Spec, players: int, seed: int, dealer: int = 0, exact_deal=False):
    """`new_game`, and the assumptions and readings the deal rests on."""
    return traced(spec, lambda s: new_game(s, players, seed, dealer, exact_deal))


# ---------------------------------------------------------------------------------------
# the rules in force, read once per spec

_NEEDED = object()
_meld_keys: dict[tuple, int] = {}


class Rules:
    """The formal content the engine plays by, with the clause each part comes from.

    Each value is one field of a formal key (`tick.max_face_up`, `stock_empty.when`); the
    fields of one key may come from several clauses (the stock-empty rule from one, when
    it applies from another). `clause[key]` is the first clause giving the key,
    `clause["key.field"]` the clause giving that field."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.clause: dict[str, str] = {}
        v = self.field

        cards = spec.cards
        self.types = cards.types
        self.min_players, self.max_players = v("players", "min"), v("players", "max")
        cid, self.decks = spec.rule("decks")
        if cid is None:
            raise EngineError("the spec has no clause with 'decks'")
        self.clause["decks"] = cid
        cid, pack = spec.rule("pack")
        if cid is None:
            raise EngineError("the spec has no clause with 'pack'")
        self.clause["pack"] = cid
        self.pack = [0] * len(self.types)
        for t in self.types:
            if t.natural:
                self.pack[t.index] = int(pack["naturals"])
            elif t.wild:
                self.pack[t.index] = int(pack["wilds"][t.token])
            else:
                self.pack[t.index] = int(pack.get("specials", {}).get(t.token, 0))
        # chips
        self.chips = int(v("chips", "per_player"))
        self.chips_renewed = v("chips", "renewed", "never", ("never", "each_level"))
        # seating and the deal
        side = v("turn", "next_seat", allowed=("left", "right"))
        direction = v("turn", "direction", allowed=("left", "right"))
        self.step = 1 if direction == side else -1
        self.dealer_next = v("dealer", "next", allowed=("left", "right", "same"))
        self.cards_each, self.deal_face_up = int(v("deal", "cards_each")), int(v("deal", "face_up"))
        self.deal_first = v("deal", "first", allowed=("left_of_dealer", "dealer"))
        self.deal_order = v("deal", "order", allowed=("one_at_a_time", "all_at_once"))
        v("deal", "exact_deal", allowed=("input",))
        self.turn_first = v("turn", "first", allowed=("left_of_dealer", "dealer"))
        v("turn", "count", allowed=("per_level",))
        v("turn", "finished_by", allowed=("discard",))
        # the draw and the tick
        self.stock_draw = int(v("draw", "stock", 1))
        v("draw", "face_up_from", allowed=("top",))
        self.tick_face_up, self.tick_stock = int(v("tick", "face_up")), int(v("tick", "stock"))
        self.tick_chips = int(v("tick", "chips"))
        mx = v("tick", "max_face_up", "many")
        self.tick_max = None if mx == "many" else int(mx)
        self.tick_needs_stock = int(v("tick_needs", "stock", 0))
        self.tick_needs_per = v("tick_needs", "per", allowed=("face_up_card", "tick")) \
            if self.tick_needs_stock else "face_up_card"
        # laying
        self.discard_count = int(v("discard", "count", 1))
        if self.discard_count != 1 or not v("discard", "required", True):
            raise EngineError("the engine plays exactly one compulsory discard per turn")
        self.requires_level = bool(v("lay", "requires_level", True))
        self.lays_per_turn = v("lay", "per_turn", allowed=("many", "one"))
        self.lay_compulsory = bool(v("lay", "compulsory"))
        onto = v("lay_off", "onto", None, ("any_player",))
        self.lay_off = onto is not None
        self.match_attr = v("lay_off", "match") if self.lay_off else None
        if self.lay_off and self.match_attr not in spec.cards.attributes:
            raise EngineError(f"lay_off match {self.match_attr!r} is not an attribute of the cards")
        self.lay_off_when = v("lay_off", "when", allowed=("after_level", "with_level")) if self.lay_off else None
        # going out
        self.go_out_discard = v("go_out", "discard", "required", ("required", "optional"))
        when = v("go_out", "when", None)
        self.go_out_when = parse_expr(when, ENGINE_NAMES[("go_out", "when")] + tuple(spec.params)) \
            if when is not None else None
        # the empty stock
        self.stock_empty = v("stock_empty", "then", allowed=("reshuffle_face_up", "end_level"))
        self.refill_when = v("stock_empty", "when", allowed=("next_draw", "when_emptied"))
        self.nothing_left = v("stock_empty", "nothing_left", allowed=("end_level", "void")) \
            if self.stock_empty == "reshuffle_face_up" else "end_level"
        # scoring and the end
        self.scoring = parse_expr(v("scoring", "level"), ENGINE_NAMES[("scoring", "level")] + tuple(spec.params))
        v("scoring", "laid_points", allowed=("face_points",))
        v("scoring", "hand_points", allowed=("face_points",))
        bonus_to = v("bonus", "to", None, ("dealer",))
        self.bonus_points = int(v("bonus", "points")) if bonus_to else 0
        if bonus_to:
            v("bonus", "when", allowed=("exact_deal",))
        v("game_end", "winner", allowed=("most_points",))
        self.last_level = int(v("game_end", "after_level"))
        v("tie", "then", "shared", ("shared",))
        v("level_end", "next", "all_players", ("all_players",))
        self.stalled = v("level_end", "stalled", allowed=("score", "void"))
        self.levels = sorted(int(x) for x in spec.levels())
        if self.last_level not in self.levels:
            raise EngineError(f"the game ends after level {self.last_level}, which the spec does not define")
        for key in ("levels", "laid", "game_end", "tie", "level_end", "discard", "lay", "draw", "tick", "deal"):
            self.clause.setdefault(key, spec.rule(key)[0])
        # what meld decisions depend on, interned: specs that differ only in turn rules share it
        sig = (tuple(sorted(spec.meld_kinds.items())), tuple(sorted(spec.params.items())),
               tuple((c.token, c.value, c.wild, c.special, tuple(sorted(c.attrs.items(), key=str))) for c in self.types))
        self.meld_key = _meld_keys.setdefault(sig, len(_meld_keys))

    def field(self, key: str, name: str, default: Any = _NEEDED, allowed: tuple | None = None) -> Any:
        """The value of `key.name` from the first clause in force that gives it."""
        for cid, f in self.spec.rules(key):
            self.clause.setdefault(key, cid)
            if isinstance(f, Mapping) and name in f:
                value = f[name]
                self.clause[f"{key}.{name}"] = cid
                if allowed is not None and value not in allowed:
                    raise EngineError(f"{key}.{name}: {value!r} (clause {cid}); the engine knows "
                                      f"{', '.join(map(repr, allowed))}")
                return value
        if default is _NEEDED:
            raise EngineError(f"no clause of the spec gives {key}.{name}, and the engine cannot play without "
                              "it: name it in a clause (an assumption if the rulebook is silent)")
        return default

    def c(self, key: str) -> str | None:
        """The clause that gives `key` (a formal key, or "key.field")."""
        return self.clause.get(key) or self.clause.get(key.split(".")[0])

    def packs(self, players: int) -> int:
        for row in self.decks:
            lo, hi = row["players"]
            if lo <= players <= hi:
                return int(row["packs"])
        raise EngineError(f"the decks clause gives no pack count for {players} players")

    def deck(self, players: int) -> list[int]:
        k = self.packs(players)
        return [t for t, n in enumerate(self.pack) for _ in range(n * k)]

    def deck_size(self, players: int) -> int:
        return sum(self.pack) * self.packs(players)

    def contract(self, level: int):
        return self.spec.contract(level=level)

    def extras(self, level: int):
        c = self.contract(level)
        return dataclasses.replace(c, required=(), distinct=())

    def next_seat(self, seat: int, n: int) -> int:
        return (seat + self.step) % n

    def first_player(self, dealer: int, n: int) -> int:
        return self.next_seat(dealer, n) if self.turn_first == "left_of_dealer" else dealer

    def next_dealer(self, dealer: int, n: int) -> int:
        return {"left": (dealer + self.step) % n, "right": (dealer - self.step) % n, "same": dealer}[self.dealer_next]

    def may_go_out(self, turns_finished: int, players: int, level: int) -> bool:
        if self.go_out_when is None:
            return True
        _rest(self.c("go_out.when"), "whether the player may go out yet")
        _rest(self.c("turn.count"), "how the turns played so far are counted")
        env = dict(self.spec.params, turns_finished=turns_finished, players=players, turn=turns_finished + 1,
                   level=level)
        return bool(self.go_out_when.evaluate(env))


def rules(spec: Spec) -> Rules:
    return derived(spec, "engine rules", Rules)


def assumptions(spec: Spec) -> dict[str, str]:
    """The assumption clauses and the clauses with readings the engine plays by, id -> says
    (what ENGINE_ASSUMPTIONS used to list, now read from the spec)."""
    r = rules(spec)
    used = dict.fromkeys(r.clause.values())
    for c in r.contract(r.levels[0]).clauses:
        used.setdefault(c)
    return {cid: spec.clauses[cid].says for cid in used
            if cid in spec.clauses and (spec.clauses[cid].assumption or spec.clauses[cid].readings)}


# ---------------------------------------------------------------------------------------
# helpers


def _counts(cards: Sequence[int], width: int) -> tuple[int, ...]:
    out = [0] * width
    for c in cards:
        out[c] += 1
    return tuple(out)


def _add(hand, cards):
    h = list(hand)
    for c in cards:
        h[c] += 1
    return tuple(h)


def _remove(hand, cards):
    h = list(hand)
    for c in cards:
        if not 0 <= c < len(h):
            return None
        h[c] -= 1
        if h[c] < 0:
            return None
    return tuple(h)


def _cards(hand) -> list[int]:
    return [t for t, n in enumerate(hand) for _ in range(n)]


def _rng(seed: int, level: int, what: str = "deal", n: int = 0) -> random.Random:
    if level == 1 and what == "deal" and n == 0:
        return random.Random(seed)
    return random.Random(f"tick-engine:{seed}:{level}:{what}:{n}")


def laid_values(state: State) -> set:
    """The match-attribute values laid by anyone this level (for matching cards)."""
    r = rules(state.spec)
    out = set()
    if not r.match_attr:
        return out
    for p in state.players:
        for lay in p.lays:
            for c in lay:
                t = r.types[c]
                if t.natural:
                    out.add(t.attrs[r.match_attr])
    return out


_best_cache: dict[tuple, Any] = {}


def _best(spec: Spec, contract, hand: tuple):
    """The best lay-down of `hand` for `contract` as `reference.best_lay` finds it (None if
    there is none), without asking why one fails; cached by what decides it."""
    key = (rules(spec).meld_key, contract, hand)
    if key in _best_cache:
        return _best_cache[key]
    v = reference.best_lay(spec, dataclasses.replace(contract, clauses=()), hand)
    if len(_best_cache) > 50_000:
        _best_cache.clear()
    _best_cache[key] = out = v if v.legal else None
    return out


def _decide(spec: Spec, contract, hand: tuple):
    """`reference.decide`; without the explanation of a failure when replaying under
    another reading (only the verdict counts there)."""
    if _explain:
        return reference.decide(spec, contract, hand)
    return reference.decide(spec, dataclasses.replace(contract, clauses=()), hand)


def _rest_melds(spec: Spec, contract, decided: str) -> None:
    if _trace is None:
        return
    for cid in contract.clauses:
        c = spec.clauses.get(cid)
        if c is not None and (c.readings or c.assumption):
            _rest(cid, decided)


# ---------------------------------------------------------------------------------------
# the deal


def new_game(spec: Spec, players: int, seed: int, dealer: int = 0,
             exact_deal: bool | Sequence[bool] = False) -> State:
    """Deal level 1. `exact_deal`: whether each level's dealer picks up exactly the cards
    the deal needs (one bool for every level, or one per level)."""
    r = rules(spec)
    if not r.min_players <= players <= r.max_players:
        return Refusal((r.c("players"),), f"{players} players; the spec allows {r.min_players}-{r.max_players}")
    if isinstance(exact_deal, bool):
        exacts = (exact_deal,) * len(r.levels)
    else:
        exacts = tuple(bool(x) for x in exact_deal)
        if len(exacts) < len(r.levels):
            exacts += (False,) * (len(r.levels) - len(exacts))
    chips = (r.chips,) * players
    return _check_stalled(_deal(spec, seed, r.levels[0], dealer % players, chips, (0,) * players, exacts, ()), r)


def _deal(spec, seed, level, dealer, chips, scores, exacts, results) -> State:
    r = rules(spec)
    n = len(chips)
    deck = r.deck(n)
    _rest(r.c("pack"), "the cards in the deck", "deal")
    _rest(r.c("deal.order"), "who gets which cards of the shuffled deck", "deal")
    _rest(r.c("turn.next_seat"), "which seat is to the dealer's left", "deal")
    if results:
        _rest(r.c("dealer.next"), "who deals this level", "deal")
    redeal = sum(1 for res in results if res.level == level and res.void)
    _rng(seed, level, "deal", redeal).shuffle(deck)
    width = len(r.types)
    hands = [[] for _ in range(n)]
    first = r.next_seat(dealer, n) if r.deal_first == "left_of_dealer" else dealer
    order = [(first + i * r.step) % n for i in range(n)]
    if r.deal_order == "one_at_a_time":
        for _ in range(r.cards_each):
            for seat in order:
                hands[seat].append(deck.pop())
    else:
        for seat in order:
            for _ in range(r.cards_each):
                hands[seat].append(deck.pop())
    face_up = tuple(deck.pop() for _ in range(r.deal_face_up))
    players = tuple(PlayerState(_counts(h, width), chips[i], (), scores[i]) for i, h in enumerate(hands))
    return State(seed, level, dealer, r.first_player(dealer, n), "draw", 0, players, tuple(deck), face_up, 0,
                 exacts, results, (), spec)


# ---------------------------------------------------------------------------------------
# moves: checking and applying


def apply(state: State, move: Move) -> Union[State, Refusal]:
    """The state after `move`, or a Refusal naming the clauses that forbid it."""
    r = rules(state.spec)
    if state.over:
        return Refusal((r.c("game_end"),), "the game is over")
    if isinstance(move, Draw):
        return _draw(state, r, move)
    if isinstance(move, Lay):
        return _lay(state, r, move)
    if isinstance(move, Discard):
        return _discard(state, r, move)
    raise TypeError(f"not a move: {move!r}")


def _with_player(state: State, i: int, **changes) -> tuple[PlayerState, ...]:
    ps = list(state.players)
    ps[i] = dataclasses.replace(ps[i], **changes)
    return tuple(ps)


def _reshuffle(state: State, r: Rules) -> State | None:
    """The face-up pile but its top card shuffled into a new stock (the stock-empty rule
    `reshuffle_face_up`); None when the pile is too small to make one."""
    if len(state.face_up) <= 1:
        return None
    new_stock = list(state.face_up[:-1]) + list(state.stock)
    _rng(state.seed, state.level, "reshuffle", state.reshuffles).shuffle(new_stock)
    return dataclasses.replace(state, stock=tuple(new_stock), face_up=state.face_up[-1:],
                               reshuffles=state.reshuffles + 1)


def _empty_stock(state: State, r: Rules) -> tuple[State, bool]:
    """A draw finds the stock empty: the stock-empty rule refills it (False), or the level
    ends (True, with the state after the level's end)."""
    _rest(r.c("stock_empty.then"), "what happens when the stock runs out")
    if r.stock_empty == "end_level":
        return _end_level(state, r, None, how="stock_empty"), True
    _rest(r.c("stock_empty.when"), "when the empty stock is refilled")
    refilled = _reshuffle(state, r)
    if refilled is None:
        _rest(r.c("stock_empty.nothing_left"), "what happens when the stock cannot be refilled")
        return _end_level(state, r, None, void=r.nothing_left == "void", how="nothing_to_draw"), True
    return refilled, False


def _after_draw(state: State, r: Rules) -> State:
    """A draw has left the stock empty: refill it at once if the spec says so."""
    if state.stock:
        return state
    _rest(r.c("stock_empty.then"), "what happens when the stock runs out")
    if r.stock_empty != "reshuffle_face_up":
        return state
    _rest(r.c("stock_empty.when"), "when the empty stock is refilled")
    if r.refill_when == "when_emptied":
        return _reshuffle(state, r) or state
    return state


def _draw(state: State, r: Rules, move: Draw):
    if state.phase != "draw":
        return Refusal((r.c("discard"),), "this turn has drawn already; it ends with a discard")
    if move.kind not in ("stock", "tick"):
        return Refusal((r.c("draw"),), f"no draw of kind {move.kind!r}")
    if not state.stock:
        state, ended = _empty_stock(state, r)
        if ended:
            return state
    if move.kind == "stock":
        take = r.stock_draw
        me = state.players[state.current]
        if len(state.stock) < take:
            return Refusal((r.c("draw"), r.c("stock_empty")), "the stock cannot supply the draw")
        cards = state.stock[len(state.stock) - take:]
        ps = _with_player(state, state.current, hand=_add(me.hand, cards))
        after = dataclasses.replace(state, players=ps, stock=state.stock[:len(state.stock) - take], phase="play")
        return _after_draw(after, r)
    return _tick(state, r, move.count)


def _tick(state: State, r: Rules, k: int):
    me = state.players[state.current]
    tick = r.c("tick")
    if k < 1:
        return Refusal((tick,), "a tick takes at least one face-up card")
    if k > 1 or r.tick_max is not None:
        _rest(r.c("tick.max_face_up"), "how many face-up cards one tick may take")
    if r.tick_max is not None and k > r.tick_max:
        return Refusal((r.c("tick.max_face_up"),), f"a tick takes at most {r.tick_max} face-up card(s) under this reading")
    face = k * r.tick_face_up
    if face > len(state.face_up):
        return Refusal((tick,), f"a tick of {k} takes {face} face-up card(s); the pile holds {len(state.face_up)}")
    cost = k * r.tick_chips
    if cost > me.chips:
        return Refusal((r.c("chips"), tick), f"a tick of {k} costs {cost} chip(s); {me.chips} left")
    if len(state.face_up) > face:
        _rest(r.c("draw.face_up_from"), "which face-up cards the tick takes")
    need = k * r.tick_stock
    needs = r.tick_needs_stock * (k if r.tick_needs_per == "face_up_card" else 1)
    have = len(state.stock)
    short = (r.c("tick_needs.stock"), tick) if r.c("tick_needs.stock") else (tick,)
    if have < max(need, needs):
        _rest(r.c("tick_needs.per"), "whether the stock holds enough for the tick")
    if have < needs:
        return Refusal(short, f"a tick of {k} needs {needs} stock card(s) first; the stock holds {have}")
    taken_face = state.face_up[len(state.face_up) - face:]
    face_up = state.face_up[:len(state.face_up) - face]
    stock = state.stock
    if have >= need:
        taken = stock[have - need:]
        stock = stock[:have - need]
        reshuffles = state.reshuffles
    else:
        # the stock runs out during the tick: the rest comes from a refilled stock
        _rest(r.c("stock_empty.then"), "what happens when the stock runs out")
        if r.stock_empty != "reshuffle_face_up":
            return Refusal(short + (r.c("stock_empty.then"),),
                           f"a tick of {k} needs {need} stock card(s); the stock holds {have} and cannot be refilled")
        taken = stock
        mid = _reshuffle(dataclasses.replace(state, stock=(), face_up=face_up), r)
        rest = need - have
        if mid is None or len(mid.stock) < rest:
            return Refusal(short, f"a tick of {k} needs {need} stock card(s); the stock and a refill hold too few")
        taken = taken + mid.stock[len(mid.stock) - rest:]
        stock, face_up, reshuffles = mid.stock[:len(mid.stock) - rest], mid.face_up, mid.reshuffles
    ps = _with_player(state, state.current, hand=_add(me.hand, taken_face + taken), chips=me.chips - cost)
    after = dataclasses.replace(state, players=ps, stock=stock, face_up=face_up, phase="play", reshuffles=reshuffles)
    return _after_draw(after, r)


def _level_lay(state: State, r: Rules, laid: tuple) -> tuple[bool, list]:
    """Whether `laid` may be the lay that puts the level down; the violations if not."""
    spec = state.spec
    contract = r.contract(state.level)
    _rest_melds(spec, contract, "whether the cards make the level")
    v = _decide(spec, contract, laid)
    if r.lay_off:
        _rest(r.c("lay_off.when"), "whether cards matching a laid rank may go down with the level")
    if v.legal or not r.lay_off or r.lay_off_when != "with_level":
        return bool(v.legal), v.violations
    # with_level: some naturals may be matching cards, of a rank on the table or of a
    # rank that stays in this lay's sets
    matched = laid_values(state)
    ranks: dict[Any, list[int]] = {}
    for t, n in enumerate(laid):
        if n and r.types[t].natural:
            ranks.setdefault(r.types[t].attrs[r.match_attr], []).append(t)
    choices = []
    for value, ts in ranks.items():
        total = sum(laid[t] for t in ts)
        most = total if value in matched else total - 1
        choices.append([(value, ts, k) for k in range(0, max(most, 0) + 1)])
    quick = dataclasses.replace(contract, clauses=())
    for combo in sorted(itertools.product(*choices), key=lambda c: sum(x[2] for x in c)):
        if not any(x[2] for x in combo):
            continue
        rest = list(laid)
        for _, ts, k in combo:
            for t in ts:
                take = min(k, rest[t])
                rest[t] -= take
                k -= take
        if reference.decide(spec, quick, tuple(rest)).legal:
            return True, []
    return False, v.violations


def check_lay(state: State, cards: Sequence[int]) -> Refusal | None:
    """Why laying these cards now is not allowed, or None."""
    r = rules(state.spec)
    me = state.players[state.current]
    if state.phase != "play":
        return Refusal((r.c("draw"),), "a turn starts with a draw; cards are laid after it")
    left = _remove(me.hand, cards)
    if left is None:
        return Refusal((r.c("laid"),), "these cards are not all in the hand")
    if not cards:
        return Refusal((r.c("lay"),), "an empty lay")
    if state.lays_this_turn:
        _rest(r.c("lay.per_turn"), "whether a turn may hold another lay")
        if r.lays_per_turn == "one":
            return Refusal((r.c("lay.per_turn"),), "this turn has laid already; a turn holds one lay")
    width = len(r.types)
    laid = _counts(cards, width)
    if not me.down:
        ok, violations = _level_lay(state, r, laid)
        if not ok:
            found = [x.clause for x in violations]
            if set(found) >= set(r.contract(state.level).clauses):
                found = [r.c("levels")]        # no one clause to blame: the level is simply not there
            cl = tuple(dict.fromkeys([r.c("lay.requires_level")] + found))
            return Refusal(cl, f"the first lay of level {state.level} must hold the level's melds")
    else:
        matched = laid_values(state)
        rest = [c for c in cards if not (r.lay_off and r.types[c].natural
                                         and r.types[c].attrs[r.match_attr] in matched)]
        if rest:
            extras = r.extras(state.level)
            _rest_melds(state.spec, extras, "whether the cards may be laid after the level")
            v = _decide(state.spec, extras, _counts(rest, width))
            if not v.legal:
                found = [x.clause for x in v.violations]
                if set(found) >= set(extras.clauses):    # no one clause to blame: name what allows lays
                    found = [s.clause for s in extras.extras]
                cl = tuple(dict.fromkeys(([r.c("lay_off")] if r.lay_off else []) + found))
                return Refusal(cl, "after the level, only further sets, matching cards and lone wilds may be laid")
    n_left = sum(left)
    if n_left == 0:
        _rest(r.c("go_out.discard"), "whether a player may go out without a discard")
        if r.go_out_discard == "required":
            return Refusal((r.c("go_out.discard"), r.c("discard")), "going out needs one card kept for the discard")
    if n_left <= 1 and not r.may_go_out(state.turns_finished, state.n, state.level):
        return Refusal((r.c("go_out.when"),), "nobody may go out yet")
    return None


def _lay(state: State, r: Rules, move: Lay):
    bad = check_lay(state, move.cards)
    if bad is not None:
        return bad
    me = state.players[state.current]
    ps = _with_player(state, state.current, hand=_remove(me.hand, move.cards), lays=me.lays + (move.cards,))
    state = dataclasses.replace(state, players=ps, lays_this_turn=state.lays_this_turn + 1)
    if sum(ps[state.current].hand) == 0:      # went out by laying everything (discard optional)
        return _end_level(state, r, state.current)
    return state


def level_lay_possible(state: State) -> bool:
    """Whether the player to move, not yet down, could lay their level now (keeping a
    card to discard, and two if going out is not allowed yet)."""
    return not state.players[state.current].down and bool(lay_options(state))


def _discard(state: State, r: Rules, move: Discard):
    me = state.players[state.current]
    if state.phase != "play":
        return Refusal((r.c("draw"),), "a turn starts with a draw")
    left = _remove(me.hand, [move.card])
    if left is None:
        return Refusal((r.c("discard"),), "the discard must come from the hand")
    if sum(left) == 0 and not r.may_go_out(state.turns_finished, state.n, state.level):
        return Refusal((r.c("go_out.when"),), "nobody may go out yet")
    if not me.down:
        _rest(r.c("lay.compulsory"), "whether a player who can lay their level must")
        if r.lay_compulsory and level_lay_possible(state):
            return Refusal((r.c("lay.compulsory"),), "a player who can lay their level must lay it before discarding")
    ps = _with_player(state, state.current, hand=left)
    state = dataclasses.replace(state, players=ps, face_up=state.face_up + (move.card,))
    if sum(left) == 0:
        return _end_level(state, r, state.current)
    return _check_stalled(dataclasses.replace(state, phase="draw", turns_finished=state.turns_finished + 1,
                                              current=r.next_seat(state.current, state.n), lays_this_turn=0), r)


def level_scores(state: State, went_out: int | None) -> LevelResult:
    r = rules(state.spec)
    value = state.spec.cards.value_of
    width = len(r.types)
    laid = tuple(p.laid for p in state.players)
    lp = tuple(value(_counts(l, width)) for l in laid)
    hp = tuple(value(p.hand) for p in state.players)
    exact = state.exact_deals[state.level - 1] if state.level - 1 < len(state.exact_deals) else False
    if r.bonus_points:
        _rest(r.c("deal.exact_deal"), "whether the dealer earns the exact-deal bonus")
    bonus = tuple(r.bonus_points if (exact and i == state.dealer) else 0 for i in range(state.n))
    scores = tuple(int(r.scoring.evaluate(dict(state.spec.params, laid_points=a, hand_points=b))) + c
                   for a, b, c in zip(lp, hp, bonus))
    return LevelResult(state.level, state.dealer, went_out, state.turns_finished, exact,
                       tuple(p.hand for p in state.players), laid, lp, hp, bonus, scores,
                       how="went_out" if went_out is not None else "", reshuffles=state.reshuffles)


def _end_level(state: State, r: Rules, went_out: int | None, void: bool = False, again: bool = True,
               how: str = "went_out") -> State:
    """Score the level (nothing if `void`) and deal the next one: the same level again if
    `void` and `again`, else the next level, or end the game after the last."""
    res = dataclasses.replace(level_scores(state, went_out), how=how)
    if void:
        zero = (0,) * state.n
        res = dataclasses.replace(res, bonus=zero, scores=zero, void=True)
    totals = tuple(p.score + s for p, s in zip(state.players, res.scores))
    results = state.results + (res,)
    chips = tuple(p.chips if r.chips_renewed == "never" else r.chips for p in state.players)
    later = [lv for lv in r.levels if lv > state.level]
    replay = void and again
    if not replay and (state.level >= r.last_level or not later):
        top = max(totals)
        ps = tuple(dataclasses.replace(p, score=t, hand=p.hand) for p, t in zip(state.players, totals))
        winners = tuple(i for i, t in enumerate(totals) if t == top)
        if len(winners) > 1:
            _rest(r.c("tie.then"), "who wins when the top scores are equal")
        return dataclasses.replace(state, players=ps, results=results, phase="over", winners=winners,
                                   lays_this_turn=0)
    nxt = _deal(state.spec, state.seed, state.level if replay else later[0], r.next_dealer(state.dealer, state.n),
                chips, totals, state.exact_deals, results)
    return _check_stalled(nxt, r)


def stalled(state: State) -> bool:
    """Whether nobody can ever lay their level any more: nobody is down, and no hand can
    reach the level's cards plus the discard, even taking every chip's tick at once."""
    r = rules(state.spec)
    if not r.tick_chips:
        return False                    # ticks cost nothing: a hand can always grow
    need = sum(s.size for s in r.contract(state.level).required) + r.discard_count
    for p in state.players:
        ticks = p.chips // r.tick_chips
        if p.down or sum(p.hand) + max(r.stock_draw, ticks * (r.tick_face_up + r.tick_stock)) >= need:
            return False
    return True


def _check_stalled(state: State, r: Rules) -> State:
    """At a turn's start: end a level nobody can finish (the stalled-level rule)."""
    if state.over or not stalled(state):
        return state
    _rest(r.c("level_end.stalled"), "what happens to a level nobody can finish")
    return _end_level(state, r, None, void=r.stalled == "void", again=False, how="stalled")


# ---------------------------------------------------------------------------------------
# legal moves (compact)


def lay_options(state: State) -> list[Lay]:
    """The lay-downs offered: the best lay `reference.best_lay` finds (and, if going out is
    not yet allowed and that lay would go out, the best lay keeping two cards)."""
    r = rules(state.spec)
    me = state.players[state.current]
    if state.phase != "play" or (r.lays_per_turn == "one" and state.lays_this_turn):
        return []
    out = []
    for keep in (1, 2):
        if not me.down:
            v = _best(state.spec, dataclasses.replace(r.contract(state.level), keep=keep), me.hand)
            if v is None:
                return []
            cards = [t for m in v.melds for t in m.cards]
        else:
            matched = laid_values(state)
            hand = _cards(me.hand)
            match = [t for t in hand if r.lay_off and r.types[t].natural and r.types[t].attrs[r.match_attr] in matched]
            rest = _remove(me.hand, match)
            if sum(rest):
                v = _best(state.spec, dataclasses.replace(r.extras(state.level), keep=keep), rest)
                extra = [t for m in v.melds for t in m.cards] if v is not None else []
            else:
                extra = []
                match.sort(key=lambda t: r.types[t].value)
                match = match[keep:]
            cards = match + extra
        if cards:
            if check_lay(state, cards) is None:
                out.append(Lay(tuple(cards)))
                break
    return out


def legal_moves(state: State) -> list[Move]:
    with _tracing(False):
        return _legal_moves(state)


def _legal_moves(state: State) -> list[Move]:
    if state.over:
        return []
    r = rules(state.spec)
    me = state.players[state.current]
    if state.phase == "draw":
        moves: list[Move] = [Draw("stock")]
        probe = state
        if not state.stock:
            probe, ended = _empty_stock(state, r)
            if ended:
                return moves
        k = 1
        while r.tick_max is None or k <= r.tick_max:
            if isinstance(_tick(probe, r, k), Refusal):
                break
            moves.append(Draw("tick", k))
            k += 1
        return moves
    moves = list(lay_options(state))
    must_lay = r.lay_compulsory and not me.down and bool(moves)
    if not must_lay:
        for t, n in enumerate(me.hand):
            if n and not isinstance(_discard(state, r, Discard(t)), Refusal):
                moves.append(Discard(t))
    return moves
