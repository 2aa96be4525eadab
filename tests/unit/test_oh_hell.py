"""Oh Hell (spec/oh-hell.yaml) held to its rules text, spec/rules/oh-hell.txt: each test
names the line it holds the kernel to. Situations are built as scenarios
(docs/scenarios.md): the eighth hand of three players (three cards each) unless a test
says otherwise."""
from __future__ import annotations

import pytest

from rulings import kernel, players, scenario as sc, simulate as sim
from rulings.kernel import codec
from rulings.spec import load

GAME = "oh-hell"
SPEC = load(GAME)
FIRST_HAND = {3: 10, 4: 10, 5: 10, 6: 8, 7: 7}          # oh-hell.txt:4


def situation(**fields) -> dict:
    doc = {"format": 1, "game": GAME, "players": 3, "dealer": 0, "round": 8, "to_play": 1, "phase": "play",
           "turns_finished": 3, "hand": [["AC", "7D", "JC"], ["3C", "4H", "5H"], ["AH", "9H", "10D"]],
           "trumps": ["KS"], "undealt": {"top": [], "rest": "deck"}, "trick": [], "winnings": [[], [], []],
           "bid": [0, 1, 1], "tricks_taken": [0, 0, 0], "score": [0, 0, 0]}
    doc.update(fields)
    return doc


def judged(doc: dict, *moves):
    return sc.judge(sc.load(dict(doc, moves=list(moves))))


def offered(doc: dict) -> list:
    s = sc.load(doc)
    return [codec.move_to_doc(SPEC, m) for m in kernel.legal_moves(s.state)]


def last_card(trick: list, card: str, trumps: str = "KS") -> dict:
    """Seat 0 plays the last card of a trick seats 1 and 2 began; the result."""
    j = judged(situation(to_play=0, turns_finished=5, trick=trick, trumps=[trumps],
                         hand=[[card, "7D", "JC"], ["3C", "4D"], ["8C", "10D"]]), {"play": card})
    assert j.legal, j.refused and j.refused.why
    return j.result


# ---- the pack, the hands, the deal: oh-hell.txt:3-6 ----------------------------------------

@pytest.mark.parametrize("n", range(3, 8))
def test_the_first_hand_and_the_trump_turned_up_lines_4_6(n):
    state = kernel.new_game(SPEC, n, seed=n)
    doc = codec.state_to_doc(state)
    k = FIRST_HAND[n]
    assert [len(h) for h in doc["hand"]] == [k] * n
    assert len(doc["trumps"]) == 1 and len(doc["undealt"]) == 52 - n * k - 1
    assert (doc["phase"], doc["to_play"]) == ("bidding", 1)            # line 7: the dealer's left bids first


def test_three_to_seven_players_line_3():
    assert kernel.rules(SPEC).players_range() == (3, 7)


def test_the_ace_ranks_highest_then_king_down_to_two_line_3():
    assert last_card([[1, "KH"], [2, "10H"]], "AH")["tricks_taken"] == [1, 0, 0]
    assert last_card([[1, "KH"], [2, "10H"]], "JH")["tricks_taken"] == [0, 1, 0]
    assert last_card([[1, "2H"], [2, "10H"]], "9H")["tricks_taken"] == [0, 0, 1]


# ---- the bids: oh-hell.txt:7 -----------------------------------------------------------

def test_a_bid_runs_from_zero_to_the_cards_held_line_7():
    doc = situation(phase="bidding", turns_finished=0, bid=[-1, -1, -1])
    assert offered(doc) == [{"bid": {"bid": b}} for b in range(4)]
    j = judged(doc, {"bid": {"bid": 4}})
    assert not j.legal and j.refused.clauses == ("bids",)
    with pytest.raises(sc.ScenarioError, match=r"moves\[0\]\.bid\.bid: must be 0 or more, got -1"):
        judged(doc, {"bid": {"bid": -1}})


def test_every_player_bids_in_turn_before_any_card_is_played_lines_7_8():
    doc = situation(phase="bidding", turns_finished=0, bid=[-1, -1, -1])
    j = judged(doc, {"play": "3C"})
    assert not j.legal and j.refused.clauses == ("bids",)
    j = judged(doc, {"bid": {"bid": 1}}, {"bid": {"bid": 0}}, {"bid": {"bid": 3}})
    assert j.result["bid"] == [3, 1, 0]                             # seats 1, 2, then the dealer
    assert (j.result["phase"], j.result["to_play"]) == ("play", 1)    # line 8: the dealer's left leads


# ---- the tricks: oh-hell.txt:8-11 --------------------------------------------------------

def test_a_player_holding_the_suit_led_must_follow_line_9():
    doc = situation(to_play=2, turns_finished=4, trick=[[1, "3C"]], hand=[["AC", "7D", "JC"], ["4H", "5H"],
                                                                          ["QC", "9H", "2S"]])
    assert offered(doc) == [{"play": "QC"}]
    j = judged(doc, {"play": "2S"})                                 # not even a trump
    assert not j.legal and j.refused.clauses == ("follow-suit",)


def test_a_player_without_the_suit_led_may_play_any_card_line_9():
    doc = situation(to_play=2, turns_finished=4, trick=[[1, "3C"]], hand=[["AC", "7D", "JC"], ["4H", "5H"],
                                                                          ["QD", "9H", "2S"]])
    assert sorted(m["play"] for m in offered(doc)) == ["2S", "9H", "QD"]


def test_the_leader_may_lead_any_card_line_8():
    assert sorted(m["play"] for m in offered(situation())) == ["3C", "4H", "5H"]


def test_the_highest_trump_wins_else_the_highest_of_the_suit_led_line_10():
    assert last_card([[1, "5H"], [2, "AH"]], "2S")["tricks_taken"] == [1, 0, 0]      # a trump beats the ace led
    assert last_card([[1, "5H"], [2, "3S"]], "2S")["tricks_taken"] == [0, 0, 1]      # the higher trump
    assert last_card([[1, "5H"], [2, "9H"]], "AC")["tricks_taken"] == [0, 0, 1]      # another suit never wins
    assert last_card([[1, "4S"], [2, "AH"]], "2S")["tricks_taken"] == [0, 1, 0]      # trumps led
    assert last_card([[1, "5H"], [2, "9H"]], "AC", trumps="QC")["tricks_taken"] == [1, 0, 0]   # clubs trumps now


def test_the_winner_takes_the_trick_and_leads_the_next_line_11():
    res = last_card([[1, "5H"], [2, "9H"]], "AC")
    assert res["to_play"] == 2 and res["trick"] == [] and sorted(res["winnings"][2]) == ["5H", "9H", "AC"]


# ---- the score and the winner: oh-hell.txt:12-13 ------------------------------------------

@pytest.mark.parametrize("bids,made", [([1, 1, 0], [11, 11, 0]), ([0, 1, 2], [0, 11, 0]), ([1, 0, 1], [11, 0, 11])])
def test_an_exact_bid_scores_ten_plus_the_bid_any_other_nothing_line_12(bids, made):
    """The last trick of the hand, seat 1 wins it: tricks taken end [1, 1, 1]."""
    doc = situation(to_play=1, turns_finished=11, hand=[[], ["QH"], []], trick=[[2, "4H"], [0, "6H"]],
                    winnings=[["2C", "5C", "AC"], [], ["3D", "9D", "8D"]], bid=bids, tricks_taken=[1, 0, 1])
    j = judged(doc, {"play": "QH"})
    (end,) = j.round_ends
    assert end["how"] == "played_out" and end["went_out"] is None and end["scores"] == made
    assert j.result["score"] == made and j.result["round"] == 9
    assert [len(h) for h in j.result["hand"]] == [2, 2, 2]          # line 4: one card fewer


def test_the_highest_total_wins_and_ties_share_line_13():
    doc = situation(round=10, to_play=0, turns_finished=5, hand=[["AH"], [], []], trick=[[1, "3H"], [2, "7H"]],
                    trumps=["9C"], bid=[1, 0, 0], score=[40, 52, 52])
    j = judged(doc, {"play": "AH"})
    assert j.result["phase"] == "over" and j.result["score"] == [51, 62, 62] and j.result["winners"] == [1, 2]
    j = judged(dict(doc, score=[52, 52, 40]), {"play": "AH"})
    assert j.result["winners"] == [0]


# ---- whole games ---------------------------------------------------------------------

@pytest.mark.parametrize("player", ["greedy", "random"])
@pytest.mark.parametrize("n", range(3, 8))
def test_a_seeded_game_is_played_to_the_hand_of_one_card_and_a_winner_line_4(n, player):
    state, moves = players.play(SPEC, [sim.PLAYERS[player](n, i) for i in range(n)], seed=n, max_moves=5000)
    assert state.over and state.winners
    assert len(state.results) == FIRST_HAND[n]                      # down to the hand of one card
    assert all(r.how == "played_out" for r in state.results)
    scores = [state.counter("score", s) for s in range(n)]
    assert {s for s in range(n) if scores[s] == max(scores)} == set(state.winners)
    bids = [m for m in moves if m.id == "bid"]
    assert len(bids) == n * FIRST_HAND[n]                           # every player bids every hand
