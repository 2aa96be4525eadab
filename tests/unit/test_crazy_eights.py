"""Crazy Eights (spec/crazy-eights.yaml) held to its rules text, spec/rules/crazy-eights.txt:
each test names the line it holds the kernel to. Situations are built as scenarios
(docs/scenarios.md) so that what is asserted reads as the table a player sees."""
from __future__ import annotations

import pytest

from rulings import kernel, players, scenario as sc, simulate as sim
from rulings.kernel import codec
from rulings.spec import load

GAME = "crazy-eights"
SPEC = load(GAME)
ACTIONS = load(GAME, {"action-cards": "actions"})


def situation(**fields) -> dict:
    """Three players, seat 1 to play on the nine of hearts (hearts to follow), unless
    the fields say otherwise."""
    doc = {"format": 1, "game": GAME, "players": 3, "dealer": 0, "to_play": 1, "phase": "turn",
           "turns_finished": 0,
           "hand": [["AD", "2S", "4D", "QC", "KC"], ["9S", "3C", "JD", "8S", "6C"], ["5C", "7C", "5S", "10C", "KH"]],
           "discards": ["9H"], "follow": "H", "stock": {"top": [], "rest": "deck"}, "penalties": [0, 0, 0]}
    doc.update(fields)
    return doc


def judged(doc: dict, *moves, spec=None):
    return sc.judge(sc.load(dict(doc, moves=list(moves)), spec))


def offered(doc: dict, spec=None) -> list:
    """The moves the kernel offers in a situation, as a scenario writes them."""
    s = sc.load(doc, spec)
    return [codec.move_to_doc(s.spec, m) for m in kernel.legal_moves(s.state)]


def tokens(state, zone: str, seat: int | None = None) -> list[str]:
    doc = codec.state_to_doc(state)
    return doc[zone] if seat is None else doc[zone][seat]


# ---- the deal: crazy-eights.txt:3-7 ---------------------------------------------------

@pytest.mark.parametrize("n", range(2, 8))
def test_seven_cards_each_for_two_five_for_more_and_one_card_turned_up_lines_3_5_6(n):
    state = kernel.new_game(SPEC, n, seed=n)
    doc = codec.state_to_doc(state)
    each = 7 if n == 2 else 5
    assert [len(h) for h in doc["hand"]] == [each] * n
    assert len(doc["discards"]) == 1 and len(doc["stock"]) == 52 - each * n - 1
    assert doc["to_play"] == 1 % n                                   # line 7: the dealer's left plays first


def test_eight_players_may_not_play_line_3():
    assert kernel.rules(SPEC).players_range() == (2, 7)


def test_the_card_turned_up_sets_the_suit_to_follow_an_eight_like_any_other_line_14():
    """An eight turned up at the start names nothing: its own suit is followed, and the
    first player may play on it by suit or by rank."""
    for seed in range(400):
        state = kernel.new_game(SPEC, 3, seed)
        top = tokens(state, "discards")[-1]
        if top.startswith("8"):
            break
    else:
        pytest.fail("no deal of 400 seeds turned up an eight")
    assert codec.state_to_doc(state)["follow"] == top[-1]
    for m in kernel.legal_moves(state):
        card = codec.move_to_doc(SPEC, m).get("play")
        if card is not None:
            assert card[-1] == top[-1], (top, card)                  # a plain card follows the eight's suit
    assert state.phase == "turn" and state.current == 1


# ---- the turn: crazy-eights.txt:8-13 -------------------------------------------------

def test_a_card_matches_the_top_card_by_suit_or_rank_and_an_eight_goes_on_anything_lines_8_9():
    doc = situation(hand=[["AD"], ["9S", "3H", "JD", "8S", "6C"], ["5C"]])
    plays = sorted(m["play"] for m in offered(doc) if "play" in m)
    eights = sorted(m["eight"]["follow"] for m in offered(doc) if "eight" in m)
    assert plays == ["3H", "9S"]                                    # by suit (hearts), by rank (nine)
    assert eights == ["C", "D", "H", "S"]                           # the eight names any suit
    j = judged(doc, {"play": "JD"})
    assert not j.legal and j.refused.clauses == ("match",)


def test_after_an_eight_only_the_named_suit_follows_then_the_top_cards_suit_again_lines_9_10():
    doc = situation(hand=[["AD", "4D", "QC"], ["9S", "3C", "JD", "8S", "6C"], ["5C", "7C", "QD", "5S", "KH"]])
    j = judged(doc, {"eight": {"card": "8S", "follow": "D"}}, {"play": "5S"})
    assert not j.legal and j.refused.clauses == ("match",)          # the eight's own suit is not named
    j = judged(doc, {"eight": {"card": "8S", "follow": "D"}}, {"play": "QD"}, {"play": "QC"})
    assert j.legal and j.result["follow"] == "C"                   # line 10: the queen of clubs by rank


def test_draw_until_a_card_can_be_played_then_play_it_line_11():
    doc = situation(hand=[["AD"], ["2C", "3C", "JD"], ["5C"]], stock={"top": ["9C", "4S", "KD"], "rest": "deck"})
    j = judged(doc, {"draw": "stock"})
    assert j.legal
    assert sorted(j.result["hand"][1]) == sorted(["2C", "3C", "JD", "KD", "4S", "9C"])
    assert j.result["to_play"] == 1 and j.result["phase"] == "turn"        # the same player, who must play
    assert offered(dict(j.result)) == [{"play": "9C"}]


def test_the_stock_running_out_while_drawing_passes_the_turn_lines_11_13():
    """Seat 1 draws the last two cards, neither playable: with the stock empty and nothing
    to play, the turn passes (the draw's own end, no pass move needed)."""
    doc = situation(hand=[["AH"], ["2C", "3C", "JD"], ["5C"]], stock=["4S", "KD"])
    j = judged(doc, {"draw": "stock"})
    assert j.legal and j.result["to_play"] == 2 and j.result["stock"] == []
    assert sorted(j.result["hand"][1]) == sorted(["2C", "3C", "JD", "4S", "KD"])
    assert j.result["discards"] == ["9H"]                           # no new stock from the discards
    assert offered(dict(j.result)) == [{"pass": True}]              # seat 2 is stuck too


def test_no_draw_while_a_card_could_be_played_line_12():
    j = judged(situation(), {"draw": "stock"})                      # 9S matches the nine
    assert not j.legal and j.refused.clauses == ("draw-until-playable",)
    eight_only = situation(hand=[["AD"], ["2C", "8S"], ["5C"]])     # an eight can always be played
    j = judged(eight_only, {"draw": "stock"})
    assert not j.legal and j.refused.clauses == ("draw-until-playable",)


def test_pass_only_with_an_empty_stock_and_nothing_to_play_line_13():
    stuck = dict(hand=[["AD"], ["2C", "3C", "JD"], ["5C"]])
    j = judged(situation(**stuck), {"pass": True})
    assert not j.legal and j.refused.clauses == ("no-stock",)       # the stock has cards: draw
    j = judged(situation(**stuck, stock=[]), {"pass": True})
    assert j.legal and j.result["to_play"] == 2
    assert offered(situation(**stuck, stock=[])) == [{"pass": True}]
    j = judged(situation(**stuck, stock=[]), {"draw": "stock"})     # nothing to draw: pass
    assert not j.legal and j.refused.clauses == ("draw-until-playable",)
    j = judged(situation(stock=[]), {"pass": True})                 # 9S could be played
    assert not j.legal and j.refused.clauses == ("no-stock",)
    assert {"pass": True} not in offered(situation(stock=[]))


# ---- the end of a hand and of the game: crazy-eights.txt:15-20 -------------------------

def test_the_first_out_ends_the_hand_and_the_others_count_their_cards_lines_15_17_18():
    doc = situation(hand=[["8H", "KD", "AC", "5D"], ["JH"], ["10C", "2S", "QS"]], penalties=[1, 2, 3])
    j = judged(doc, {"play": "JH"})
    (end,) = j.round_ends
    assert end["went_out"] == 1 and end["how"] == "went_out"
    assert end["left"] == [50 + 10 + 1 + 5, 0, 10 + 2 + 10]      # an eight 50, a court card 10, an ace 1
    assert j.result["penalties"] == [67, 2, 25] and j.result["dealer"] == 1     # line 4: the deal passes left


def test_nobody_able_to_play_on_an_empty_stock_ends_the_hand_line_16():
    doc = situation(hand=[["AD", "2S"], ["2C", "3C", "JD"], ["5C", "9H"]], discards=["4H", "9S"], follow="S",
                    stock=[], turns_finished=7)
    j = judged(doc, {"pass": True}, {"play": "9H"})
    (end,) = j.round_ends
    assert end["how"] == "stalled" and end["went_out"] is None and end["left"] == [3, 15, 5]


def test_the_game_ends_at_100_and_the_lowest_total_wins_ties_share_lines_19_20():
    doc = situation(hand=[["8H", "8D"], ["JH"], ["2C"]], penalties=[1, 30, 28])
    j = judged(doc, {"play": "JH"})
    assert j.result["phase"] == "over" and j.result["penalties"] == [101, 30, 30]
    assert j.result["winners"] == [1, 2]                            # tied on the lowest total
    j = judged(dict(doc, penalties=[0, 30, 28], hand=[["8H", "KD", "AC"], ["JH"], ["2C"]]), {"play": "JH"})
    assert j.result["phase"] == "turn" and j.result["penalties"] == [61, 30, 30]    # the next hand


# ---- the action-card variant: crazy-eights.txt:21-24 -----------------------------------

FOUR = dict(players=4, hand=[["4D", "8H", "6C"], ["2S", "AS", "QS", "5D"], ["5C", "9H", "KC"], ["3C", "7H", "10C"]],
            discards=["4H", "9S"], follow="S", stock={"top": ["JD", "6H"], "rest": "deck"}, penalties=[0] * 4)


def test_a_two_makes_the_next_player_draw_two_and_lose_the_turn_line_21():
    j = judged(situation(**FOUR), {"play": "2S"}, spec=ACTIONS)
    assert j.result["to_play"] == 3 and sorted(j.result["hand"][2]) == sorted(["5C", "9H", "KC", "6H", "JD"])
    assert "action-cards" in {b.clause for b in j.rests_on}
    j = judged(situation(**FOUR), {"play": "2S"})                   # the plain game: no action
    assert j.result["to_play"] == 2 and len(j.result["hand"][2]) == 3


def test_a_queen_makes_the_next_player_lose_the_turn_line_22():
    j = judged(situation(**FOUR), {"play": "QS"}, spec=ACTIONS)
    assert j.result["to_play"] == 3 and len(j.result["hand"][2]) == 3


def test_an_ace_reverses_the_direction_of_play_line_23():
    j = judged(situation(**FOUR), {"play": "AS"}, spec=ACTIONS)
    assert j.result["to_play"] == 0 and j.result["direction"] == -1
    j = judged(situation(**FOUR), {"play": "AS"}, {"eight": {"card": "8H", "follow": "C"}}, {"play": "10C"}, spec=ACTIONS)
    assert j.legal and j.result["to_play"] == 2 and j.result["direction"] == -1


def first_deal_turning_up(spec, n: int, rank: str):
    for seed in range(400):
        state = kernel.new_game(spec, n, seed)
        if tokens(state, "discards")[-1][:-1] == rank:
            return state
    pytest.fail(f"no deal of 400 seeds turned up a {rank}")


@pytest.mark.parametrize("rank,to_play,direction,sizes", [
    ("2", 2, 1, [5, 7, 5, 5]),          # seat 1, first to play, draws two and is skipped
    ("Q", 2, 1, [5, 5, 5, 5]),          # seat 1 is skipped
    ("A", 3, -1, [5, 5, 5, 5]),         # play goes right from the dealer: seat 3 first
])
def test_the_card_turned_up_acts_as_if_the_dealer_played_it_line_24(rank, to_play, direction, sizes):
    state = first_deal_turning_up(ACTIONS, 4, rank)
    doc = codec.state_to_doc(state)
    assert (doc["to_play"], doc.get("direction", 1), [len(h) for h in doc["hand"]]) == (to_play, direction, sizes)
    plain = kernel.new_game(SPEC, 4, next(s for s in range(400) if tokens(kernel.new_game(ACTIONS, 4, s), "discards")
                                          [-1][:-1] == rank))
    assert plain.current == 1                                       # without the variant: the dealer's left


# ---- whole games ---------------------------------------------------------------------

@pytest.mark.parametrize("player", ["greedy", "random"])
@pytest.mark.parametrize("n", range(2, 8))
def test_a_seeded_game_reaches_a_winner(n, player):
    state, moves = players.play(SPEC, [sim.PLAYERS[player](n, i) for i in range(n)], seed=n, max_moves=5000)
    assert state.over and state.winners
    totals = [state.counter("penalties", s) for s in range(n)]
    assert max(totals) >= 100 and {s for s in range(n) if totals[s] == min(totals)} == set(state.winners)


def test_under_the_action_reading_a_two_a_queen_and_an_ace_each_act():
    """A greedy game of four under the variant: every two, queen and ace played (that does
    not end the hand) acts as lines 21-23 say, and each kind is played at least once."""
    n = 4
    state = kernel.new_game(ACTIONS, n, seed=3)
    seats = [players.GreedyPlayer() for _ in range(n)]
    acted = {"2": 0, "Q": 0, "A": 0}
    for _ in range(5000):
        if state.over:
            break
        move = seats[state.current].choose(state)
        nxt = kernel.apply(state, move)
        card = codec.move_to_doc(ACTIONS, move).get("play")
        if card and card[:-1] in acted and len(nxt.results) == len(state.results):
            me, d = state.current, state.direction
            before = codec.state_to_doc(state)
            after = codec.state_to_doc(nxt)
            if card[:-1] == "A":
                assert (nxt.direction, nxt.current) == (-d, (me - d) % n), card
            else:
                assert (nxt.direction, nxt.current) == (d, (me + 2 * d) % n), card
            if card[:-1] == "2":
                victim = (me + d) % n
                drawn = len(after["hand"][victim]) - len(before["hand"][victim])
                assert drawn == min(2, len(before["stock"])), card
            acted[card[:-1]] += 1
        state = nxt
    assert state.over
    assert all(acted.values()), acted


# ---- what `rulings judge` prints ---------------------------------------------------------

def test_judge_writes_the_suit_to_follow_and_the_winners_own_total():
    from pathlib import Path

    from click.testing import CliRunner

    from rulings.cli import main

    folder = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / GAME
    out = CliRunner().invoke(main, ["judge", GAME, str(folder / "go-out-game-end.yaml")])
    assert out.exit_code == 0, out.output
    first = out.output.splitlines()[0]
    assert first == "Crazy Eights, follow S: LEGAL"                 # the suit, not its place in the order
    assert "the game is over: seat(s) 1 win (penalties 20)" in out.output     # the fewest, not the most
    assert "the round's scores seat 0: +54, seat 1: +0, seat 2: +24" in out.output
