"""An adapter that holds `rummikub-solver` (PyPI; Martijn Pieters' library, an integer
program after den Hertog and Hulshof, solved by HiGHS through cvxpy) to the spec.

It answers the one question the library answers, `best_play`: the most a player can
place from their rack onto the table, rearranging it (docs/conformance.md). Everything
else is declined. The adapter only translates: tokens to the library's tiles and back,
the question to the library's solver mode; it corrects nothing the library decides.

    rulings vectors rummikub -o vectors/rummikub
    rulings conform rummikub --adapter examples/rummikub_solver_adapter.py:factory --vectors vectors/rummikub

The library is configured for the game the tokens name: 13 numbers, 4 colours, 2 copies
of each tile, 2 jokers, sets of 3 or more, and the initial meld's threshold (50 points by
default, as the rulebook the spec formalises; RUMMIKUB_SOLVER_INITIAL=30 for the current
edition). `placed` counts what the library moves from the rack: tiles, or their face value
(a number tile its number, a joker 30), as the protocol counts it.
"""
from __future__ import annotations

import os

COLOURS = {"k": "BLACK", "b": "BLUE", "o": "ORANGE", "r": "RED"}
JOKER = "J"
JOKER_POINTS = 30


class RummikubSolverAdapter:
    def __init__(self, initial_threshold: int | None = None):
        from rummikub_solver import RuleSet

        threshold = initial_threshold or int(os.environ.get("RUMMIKUB_SOLVER_INITIAL", "50"))
        self.rules = RuleSet(numbers=13, repeats=2, colours=4, jokers=2, min_len=3, min_initial_value=threshold)
        self.tile_of, self.token_of = {}, {}
        for t in self.rules.tiles:
            if hasattr(t, "colour"):
                tok = next(k for k, name in COLOURS.items() if name == t.colour.name) + str(t.value)
            else:
                tok = JOKER
            self.tile_of[tok], self.token_of[int(t)] = t, tok

    def _points(self, tokens) -> int:
        return sum(JOKER_POINTS if t == JOKER else int(t[1:]) for t in tokens)

    def best_play(self, table: list[list[str]], rack: list[str], by: str, initial: bool) -> dict:
        from rummikub_solver import SolverMode

        state = self.rules.new_game()
        state.add_table(*(self.tile_of[t] for meld in table for t in meld))
        state.add_rack(*(self.tile_of[t] for t in rack))
        state.initial = initial
        mode = SolverMode.INITIAL if initial else SolverMode.TILE_COUNT if by == "cards" else SolverMode.TOTAL_VALUE
        sol = self.rules.solve(state, mode)
        if sol is None:                      # the library found nothing to place
            return {"placed": 0, "table": table}
        placed = [self.token_of[int(t)] for t in sol.tiles]
        new = [[self.token_of[int(t)] for t in s] for s in sol.sets]
        return {"placed": len(placed) if by == "cards" else self._points(placed), "table": new,
                "free_jokers": sol.free_jokers}


def factory():
    return RummikubSolverAdapter()
