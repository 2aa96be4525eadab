"""Computer players for any game the kernel plays: a seeded random player and a greedy one.

A player is anything with `choose(state) -> move`; it only ever picks from
`kernel.legal_moves(state)`, so it can never break a rule. `play` runs a whole game.
"""
from __future__ import annotations

import random
from typing import Sequence

from . import kernel
from .kernel import Move, Refusal, State, trace
from .kernel.mechanics import board, tricks as tricks_
from .kernel.common import Chosen
from .kernel.mechanics.lay import laid_values


class RandomPlayer:
    """Picks a kind of move uniformly among the kinds offered (each move of the spec is a
    kind), then a move of that kind uniformly, from its own seeded stream.

    Choosing the kind first keeps the one lay offered from drowning among a dozen
    discards; a player picking uniformly among all moves almost never lays, and its
    rounds (so its games) practically never end."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State):
        moves = kernel.legal_moves(state)
        kinds: dict[str, list] = {}
        for m in moves:
            kinds.setdefault(m.id, []).append(m)
        kind = self.rng.choice(sorted(kinds))
        return self.rng.choice(kinds[kind])


class GreedyPlayer:
    """Lays whenever it can (the richest lay offered), adds cards to laid melds, takes a
    face-up card when it helps (a paid one only when it completes a meld the contract
    needs, or the hand is too short to ever lay it), and otherwise ends the turn with the
    card that helps least (giving away a card a move gives rather than discarding one).

    A card helps as much as the cards in hand it could share a meld with (of the kinds
    the player's contract, or once it is down the further melds, ask for); a wild helps
    most, and so does a natural matching a laid card when single matching cards may be
    laid."""

    def _contract(self, state: State):
        r = kernel.rules(state.spec)
        lay = r.lay_move()
        if lay is None:
            return None, None
        from .kernel.mechanics.lay import contract_of

        return lay, contract_of(state, lay)

    def _need(self, state: State) -> int:
        """Cards the player must lay before going out could be possible: the contract's
        required melds if not down yet, else 0."""
        _, contract = self._contract(state)
        if contract is None or state.down():
            return 0
        return sum(s.size for s in contract.required)

    def _kinds(self, state: State):
        r = kernel.rules(state.spec)
        lay, contract = self._contract(state)
        if contract is not None and not state.down():
            ids = {k for s in contract.required for k in s.kinds}
        else:
            ids = {k for s in r.extras(contract).extras for k in s.kinds} or set(state.spec.meld_kinds)
        return [state.spec.meld_kinds[k] for k in sorted(ids) if state.spec.meld_kinds[k].same or state.spec.meld_kinds[k].run]

    def _context(self, state: State):
        """What `_worth` asks of a state, computed once per state: (the attribute laid cards
        are matched on and the values laid, once the player is down) and the meld kinds."""
        if getattr(self, "_ctx_of", None) is state:
            return self._ctx
        r = kernel.rules(state.spec)
        lay = r.lay_move()
        lo = (lay.f.get("lay_off") or {}) if lay else {}
        laid = (lo["match"], laid_values(state, lay)) if state.down() and lo else (None, ())
        self._ctx_of, self._ctx = state, (laid, self._kinds(state))
        return self._ctx

    def _worth(self, state: State, t: int, hand: Sequence[int]) -> int:
        """How much card type t helps: a wild or a card matching a laid one helps most, a
        natural as much as the other naturals in hand it could share a meld with."""
        types = state.spec.cards.types
        ct = types[t]
        if ct.wild:
            return 100
        if not ct.natural:
            return -1
        laid, kinds = self._context(state)
        if ct.attrs.get(laid[0]) in laid[1]:
            return 100
        if not kinds:
            return sum(n for u, n in enumerate(hand) if types[u].natural and types[u].attrs == ct.attrs) - 1
        best = 0
        for k in kinds:
            n = 0
            for u, c in enumerate(hand):
                if not c or not types[u].natural:
                    continue
                other = types[u]
                if any(other.attrs[a] != ct.attrs[a] for a in k.same):
                    continue
                if k.run:
                    gap = abs(int(other.attrs[k.run]) - int(ct.attrs[k.run]))
                    if gap >= max(k.size_min, 3) or (gap == 0 and u != t):
                        continue
                n += c
            best = max(best, n)
        return best - 1

    def choose(self, state: State):
        from .fill_player import FillPlayer, plays_layouts

        if plays_layouts(state):            # a layout game: no hand to meld, cards to place
            return FillPlayer().choose(state)
        moves = kernel.legal_moves(state)
        r = kernel.rules(state.spec)
        if any(r.moves[m.id].mechanic not in CLASSIC for m in moves):
            return choose_any(state, moves)
        spec = state.spec
        hand = state.hand()
        plays = [m for m in moves if r.moves[m.id].mechanic == "rearrange"]
        if plays:                    # the most the hand can add to a shared table
            return plays[0]
        phase_draws = [m for m in moves if r.moves[m.id].mechanic == "draw"]
        if phase_draws:
            return self._draw(state, r, phase_draws, hand)
        if any(r.moves[m.id].mechanic in board.MECHANICS for m in moves):
            from .board_player import choose

            return choose(state, moves)
        lays = [m for m in moves if r.moves[m.id].mechanic == "lay"]
        if lays:
            value = spec.cards.types
            return max(lays, key=lambda m: (sum(value[t].value for t in m.arg), m.arg))
        extends = [m for m in moves if r.moves[m.id].mechanic == "extend"]
        if extends:
            return extends[0]
        gives = [m for m in moves if r.moves[m.id].mechanic == "give"]
        if gives:
            return gives[0]
        discards = [m for m in moves if r.moves[m.id].mechanic == "discard"]
        if discards:
            types = spec.cards.types
            return min(discards, key=lambda m: (self._worth(state, m.arg, hand), -types[m.arg].value, m.arg))
        return moves[0]

    def _useful_now(self, state: State, r, card: int) -> bool:
        """Whether a free face-up card is of use at once: it completes the contract the
        hand could not lay without it, or (down already) it fits a laid meld."""
        from .kernel.mechanics.lay import best, can_lay, group_kinds

        hand = state.hand()
        with_card = list(hand)
        with_card[card] += 1
        lay, contract = self._contract(state)
        if lay is None:
            return False
        if not state.down():
            if contract is None:
                return False
            import dataclasses

            need = dataclasses.replace(contract, keep=1)
            return best(state.spec, need, hand) is None and can_lay(state.spec, need, tuple(with_card))
        if self._worth(state, card, with_card) >= 100:
            return True
        for m in r.moves.values():
            if m.mechanic != "extend":
                continue
            seats = range(state.players) if m.f["onto"] == "any_player" else [state.current]
            for s in seats:
                for g in state.zone(m.f["to"], s):
                    now = group_kinds(state.spec, tuple(sorted(g + (card,))))
                    if group_kinds(state.spec, g) & now if m.f.get("stays") == "same_kind" else now:
                        return True
        return False

    def _draw(self, state: State, r, draws: list[Move], hand) -> Move:
        contract = self._contract(state)[1]
        sizes = [s.size for s in contract.required] if contract is not None else []
        for m in draws:
            decl = r.moves[m.id]
            first = next(iter(decl.f["from"]))
            z = r.zones[first]
            if z.face != "up" or (decl.f.get("units") is not None and m.arg != 1):
                continue
            pile = state.zone(first, m.arg if z.each else None)
            if not pile:
                continue
            top = pile[-1]
            with_top = list(hand)
            with_top[top] += 1
            worth = self._worth(state, top, with_top)
            paid = any(int(c) > 0 for c in (decl.f.get("cost") or {}).values())
            if not paid:
                if self._useful_now(state, r, top):
                    return m
                continue
            down = state.down()
            completes = (not down and worth + 1 in sizes) or (down and worth >= 100 and state.spec.cards.types[top].natural)
            short = sum(hand) < self._need(state) + 1
            if completes or (short and worth >= 1):
                return m
        blind = [m for m in draws if all(r.zones[z].face == "down" for z in r.moves[m.id].f["from"])]
        return (blind or draws)[0]


# the mechanics GreedyPlayer plays with its own judgement; a phase offering any other is
# played by `choose_any`, whose judgement is the same for every mechanic
CLASSIC = frozenset({"rearrange", "draw", "lay", "extend", "give", "discard", "move_all", "mark", "unmark", "exchange",
                     "fill"})


def choose_any(state: State, moves: list[Move]) -> Move:
    """A greedy choice among any moves, by what each does rather than by its mechanic:

    1. a move after which the mover has won the game, or gone out;
    2. else a move that plays a card: onto a trick, the lowest card that takes the trick
       if one does, else the lowest card; elsewhere the card worth most (a card that
       names a value, which can go anywhere, kept for last), naming the value the rest
       of the hand holds most of;
    3. else a draw (the move that brings cards), else any other move, a pass last.

    Ties go to the move first in `moves` (the kernel's order), so the choice is the same
    on every run."""
    from .kernel.registry import mechanic

    r = kernel.rules(state.spec)
    me = state.current
    types = state.spec.cards.types
    played: list[tuple[Move, int]] = []
    others: list[Move] = []
    for m in moves:
        decl = r.moves[m.id]
        base = m.arg.arg if isinstance(m.arg, Chosen) else m.arg
        cards = mechanic(decl.mechanic).played(state, decl, base)
        if cards:
            played.append((m, cards[0]))
        else:
            others.append(m)
    outcomes = {}
    for m in moves:
        with trace.tracing(False):
            try:
                after = kernel.apply(state, m)
            except kernel.Undecided:
                continue
        if isinstance(after, Refusal):
            continue
        outcomes[m] = after
        if after.over and me in after.winners:
            return m
        if len(after.results) > len(state.results) and after.results[-1].went_out == me:
            return m
    if played:
        tricks = [(m, c) for m, c in played
                  if r.moves[m.id].f.get("to") in r.zones and r.zones[r.moves[m.id].f["to"]].kind == "trick"]
        if tricks:
            def takes(m, c):
                zid = r.moves[m.id].f["to"]
                probe = state.with_zone(zid, state.zone(zid) + ((me, c),))
                with trace.tracing(False):
                    try:
                        return tricks_.winner(probe, r, zid) == me
                    except kernel.Undecided:
                        return False
            winning = [(m, c) for m, c in tricks if takes(m, c)]
            pool = winning or tricks
            return min(pool, key=lambda mc: (types[mc[1]].value, mc[1]))[0]
        plain = [(m, c) for m, c in played if not isinstance(m.arg, Chosen)]
        pool = plain or played
        best_card = max(pool, key=lambda mc: (types[mc[1]].value, -mc[1]))[1]
        same = [m for m, c in pool if c == best_card]
        if len(same) > 1 and isinstance(same[0].arg, Chosen):
            return max(same, key=lambda m: _named_worth(state, m, best_card))
        return same[0]
    draws = [m for m in others if r.moves[m.id].mechanic == "draw"]
    if draws:
        return draws[0]
    rest = [m for m in others if r.moves[m.id].mechanic != "pass"]
    return (rest or others or moves)[0]


def _named_worth(state: State, move: Move, played: int) -> tuple:
    """How well the values a move names suit the mover's hand: for a card attribute, how
    many cards left in the hand have it; other values (a seat, a number) the least first."""
    r = kernel.rules(state.spec)
    types = state.spec.cards.types
    hand = list(state.hand())
    hand[played] -= 1
    score = []
    for var, v in zip(r.moves[move.id].f["choose"], move.arg.values):
        c = r.counters[var]
        attr = c.type if c.type in state.spec.cards.attributes else None
        if attr is not None:
            score.append(sum(n for t, n in enumerate(hand) if n and types[t].natural
                             and state.spec.cards.attributes[attr].index(types[t].attrs[attr]) == v))
        else:
            score.append(-v)
    return tuple(score)


def play(spec, agents: Sequence, seed: int, dealer: int = 0, inputs=None,
         max_moves: int = 200_000) -> tuple[State, list]:
    """Play a whole game; returns the final state and the moves made."""
    state = kernel.new_game(spec, len(agents), seed, dealer, inputs)
    if isinstance(state, Refusal):
        raise ValueError(state.why)
    moves = []
    for _ in range(max_moves):
        if state.over:
            return state, moves
        move = agents[state.current].choose(state)
        nxt = kernel.apply(state, move)
        if isinstance(nxt, Refusal):
            raise AssertionError(f"a player chose a refused move {move!r}: {nxt}")
        moves.append(move)
        state = nxt
    raise RuntimeError(f"the game did not end within {max_moves} moves")
