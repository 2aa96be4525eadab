"""Conformance vectors for the table question: the most a player can place from their rack
onto a shared table of melds, rearranging it (`best_play`; see docs/conformance.md).

For a game whose spec has free melds on a shared table (an `any` contract, see
`rearrange.table_contract`). Each vector gives the table (a list of melds, each a list of
card tokens), the rack, what is counted (`cards`, or `points`: face value) and whether
this is the player's initial meld (then the table is empty and the melds come from the
rack alone, the spec's initial meld honoured); the spec's answer is `placed` (how many
cards, or how much face value, at most), with a `table_after` that shows it. Positions
are seeded (tables built from valid melds drawn from one pack, racks from the rest), so
the same spec gives the same files, byte for byte.

`vectors.generate` calls `documents` and writes this file beside the others, with the
manifest that records its SHA-256 like theirs.
"""
from __future__ import annotations


from rulings import rearrange as ra
from rulings.spec import Spec

from .vectors_format import FORMAT, VERSION

from .table_positions import PositionError, position

FILE = "best_play.json"
KIND = "best_play"
QUESTION = ("how much (cards, or face value) can the player place from this rack onto this table at most, "
            "rearranging the table so that every meld on it is valid and every card that was on it stays; with "
            "initial, the player's first melds, from the rack alone, the initial meld's rules honoured?")

# (table cards, rack cards, by, initial) of the default set; `size` repeats it with other seeds
# (table cards, rack cards, melds dealt into the rack, by, initial) of the default set; `size`
# repeats it with other seeds
SHAPES = [(0, 6, 1, "cards", False), (0, 14, 2, "cards", False), (0, 14, 0, "points", False),
          (6, 3, 0, "cards", False), (9, 4, 0, "cards", False), (12, 5, 1, "cards", False),
          (12, 6, 0, "points", False), (20, 8, 1, "cards", False), (20, 8, 0, "points", False),
          (30, 14, 0, "cards", False), (45, 14, 0, "cards", False), (45, 14, 1, "points", False),
          (0, 9, 2, "cards", True), (0, 14, 3, "cards", True), (0, 14, 2, "points", True), (0, 6, 0, "cards", True)]


def applies(spec: Spec) -> bool:
    """Whether the spec has a shared table the question can be asked about (positions
    for it can be built)."""
    try:
        ra.table_contract(spec)
        position(spec, 0, 3, 3)
    except (ra.RearrangeError, PositionError):
        return False
    return True


def tokens_of(spec: Spec, counts) -> list[str]:
    return spec.cards.tokens(counts)


def answer(spec: Spec, table_melds: list[tuple], rack: tuple, by: str, initial: bool, engine: str = "reference"):
    """The spec's answer: a Placement (the reference's, unless `engine` says otherwise). No
    initial meld possible is an answer too: nothing placed."""
    n = len(rack)
    table = tuple(sum(m[t] for m in table_melds) for t in range(n))
    p = ra.best(spec, table, rack, by, engine, initial=initial)
    if initial and p.possible is False:
        return ra.Placement(True, tuple(0 for _ in rack), 0, [], p.engine, "no initial meld is possible")
    return p


def clauses_of(spec: Spec, initial: bool) -> list[str]:
    return list((spec.contract(initial=True) if initial else ra.table_contract(spec)).clauses)


def vector(spec: Spec, seed: int, table_cards: int, rack_cards: int, rack_melds: int, by: str, initial: bool) -> dict:
    melds, _, rack = position(spec, seed, 0 if initial else table_cards, rack_cards, rack_melds)
    p = answer(spec, melds, rack, by, initial)
    if p.possible is not True and not (initial and p.possible is False):   # pragma: no cover
        raise PositionError(f"seed {seed}: the spec's engine gave no answer ({p.note})")
    after = [tokens_of(spec, spec.cards.hand(spec.cards.types[t] for t in m.cards)) for m in p.melds]
    if initial:
        after = [tokens_of(spec, m) for m in melds] + after
    return {"id": f"best_play:{'initial:' if initial else ''}{by}:{len(melds)}x:{seed}",
            "table": [tokens_of(spec, m) for m in melds], "rack": tokens_of(spec, rack), "by": by,
            "initial": initial, "placed": p.value, "placed_cards": tokens_of(spec, p.placed),
            "table_after": after, "clauses": clauses_of(spec, initial)}


def best_play_vectors(spec: Spec, size: int = 1) -> list[dict]:
    out = []
    for rep in range(size):
        for i, (tc, rc, rm, by, initial) in enumerate(SHAPES):
            out.append(vector(spec, 1000 * rep + i, tc, rc, rm, by, initial))
    return out


def _doc(spec: Spec, cases: list) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": spec.game, "kind": KIND, "question": QUESTION,
            "cases": cases}


def documents(spec: Spec, size: int = 1) -> dict[str, dict]:
    """{FILE: document} for a spec with a table, else {}."""
    return {FILE: _doc(spec, best_play_vectors(spec, size))} if applies(spec) else {}
