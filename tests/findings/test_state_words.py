"""What two states hold differently, in words (issue 25 item 4): a finding where a move is
legal under both readings but leads elsewhere says what differs, not "another next state"."""
import pytest

from rulings import kernel
from rulings.checks.search import state_words
from rulings.checks.search.tell_apart import tell_apart
from rulings.kernel import codec
from rulings.kernel.rules import rules
from rulings.spec import load


def test_the_same_state_has_no_difference(tick):
    s = kernel.new_game(tick, 3, 0)
    assert state_words.differences(s, s, "a", "b") == []
    assert state_words.said(s, s, "a", "b") == ""


def test_who_deals_and_who_plays_are_said_by_seat(tick):
    s = kernel.new_game(tick, 3, 0)
    t = s.replace(dealer=(s.dealer + 1) % 3)
    assert state_words.differences(s, t, "left", "right") == [
        f"the dealer is seat {s.dealer} under left, seat {t.dealer} under right"]


@pytest.mark.parametrize("game", ["tick", "garbage", "rummikub"])
def test_a_counter_of_each_seat_is_said_for_the_seat_it_differs_at(game):
    spec = load(game)
    s = kernel.new_game(spec, 2, 0)
    r = rules(spec)
    c = next(c for c in r.counters.values() if c.each and c.type == "number")
    values = list(s.counters[c.index])
    changed = values[:1] + [values[1] + 7]
    t = s.replace(counters=tuple(tuple(changed) if i == c.index else v for i, v in enumerate(s.counters)))
    assert state_words.differences(s, t, "a", "b") == [f"seat 1's {c.id}: {values[1]} under a, {values[1] + 7} under b"]


def test_a_card_moved_between_zones_names_the_card(tick):
    s = kernel.new_game(tick, 2, 0)
    r = rules(tick)
    doc = codec.state_to_doc(s)
    each = next(z for z in r.zones.values() if z.each and doc[z.id][0])
    shared = next(z for z in r.zones.values() if not z.each and isinstance(doc[z.id], list) and len(doc[z.id]) < 8)
    held, pile = len(doc[each.id][0]), " ".join(doc[shared.id])
    assert held > state_words.SHOWN     # a hand too long to say whole: said by its count and the card apart
    card = doc[each.id][0].pop()
    doc[shared.id].append(card)
    t = codec.state_from_doc(tick, doc)
    assert state_words.said(s, t, "a", "b") == (
        f"seat 0's {each.id}: {held} cards under a, {held - 1} cards under b ({card} only under a); "
        f"{shared.id}: {pile or 'none'} under a, {(pile + ' ' + card).strip()} under b")


def test_decks_made_otherwise_say_the_cards_not_where_they_lie(tick):
    names = list(tick.clauses["pack-composition"].readings)
    other = tick.with_readings({"pack-composition": names[1]})
    base = tick.with_readings({"pack-composition": names[0]})
    parts = state_words.differences(kernel.new_game(base, 2, 0), kernel.new_game(other, 2, 0), names[0], names[1])
    assert len(parts) == 1 and parts[0].startswith("the cards in play differ: "), parts
    assert f"only under {names[0]}" in parts[0] and f"only under {names[1]}" in parts[0]


def test_a_reading_that_only_changes_what_follows_says_what_differs(tick):
    names = list(tick.clauses["dealer-rotation"].readings)
    told = tell_apart(tick.with_readings({"dealer-rotation": names[0]}),
                      tick.with_readings({"dealer-rotation": names[1]}), names[0], names[1])
    assert told.apart
    assert "another next state" not in told.verdict
    assert f"under both {names[0]} and {names[1]}, but what follows differs: the dealer is seat" in told.verdict
    assert told.witness["what differs"].startswith("the dealer is seat")
