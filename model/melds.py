"""Meld kinds, contracts and lay-downs: the shapes both deciders work on.

A *meld kind* (a Tick set, a Rummikub run or group, a Level 8 "cards of one colour")
says which cards may go together: attributes all cards share (`same`), attributes no two
cards share (`distinct`), an attribute whose values must be consecutive (`run`), a size
range, and rules written in the expression language over the meld's numbers.

A *contract* is what one lay-down must contain: the required melds (a Tick level, a
Rummikub initial meld), the further melds the game allows in the same turn, and rules
over the whole lay-down. Every part carries the id of the clause it comes from, so a
verdict can cite it.

Names an expression may use:
  in a meld rule:  size, naturals, wilds, points, face_points
  in a lay rule:   the same, summed over the lay-down's melds (or over the melds of the
                   kinds the rule names), plus the spec's params
`points` counts each wild at the value of the card it stands for; `face_points` at its
own value.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .expr import Expr

MELD_NAMES = ("size", "naturals", "wilds", "points", "face_points")


@dataclass(frozen=True)
class Rule:
    clause: str
    expr: Expr
    kinds: tuple[str, ...] | None = None    # lay rules: only melds of these kinds count
    uses: tuple[str, ...] = ()               # clauses whose params the rule reads


@dataclass(frozen=True)
class MeldKind:
    id: str
    clause: str
    same: tuple[str, ...] = ()
    distinct: tuple[str, ...] = ()
    run: str | None = None
    size_min: int = 1
    size_max: int | None = None
    rules: tuple[Rule, ...] = ()


@dataclass(frozen=True)
class Slot:
    """One meld a lay-down must (required) or may (extra) contain."""

    kinds: tuple[str, ...]
    size: int                 # the least number of cards (or the exact number if `exact`)
    clause: str
    exact: bool = False

    def fits(self, size: int) -> bool:
        return size == self.size if self.exact else size >= self.size


@dataclass(frozen=True)
class Contract:
    name: str                           # "level 3", "initial", "any"
    required: tuple[Slot, ...]
    extras: tuple[Slot, ...]
    rules: tuple[Rule, ...]             # rules over the whole lay-down
    distinct: tuple[str, ...] = ()      # attributes the required melds may not share
    distinct_clause: str | None = None
    keep: int = 0                       # cards that must stay in hand (the discard), for `lay`
    keep_clause: str | None = None
    clauses: tuple[str, ...] = ()       # every clause the contract rests on


@dataclass(frozen=True)
class PlacedMeld:
    """A meld in a witness: its kind, whether it fills a required slot, its cards (type
    indices, naturals first) and, for each wild, the attributes it stands for."""

    kind: str
    required: bool
    cards: tuple[int, ...]
    stands_for: tuple[tuple[int, Mapping[str, object]], ...] = ()   # (position, attrs)
    points: int = 0


@dataclass(frozen=True)
class Violation:
    clause: str
    source: str
    why: str


@dataclass
class Verdict:
    """The answer to "is this lay-down legal?" (or, for `lay`, "which lay-down is best?").

    `legal` is True, False, or None when the solver answered unknown."""

    legal: bool | None
    melds: list[PlacedMeld] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    engine: str = ""
    note: str = ""
    kept: tuple[int, ...] = ()          # `lay`: type indices of the cards left in hand
    points: int = 0                     # `lay`: points of the cards laid
