"""Scenarios of the Tick engine, each naming the clauses it exercises."""
import dataclasses

import pytest

from rulings import engine, players
from rulings.engine import Discard, Draw, Lay, Refusal
from rulings.spec import load


def H(spec, text):
    return spec.cards.hand_of(text.split())


def idx(spec, text):
    return tuple(spec.cards.types.index(t) for t in spec.cards.parse(text.split()))


def at_play(spec, hand, *, n=4, turns_finished=0, chips=10, level=1, down=None, face_up=None, stock_top=()):
    """A level-`level` state, seat 1 to move, having drawn already (phase 'play'),
    holding `hand`."""
    s = engine.new_game(spec, n, seed=7)
    s = dataclasses.replace(s, level=level) if level != 1 else s
    me = s.players[s.current]
    lays = (idx(spec, down),) if down else ()
    ps = list(s.players)
    # conservation does not matter for these scenarios; only the mover's hand does
    ps[s.current] = dataclasses.replace(me, hand=H(spec, hand), chips=chips, lays=lays)
    kw = dict(players=tuple(ps), turns_finished=turns_finished, phase="play")
    if face_up is not None:
        kw["face_up"] = idx(spec, face_up)
    if stock_top:
        kw["stock"] = s.stock + idx(spec, stock_top)
    return dataclasses.replace(s, **kw)


def refused(result, *clauses):
    assert isinstance(result, Refusal), result
    for c in clauses:
        assert c in result.clauses, (c, result)
    return result


# ---- the deal: decks, pack-composition, deal, turn-order, chips --------------------------

@pytest.mark.parametrize("n,size", [(2, 100), (4, 100), (5, 150), (8, 150)])
def test_deal_uses_decks_and_pack_composition(tick, n, size):
    s = engine.new_game(tick, n, seed=3, dealer=1)
    held = sum(sum(p.hand) for p in s.players)
    assert held == 10 * n and len(s.face_up) == 1
    assert held + len(s.face_up) + len(s.stock) == size == engine.rules(tick).deck_size(n)
    assert s.current == 2 % n                      # turn-order: left of the dealer
    assert all(p.chips == 10 for p in s.players)   # chips


def test_pack_composition_reading_changes_the_deck():
    spec = load("tick", {"pack-composition": "two-and-four"})
    deck = engine.rules(spec).deck(4)
    sw, bw = (spec.cards.types.index(t) for t in spec.cards.parse(["SW", "BW"]))
    assert deck.count(sw) == 4 and deck.count(bw) == 8


def test_same_seed_same_deal(tick):
    assert engine.new_game(tick, 3, seed=11) == engine.new_game(tick, 3, seed=11)
    assert engine.new_game(tick, 3, seed=11) != engine.new_game(tick, 3, seed=12)


def test_players_clause_bounds(tick):
    refused(engine.new_game(tick, 9, seed=1), "players")


# ---- draw and tick ------------------------------------------------------------------------

def test_tick_with_no_chips_is_refused_chips_tick(tick):
    s = dataclasses.replace(at_play(tick, "1 2", chips=0), phase="draw")
    refused(engine.apply(s, Draw("tick", 1)), "chips", "tick")
    assert Draw("tick", 1) not in engine.legal_moves(s)


def test_tick_price_per_face_up_card_tick(tick):
    s = dataclasses.replace(at_play(tick, "1 2", face_up="7 8 9"), phase="draw")
    after = engine.apply(s, Draw("tick", 2))
    me, was = after.players[s.current], s.players[s.current]
    assert me.chips == was.chips - 2
    assert sum(me.hand) == sum(was.hand) + 2 + 4
    assert after.face_up == s.face_up[:1] and len(after.stock) == len(s.stock) - 4


def test_top_only_reading_limits_a_tick_to_one_card():
    spec = load("tick", {"tick": "top-only"})
    s = dataclasses.replace(at_play(spec, "1 2", face_up="7 8 9"), phase="draw")
    refused(engine.apply(s, Draw("tick", 2)), "tick")
    assert Draw("tick", 2) not in engine.legal_moves(s) and Draw("tick", 1) in engine.legal_moves(s)


def test_tick_needs_two_stock_cards_tick_short_stock(tick):
    s = dataclasses.replace(at_play(tick, "1 2", face_up="7 8"), phase="draw")
    s = dataclasses.replace(s, stock=s.stock[:1])
    refused(engine.apply(s, Draw("tick", 1)), "tick-short-stock")


def test_second_draw_is_refused_discard(tick):
    """Once drawn, the turn must end with the compulsory discard."""
    refused(engine.apply(at_play(tick, "1 2"), Draw("stock")), "discard")


def test_stock_empty_reshuffles_the_face_up_pile(tick):
    s = dataclasses.replace(at_play(tick, "1 2", face_up="4 5 6 7"), phase="draw", stock=())
    after = engine.apply(s, Draw("stock"))
    assert after.face_up == idx(tick, "7") and len(after.stock) == 2 and after.reshuffles == 1


def test_stock_empty_level_ends_reading():
    spec = load("tick", {"stock-empty": "level-ends"})
    s = dataclasses.replace(at_play(spec, "1 2", face_up="4 5 6 7"), phase="draw", stock=())
    after = engine.apply(s, Draw("stock"))
    assert after.level == 2 and after.results[-1].went_out is None


# ---- laying ---------------------------------------------------------------------------------

def test_laying_before_the_level_is_refused_level_first(tick):
    s = at_play(tick, "3 3 5 7 8")
    refused(engine.apply(s, Lay(idx(tick, "3 3"))), "level-first")


def test_lone_wild_before_the_level_is_refused_level_first(tick):
    refused(engine.apply(at_play(tick, "SW 3 5 7"), Lay(idx(tick, "SW"))), "level-first")


def test_level_lay_and_extras_levels_further_sets_wilds_alone(tick):
    s = at_play(tick, "3 3 3 5 5 SW BW 9 9 10")
    after = engine.apply(s, Lay(idx(tick, "3 3 3 5 5 SW BW")))
    assert not isinstance(after, Refusal)
    assert after.players[s.current].down


def test_after_the_level_matching_cards_and_wilds_matching_cards_wilds_alone(tick):
    s = at_play(tick, "3 SW 8 9", down="3 3 3")
    after = engine.apply(s, Lay(idx(tick, "3 SW")))
    assert not isinstance(after, Refusal)
    refused(engine.apply(s, Lay(idx(tick, "8"))), "matching-cards")


def test_wild_limit_applies_to_the_level_lay_wild_limit(tick):
    refused(engine.apply(at_play(tick, "3 SW BW 7 8"), Lay(idx(tick, "3 SW BW"))), "wild-limit")


def test_lay_offer_is_the_best_lay(tick):
    s = at_play(tick, "3 3 3 5 5 5 9 10", turns_finished=8)
    lays = [m for m in engine.legal_moves(s) if isinstance(m, Lay)]
    assert lays == [Lay(idx(tick, "3 3 3 5 5 5"))]


# ---- going out ------------------------------------------------------------------------------

def test_going_out_in_the_first_round_is_refused_go_out_timing(tick):
    s = at_play(tick, "3 3 3 7", turns_finished=2, n=4)
    refused(engine.apply(s, Lay(idx(tick, "3 3 3"))), "go-out-timing")
    # the offer keeps two cards instead
    lays = [m for m in engine.legal_moves(s) if isinstance(m, Lay)]
    assert all(len(m.cards) <= 2 for m in lays)


def test_going_out_after_a_full_round_go_out_timing_go_out(tick):
    s = at_play(tick, "3 3 3 7", turns_finished=4, n=4)
    s = engine.apply(s, Lay(idx(tick, "3 3 3")))
    out = engine.apply(s, Discard(idx(tick, "7")[0]))
    res = out.results[-1]
    assert res.went_out == s.current and out.level == 2 and out.dealer == 1   # dealer-rotation
    assert res.scores[s.current] == 15


def test_others_have_played_reading_allows_going_out_one_turn_earlier():
    spec = load("tick", {"go-out-timing": "others-have-played"})
    s = at_play(spec, "3 3 3 7", turns_finished=3, n=4)
    assert not isinstance(engine.apply(s, Lay(idx(spec, "3 3 3"))), Refusal)
    s = at_play(spec, "3 3 3 7", turns_finished=2, n=4)
    refused(engine.apply(s, Lay(idx(spec, "3 3 3"))), "go-out-timing")


def test_laying_every_card_is_refused_go_out_discard(tick):
    refused(engine.apply(at_play(tick, "3 3 3", turns_finished=9), Lay(idx(tick, "3 3 3"))), "go-out", "discard")


def test_discard_optional_reading_lets_laying_everything_go_out():
    spec = load("tick", {"go-out": "discard-optional"})
    s = at_play(spec, "3 3 3", turns_finished=9)
    out = engine.apply(s, Lay(idx(spec, "3 3 3")))
    assert out.results[-1].went_out == s.current


# ---- scoring, dealer bonus, game end -------------------------------------------------------

def test_scores_are_laid_minus_held_and_dealer_bonus_scoring_dealer_bonus(tick):
    s = engine.new_game(tick, 3, seed=5, exact_deal=True)
    ps = list(s.players)
    ps[1] = dataclasses.replace(ps[1], hand=H(tick, "BW 9"), lays=(idx(tick, "3 3 3"),))
    ps[2] = dataclasses.replace(ps[2], hand=H(tick, "SW 1 1"))
    ps[0] = dataclasses.replace(ps[0], hand=H(tick, "B"), lays=(idx(tick, "4 4 SW"),))
    s = dataclasses.replace(s, players=tuple(ps), current=1, phase="play", turns_finished=3)
    s = engine.apply(s, Lay(idx(tick, "9")) if False else Discard(idx(tick, "9")[0]))
    assert not isinstance(s, Refusal)
    s = dataclasses.replace(s, current=1, phase="play")
    res = engine.level_scores(s, None)
    assert res.laid_points == (35, 15, 0) and res.hand_points == (20, 50, 35)
    assert res.bonus == (100, 0, 0)                      # seat 0 dealt level 1
    assert res.scores == (115, -35, -35)


def test_whole_greedy_game_is_deterministic_game_end_levels(tick):
    """A seeded 4-player greedy game plays all eight levels, same seed, same scores."""
    a, moves_a = players.play(tick, [players.GreedyPlayer() for _ in range(4)], seed=2024)
    b, moves_b = players.play(tick, [players.GreedyPlayer() for _ in range(4)], seed=2024)
    assert a.over and [r.level for r in a.results] == list(range(1, 9))
    assert a.scores == b.scores and moves_a == moves_b
    assert a.scores == tuple(sum(r.scores[i] for r in a.results) for i in range(4))
    assert a.winners == tuple(i for i, x in enumerate(a.scores) if x == max(a.scores))
    assert [r.dealer for r in a.results] == [i % 4 for i in range(8)]   # dealer-rotation
    assert engine.apply(a, Draw("stock")).clauses == ("game-end",)


def test_tie_is_shared(tick):
    s = engine.new_game(tick, 2, seed=1)
    s = dataclasses.replace(s, level=8)
    ps = tuple(dataclasses.replace(p, hand=H(tick, "5"), lays=()) for p in s.players)
    s = dataclasses.replace(s, players=ps)
    out = engine._end_level(s, engine.rules(tick), None)
    assert out.over and out.winners == (0, 1)


def test_random_players_only_make_legal_moves(tick):
    s = engine.new_game(tick, 3, seed=9)
    agents = [players.RandomPlayer(i) for i in range(3)]
    for _ in range(300):
        s2 = engine.apply(s, agents[s.current].choose(s))
        assert not isinstance(s2, Refusal)
        s = s2


def test_json_round_trip(tick):
    s, _ = players.play(tick, [players.GreedyPlayer() for _ in range(3)], seed=4)
    assert engine.State.from_json(s.to_json()) == s
    mid = engine.new_game(load("tick", {"tick": "top-only"}), 5, seed=4)
    back = engine.State.from_json(mid.to_json())
    assert back == mid and back.spec.chosen["tick"] == "top-only"
