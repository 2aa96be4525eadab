"""Sequence Numbers' move rules as a Python adapter for `rulings conform`, written from the
rulebook, the spec's named assumptions (the board, the card list, the teams) and its
readings, without importing rulings; with planted rule errors on request, for the
conformance search to find. It follows the readings the situation names (`readings`):
the teams for five and six players, whether a Minus card's turn still draws, whether a
further dead card ends the turn, and how many spaces two sequences may share.

    rulings conform sequence-numbers --adapter examples/seqnum_faithful.py:factory    # conforms
    rulings conform sequence-numbers --adapter examples/seqnum_faithful.py:planted    # four planted errors

A situation is the scenario form (docs/scenarios.md): `board` (ten rows of text: `*` a free
corner, `.` an empty space, a digit the side whose chip covers it), `hands`, `discards` (one
pile per seat, bottom first), `stock` (bottom first, top last), `players`, `dealer`,
`to_play`, `phase` (`play` or `draw`), `turns_finished`, `lays_this_turn` (dead cards
exchanged this turn), `reshuffles`. Moves: {"cover": {"card": "7+", "at": [row, col]}},
{"cover_any": [row, col]} (a Plus card), {"uncover": [row, col]} (a Minus card),
{"swap_dead": "7+"}, {"swap_stuck": "7+"} (a further dead card, for a player with no other
move: the spec's assumption no-playable-card), {"draw": "stock"}. A move that wins answers
`"phase": "over"` and the winning seats in `winners`; a draw with nothing to draw voids the
deal: `"phase": "round_over"`, the next dealer and who plays first (protocol version 3).

The planted errors (pass some of them, by name, to `SequenceNumbers(...)`):

    foreign-chip-counts   five in a row counts as a sequence with one chip of another side in it
    minus-breaks-sequence a Minus card may take a chip of a completed sequence
    dead-card-kept        a dead card may never be exchanged
    stuck-ignores-minus   a player holding a Minus card with a chip to take counts as having no
                          other move, so may exchange a further dead card
"""
from __future__ import annotations

import copy
import random

PLANTED = ("foreign-chip-counts", "minus-breaks-sequence", "dead-card-kept", "stuck-ignores-minus")
SIZE, LINE = 10, 5
# the assumed board (spec clause board-layout): free corners, 1..48 row by row, then the same
# numbers mirrored through the centre
_HALF = [0] + list(range(1, 9)) + [0] + list(range(9, 49))
NUMBERS = _HALF + _HALF[::-1]
TEAMS = {2: [[0], [1]], 3: [[0], [1], [2]], 4: [[0, 2], [1, 3]], 5: [[0, 2, 4], [1, 3]],
         6: [[0, 2, 4], [1, 3, 5]]}
# the readings of the spec's clauses this implementation follows, as the situation names them
OTHER_TEAMS = {("teams-of-six", "three-teams"): {6: [[0, 3], [1, 4], [2, 5]]},
               ("teams-of-five", "three-teams"): {5: [[0, 3], [1, 4], [2]]},
               ("teams-of-five", "each-alone"): {5: [[0], [1], [2], [3], [4]]}}
ADOPTED = {"minus-then-draw": "draw-follows", "no-playable-card": "exchange-again", "second-sequence": "one-space"}
FREE, EMPTY = "*", "."


def _windows() -> list[tuple[int, ...]]:
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (LINE - 1), c + dc * (LINE - 1)
                if 0 <= end_r < SIZE and 0 <= end_c < SIZE:
                    out.append(tuple((r + dr * k) * SIZE + c + dc * k for k in range(LINE)))
    return out


WINDOWS = _windows()


class SequenceNumbers:
    protocol = 3            # the conformance protocol version it speaks (docs/conformance.md)

    def __init__(self, *plant: str):
        self.plant = set(plant)
        self.rng = random.Random(0)

    # ---- the board ----------------------------------------------------------------------
    @staticmethod
    def cells(rows) -> list[str]:
        return [ch for row in rows for ch in row]

    @staticmethod
    def rows(cells) -> list[str]:
        return ["".join(cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]

    @staticmethod
    def reading(state, clause: str) -> str:
        return (state.get("readings") or {}).get(clause, ADOPTED.get(clause, ""))

    @classmethod
    def teams(cls, state) -> list[list[int]]:
        n = state["players"]
        for (clause, name), teams in OTHER_TEAMS.items():
            if n in teams and cls.reading(state, clause) == name:
                return teams[n]
        return TEAMS[n]

    @classmethod
    def side(cls, state, seat: int) -> int:
        return next(i for i, team in enumerate(cls.teams(state)) if seat in team)

    def full_windows(self, cells, side: int, planted: bool = False) -> list[tuple[int, ...]]:
        """The windows of five all of whose spaces are the side's chips or free corners."""
        mine = str(side)
        out = []
        for w in WINDOWS:
            other = sum(1 for i in w if cells[i] not in (mine, FREE))
            foreign = sum(1 for i in w if cells[i] not in (mine, FREE, EMPTY))
            if other == 0 or (planted and other == 1 and foreign == 1):
                out.append(w)
        return out

    def sequences(self, cells, side: int, planted: bool = False, share: int = 1) -> int:
        """The most full windows of the side no two of which share more than `share` spaces."""
        full = self.full_windows(cells, side, planted)
        best = 0

        def go(i, chosen):
            nonlocal best
            best = max(best, len(chosen))
            if i == len(full) or len(chosen) + len(full) - i <= best:
                return
            w = set(full[i])
            if all(len(w & set(o)) <= share for o in chosen):
                go(i + 1, chosen + [full[i]])
            go(i + 1, chosen)

        go(0, [])
        return best

    def won(self, s) -> dict:
        """The state, over if some side now holds the sequences the player count asks."""
        cells = self.cells(s["board"])
        need = 1 if s["players"] <= 3 else 2
        planted = "foreign-chip-counts" in self.plant
        share = 4 if self.reading(s, "second-sequence") == "any-spaces" else 1
        teams = self.teams(s)
        sides = [i for i in range(len(teams)) if self.sequences(cells, i, planted, share) >= need]
        if sides:
            s["phase"] = "over"
            s["winners"] = sorted(seat for i in sides for seat in teams[i])
        return s

    # ---- cards --------------------------------------------------------------------------
    @staticmethod
    def number(card: str) -> int | None:
        return int(card[:-1]) if card[-1:] in "+-" and card[:-1].isdigit() else None

    def open_spaces(self, cells, card: str) -> list[int]:
        n = self.number(card)
        return [i for i, v in enumerate(NUMBERS) if n is not None and v == n and cells[i] == EMPTY]

    @staticmethod
    def at(arg) -> int | None:
        if not (isinstance(arg, list) and len(arg) == 2 and all(isinstance(x, int) for x in arg)):
            return None
        r, c = arg
        return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else None

    def can_play(self, s, cells) -> bool:
        """Whether the player to move has a card they may play, or the turn's exchange left."""
        me = s["to_play"]
        hand, mine = s["hands"][me], str(self.side(s, me))
        if any(self.open_spaces(cells, c) for c in hand):
            return True
        if "P" in hand and any(n and cells[i] == EMPTY for i, n in enumerate(NUMBERS)):
            return True
        if "M" in hand and "stuck-ignores-minus" not in self.plant:
            for i, v in enumerate(cells):
                if v not in (EMPTY, FREE, mine) and not any(i in w for w in self.full_windows(cells, int(v))):
                    return True
        return s.get("lays_this_turn", 0) < 1 and any(self.number(c) is not None for c in hand)

    def refill(self, s) -> bool:
        """The discard piles shuffled into a new draw pile; False when there is nothing."""
        cards = [c for pile in s["discards"] for c in pile]
        if not cards:
            return False
        s["discards"] = [[] for _ in s["discards"]]
        self.rng.shuffle(cards)
        s["stock"] = cards
        s["reshuffles"] = s.get("reshuffles", 0) + 1
        return True

    @staticmethod
    def void(s) -> dict:
        """The deal counts for nothing (protocol version 3): dealt again by the player on the
        dealer's left, the player on their left starting."""
        n = s["players"]
        dealer = (s["dealer"] + 1) % n
        s.update(phase="round_over", next_dealer=dealer, next_round={"to_play": (dealer + 1) % n})
        return s

    # ---- moves --------------------------------------------------------------------------
    def move(self, state, mv):
        no = {"legal": False}
        if not (isinstance(mv, dict) and len(mv) == 1):
            return no
        s = copy.deepcopy(state)
        (mid, arg), = mv.items()
        me = s["to_play"]
        hand = s["hands"][me]
        cells = self.cells(s["board"])
        mine = str(self.side(s, me))
        if mid == "draw":
            if s["phase"] != "draw" or arg != "stock":
                return no
            if not s["stock"] and not self.refill(s):
                return {"legal": True, "state": self.void(s)}     # nothing to draw: the deal is void
            hand.append(s["stock"].pop())
            s["to_play"] = (me + 1) % s["players"]
            s["turns_finished"] += 1
            s["lays_this_turn"] = 0
            s["phase"] = "play"
            return {"legal": True, "state": s}
        if s["phase"] != "play":
            return no
        if mid in ("swap_dead", "swap_stuck"):
            card = str(arg).upper()
            if card not in hand or self.number(card) is None or self.open_spaces(cells, card):
                return no
            if mid == "swap_dead" and ("dead-card-kept" in self.plant or s.get("lays_this_turn", 0) >= 1):
                return no
            if mid == "swap_stuck" and self.can_play(s, cells):
                return no                           # only for a player with no other move
            hand.remove(card)
            s["discards"][me].append(card)
            if not s["stock"] and not self.refill(s):
                return {"legal": True, "state": self.void(s)}
            hand.append(s["stock"].pop())
            s["lays_this_turn"] = s.get("lays_this_turn", 0) + 1
            if mid == "swap_stuck" and self.reading(s, "no-playable-card") == "turn-passes":
                return {"legal": True, "state": self.pass_turn(s)}
            return {"legal": True, "state": s}
        if mid == "cover" and isinstance(arg, dict):
            card, cell = str(arg.get("card", "")).upper(), self.at(arg.get("at"))
            if card not in hand or cell is None or cell not in self.open_spaces(cells, card):
                return no
        elif mid == "cover_any":
            card, cell = "P", self.at(arg)
            if card not in hand or cell is None or NUMBERS[cell] == 0 or cells[cell] != EMPTY:
                return no
        elif mid == "uncover":
            card, cell = "M", self.at(arg)
            if card not in hand or cell is None or cells[cell] in (EMPTY, FREE, mine):
                return no
            if "minus-breaks-sequence" not in self.plant and \
                    any(cell in w for w in self.full_windows(cells, int(cells[cell]))):
                return no                                # a completed sequence cannot be broken
        else:
            return no
        hand.remove(card)
        s["discards"][me].append(card)
        cells[cell] = EMPTY if mid == "uncover" else mine
        s["board"] = self.rows(cells)
        s["phase"] = "draw"
        s = self.won(s)
        if mid == "uncover" and s["phase"] != "over" and self.reading(s, "minus-then-draw") == "turn-over":
            s = self.pass_turn(s)                        # the Minus card is the whole turn: no draw
        return {"legal": True, "state": s}

    @staticmethod
    def pass_turn(s) -> dict:
        s["to_play"] = (s["to_play"] + 1) % s["players"]
        s["turns_finished"] += 1
        s["lays_this_turn"] = 0
        s["phase"] = "play"
        return s


def factory():
    return SequenceNumbers()


def planted():
    return SequenceNumbers(*PLANTED)
