import pytest

from rulings.cards import CardError


def test_tick_has_eleven_natural_ranks_and_two_wilds(tick):
    assert [t.token for t in tick.cards.naturals] == [str(r) for r in range(1, 11)] + ["B"]
    assert [t.token for t in tick.cards.wilds] == ["SW", "BW"]


def test_tick_values_come_from_the_spec(tick):
    value = {t.token: t.value for t in tick.cards.types}
    assert value["1"] == value["5"] == 5
    assert value["6"] == value["10"] == 10
    assert (value["B"], value["SW"], value["BW"]) == (20, 25, 50)


def test_tokens_are_case_insensitive(tick):
    assert tick.cards.hand_of(["sw", "b", "Bw"]) == tick.cards.hand_of(["SW", "B", "BW"])


@pytest.mark.parametrize("token", ["11", "0", "XW", "", "5x"])
def test_a_bad_token_is_named_with_the_accepted_forms(tick, token):
    with pytest.raises(CardError) as e:
        tick.cards.hand_of(["5", token])
    assert repr(token) in str(e.value)
    assert "SW, BW" in str(e.value) and "rank" in str(e.value)


def test_hand_round_trips_through_tokens(tick):
    hand = tick.cards.hand_of("5 5 SW 10 B".split())
    assert sorted(tick.cards.tokens(hand)) == sorted("5 5 SW 10 B".split())
    assert tick.cards.value_of(hand) == 5 + 5 + 25 + 10 + 20
