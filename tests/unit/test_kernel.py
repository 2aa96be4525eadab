"""The kernel playing Tick from its spec, each test naming the clauses it exercises."""
import dataclasses

import pytest

from rulings import kernel, players, scenario
from rulings.kernel import Move, Refusal, codec
from rulings.spec import load


def H(spec, text):
    return spec.cards.hand_of(text.split())


def idx(spec, text):
    return tuple(t.index for t in spec.cards.parse(text.split()))


def at_play(spec, hand, *, n=4, turns_finished=0, chips=10, level=1, down=None, face_up=None, stock_top=()):
    """A level-`level` state, seat 1 to move, having drawn already (phase 'play'),
    holding `hand`."""
    s = kernel.new_game(spec, n, seed=7)
    if level != 1:
        s = s.with_counter("level", level)
    s = s.with_zone("hands", H(spec, hand)).with_counter("chips", chips)
    if down:
        s = s.with_zone("laid", (idx(spec, down),))
    if face_up is not None:
        s = s.with_zone("face_up", idx(spec, face_up))
    if stock_top:
        s = s.with_zone("stock", s.zone("stock") + idx(spec, stock_top))
    # conservation does not matter for these scenarios; only the mover's cards do
    return dataclasses.replace(s, turns_finished=turns_finished, phase="play")


def at_draw(spec, hand, **kw):
    return dataclasses.replace(at_play(spec, hand, **kw), phase="draw")


def refused(result, *clauses):
    assert isinstance(result, Refusal), result
    for c in clauses:
        assert c in result.clauses, (c, result)
    return result


def lay(spec, text):
    return Move("lay", idx(spec, text))


def discard(spec, text):
    (card,) = idx(spec, text)
    return Move("discard", card)


# ---- the deal: decks, pack-composition, deal, turn-order, chips --------------------------

@pytest.mark.parametrize("n,size", [(2, 100), (4, 100), (5, 150), (8, 150)])
def test_deal_uses_decks_and_pack_composition(tick, n, size):
    s = kernel.new_game(tick, n, seed=3, dealer=1)
    held = sum(sum(s.hand(i)) for i in range(n))
    assert held == 10 * n and len(s.zone("face_up")) == 1
    assert held + len(s.zone("face_up")) + len(s.zone("stock")) == size == len(kernel.rules(tick).deck(n))
    assert s.current == 2 % n                                    # turn-order: left of the dealer
    assert all(s.counter("chips", i) == 10 for i in range(n))    # chips


def test_pack_composition_reading_changes_the_deck():
    spec = load("tick", {"pack-composition": "two-and-four"})
    deck = kernel.rules(spec).deck(4)
    sw, bw = (t.index for t in spec.cards.parse(["SW", "BW"]))
    assert deck.count(sw) == 4 and deck.count(bw) == 8


def test_same_seed_same_deal(tick):
    assert kernel.new_game(tick, 3, seed=11) == kernel.new_game(tick, 3, seed=11)
    assert kernel.new_game(tick, 3, seed=11) != kernel.new_game(tick, 3, seed=12)


def test_players_clause_bounds(tick):
    refused(kernel.new_game(tick, 9, seed=1), "players")


# ---- draw and tick ------------------------------------------------------------------------

def test_tick_with_no_chips_is_refused_chips_tick(tick):
    s = at_draw(tick, "1 2", chips=0)
    refused(kernel.apply(s, Move("tick", 1)), "chips", "tick")
    assert Move("tick", 1) not in kernel.legal_moves(s)


def test_tick_price_per_face_up_card_tick(tick):
    s = at_draw(tick, "1 2", face_up="7 8 9")
    after = kernel.apply(s, Move("tick", 2))
    assert after.counter("chips", s.current) == s.counter("chips", s.current) - 2
    assert sum(after.hand(s.current)) == sum(s.hand(s.current)) + 2 + 4
    assert after.zone("face_up") == s.zone("face_up")[:1] and len(after.zone("stock")) == len(s.zone("stock")) - 4


def test_top_only_reading_limits_a_tick_to_one_card():
    spec = load("tick", {"tick": "top-only"})
    s = at_draw(spec, "1 2", face_up="7 8 9")
    refused(kernel.apply(s, Move("tick", 2)), "tick")
    legal = kernel.legal_moves(s)
    assert Move("tick", 2) not in legal and Move("tick", 1) in legal


def test_tick_needs_two_stock_cards_tick_short_stock(tick):
    s = at_draw(tick, "1 2", face_up="7 8")
    s = s.with_zone("stock", s.zone("stock")[:1])
    refused(kernel.apply(s, Move("tick", 1)), "tick-short-stock")


def test_second_draw_is_refused_discard(tick):
    """Once drawn, the turn must end with the compulsory discard."""
    refused(kernel.apply(at_play(tick, "1 2"), Move("draw")), "discard")


def test_stock_empty_reshuffles_the_face_up_pile(tick):
    s = at_draw(tick, "1 2", face_up="4 5 6 7").with_zone("stock", ())
    after = kernel.apply(s, Move("draw"))
    assert after.zone("face_up") == idx(tick, "7") and len(after.zone("stock")) == 2 and after.reshuffles == 1


def test_stock_empty_round_ends_reading():
    spec = load("tick", {"stock-empty": "level-ends"})
    s = at_draw(spec, "1 2", face_up="4 5 6 7").with_zone("stock", ())
    after = kernel.apply(s, Move("draw"))
    assert after.counter("level") == 2 and after.results[-1].went_out is None


# ---- laying ---------------------------------------------------------------------------------

def test_laying_before_the_level_is_refused_level_first(tick):
    refused(kernel.apply(at_play(tick, "3 3 5 7 8"), lay(tick, "3 3")), "level-first")


def test_lone_wild_before_the_level_is_refused_level_first(tick):
    refused(kernel.apply(at_play(tick, "SW 3 5 7"), lay(tick, "SW")), "level-first")


def test_level_lay_and_extras_levels_further_sets_wilds_alone(tick):
    s = at_play(tick, "3 3 3 5 5 SW BW 9 9 10")
    after = kernel.apply(s, lay(tick, "3 3 3 5 5 SW BW"))
    assert not isinstance(after, Refusal)
    assert after.down(s.current)


def test_after_the_level_matching_cards_and_wilds_matching_cards_wilds_alone(tick):
    s = at_play(tick, "3 SW 8 9", down="3 3 3")
    assert not isinstance(kernel.apply(s, lay(tick, "3 SW")), Refusal)
    refused(kernel.apply(s, lay(tick, "8")), "matching-cards")


def test_a_card_matching_a_laid_set_in_the_level_lay_is_refused_by_matching_with_level(tick):
    """The lay holds the level (3 3 3) and a 7 matching another player's laid set: under
    after-level the refusal names matching-with-level, not level-first (it holds the level);
    under with-level the lay goes down; without the level it is still level-first."""
    s = at_play(tick, "3 3 3 7 9 10", turns_finished=8)
    s = s.with_zone("laid", (idx(tick, "7 7 7"),), (s.current + 1) % s.players)
    got = refused(kernel.apply(s, lay(tick, "3 3 3 7")), "matching-with-level")
    assert "level-first" not in got.clauses and "matching" in got.why
    refused(kernel.apply(s, lay(tick, "3 3 7")), "level-first")
    other = load("tick", {"matching-with-level": "with-level"})
    s2 = dataclasses.replace(s, spec=other)
    assert not isinstance(kernel.apply(s2, lay(other, "3 3 3 7")), Refusal)


def test_wild_limit_applies_to_the_level_lay_wild_limit(tick):
    refused(kernel.apply(at_play(tick, "3 SW BW 7 8"), lay(tick, "3 SW BW")), "wild-limit")


def test_lay_offer_is_the_best_lay(tick):
    s = at_play(tick, "3 3 3 5 5 5 9 10", turns_finished=8)
    lays = [m for m in kernel.legal_moves(s) if m.id == "lay"]
    assert lays == [lay(tick, "3 3 3 5 5 5")]


def test_one_lay_a_turn_reading_refuses_a_second_lay_several_lays():
    spec = load("tick", {"several-lays": "one"})
    s = at_play(spec, "3 3 3 5 5 5 9 10", turns_finished=8)
    s = kernel.apply(s, lay(spec, "3 3 3"))
    refused(kernel.apply(s, lay(spec, "5 5 5")), "several-lays")
    assert not [m for m in kernel.legal_moves(s) if m.id == "lay"]


def test_compulsory_reading_refuses_a_discard_when_the_level_could_be_laid_lay_when_able():
    spec = load("tick", {"lay-when-able": "compulsory"})
    s = at_play(spec, "3 3 3 5 9", turns_finished=8)
    refused(kernel.apply(s, discard(spec, "9")), "lay-when-able")
    assert all(m.id == "lay" for m in kernel.legal_moves(s))


# ---- going out ------------------------------------------------------------------------------

def test_going_out_in_the_first_round_is_refused_go_out_timing(tick):
    s = at_play(tick, "3 3 3 7", turns_finished=2, n=4)
    refused(kernel.apply(s, lay(tick, "3 3 3")), "go-out-timing")
    # the offer keeps two cards instead
    lays = [m for m in kernel.legal_moves(s) if m.id == "lay"]
    assert all(len(m.arg) <= 2 for m in lays)


def test_going_out_after_a_full_round_go_out_timing_go_out(tick):
    s = at_play(tick, "3 3 3 7", turns_finished=4, n=4)
    s = kernel.apply(s, lay(tick, "3 3 3"))
    out = kernel.apply(s, discard(tick, "7"))
    res = out.results[-1]
    assert res.went_out == s.current and out.counter("level") == 2 and out.dealer == 1   # dealer-rotation
    assert res.scores[s.current] == 15


def test_others_have_played_reading_allows_going_out_one_turn_earlier():
    spec = load("tick", {"go-out-timing": "others-have-played"})
    s = at_play(spec, "3 3 3 7", turns_finished=3, n=4)
    assert not isinstance(kernel.apply(s, lay(spec, "3 3 3")), Refusal)
    s = at_play(spec, "3 3 3 7", turns_finished=2, n=4)
    refused(kernel.apply(s, lay(spec, "3 3 3")), "go-out-timing")


def test_laying_every_card_is_refused_go_out_discard(tick):
    refused(kernel.apply(at_play(tick, "3 3 3", turns_finished=9), lay(tick, "3 3 3")), "go-out", "discard")


def test_discard_optional_reading_lets_laying_everything_go_out():
    spec = load("tick", {"go-out": "discard-optional"})
    s = at_play(spec, "3 3 3", turns_finished=9)
    out = kernel.apply(s, lay(spec, "3 3 3"))
    assert out.results[-1].went_out == s.current


# ---- scoring, dealer bonus, game end -------------------------------------------------------

def test_scores_are_laid_minus_held_and_dealer_bonus_scoring_dealer_bonus(tick):
    s = kernel.new_game(tick, 3, seed=5, inputs={"exact_deal": True})
    s = s.with_zone("hands", H(tick, "BW 9"), 1).with_zone("laid", (idx(tick, "3 3 3"),), 1)
    s = s.with_zone("hands", H(tick, "SW 1 1"), 2)
    s = s.with_zone("hands", H(tick, "B"), 0).with_zone("laid", (idx(tick, "4 4 SW"),), 0)
    s = dataclasses.replace(s, current=1, phase="play", turns_finished=3)
    s = kernel.apply(s, discard(tick, "9"))
    assert not isinstance(s, Refusal)
    s = dataclasses.replace(s, current=1, phase="play")
    res = kernel.level_scores(s, None)
    assert dict(res.terms) == {"laid_points": (35, 15, 0), "hand_points": (20, 50, 35)}
    assert res.bonus == (100, 0, 0)                      # seat 0 dealt level 1
    assert res.scores == (115, -35, -35)


def test_whole_greedy_game_is_deterministic_game_end_levels(tick):
    """A seeded 4-player greedy game plays all eight levels, same seed, same scores."""
    a, moves_a = players.play(tick, [players.GreedyPlayer() for _ in range(4)], seed=2024)
    b, moves_b = players.play(tick, [players.GreedyPlayer() for _ in range(4)], seed=2024)
    assert a.over and [dict(r.shared)["level"] for r in a.results] == list(range(1, 9))
    assert a.scores == b.scores and moves_a == moves_b
    assert a.scores == tuple(sum(r.scores[i] for r in a.results) for i in range(4))
    assert a.winners == tuple(i for i, x in enumerate(a.scores) if x == max(a.scores))
    assert [r.dealer for r in a.results] == [i % 4 for i in range(8)]   # dealer-rotation
    assert kernel.apply(a, Move("draw")).clauses == ("game-end",)


def test_tie_is_shared(tick):
    s = kernel.new_game(tick, 2, seed=1).with_counter("level", 8)
    for i in range(2):
        s = s.with_zone("hands", H(tick, "5"), i).with_zone("laid", (), i)
    out = kernel.end_round(s, None, "stalled", "counts")
    assert out.over and out.winners == (0, 1)


def test_random_players_only_make_legal_moves(tick):
    s = kernel.new_game(tick, 3, seed=9)
    agents = [players.RandomPlayer(i) for i in range(3)]
    for _ in range(300):
        s2 = kernel.apply(s, agents[s.current].choose(s))
        assert not isinstance(s2, Refusal)
        s = s2


def test_scenario_round_trip(tick):
    """A state written as a scenario reads back as the same state (the one codec)."""
    s, _ = players.play(tick, [players.GreedyPlayer() for _ in range(3)], seed=4)
    assert codec.state_from_doc(tick, codec.state_to_doc(s)) == dataclasses.replace(s, results=(), inputs=(
        ("exact_deal", (None,) * (s.round - 1) + (False,), False),))
    spec = load("tick", {"tick": "top-only"})
    mid = kernel.new_game(spec, 5, seed=4)
    back = codec.state_from_doc(spec, codec.state_to_doc(mid))
    assert back.zones == mid.zones and back.counters == mid.counters and back.spec.chosen["tick"] == "top-only"
    for m in kernel.legal_moves(mid):
        assert codec.move_from_doc(spec, codec.move_to_doc(spec, m)) == m


def _level8_adding(level, laid, card, seat, meld):
    doc = {"format": 1, "game": "level8", "players": 3, "dealer": 2, "to_play": 1, "phase": "play",
           "turns_finished": 4, "level": level, "hands": [["y7", "y8"], ["o7", "r11", card], ["g1", "g2"]],
           "laid": laid, "discards": [["y1"], ["b9"], ["p12"]], "stock": {"top": [], "rest": "deck"},
           "move": {"add_cards": {"cards": [card], "seat": seat, "meld": meld}}}
    return scenario.judge(scenario.load(doc))


def test_a_meld_added_to_stays_of_the_kind_it_was_laid_as_not_of_any_kind_its_cards_form():
    """Level 8's wild-meaning-kept: b1 b2 b3, laid for level 1 (two runs), is also a
    one-colour group, but it was laid as a run, so b12 (which would leave one colour and
    no run) is refused, by that clause; b4 keeps it a run."""
    laid = [[], [["b1", "b2", "b3"], ["p5", "p6", "p7"]], []]
    no = _level8_adding([1, 1, 1], laid, "b12", 1, 0)
    assert no.legal is False and no.refused.clauses[0] == "wild-meaning-kept", no.refused
    assert "no longer be a run" in no.refused.why and "colour" in no.refused.why
    assert _level8_adding([1, 1, 1], laid, "b4", 1, 0).legal is True
    # level 3 is a run of three and four of one colour: r1 r2 r3 r4 could fill either by
    # itself, but b2 b5 b7 b8 can only be the colour, so the four reds are the run
    laid3 = [[], [["r1", "r2", "r3", "r4"], ["b2", "b5", "b7", "b8"]], []]
    assert _level8_adding([1, 3, 1], laid3, "r9", 1, 0).legal is False
    assert _level8_adding([1, 3, 1], laid3, "r5", 1, 0).legal is True
    assert _level8_adding([1, 3, 1], laid3, "b12", 1, 1).legal is True
