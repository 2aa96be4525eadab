"""The Tick game engine: whole games played move by move, every rule read from the spec.

State is an immutable value (`State`, frozen dataclasses of tuples) that round-trips
through JSON. A turn is three kinds of move, each a small value:

    Draw(kind="stock")            take the top stock card
    Draw(kind="tick", count=k)    take k face-up cards from the top of the pile, paying per
                                  card what the `tick` clause prices (chips, stock cards)
    Lay(cards=(i, j, ...))        lay these cards (card type indices) in front of oneself;
                                  the engine finds how they split into melds with
                                  `reference.decide` and refuses the lay if no split is legal;
                                  a turn may hold several lays (e.g. the level, then cards
                                  matching a rank that lay put down)
    Discard(card=i)               the compulsory discard; it ends the turn, and ends the
                                  level when it empties the hand (going out)

`apply(state, move)` returns the next State, or a `Refusal` naming the clauses the move
breaks. `legal_moves(state)` is compact: every draw, every distinct discard, and for the
lay the lay-down `reference.best_lay` finds (discarding directly is "lay nothing").

Nothing about Tick is written here as a constant: deal size, chips, tick price, packs,
pack composition, levels, scoring, bonus, go-out timing, dealer rotation, stock-empty
rule and game end all come from the clauses in force. A formal value the engine does not
know raises `EngineError` rather than guessing.

Where the spec is silent the engine makes a choice; each is listed in ENGINE_ASSUMPTIONS.
"""
from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence, Union

from . import reference
from .expr import parse as parse_expr
from .spec import ENGINE_NAMES, Spec, load as load_spec

# Choices the engine makes where the spec does not decide (candidates for named
# assumptions in spec/tick.yaml). Keyed by a would-be clause id.
ENGINE_ASSUMPTIONS = {
    "left-is-next-seat": "'left' (deal, turn order, dealer rotation) means the next seat index, mod players",
    "deal-order": "cards are dealt one at a time round the table from the dealer's left, then the face-up card",
    "reshuffle-when": "the stock-empty rule is applied at the start of a draw that finds the stock empty",
    "nothing-to-draw": "stock empty and face-up pile down to one card or none: the level ends as if someone went out",
    "tick-stock-per-card": "tick_needs.stock is required per face-up card taken (k face-up cards need k times it)",
    "turn-name": "the go-out expression's `turn` is the number of the current turn in the level, from 1",
    "exact-deal-input": "whether the dealer dealt exactly is an input to the engine (a fact of dexterity, not of play)",
    "chips-across-levels": "chips left at a level's end carry into the next level (chips.renewed: never)",
    "laid-values": "laid_points counts every laid card at its own printed value, wilds included",
    "several-lays": "a turn may hold several lays before the discard; each is checked on its own",
    "lay-off-in-first-lay": "cards matching laid ranks may only be laid once the level is down (a later lay, same turn allowed)",
}


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
                   tup(d["stock"]), tup(d["face_up"]), d["reshuffles"], tup(d["exact_deals"]), results,
                   tup(d["winners"]), spec)


# ---------------------------------------------------------------------------------------
# the rules in force, read once per spec


class Rules:
    """The formal content the engine plays by, with the clause each part comes from."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.clause: dict[str, str] = {}

        def get(key, required=True):
            cid, val = spec.rule(key)
            if cid is None:
                if required:
                    raise EngineError(f"the spec has no clause with {key!r}")
                return None
            self.clause[key] = cid
            return val

        cards = spec.cards
        self.types = cards.types
        pl = get("players")
        self.min_players, self.max_players = pl["min"], pl["max"]
        self.decks = get("decks")
        pack = get("pack")
        self.pack = [0] * len(self.types)
        for t in self.types:
            if t.natural:
                self.pack[t.index] = int(pack["naturals"])
            elif t.wild:
                self.pack[t.index] = int(pack["wilds"][t.token])
            else:
                self.pack[t.index] = int(pack.get("specials", {}).get(t.token, 0))
        chips = get("chips")
        self.chips, self.chips_renewed = int(chips["per_player"]), chips.get("renewed", "never")
        if self.chips_renewed not in ("never", "level"):
            raise EngineError(f"chips renewed {self.chips_renewed!r}: the engine knows 'never' and 'level'")
        deal = get("deal")
        self.cards_each, self.deal_face_up = int(deal["cards_each"]), int(deal["face_up"])
        self._left("deal first", deal.get("first", "left_of_dealer"), "left_of_dealer")
        turn = get("turn")
        self._left("turn first", turn.get("first"), "left_of_dealer")
        self._left("turn direction", turn.get("direction"), "left")
        dealer = get("dealer")
        self._left("dealer next", dealer.get("next"), "left")
        self.stock_draw = int(get("draw").get("stock", 1))
        tick = get("tick")
        self.tick_face_up, self.tick_stock, self.tick_chips = int(tick["face_up"]), int(tick["stock"]), int(tick["chips"])
        mx = tick.get("max_face_up", "many")
        self.tick_max = None if mx == "many" else int(mx)
        tn = get("tick_needs", required=False) or {}
        self.tick_needs_stock = int(tn.get("stock", 0))
        disc = get("discard")
        self.discard_count = int(disc.get("count", 1))
        if self.discard_count != 1 or not disc.get("required", True):
            raise EngineError("the engine plays exactly one compulsory discard per turn")
        self.requires_level = bool(get("lay").get("requires_level", True))
        lay_off = get("lay_off", required=False)
        self.lay_off = lay_off is not None
        if lay_off and (lay_off.get("match") not in spec.cards.attributes or lay_off.get("onto") != "any_player"):
            raise EngineError(f"lay_off {lay_off!r}: the engine matches one attribute onto any player's cards")
        self.match_attr = lay_off.get("match") if lay_off else None
        go_outs = spec.rules("go_out")
        self.go_out_discard = "required"
        self.go_out_when = None
        for cid, g in go_outs:
            if "discard" in g:
                self.go_out_discard = g["discard"]
                self.clause["go_out"] = cid
            if "when" in g:
                self.go_out_when = parse_expr(g["when"], ENGINE_NAMES[("go_out", "when")] + tuple(spec.params))
                self.clause["go_out_when"] = cid
        se = get("stock_empty")
        self.stock_empty = se["then"]
        if self.stock_empty not in ("reshuffle_face_up", "end_level"):
            raise EngineError(f"stock_empty then {self.stock_empty!r} is unknown to the engine")
        self.scoring = parse_expr(get("scoring")["level"], ENGINE_NAMES[("scoring", "level")] + tuple(spec.params))
        bonus = get("bonus", required=False)
        self.bonus_points = int(bonus["points"]) if bonus else 0
        if bonus and (bonus.get("to") != "dealer" or bonus.get("when") != "exact_deal"):
            raise EngineError(f"bonus {bonus!r}: the engine knows the dealer's exact-deal bonus only")
        self.bonus_cards = parse_expr(str(bonus["cards"]), ("players",)) if bonus and "cards" in bonus else None
        ge = get("game_end")
        self.last_level = int(ge["after_level"])
        if ge.get("winner") != "most_points":
            raise EngineError(f"winner {ge.get('winner')!r} is unknown to the engine")
        tie = get("tie", required=False) or {"then": "shared"}
        if tie.get("then") != "shared":
            raise EngineError(f"tie {tie!r} is unknown to the engine")
        le = get("level_end", required=False) or {}
        if le.get("next", "all_players") != "all_players":
            raise EngineError(f"level_end {le!r} is unknown to the engine")
        self.levels = sorted(int(x) for x in spec.levels())
        if self.last_level not in self.levels:
            raise EngineError(f"the game ends after level {self.last_level}, which the spec does not define")
        self.get("levels")
        self.get("laid")

    def get(self, key):
        cid, _ = self.spec.rule(key)
        self.clause[key] = cid

    @staticmethod
    def _left(what, value, want):
        if value != want:
            raise EngineError(f"{what}: {value!r}; the engine knows {want!r} only")

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

    def c(self, key) -> str:
        return self.clause[key]

    def may_go_out(self, turns_finished: int, players: int, level: int) -> bool:
        if self.go_out_when is None:
            return True
        env = dict(self.spec.params, turns_finished=turns_finished, players=players, turn=turns_finished + 1,
                   level=level)
        return bool(self.go_out_when.evaluate(env))


_rules: dict[int, Rules] = {}


def rules(spec: Spec) -> Rules:
    r = _rules.get(id(spec))
    if r is None or r.spec is not spec:
        if len(_rules) > 32:
            _rules.clear()
        r = _rules[id(spec)] = Rules(spec)
    return r


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
        h[c] -= 1
        if h[c] < 0:
            return None
    return tuple(h)


def _cards(hand) -> list[int]:
    return [t for t, n in enumerate(hand) for _ in range(n)]


def _rng(seed: int, level: int, what: str = "deal", n: int = 0) -> random.Random:
    if level == 1 and what == "deal":
        return random.Random(seed)
    return random.Random(f"tick-engine:{seed}:{level}:{what}:{n}")


def _left_of(seat: int, n: int) -> int:
    return (seat + 1) % n


def laid_values(state: State) -> set:
    """The match-attribute values laid by anyone this level (for matching cards)."""
    r = rules(state.spec)
    out = set()
    for p in state.players:
        for c in p.laid:
            t = r.types[c]
            if t.natural and r.match_attr:
                out.add(t.attrs[r.match_attr])
    return out


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
    return _deal(spec, seed, r.levels[0], dealer % players, chips, (0,) * players, exacts, ())


def _deal(spec, seed, level, dealer, chips, scores, exacts, results) -> State:
    r = rules(spec)
    n = len(chips)
    deck = r.deck(n)
    _rng(seed, level).shuffle(deck)
    width = len(r.types)
    hands = [[] for _ in range(n)]
    for _ in range(r.cards_each):
        for i in range(n):
            hands[(dealer + 1 + i) % n].append(deck.pop())
    face_up = tuple(deck.pop() for _ in range(r.deal_face_up))
    players = tuple(PlayerState(_counts(h, width), chips[i], (), scores[i]) for i, h in enumerate(hands))
    return State(seed, level, dealer, _left_of(dealer, n), "draw", 0, players, tuple(deck), face_up, 0,
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


def _refill(state: State, r: Rules) -> State | None:
    """Apply the stock-empty rule if the stock is empty; None when the level must end."""
    if state.stock:
        return state
    if r.stock_empty == "end_level":
        return None
    if len(state.face_up) <= 1:
        return None                                    # ENGINE_ASSUMPTIONS nothing-to-draw
    new_stock = list(state.face_up[:-1])
    _rng(state.seed, state.level, "reshuffle", state.reshuffles).shuffle(new_stock)
    return dataclasses.replace(state, stock=tuple(new_stock), face_up=state.face_up[-1:],
                               reshuffles=state.reshuffles + 1)


def _draw(state: State, r: Rules, move: Draw):
    me = state.players[state.current]
    if state.phase != "draw":
        return Refusal((r.c("discard"),), "this turn has drawn already; it ends with a discard")
    refilled = _refill(state, r)
    if refilled is None:
        return _end_level(state, r, None)
    state = refilled
    if move.kind == "stock":
        take = r.stock_draw
        if len(state.stock) < take:
            return Refusal((r.c("draw"), r.c("stock_empty")), "the stock cannot supply the draw")
        cards = state.stock[len(state.stock) - take:]
        ps = _with_player(state, state.current, hand=_add(me.hand, cards))
        return dataclasses.replace(state, players=ps, stock=state.stock[:len(state.stock) - take], phase="play")
    if move.kind != "tick":
        return Refusal((r.c("draw"),), f"no draw of kind {move.kind!r}")
    k = move.count
    if k < 1:
        return Refusal((r.c("tick"),), "a tick takes at least one face-up card")
    if r.tick_max is not None and k > r.tick_max:
        return Refusal((r.c("tick"),), f"a tick takes at most {r.tick_max} face-up card(s) under this reading")
    face = k * r.tick_face_up
    if face > len(state.face_up):
        return Refusal((r.c("tick"),), f"the face-up pile holds {len(state.face_up)} card(s)")
    cost = k * r.tick_chips
    if cost > me.chips:
        return Refusal((r.c("chips"), r.c("tick")), f"a tick of {k} costs {cost} chip(s); {me.chips} left")
    need = k * r.tick_stock
    if len(state.stock) < max(need, k * r.tick_needs_stock):
        cl = (r.c("tick_needs"),) if "tick_needs" in r.clause and r.clause["tick_needs"] else ()
        return Refusal(cl + (r.c("tick"),), f"a tick of {k} needs {need} stock card(s); the stock holds {len(state.stock)}")
    taken = state.face_up[len(state.face_up) - face:] + state.stock[len(state.stock) - need:]
    ps = _with_player(state, state.current, hand=_add(me.hand, taken), chips=me.chips - cost)
    return dataclasses.replace(state, players=ps, stock=state.stock[:len(state.stock) - need],
                               face_up=state.face_up[:len(state.face_up) - face], phase="play")


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
    width = len(r.types)
    laid = _counts(cards, width)
    if not me.down:
        v = reference.decide(state.spec, r.contract(state.level), laid)
        if not v.legal:
            cl = tuple(dict.fromkeys([r.c("lay")] + [x.clause for x in v.violations]))
            return Refusal(cl, f"the first lay of level {state.level} must hold the level's melds")
    else:
        matched = laid_values(state)
        rest = [c for c in cards if not (r.lay_off and r.types[c].natural
                                         and r.types[c].attrs[r.match_attr] in matched)]
        if rest:
            v = reference.decide(state.spec, r.extras(state.level), _counts(rest, width))
            if not v.legal:
                cl = tuple(dict.fromkeys([x.clause for x in v.violations]
                                         + ([r.c("lay_off")] if r.lay_off else [])))
                return Refusal(cl, "after the level, only further sets, matching cards and lone wilds may be laid")
    n_left = sum(left)
    if n_left == 0 and r.go_out_discard == "required":
        return Refusal((r.c("go_out"), r.c("discard")), "going out needs one card kept for the discard")
    if n_left <= (1 if r.go_out_discard == "required" else 0) and not r.may_go_out(
            state.turns_finished, state.n, state.level):
        return Refusal((r.c("go_out_when"),), "nobody may go out yet")
    return None


def _lay(state: State, r: Rules, move: Lay):
    bad = check_lay(state, move.cards)
    if bad is not None:
        return bad
    me = state.players[state.current]
    ps = _with_player(state, state.current, hand=_remove(me.hand, move.cards), lays=me.lays + (move.cards,))
    state = dataclasses.replace(state, players=ps)
    if sum(ps[state.current].hand) == 0:      # went out by laying everything (discard optional)
        return _end_level(state, r, state.current)
    return state


def _discard(state: State, r: Rules, move: Discard):
    me = state.players[state.current]
    if state.phase != "play":
        return Refusal((r.c("draw"),), "a turn starts with a draw")
    left = _remove(me.hand, [move.card])
    if left is None:
        return Refusal((r.c("discard"),), "the discard must come from the hand")
    if sum(left) == 0 and not r.may_go_out(state.turns_finished, state.n, state.level):
        return Refusal((r.c("go_out_when"),), "nobody may go out yet")
    ps = _with_player(state, state.current, hand=left)
    state = dataclasses.replace(state, players=ps, face_up=state.face_up + (move.card,))
    if sum(left) == 0:
        return _end_level(state, r, state.current)
    return dataclasses.replace(state, phase="draw", turns_finished=state.turns_finished + 1,
                               current=_left_of(state.current, state.n))


def level_scores(state: State, went_out: int | None) -> LevelResult:
    r = rules(state.spec)
    value = state.spec.cards.value_of
    width = len(r.types)
    laid = tuple(p.laid for p in state.players)
    lp = tuple(value(_counts(l, width)) for l in laid)
    hp = tuple(value(p.hand) for p in state.players)
    exact = state.exact_deals[state.level - 1] if state.level - 1 < len(state.exact_deals) else False
    bonus = tuple(r.bonus_points if (exact and i == state.dealer) else 0 for i in range(state.n))
    scores = tuple(int(r.scoring.evaluate(dict(state.spec.params, laid_points=a, hand_points=b))) + c
                   for a, b, c in zip(lp, hp, bonus))
    return LevelResult(state.level, state.dealer, went_out, state.turns_finished, exact,
                       tuple(p.hand for p in state.players), laid, lp, hp, bonus, scores)


def _end_level(state: State, r: Rules, went_out: int | None) -> State:
    res = level_scores(state, went_out)
    totals = tuple(p.score + s for p, s in zip(state.players, res.scores))
    results = state.results + (res,)
    chips = tuple(p.chips if r.chips_renewed == "never" else r.chips for p in state.players)
    later = [lv for lv in r.levels if lv > state.level]
    if state.level >= r.last_level or not later:
        top = max(totals)
        ps = tuple(dataclasses.replace(p, score=t) for p, t in zip(state.players, totals))
        return dataclasses.replace(state, players=ps, results=results, phase="over",
                                   winners=tuple(i for i, t in enumerate(totals) if t == top))
    return _deal(state.spec, state.seed, later[0], _left_of(state.dealer, state.n), chips, totals,
                 state.exact_deals, results)


# ---------------------------------------------------------------------------------------
# legal moves (compact)


def lay_options(state: State) -> list[Lay]:
    """The lay-downs offered: the best lay `reference.best_lay` finds (and, if going out is
    not yet allowed and that lay would go out, the best lay keeping two cards)."""
    r = rules(state.spec)
    me = state.players[state.current]
    width = len(r.types)
    out = []
    for keep in (1, 2):
        if not me.down:
            c = dataclasses.replace(r.contract(state.level), keep=keep)
            v = reference.best_lay(state.spec, c, me.hand)
            if not v.legal:
                return []
            cards = [t for m in v.melds for t in m.cards]
        else:
            matched = laid_values(state)
            hand = _cards(me.hand)
            match = [t for t in hand if r.lay_off and r.types[t].natural and r.types[t].attrs[r.match_attr] in matched]
            rest = _remove(me.hand, match)
            if sum(rest):
                v = reference.best_lay(state.spec, dataclasses.replace(r.extras(state.level), keep=keep), rest)
                extra = [t for m in v.melds for t in m.cards] if v.legal else []
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
    if state.over:
        return []
    r = rules(state.spec)
    me = state.players[state.current]
    if state.phase == "draw":
        moves: list[Move] = [Draw("stock")]
        probe = _refill(state, r) or state
        k = 1
        while r.tick_max is None or k <= r.tick_max:
            if isinstance(_draw(probe, r, Draw("tick", k)), Refusal):
                break
            moves.append(Draw("tick", k))
            k += 1
        return moves
    moves = list(lay_options(state))
    for t, n in enumerate(me.hand):
        if n and not isinstance(_discard(state, r, Discard(t)), Refusal):
            moves.append(Discard(t))
    return moves
