"""Sevens (spec/sevens.yaml) held to its rules text, spec/rules/sevens.txt: each test names
the line it holds the kernel to. Situations are built as scenarios (docs/scenarios.md)."""
from __future__ import annotations

import pytest

from rulings import kernel, players, scenario as sc, simulate as sim
from rulings.kernel import codec
from rulings.spec import load

GAME = "sevens"
SPEC = load(GAME)


def situation(**fields) -> dict:
    """Three players, seat 1 to play, the diamond row from six to eight laid."""
    doc = {"format": 1, "game": GAME, "players": 3, "dealer": 0, "to_play": 1, "phase": "turn",
           "turns_finished": 3, "hand": [["AC", "9C", "KC"], ["5D", "9D", "7S", "AH"], ["QS", "2H", "KD"]],
           "layout": ["7D", "6D", "8D"], "undealt": [], "penalties": [0, 0, 0]}
    doc.update(fields)
    return doc


def judged(doc: dict, *moves):
    return sc.judge(sc.load(dict(doc, moves=list(moves))))


def offered(doc: dict) -> list:
    s = sc.load(doc)
    return [codec.move_to_doc(SPEC, m) for m in kernel.legal_moves(s.state)]


def plays(doc: dict) -> list[str]:
    return sorted(m["play"] for m in offered(doc) if "play" in m)


# ---- the deal and the opening: sevens.txt:3-5 ----------------------------------------------

@pytest.mark.parametrize("n", range(3, 8))
def test_the_whole_pack_is_dealt_from_the_dealers_left_and_the_seven_of_diamonds_opens_lines_4_5(n):
    state = kernel.new_game(SPEC, n, seed=n)
    doc = codec.state_to_doc(state)
    sizes = [len(h) for h in doc["hand"]]
    assert sum(sizes) == 52 and doc["undealt"] == []
    extra = 52 % n                           # the first `extra` seats from the dealer's left get one more
    assert sizes == [52 // n + (1 if (s - 1) % n < extra else 0) for s in range(n)]
    holder = next(s for s in range(n) if "7D" in doc["hand"][s])
    assert doc["to_play"] == holder
    assert offered(doc) == [{"play": "7D"}]                         # the only opening card


def test_three_to_seven_players_line_3():
    assert kernel.rules(SPEC).players_range() == (3, 7)


# ---- building: sevens.txt:6-7 ------------------------------------------------------------

def test_a_card_goes_one_rank_above_or_below_a_card_of_its_suit_and_a_seven_anywhere_lines_6_7():
    assert plays(situation()) == ["5D", "7S", "9D"]                 # the ace of hearts has no neighbour
    j = judged(situation(), {"play": "AH"})
    assert not j.legal and j.refused.clauses == ("building",)


def test_a_row_runs_from_its_seven_to_the_king_and_down_to_the_ace_line_7():
    row = ["7H", "8H", "9H", "10H", "JH", "QH", "6H", "5H", "4H", "3H"]
    doc = situation(hand=[["AC"], ["KH", "2H", "KD"], ["QS"]], layout=["7D"] + row)
    assert plays(doc) == ["2H", "KH"]
    j = judged(doc, {"play": "KD"})                                 # a king beside no queen of its suit
    assert not j.legal and j.refused.clauses == ("building",)


def test_a_card_beside_a_card_of_another_suit_does_not_build_line_7():
    doc = situation(hand=[["AC"], ["6C", "8S", "KD"], ["QS"]], layout=["7D"])
    assert plays(doc) == []
    assert offered(doc) == [{"pass": True}]


# ---- passing: sevens.txt:8 ---------------------------------------------------------------

def test_a_player_who_can_play_must_and_one_who_cannot_passes_line_8():
    j = judged(situation(), {"pass": True})
    assert not j.legal and j.refused.clauses == ("passing",)
    j = judged(situation(hand=[["AC"], ["AH", "KD"], ["QS"]]), {"pass": True})
    assert j.legal and j.result["to_play"] == 2 and j.result["layout"] == ["7D", "6D", "8D"]


# ---- the end of the hand and of the game: sevens.txt:9-11 ----------------------------------

def test_the_first_out_ends_the_hand_and_the_others_score_a_point_a_card_lines_9_10():
    doc = situation(hand=[["AC", "9C", "KC"], ["9D"], ["QS", "2H"]], penalties=[4, 7, 2])
    j = judged(doc, {"play": "9D"})
    (end,) = j.round_ends
    assert end["went_out"] == 1 and end["left"] == [3, 0, 2]
    assert j.result["penalties"] == [7, 7, 4] and j.result["round"] == 2 and j.result["dealer"] == 1


def test_the_game_ends_at_twenty_and_the_lowest_total_wins_line_11():
    doc = situation(hand=[["AC", "9C", "KC"], ["9D"], ["QS", "2H"]], penalties=[17, 5, 9])
    j = judged(doc, {"play": "9D"})
    assert j.result["phase"] == "over" and j.result["penalties"] == [20, 5, 11] and j.result["winners"] == [1]
    j = judged(dict(doc, penalties=[16, 5, 9]), {"play": "9D"})
    assert j.result["phase"] == "turn"                              # nineteen: another hand


# ---- whole games ---------------------------------------------------------------------

@pytest.mark.parametrize("player", ["greedy", "random"])
@pytest.mark.parametrize("n", range(3, 8))
def test_a_seeded_game_reaches_a_winner(n, player):
    state, moves = players.play(SPEC, [sim.PLAYERS[player](n, i) for i in range(n)], seed=n, max_moves=5000)
    assert state.over and state.winners
    totals = [state.counter("penalties", s) for s in range(n)]
    assert max(totals) >= 20 and {s for s in range(n) if totals[s] == min(totals)} == set(state.winners)
    assert all(r.how == "went_out" for r in state.results)         # a hand of sevens always ends by going out
