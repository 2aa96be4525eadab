"""Garbage's move rules as a Python adapter for `rulings conform`, written from the rulebook
(and the spec's adopted readings) without importing rulings; with planted rule errors on
request, for the conformance search to find.

    rulings conform garbage --adapter examples/garbage_faithful.py:factory            # conforms
    rulings conform garbage --adapter examples/garbage_faithful.py:planted            # three planted errors

A situation is the scenario form (docs/scenarios.md): `tableau` (each seat's layout, position
by position, a face-down card written ?CARD), `in_hand` (the card each seat holds), `stock`
and `discards` (bottom first), `positions`, `to_play`, `phase` (draw or placing), ...
Moves: {"draw": "stock"}, {"take_top": "discards"}, {"place_card": POSITION},
{"discard": CARD}. When a move ends the hand the answer has "phase": "level_over".

The planted errors (pass some of them, by name, to `Garbage(...)`):

    wild-on-face-up    a jack may also go onto a position already showing its own card
    discard-what-fits  a card that still fits the layout may be discarded
    reshuffle-all      an empty stock is refilled with the whole discard pile, its top card too
"""
from __future__ import annotations

import copy
import random

PLANTED = ("wild-on-face-up", "discard-what-fits", "reshuffle-all")
POSITIONS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
WILD = "J"


def canon(card) -> str:
    return str(card).upper()


class Garbage:
    def __init__(self, *plant: str):
        self.plant = set(plant)
        self.rng = random.Random(0)

    # ---- the layout ---------------------------------------------------------------------
    @staticmethod
    def layout(text) -> list[tuple[str, bool]]:
        items = text.split() if isinstance(text, str) else list(text)
        return [(canon(x)[1:], False) if canon(x).startswith("?") else (canon(x), True) for x in items]

    @staticmethod
    def write(lay) -> str:
        return " ".join(c if up else "?" + c for c, up in lay)

    def options(self, lay, card) -> list[int]:
        """The positions the card held may go to."""
        if card == WILD:
            return [i for i, (c, up) in enumerate(lay) if not up or ("wild-on-face-up" in self.plant and c != WILD)]
        if card not in POSITIONS[:len(lay)]:
            return []
        p = POSITIONS.index(card)
        there, up = lay[p]
        if not up or there == WILD:
            return [p]
        return []

    # ---- moves --------------------------------------------------------------------------
    def move(self, state, mv):
        no = {"legal": False}
        s = copy.deepcopy(state)
        (mid, arg), = mv.items()
        me, n = s["to_play"], s["players"]
        held = s["in_hand"][me]
        if mid == "draw":
            if s["phase"] != "draw" or canon(arg) != "STOCK":
                return no
            if not s["stock"]:
                keep = 0 if "reshuffle-all" in self.plant else 1
                under = s["discards"][:len(s["discards"]) - keep]
                if not under:                 # nothing to refill with: the hand is dealt again
                    s["phase"] = "level_over"
                    return {"legal": True, "state": s}
                s["discards"] = s["discards"][len(under):]
                self.rng.shuffle(under)
                s["stock"] = under
                s["reshuffles"] = s.get("reshuffles", 0) + 1
            held.append(s["stock"].pop())
            s["phase"] = "placing"
            return {"legal": True, "state": s}
        if mid == "take_top":
            if s["phase"] != "draw" or canon(arg) != "DISCARDS" or not s["discards"]:
                return no
            held.append(s["discards"].pop())
            s["phase"] = "placing"
            return {"legal": True, "state": s}
        if s["phase"] != "placing" or len(held) != 1:
            return no
        lay = self.layout(s["tableau"][me])
        card = canon(held[0])
        if mid == "place_card":
            if canon(arg) not in POSITIONS:
                return no
            p = POSITIONS.index(canon(arg))
            if p not in self.options(lay, card):
                return no
            taken, _ = lay[p]
            lay[p] = (card, True)
            s["tableau"][me] = self.write(lay)
            s["in_hand"][me] = [taken]
            return {"legal": True, "state": s}
        if mid == "discard":
            if canon(arg) != card:
                return no
            if self.options(lay, card) and "discard-what-fits" not in self.plant:
                return no
            s["in_hand"][me] = []
            s["discards"].append(card)
            if all(up for _, up in lay):      # the layout is complete: the hand is won
                s["phase"] = "level_over"
                return {"legal": True, "state": s}
            s["to_play"] = (me + 1) % n
            s["turns_finished"] += 1
            s["phase"] = "draw"
            return {"legal": True, "state": s}
        return no


def factory():
    return Garbage()


def planted():
    return Garbage(*PLANTED)
