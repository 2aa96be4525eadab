"""Computer players for the Tick engine: a seeded random player and a greedy one.

A player is anything with `choose(state) -> move`; it only ever picks from
`engine.legal_moves(state)`, so it can never break a rule. `play` runs a whole game.
"""
from __future__ import annotations

import random
from typing import Sequence

from . import engine
from .engine import Discard, Draw, Lay, Refusal, State


class RandomPlayer:
    """Picks a kind of move uniformly among the kinds offered (a stock draw, a tick, a lay,
    a discard), then a move of that kind uniformly, from its own seeded stream.

    Choosing the kind first keeps the one lay offered from drowning among a dozen
    discards; a player picking uniformly among all moves almost never lays, and its
    levels (so its games) practically never end."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State):
        moves = engine.legal_moves(state)
        kinds: dict[str, list] = {}
        for m in moves:
            kinds.setdefault(m.kind if isinstance(m, Draw) else type(m).__name__, []).append(m)
        kind = self.rng.choice(sorted(kinds))
        return self.rng.choice(kinds[kind])


class GreedyPlayer:
    """Lays whenever it can (the richest lay offered), takes a one-card tick when the top
    face-up card would complete a set with cards it holds, and otherwise discards the
    costliest card that does not help (a card helps if it is wild, matches a laid rank,
    or shares its rank with another card in hand)."""

    def _need(self, state: State) -> int:
        """Cards the player must lay before going out could be possible: the level's
        required melds if not down yet, else 0."""
        me = state.players[state.current]
        if me.down:
            return 0
        return sum(s.size for s in state.spec.contract(level=state.level).required)

    def _worth(self, state: State, t: int, hand: Sequence[int]) -> int:
        """How much card type t helps: a wild or a card matching a laid rank helps most,
        a natural helps as much as the cards of its rank in hand (itself excluded)."""
        r = engine.rules(state.spec)
        ct = r.types[t]
        if ct.wild:
            return 100
        if not ct.natural:
            return -1
        me = state.players[state.current]
        if me.down and r.match_attr and ct.attrs[r.match_attr] in engine.laid_values(state):
            return 100
        return sum(n for u, n in enumerate(hand) if r.types[u].natural and r.types[u].attrs == ct.attrs) - 1

    def choose(self, state: State):
        moves = engine.legal_moves(state)
        r = engine.rules(state.spec)
        me = state.players[state.current]
        if state.phase == "draw":
            if Draw("tick", 1) in moves and state.face_up:
                top = state.face_up[-1]
                with_top = list(me.hand)
                with_top[top] += 1
                worth = self._worth(state, top, with_top)
                sizes = [s.size for s in state.spec.contract(level=state.level).required]
                completes = (not me.down and worth + 1 in sizes) or (me.down and worth >= 100 and r.types[top].natural)
                short = sum(me.hand) < self._need(state) + 1
                if completes or (short and worth >= 1):
                    return Draw("tick", 1)
            return Draw("stock")
        lays = [m for m in moves if isinstance(m, Lay)]
        if lays:
            value = state.spec.cards.types
            return max(lays, key=lambda m: (sum(value[t].value for t in m.cards), m.cards))
        discards = [m for m in moves if isinstance(m, Discard)]
        return min(discards, key=lambda m: (self._worth(state, m.card, me.hand), -r.types[m.card].value, m.card))


def play(spec, agents: Sequence, seed: int, dealer: int = 0, exact_deal=False,
         max_moves: int = 200_000) -> tuple[State, list]:
    """Play a whole game; returns the final state and the moves made."""
    state = engine.new_game(spec, len(agents), seed, dealer, exact_deal)
    if isinstance(state, Refusal):
        raise ValueError(state.why)
    moves = []
    for _ in range(max_moves):
        if state.over:
            return state, moves
        move = agents[state.current].choose(state)
        nxt = engine.apply(state, move)
        if isinstance(nxt, Refusal):
            raise AssertionError(f"a player chose a refused move {move!r}: {nxt}")
        moves.append(move)
        state = nxt
    raise RuntimeError(f"the game did not end within {max_moves} moves")
