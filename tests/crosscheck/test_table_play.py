"""The kernel's play on a shared table against the rearrangement deciders: on random
tables of runs and groups and random racks, the play `legal_moves` offers is legal, and
(with no joker on the table to lock a meld) it places as many tiles as the reference's
direct search says the rack can add; a rack that can add nothing is offered the draw."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as st

from rulings import kernel, rearrange
from rulings.kernel import codec
from rulings.spec import load

SPEC = load("rummikub")
COLOURS = ["k", "r", "o", "b"]


@st.composite
def positions(draw):
    used: Counter = Counter()
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            colour = draw(st.sampled_from(COLOURS))
            start = draw(st.integers(1, 11))
            length = draw(st.integers(3, min(5, 14 - start)))
            meld = [f"{colour}{n}" for n in range(start, start + length)]
        else:
            number = draw(st.integers(1, 13))
            meld = [f"{c}{number}" for c in draw(st.permutations(COLOURS))[:draw(st.integers(3, 4))]]
        if all(used[t] + 1 <= 2 for t in meld):
            used.update(meld)
            melds.append(meld)
    tiles = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] + ["J"]
    rack = []
    for t in draw(st.lists(st.sampled_from(tiles), min_size=1, max_size=8)):
        if used[t] + 1 <= 2:
            used[t] += 1
            rack.append(t)
    if not rack:
        rack = [next(t for t in tiles if used[t] < 2)]
    return melds, rack


# each example asks Z3 and the reference's direct search on a whole table: a tenth of the
# profile's examples
@settings(settings.default, max_examples=max(10, settings.default.max_examples // 10))
@given(positions())
def test_the_offered_play_is_legal_and_places_the_most(pos):
    melds, rack = pos
    doc = {"format": 1, "game": "rummikub", "players": 2, "dealer": 0, "to_play": 0, "phase": "turn",
           "turns_finished": 4, "melded": [1, 1], "racks": [rack, []], "table": [" ".join(m) for m in melds],
           "reserve": {"top": [], "rest": "deck"}}
    state = codec.state_from_doc(SPEC, doc)
    width = len(SPEC.cards.types)
    old = kernel.counts([c for m in state.zone("table") for c in m], width)
    best = rearrange.best(SPEC, old, state.hand(), engine="reference")
    moves = kernel.legal_moves(state)
    plays = [m for m in moves if m.id == "play"]
    if not best.possible or best.value == 0:
        assert [m.id for m in moves] == ["draw"]
        return
    assert [m.id for m in moves] == ["play"]          # a player who can play is not offered the draw
    after = kernel.apply(state, plays[0])
    assert not isinstance(after, kernel.Refusal), after
    assert sum(state.hand()) - sum(after.hand(0)) == best.value
