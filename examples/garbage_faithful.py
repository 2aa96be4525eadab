"""Garbage's move rules as a Python adapter for `rulings conform`, written from the rulebook
(and the spec's readings) without importing rulings; with planted rule errors on request,
for the conformance search to find.

    rulings conform garbage --adapter examples/garbage_faithful.py:factory            # conforms
    rulings conform garbage --adapter examples/garbage_faithful.py:planted            # five planted errors

A situation is the scenario form (docs/scenarios.md): `tableau` (each seat's layout, position
by position, a face-down card written ?CARD), `in_hand` (the card each seat holds), `stock`
and `discards` (bottom first), `positions`, `to_play`, `phase` (draw or placing),
`finished` (under the last-turns reading, who has completed their layout), `readings` ...
Moves: {"draw": "stock"}, {"take_top": "discards"}, {"place_card": POSITION},
{"discard": CARD}. When a move ends the hand the answer has "phase": "round_over", the next
dealer and the next hand's set-up (who plays first, each seat's number of positions); when
it ends the game, "phase": "over" and the winners (protocol version 3).

It follows the readings the situation names (`readings`), each as the spec's clause says:
`wild` (jacks or kings), `must-place` (every card, or a wild optional), `reshuffle-when`
(at the next draw, or as soon as the stock is emptied), `hand-won` (the hand ends at once,
or everyone else has a last turn) and `last-turn-finishers` (all who finish win, or the
first only). `layout` and `discard-pile` change only the deal, which no question asks.

The planted errors (pass some of them, by name, to `Garbage(...)`):

    wild-on-face-up    a jack may also go onto a position already showing its own card
    discard-what-fits  a card that still fits the layout may be discarded
    reshuffle-all      an empty stock is refilled with the whole discard pile, its top card too
    no-shrink          the winner of a hand keeps all their positions for the next
    winner-waits       the next hand is opened by the dealer's left, not by the winner
"""
from __future__ import annotations

import copy
import random

PLANTED = ("wild-on-face-up", "discard-what-fits", "reshuffle-all", "no-shrink", "winner-waits")
POSITIONS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
ADOPTED = {"wild": "jacks", "must-place": "every-card", "reshuffle-when": "next-draw", "hand-won": "ends-at-once",
           "last-turn-finishers": "all-out"}


def canon(card) -> str:
    return str(card).upper()


class Garbage:
    protocol = 3            # the conformance protocol version it speaks (docs/conformance.md)

    def __init__(self, *plant: str):
        self.plant = set(plant)
        self.rng = random.Random(0)

    @staticmethod
    def reading(s, clause: str) -> str:
        return (s.get("readings") or {}).get(clause, ADOPTED[clause])

    def wild(self, s) -> str:
        return "K" if self.reading(s, "wild") == "kings" else "J"

    # ---- the layout ---------------------------------------------------------------------
    @staticmethod
    def layout(text) -> list[tuple[str, bool]]:
        items = text.split() if isinstance(text, str) else list(text)
        return [(canon(x)[1:], False) if canon(x).startswith("?") else (canon(x), True) for x in items]

    @staticmethod
    def write(lay) -> str:
        return " ".join(c if up else "?" + c for c, up in lay)

    def options(self, lay, card, wild) -> list[int]:
        """The positions the card held may go to."""
        if card == wild:
            return [i for i, (c, up) in enumerate(lay) if not up or ("wild-on-face-up" in self.plant and c != wild)]
        if card not in POSITIONS[:len(lay)]:
            return []
        p = POSITIONS.index(card)
        there, up = lay[p]
        if not up or there == wild:
            return [p]
        return []

    def must_place(self, s, lay, card) -> bool:
        """Whether the card held must be placed before the turn ends."""
        wild = self.wild(s)
        opts = self.options(lay, card, wild)
        if not opts or "discard-what-fits" in self.plant:
            return False
        if self.reading(s, "must-place") == "wild-optional":      # placing a wild, or displacing one, may wait
            return not (card == wild or all(lay[p][0] == wild and lay[p][1] for p in opts))
        return True

    # ---- the stock ----------------------------------------------------------------------
    def refill(self, s) -> bool:
        """The discard pile but its top card shuffled into a new stock; False when there is
        nothing under the top card."""
        keep = 0 if "reshuffle-all" in self.plant else 1
        under = s["discards"][:len(s["discards"]) - keep]
        if not under:
            return False
        s["discards"] = s["discards"][len(under):]
        self.rng.shuffle(under)
        s["stock"] = under + s["stock"]
        s["reshuffles"] = s.get("reshuffles", 0) + 1
        return True

    def after_draw(self, s) -> None:
        if not s["stock"] and self.reading(s, "reshuffle-when") == "when-emptied":
            self.refill(s)

    # ---- the end of a hand (protocol version 3) -------------------------------------------
    def hand_over(self, s, winners):
        """The hand is over: won by `winners` (the first of them first), or ([]) to be dealt
        again. Winners with a single position left win the game; else the deal passes to
        the left, the first winner (or, for a hand dealt again, the player left of the new
        dealer) plays first, and each winner has one position fewer."""
        n = s["players"]
        s.pop("finished", None)
        done = [w for w in winners if s["positions"][w] == 1]
        if done:
            s.update(phase="over", next_dealer=None, winners=sorted(done))
            return s
        dealer = (s["dealer"] + 1) % n
        positions = list(s["positions"])
        for w in winners:
            if "no-shrink" not in self.plant:
                positions[w] -= 1
        first = winners[0] if winners else (dealer + 1) % n
        if "winner-waits" in self.plant:
            first = (dealer + 1) % n
        s.update(phase="round_over", next_dealer=dealer, next_round={"to_play": first, "positions": positions})
        return s

    def end_turn(self, s, me: int, complete: bool):
        """The turn ends with the discard: the hand is won (at once, or after the others'
        last turns), or the next player's turn starts."""
        n = s["players"]
        if self.reading(s, "hand-won") != "last-turns":
            if complete:
                return self.hand_over(s, [me])
        else:
            finished = list(s.get("finished") or [])
            if complete and me not in finished:
                finished.append(me)
            if finished and (me + 1) % n == finished[0]:          # the last turns are over
                all_out = self.reading(s, "last-turn-finishers") == "all-out"
                return self.hand_over(s, finished if all_out else finished[:1])
            if finished:
                s["finished"] = finished
        s["to_play"] = (me + 1) % n
        s["turns_finished"] += 1
        s["phase"] = "draw"
        return s

    # ---- moves --------------------------------------------------------------------------
    def move(self, state, mv):
        no = {"legal": False}
        s = copy.deepcopy(state)
        (mid, arg), = mv.items()
        me = s["to_play"]
        held = s["in_hand"][me]
        if mid == "draw":
            if s["phase"] != "draw" or canon(arg) != "STOCK":
                return no
            if not s["stock"] and not self.refill(s):      # nothing to refill with: the hand is dealt again
                return {"legal": True, "state": self.hand_over(s, [])}
            held.append(s["stock"].pop())
            s["phase"] = "placing"
            self.after_draw(s)
            return {"legal": True, "state": s}
        if mid == "take_top":
            if s["phase"] != "draw" or canon(arg) != "DISCARDS" or not s["discards"]:
                return no
            held.append(s["discards"].pop())
            s["phase"] = "placing"
            self.after_draw(s)
            return {"legal": True, "state": s}
        if s["phase"] != "placing" or len(held) != 1:
            return no
        lay = self.layout(s["tableau"][me])
        card = canon(held[0])
        if mid == "place_card":
            if canon(arg) not in POSITIONS:
                return no
            p = POSITIONS.index(canon(arg))
            if p not in self.options(lay, card, self.wild(s)):
                return no
            taken, _ = lay[p]
            lay[p] = (card, True)
            s["tableau"][me] = self.write(lay)
            s["in_hand"][me] = [taken]
            return {"legal": True, "state": s}
        if mid == "discard":
            if canon(arg) != card or self.must_place(s, lay, card):
                return no
            s["in_hand"][me] = []
            s["discards"].append(card)
            return {"legal": True, "state": self.end_turn(s, me, all(up for _, up in lay))}
        return no


def factory():
    return Garbage()


def planted():
    return Garbage(*PLANTED)
