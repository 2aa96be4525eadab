"""How: the situations conformance asks about, built from a stream of choices.

One set of generators serves both the vectors (driven by a seeded `random.Random`) and the
differential search (driven by Hypothesis, which can then shrink a divergence by shrinking
the choices: fewer groups of cards, smaller counts, the first option of each choice). So
every choice is ordered simplest first.

- `meld_hand`: a hand as groups of like natural cards plus some wilds;
- `situation`: an engine state built from nothing (players, level, turns played, the
  mover's hand, what is laid, chips, the stock and face-up pile);
- `game_situation`: a state reached in a seeded game between computer players;
- `candidate_move`: a move to ask about in a state, legal or not;
- `level_end`: the state at the end of a level, to score.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from rulings import engine, players as agents
from rulings.spec import Spec


class Chooser:
    def integer(self, lo: int, hi: int) -> int:   # pragma: no cover
        raise NotImplementedError

    def choice(self, seq: Sequence):
        return seq[self.integer(0, len(seq) - 1)]

    def boolean(self) -> bool:
        return self.integer(0, 1) == 1


class RandomChooser(Chooser):
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)


class DataChooser(Chooser):
    """Choices drawn from Hypothesis's `data()`, so that it can shrink them."""

    def __init__(self, data):
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def integer(self, lo, hi):
        return self.data.draw(self.st.integers(lo, hi)) if hi > lo else lo


def contract_names(spec: Spec) -> list[str]:
    levels = sorted(spec.contracts, key=lambda k: (not k.startswith("level "), int(k.split()[1]) if k.startswith("level ") else 0, k))
    return levels


def _clip(hand: list[int], deck: Sequence[int]) -> tuple[int, ...]:
    return tuple(min(n, m) for n, m in zip(hand, deck))


def meld_hand(spec: Spec, ch: Chooser, groups: tuple[int, int] = (0, 4), most: int = 7, wilds: int = 3,
              deck: Sequence[int] | None = None) -> tuple[int, ...]:
    """Groups of like naturals (a type and a count) and up to `wilds` of each wild, within
    the deck."""
    deck = spec.deck() if deck is None else deck
    naturals = [t.index for t in spec.cards.types if t.natural and deck[t.index]]
    hand = [0] * len(spec.cards.types)
    for _ in range(ch.integer(*groups)):
        hand[ch.choice(naturals)] += ch.integer(1, most)
    for t in spec.cards.types:
        if t.wild and deck[t.index]:
            hand[t.index] += ch.integer(0, wilds)
    return _clip(hand, deck)


def _cards(hand: Sequence[int]) -> list[int]:
    return [t for t, n in enumerate(hand) for _ in range(n)]


def _level_lay(spec: Spec, level: int, ch: Chooser, pool: Counter) -> tuple[int, ...]:
    """The cards of a level's required melds, naturals only, one type per meld, from `pool`."""
    naturals = [t.index for t in spec.cards.naturals]
    lay: list[int] = []
    for slot in spec.contract(level=level).required:
        start = ch.integer(0, len(naturals) - 1)
        for k in range(len(naturals)):
            t = naturals[(start + k) % len(naturals)]
            if pool[t] >= slot.size:
                pool[t] -= slot.size
                lay += [t] * slot.size
                break
    return tuple(sorted(lay))


def situation(spec: Spec, ch: Chooser) -> engine.State:
    """A state built from choices: the simplest is two players at level 1, nobody down, no
    turn played, the mover about to lay or discard from a hand of one card."""
    r = engine.rules(spec)
    n = ch.integer(r.min_players, min(r.max_players, r.min_players + 2))
    level = ch.choice(r.levels)
    turns = ch.integer(0, 3 * n)
    phase = ch.choice(["play", "draw"])
    deck = Counter(r.deck(n))
    width = len(spec.cards.types)
    full = [deck[t] for t in range(width)]
    hand = list(meld_hand(spec, ch, groups=(1, 4), most=7, wilds=3, deck=full))
    if not sum(hand):
        hand[spec.cards.naturals[0].index] = 1
    deck.subtract(Counter(_cards(hand)))
    current = (1 + turns) % n
    down = ch.boolean()
    mine = (_level_lay(spec, level, ch, deck),) if down else ()
    chips_mode = ch.integer(0, 2)           # everyone's chips full; the mover's chosen; nobody's left
    chips = r.chips if chips_mode == 0 else ch.integer(0, r.chips) if chips_mode == 1 else 0
    lays_now = ch.integer(0, 1) if down and phase == "play" else 0
    order = sorted(deck.elements())
    random.Random(ch.integer(0, 3)).shuffle(order)      # which cards lie where, beyond the mover's
    pool = Counter(order)

    def take(k: int) -> list[int]:
        out = []
        for t in order:
            if len(out) == k:
                break
            if pool[t] > 0:
                pool[t] -= 1
                out.append(t)
        return out

    seats = []
    for seat in range(n):
        if seat == current:
            seats.append(engine.PlayerState(tuple(hand), chips, mine))
            continue
        lays = (_level_lay(spec, level, ch, pool),) if ch.boolean() else ()
        theirs = [0] * width
        for t in take(r.cards_each):
            theirs[t] += 1
        seats.append(engine.PlayerState(tuple(theirs), 0 if chips_mode == 2 else r.chips, lays))
    # the face-up pile: its top cards chosen, the rest of the deck under them or in the stock
    top = []
    for _ in range(ch.integer(0, 3)):
        options = sorted(t for t in pool if pool[t] > 0)
        if not options:
            break
        t = ch.choice(options)
        pool[t] -= 1
        top.append(t)
    rest = take(sum(pool.values()))
    mode = ch.integer(0, 2)
    if mode == 0:                 # the rest is the stock
        stock, under = rest, []
    elif mode == 1:               # a short stock; the rest lies under the face-up pile
        k = ch.integer(0, 4)
        stock, under = rest[:k], rest[k:]
    else:                         # a short stock, and the rest out of play (cards need not add up)
        k = ch.integer(0, 4)
        stock, under = rest[:k], []
    return engine.State(seed=0, level=level, dealer=0, current=current, phase=phase, turns_finished=turns,
                        players=tuple(seats), stock=tuple(stock), face_up=tuple(under + top), spec=spec,
                        lays_this_turn=lays_now,
                        exact_deals=tuple(False for _ in r.levels))


# ---- seeded games -------------------------------------------------------------------------------

GAME_SEEDS = 4
_games: dict[tuple, list] = {}


def seeded_game(spec: Spec, seed: int, max_moves: int = 1500) -> tuple[list[engine.State], list]:
    """The states and moves of a seeded game: greedy players, every other seat random
    (2 to 4 players by seed); stops at `max_moves` if the game has not ended."""
    key = (id(spec), seed, max_moves)
    if key in _games and _games[key][0] is spec:
        return _games[key][1]
    r = engine.rules(spec)
    n = min(r.max_players, r.min_players + seed % 3)
    seats = [agents.GreedyPlayer() if i % 2 == 0 else agents.RandomPlayer(seed * 10 + i) for i in range(n)]
    state = engine.new_game(spec, n, seed, dealer=seed % n, exact_deal=[lv % 3 == seed % 3 for lv in r.levels])
    states, moves = [state], []
    while not state.over and len(moves) < max_moves:
        move = seats[state.current].choose(state)
        state = engine.apply(state, move)
        if isinstance(state, engine.Refusal):   # pragma: no cover (players choose legal moves)
            break
        moves.append(move)
        states.append(state)
    if len(_games) > 64:
        _games.clear()
    _games[key] = (spec, (states, moves))
    return states, moves


def game_situation(spec: Spec, ch: Chooser) -> engine.State:
    states, _ = seeded_game(spec, ch.integer(0, GAME_SEEDS - 1), max_moves=600)
    live = [s for s in states if not s.over]
    return live[ch.integer(0, len(live) - 1)]


# ---- moves --------------------------------------------------------------------------------------

PHASE_MOVES = {"draw": ("draw", "tick"), "play": ("discard", "lay")}
ANY_MOVE = ("discard", "lay", "draw", "tick", "legal", "absent")
LAYS = ("all_but_one", "subset", "all", "offered", "offered_and_matching")


def candidate_move(spec: Spec, state: engine.State, ch: Chooser) -> engine.Move:
    """A move to ask about: one the phase calls for, or any move (a legal one, one out of
    phase, a card the mover does not hold)."""
    me = state.players[state.current]
    hand = _cards(me.hand)
    kind = ch.choice(PHASE_MOVES.get(state.phase, ANY_MOVE)) if not ch.boolean() else ch.choice(ANY_MOVE)
    if kind == "discard":
        return engine.Discard(ch.choice(hand) if hand else spec.cards.naturals[0].index)
    if kind == "draw":
        return engine.Draw("stock")
    if kind == "tick":
        return engine.Draw("tick", ch.integer(1, 3))
    if kind == "legal":
        moves = engine.legal_moves(state)
        return ch.choice(moves) if moves else engine.Draw("stock")
    if kind == "absent":          # a card the mover does not hold, laid or discarded
        missing = [t.index for t in spec.cards.types if not me.hand[t.index]] or [spec.cards.types[0].index]
        t = ch.choice(missing)
        return engine.Discard(t) if ch.boolean() else engine.Lay(tuple(hand[:ch.integer(0, len(hand))]) + (t,))
    how = ch.choice(LAYS)
    if not hand:
        return engine.Lay(())
    if how == "all_but_one":
        keep = ch.integer(0, len(hand) - 1)
        return engine.Lay(tuple(hand[:keep] + hand[keep + 1:]))
    if how == "all":
        return engine.Lay(tuple(hand))
    if how.startswith("offered"):
        offered = engine.lay_options(state)
        if offered:
            cards = list(offered[0].cards)
            if how == "offered_and_matching":     # add cards matching what lies on the table
                r = engine.rules(spec)
                table = engine.laid_values(state)
                rest = list(me.hand)
                for t in cards:
                    rest[t] -= 1
                cards += [t for t in _cards(rest) if r.match_attr and r.types[t].natural
                          and r.types[t].attrs[r.match_attr] in table][:ch.integer(1, 2)]
            return engine.Lay(tuple(cards))
    return engine.Lay(tuple(t for t in hand if ch.boolean()))


# ---- the end of a level ---------------------------------------------------------------------------


def level_end(spec: Spec, ch: Chooser) -> tuple[engine.State, int | None]:
    """A state at the moment a level ends (phase 'play', as the engine scores it) and who
    went out (None: nobody)."""
    r = engine.rules(spec)
    n = ch.integer(r.min_players, min(r.max_players, r.min_players + 2))
    level = ch.choice(r.levels)
    deck = list(spec.deck(n))
    went_out = ch.integer(-1, n - 1)
    seats = []
    for seat in range(n):
        hand = (0,) * len(deck) if seat == went_out else meld_hand(spec, ch, groups=(0, 3), most=3, wilds=1, deck=deck)
        deck = [a - b for a, b in zip(deck, hand)]
        lays = []
        for _ in range(ch.integer(0, 2)):
            lay = meld_hand(spec, ch, groups=(1, 1), most=4, wilds=1, deck=deck)
            deck = [a - b for a, b in zip(deck, lay)]
            if sum(lay):
                lays.append(tuple(_cards(lay)))
        seats.append(engine.PlayerState(tuple(hand), r.chips, tuple(lays)))
    dealer = ch.integer(0, n - 1)
    exact = ch.boolean()
    state = engine.State(seed=0, level=level, dealer=dealer, current=max(went_out, 0), phase="play",
                         turns_finished=n, players=tuple(seats), stock=(), face_up=(), spec=spec,
                         exact_deals=tuple(exact if lv == level else False for lv in r.levels))
    return state, (went_out if went_out >= 0 else None)

