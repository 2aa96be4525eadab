"""Tick's meld and move rules with four planted rule errors, as a Python adapter.

Written for `rulings conform` to find its errors; it does not import rulings. Use it as

    rulings conform tick --adapter examples/tick_planted.py:factory
    rulings conform tick --adapter examples.tick_planted:factory      (from the project folder)
    rulings conform tick --adapter examples/tick_planted.py:faithful  (no error planted: conforms)

The planted errors (pass some of them, by name, to `TickPlanted(...)` to plant only those):

    wilds-outnumber  a set of four or more may hold more wilds than naturals
    first-turn-out   a player may go out before everyone has had a turn
    free-tick        a tick costs no chip
    bonus-in-hand    a Bonus card held at the level's end costs 10 points, not 20
"""
from __future__ import annotations

import copy
import random
import re
from collections import Counter
from functools import lru_cache

PLANTED = ("wilds-outnumber", "first-turn-out", "free-tick", "bonus-in-hand")

RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B"]
WILDS = {"SW": 25, "BW": 50}
ORDER = RANKS + list(WILDS)
LEVELS = {1: (3,), 2: (3, 3), 3: (4,), 4: (4, 4), 5: (5,), 6: (5, 5), 7: (6,), 8: (6, 6)}
FURTHER = 3
TICK_CHIPS, TICK_STOCK = 1, 2
BONUS = 100


def value(card: str) -> int:
    if card in WILDS:
        return WILDS[card]
    if card == "B":
        return 20
    return 5 if int(card) <= 5 else 10


def canon(card) -> str:
    c = str(card).upper()
    if c not in ORDER:
        raise ValueError(f"unknown card {card!r}")
    return c


def ordered(cards) -> list[str]:
    return sorted((canon(c) for c in cards), key=ORDER.index)


class TickPlanted:
    protocol = 3            # the conformance protocol version it speaks (docs/conformance.md)

    def __init__(self, *plant: str):
        self.plant = set(plant or PLANTED)
        self.rng = random.Random(0)

    # ---- melds ----------------------------------------------------------------------------
    def set_ok(self, naturals: int, wilds: int, least: int) -> bool:
        if naturals < 1 or naturals + wilds < least:
            return False
        if wilds <= naturals:
            return True
        return "wilds-outnumber" in self.plant and naturals + wilds >= 4

    def layable(self, cards, sizes: tuple[int, ...]) -> bool:
        nat = Counter(c for c in map(canon, cards) if c not in WILDS)
        wilds = sum(1 for c in map(canon, cards) if c in WILDS)
        counts = tuple(sorted(nat.values(), reverse=True))
        if sizes and not counts:
            return False

        @lru_cache(maxsize=None)
        def go(i: int, required: tuple, wilds_left: int, left_here: int) -> bool:
            """Ranks from i on; `left_here` naturals of rank i still to place."""
            if i == len(counts):
                return not required
            if left_here == 0:
                return go(i + 1, required, wilds_left, counts[i + 1] if i + 1 < len(counts) else 0)
            # the next set of this rank: a required one or a further one, of n naturals and w wilds
            options = [(s, required[:k] + required[k + 1:]) for k, s in enumerate(required)
                       if s not in required[:k]] + [(FURTHER, required)]
            for least, rest in options:
                for n in range(1, left_here + 1):
                    for w in range(0, wilds_left + 1):
                        if self.set_ok(n, w, least) and go(i, rest, wilds_left - w, left_here - n):
                            return True
            return False

        return go(0, tuple(sizes), wilds, counts[0] if counts else 0)

    @staticmethod
    def level(contract) -> int:
        m = re.fullmatch(r"level (\d+)", str(contract))
        if not m or int(m.group(1)) not in LEVELS:
            raise ValueError(f"no contract {contract!r}")
        return int(m.group(1))

    def meld(self, cards, contract):
        return self.layable(cards, LEVELS[self.level(contract)])

    def best_lay(self, cards, contract):
        sizes = LEVELS[self.level(contract)]
        hand = Counter(map(canon, cards))
        kinds = sorted(hand, key=ORDER.index)
        best = None

        def walk(i, laid):
            nonlocal best
            if i == len(kinds):
                if sum(hand.values()) - len(laid) >= 1:
                    pts = sum(map(value, laid))
                    if (best is None or pts > best) and self.layable(laid, sizes):
                        best = pts
                return
            for n in range(hand[kinds[i]], -1, -1):
                walk(i + 1, laid + [kinds[i]] * n)

        walk(0, [])
        return best

    # ---- moves (situations and moves in the scenario format, docs/scenarios.md) -----------
    def may_go_out(self, s) -> bool:
        return "first-turn-out" in self.plant or s["turns_finished"] >= len(s["hands"])

    def end_level(self, s):
        """The level's end (protocol version 3): after the eighth the game is over and the
        most points win (equal tops share); else the deal passes to the left, the dealer's
        left starts, the level goes up, chips carry over, the scores go onto the totals."""
        n = len(s["hands"])
        scores = self.score(s)
        totals = [t + x for t, x in zip(s.get("scores") or [0] * n, scores)]
        if s["level"] >= 8:
            s.update(phase="over", next_dealer=None, winners=[i for i, t in enumerate(totals) if t == max(totals)])
        else:
            dealer = (s["dealer"] + 1) % n
            s.update(phase="round_over", next_dealer=dealer,
                     next_round={"to_play": (dealer + 1) % n, "chips": list(s["chips"]), "level": s["level"] + 1,
                                 "scores": totals})
        return {"legal": True, "state": s, "scores": scores}

    def move(self, state, mv):
        s = copy.deepcopy(state)
        n = len(s["hands"])
        s["hands"] = [ordered(h) for h in s["hands"]]
        s["laid"] = [[ordered(lay) for lay in seat] for seat in s.get("laid") or [[] for _ in range(n)]]
        s["chips"] = list(s.get("chips") or [10] * n)
        s["lays_this_turn"] = s.get("lays_this_turn", 0)
        s["stock"] = [canon(c) for c in s["stock"]]
        s["face_up"] = [canon(c) for c in s["face_up"]]
        me = s["to_play"]
        (kind, arg), = mv.items()
        no = {"legal": False}
        if kind in ("draw", "tick"):
            if s["phase"] != "draw":
                return no
            if not s["stock"]:
                if len(s["face_up"]) <= 1:
                    return self.end_level(s)
                top = s["face_up"].pop()
                s["stock"] = s["face_up"] + s["stock"]
                self.rng.shuffle(s["stock"])
                s["face_up"] = [top]
            if kind == "draw":
                s["hands"][me] = ordered(s["hands"][me] + [s["stock"].pop()])
            else:
                k = arg
                cost = 0 if "free-tick" in self.plant else k * TICK_CHIPS
                if k < 1 or k > len(s["face_up"]) or cost > s["chips"][me] or len(s["stock"]) < k * TICK_STOCK:
                    return no
                taken = s["face_up"][-k:] + s["stock"][-k * TICK_STOCK:]
                del s["face_up"][-k:]
                del s["stock"][-k * TICK_STOCK:]
                s["hands"][me] = ordered(s["hands"][me] + taken)
                s["chips"][me] -= cost
            s["phase"] = "play"
            return {"legal": True, "state": s}
        if s["phase"] != "play":
            return no
        if kind == "lay":
            cards = ordered(arg)
            left = Counter(s["hands"][me])
            left.subtract(cards)
            if not cards or min(left.values(), default=0) < 0:
                return no
            if not s["laid"][me]:
                if not self.layable(cards, LEVELS[s["level"]]):
                    return no
            else:
                table = {c for seat in s["laid"] for lay in seat for c in lay if c not in WILDS}
                rest = [c for c in cards if c in WILDS or c not in table]
                if rest and not self.layable(rest, ()):
                    return no
            n_left = sum(left.values())
            if n_left == 0 or (n_left <= 1 and not self.may_go_out(s)):
                return no
            s["hands"][me] = ordered(left.elements())
            s["laid"][me].append(cards)
            s["lays_this_turn"] += 1
            return {"legal": True, "state": s}
        if kind == "discard":
            card = canon(arg)
            hand = s["hands"][me]
            if card not in hand:
                return no
            if len(hand) == 1 and not self.may_go_out(s):
                return no
            hand.remove(card)
            s["face_up"].append(card)
            if not hand:
                return self.end_level(s)
            s["phase"] = "draw"
            s["turns_finished"] += 1
            s["to_play"] = (me + 1) % n
            s["lays_this_turn"] = 0
            need = sum(LEVELS[s["level"]]) + 1
            if all(not s["laid"][i] and len(s["hands"][i]) + max(1, s["chips"][i] // TICK_CHIPS * (1 + TICK_STOCK)) < need
                   for i in range(n)):
                return self.end_level(s)
            return {"legal": True, "state": s}
        raise ValueError(f"no move {mv!r}")

    # ---- scoring --------------------------------------------------------------------------
    def score(self, state):
        out = []
        laid_all = state.get("laid") or [[] for _ in state["hands"]]
        for i, hand in enumerate(state["hands"]):
            laid = sum(value(canon(c)) for lay in laid_all[i] for c in lay)
            held = sum(10 if ("bonus-in-hand" in self.plant and canon(c) == "B") else value(canon(c)) for c in hand)
            out.append(laid - held + (BONUS if state.get("exact_deal") and i == state["dealer"] else 0))
        return out


def factory():
    return TickPlanted()


def faithful():
    """The same implementation with no error planted: it conforms (adopted readings only)."""
    impl = TickPlanted()
    impl.plant = set()
    return impl
