"""How: exhaustive exploration of hands, smallest first.

Enumerates every hand (multiset of card types) of 1, 2, ... cards that the game's deck
allows, in a fixed order, and asks a question of each; the first hand that answers yes
is a minimal witness (fewest cards). Used by the reading check for readings that bear on
meld legality. The bound is the largest hand size searched in full; the search stops
early at a budget of hands and says so.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from math import comb
from typing import Callable, Iterator


def hands_of_size(deck: tuple[int, ...], size: int, types: list[int]) -> Iterator[tuple[int, ...]]:
    """Every hand of `size` cards over `types`, at most deck[t] of each."""
    for combo in itertools.combinations_with_replacement(types, size):
        hand = [0] * len(deck)
        ok = True
        for t in combo:
            hand[t] += 1
            if hand[t] > deck[t]:
                ok = False
                break
        if ok:
            yield tuple(hand)


def count_hands(n_types: int, size: int) -> int:
    return comb(n_types + size - 1, size)


@dataclass
class Search:
    found: tuple | None            # (hand, answer) for the first hand that answers, or None
    size_reached: int              # hands of this many cards and fewer were searched in full
    hands: int                     # hands asked about
    complete: bool                 # False when the budget stopped the search inside a size
    seconds: float


def smallest(deck: tuple[int, ...], types: list[int], bound: int, ask: Callable[[tuple], object | None],
             budget: int = 400_000) -> Search:
    """Ask about every hand of 1..bound cards, smallest first; stop at the first answer."""
    t0 = time.perf_counter()
    hands = 0
    reached = 0
    for size in range(1, bound + 1):
        if hands + count_hands(len(types), size) > budget:
            return Search(None, reached, hands, False, time.perf_counter() - t0)
        for hand in hands_of_size(deck, size, types):
            hands += 1
            answer = ask(hand)
            if answer is not None:
                return Search((hand, answer), size, hands, True, time.perf_counter() - t0)
        reached = size
    return Search(None, reached, hands, True, time.perf_counter() - t0)
