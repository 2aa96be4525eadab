"""How much a search may do, in units of work, never in seconds.

A budget counts what the search does (hands a solver proposes, Z3's resource units per
query, seeded games and their moves, states compared, situations built, situations
judged while shrinking), so the same input gives the same findings on any machine, busy
or idle, and a search the budget cut short says so in the same place every time.
"""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Budget:
    hands: int = 2000           # hands one spec's solver proposes and the other judges (meld search)
    enumerate: int = 40_000     # hands of the smallest sizes judged one by one by the reference decider first
    rlimit: int = 20_000_000    # Z3 resource units per proof query (`prove_melds`, `bmc`): Z3's own count of work
    seeds: int = 2              # seeded games per player count and player kind
    moves: int = 800            # moves per game
    states: int | None = None   # states compared in play at most (None: every state of every game)
    situations: int = 600       # situations Hypothesis builds where play met no difference (0: none)
    shrink: int = 3000          # situations judged while shrinking a witness

    def but(self, **changes) -> "Budget":
        return replace(self, **changes)

    def words(self) -> str:
        out = [f"{self.enumerate} hands enumerated", f"{self.hands} hands proposed", f"Z3 rlimit {self.rlimit:,} a query",
               f"{self.seeds} seeded games a table of at most {self.moves} moves"]
        if self.states is not None:
            out.append(f"{self.states} states compared")
        if self.situations:
            out.append(f"{self.situations} built situations")
        out.append(f"{self.shrink} situations judged shrinking")
        return ", ".join(out)


READING = Budget()                                          # a declared reading against another
WHATIF = Budget(hands=200, enumerate=3000, rlimit=2_000_000, seeds=2, moves=300, states=400, situations=0,
                shrink=100)   # one what-if alternative

__all__ = ["Budget", "READING", "WHATIF"]
