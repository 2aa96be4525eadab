"""Hand-checked verdicts of the reference decider on Tick."""
import pytest

from rulings import reference
from rulings.spec import load


def verdict(spec, level, cards):
    return reference.decide(spec, spec.contract(level=level), spec.cards.hand_of(cards.split()))


@pytest.mark.parametrize("level,cards,legal", [
    (3, "5 5 SW BW", True),
    (3, "5 SW SW BW", False),
    (1, "5 5 5 7 7 7", True),
    (1, "5 5 5 7", False),
    (1, "5 5 5 SW", True),
    (1, "5 5 SW SW SW", True),       # a set of four and a wild on its own
    (1, "5 SW", False),
    (2, "5 5 5 5 5 5", True),
    (2, "5 5 5 5 5", False),
    (8, "1 1 1 1 SW BW 2 2 2 2 SW SW", True),
    (8, "1 1 1 1 SW BW 2 2 2 SW SW SW", True),
    (8, "1 1 1 1 SW BW 2 2 SW SW SW SW", False),
    (4, "B B SW SW 9 9 9 9", True),
])
def test_tick_verdicts(tick, level, cards, legal):
    v = verdict(tick, level, cards)
    assert v.legal is legal
    if legal:
        laid = sorted(t for m in v.melds for t in m.cards)
        hand = tick.cards.hand_of(cards.split())
        assert laid == sorted(i for i, n in enumerate(hand) for _ in range(n))
        assert sum(m.required for m in v.melds) == len(tick.contract(level=level).required)


def test_wild_limit_is_cited(tick):
    v = verdict(tick, 3, "5 SW SW BW")
    assert [x.clause for x in v.violations] == ["wild-limit"]
    assert "tick.txt:19" in v.violations[0].source


def test_a_reading_changes_the_verdict(tick):
    distinct = load("tick", {"level-sets-same-rank": "distinct"})
    assert verdict(tick, 2, "5 5 5 5 5 5").legal
    assert not verdict(distinct, 2, "5 5 5 5 5 5").legal
    no_alone = load("tick", {"wilds-alone": "into-sets"})
    assert verdict(tick, 1, "5 5 SW SW SW").legal
    assert not verdict(no_alone, 1, "5 5 SW SW SW").legal


def test_best_lay_keeps_a_card_to_discard(tick):
    hand = tick.cards.hand_of("5 5 5 7 7 7 9".split())
    v = reference.best_lay(tick, tick.contract(level=1), hand)
    assert v.legal and v.points == 15 + 30
    assert [tick.cards.types[t].token for t in v.kept] == ["9"]


def test_best_lay_level_8_on_eleven_cards_is_impossible(tick):
    hand = tick.cards.hand_of("1 1 1 1 1 1 2 2 2 2 2".split())
    assert reference.best_lay(tick, tick.contract(level=8), hand).legal is False
