"""A scenario's values held to its spec (rulings.scenario_bounds): a situation no game reaches
is refused naming the field, for every game and zone kind, and every situation play does
reach passes."""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
import yaml

from rulings import kernel, scenario as sc, scenario_bounds
from rulings.spec import load, packaged_games
from rulings.specfile import Loader

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "docs" / "scenarios"


def doc(game: str, name: str) -> dict:
    return yaml.load((SCENARIOS / game / name).read_text(encoding="utf-8"), Loader=Loader)


def refused(data: dict, game: str) -> list[str]:
    with pytest.raises(sc.ScenarioError) as e:
        sc.load(data, load(game))
    return e.value.problems


@pytest.mark.parametrize("game", packaged_games())
def test_every_situation_play_reaches_passes(game):
    """Seeded games played with random legal moves: each situation met, written as a scenario
    and read back, is within every bound (the checks never refuse a real game)."""
    spec = load(game)
    rng = random.Random(game)
    checked = 0
    for seed in range(3):
        n = kernel.rules(spec).players_range()[0] + seed % 2
        state = kernel.new_game(spec, n, seed)
        for step in range(4000):
            if step % 7 == 0 or state.over:
                moves = kernel.legal_moves(state) if not state.over else []
                data = sc.to_scenario(state, moves[:1])
                if moves:
                    got = sc.load(data, spec)
                    assert sc.to_scenario(got.state) == sc.to_scenario(state)
                    checked += 1
            if state.over:
                break
            moves = kernel.legal_moves(state)
            state = kernel.apply(state, rng.choice(moves))
    assert checked > 20


# ---- the inputs of issue 27, each refused naming the field ------------------------------------

def test_a_layout_size_below_zero_is_refused():
    data = doc("garbage", "place-card.yaml")
    data["positions"] = [-1, 10]
    problems = refused(data, "garbage")
    assert any(p.startswith("positions[0]: must be 0 to 10, got -1") for p in problems), problems


def test_a_huge_layout_size_is_refused():
    data = doc("garbage", "place-card.yaml")
    data["positions"] = [10 ** 20, 10]
    problems = refused(data, "garbage")
    assert any(p.startswith("positions[0]: must be 0 to 10, got a number of 21 digits") for p in problems), problems


def test_a_layout_shorter_than_its_size_is_refused():
    data = doc("garbage", "place-card.yaml")
    data["tableau"][0] = "?3 ?K"
    problems = refused(data, "garbage")
    assert "tableau[0]: 2 positions, but positions[0] is 10" in problems[0], problems


def test_a_layout_longer_than_the_positions_is_refused():
    data = doc("garbage", "place-card.yaml")
    data["tableau"][0] += " ?4"
    problems = refused(data, "garbage")
    assert any(p.startswith("tableau[0]: 11 positions, but a layout of tableau has at most 10") for p in problems)


def test_a_situation_is_judged_under_a_reading_that_could_not_have_made_it():
    """What a card lying face up means is the reading's to say: a jack face up in position 6
    (placed there as a wild) is judged under the reading where kings are wild too, as the
    FAQ compares readings on one situation (a check of where face-up cards lie refused it)."""
    data = doc("garbage", "place-card.yaml")
    data["tableau"][1] = "?10 ?2 ?2 ?8 ?J J ?Q ?J ?A ?5"
    spec = load("garbage")
    alt = next(r for r in spec.reading_choices()["wild"] if r != spec.chosen["wild"])
    assert sc.load(data, load("garbage", {"wild": alt})).state is not None


def test_negative_and_huge_points_laid_are_refused():
    data = doc("rummikub", "initial-meld-50.yaml")
    data["laid"] = [-60, -10 ** 30]
    problems = refused(data, "rummikub")
    assert any(p.startswith("laid[0]: must be 0 to 1,000,000, got -60") for p in problems), problems
    assert any(p.startswith("laid[1]: must be 0 to 1,000,000, got a number of 31 digits") for p in problems)


def test_an_initial_meld_flag_is_0_or_1():
    data = doc("rummikub", "initial-meld-50.yaml")
    data["melded"] = [0, 7]
    assert any(p.startswith("melded[1]: must be 0 to 1, got 7") for p in refused(data, "rummikub"))


def test_negative_chips_are_refused():
    data = doc("tick", "tick-two.yaml")
    data["chips"] = [-3] + list(data.get("chips", [10] * data["players"]))[1:]
    problems = refused(data, "tick")
    assert any(p.startswith("chips[0]: must be 0 to 1,000,000, got -3 (move tick is paid from it") for p in problems)


def test_a_chip_of_a_side_that_does_not_exist_is_refused():
    data = doc("sequence-numbers", "cover-matching-space.yaml")
    data["board"][0] = "*..7.....*"
    problems = refused(data, "sequence-numbers")
    assert problems == ["board: row 0, column 3: a chip of side 7, but 2 players form 2 side(s), numbered 0-1 "
                        "(clause chip-sets)"], problems


@pytest.mark.parametrize("field,value", [("turns_finished", 10 ** 7), ("round", 10 ** 12), ("reshuffles", 10 ** 9),
                                         ("lays_this_turn", 10 ** 30)])
def test_the_kernels_counts_are_bounded(field, value):
    data = doc("tick", "tick-two.yaml")
    data[field] = value
    assert any(p.startswith(f"{field}: must be ") for p in refused(data, "tick"))


def test_a_move_naming_a_seat_that_does_not_exist_is_refused():
    data = doc("level8", "skip-a-player.yaml")
    data["move"] = {"place_skip": 7}
    assert refused(data, "level8") == ["move.place_skip: seat 7 is not a seat of this game (3 players: seats 0-2)"]
    data = doc("level8", "add-to-another-players-run.yaml")
    data["move"]["add_cards"]["seat"] = 9
    assert refused(data, "level8") == ["move.add_cards: seat 9 is not a seat of this game (3 players: seats 0-2)"]


def test_a_huge_count_in_a_move_is_refused():
    data = doc("tick", "tick-two.yaml")
    data["move"] = {"tick": 10 ** 20}
    assert refused(data, "tick") == ["move.tick: a number of 21 digits is past any count a game has "
                                     "(at most 1,000,000)"]


def test_the_worked_scenarios_all_pass():
    for path in sorted(SCENARIOS.glob("*/*.yaml")):
        sc.load(path, load(path.parent.name))


def test_a_refusal_names_the_rule_it_breaks_when_the_kernel_names_none(monkeypatch):
    """Where the kernel's refusal carries no clause, the verdict names the clause that says
    what the move is: never an empty list."""
    data = doc("level8", "add-to-another-players-run.yaml")
    scen = sc.load(copy.deepcopy(data), load("level8"))
    real = kernel.apply_traced

    def unnamed(state, move):
        out, basis = real(state, move)
        return kernel.Refusal((None,), "refused for the test"), basis

    monkeypatch.setattr(kernel, "apply_traced", unnamed)
    j = sc.judge(scen)
    assert j.legal is False and j.refused.clauses == (kernel.rules(scen.spec).moves["add_cards"].clause,)


# ---- situations no play reaches (scenario_bounds.unreached) -------------------------------

def _tick_table(**over):
    doc = {"format": 1, "game": "tick", "players": 3, "dealer": 0, "to_play": 1, "phase": "draw",
           "turns_finished": 3, "level": 1, "hands": [[1, 2, 4], [3, 3, 8], [2, 4, 9]], "face_up": [9],
           "stock": {"top": [5], "rest": "deck"}, "move": {"draw": "stock"}}
    doc.update(over)
    return doc


def test_the_seat_to_play_follows_the_turns_finished_where_play_goes_round_in_order():
    """Tick passes play left from the dealer's left: with seat 0 dealing to 3 players,
    turns 1, 2, 3, 4 are seats 1, 2, 0, 1."""
    from rulings.kernel import flow

    spec = load("tick")
    assert [flow.seat_after_turns(spec, 0, 3, t) for t in range(5)] == [1, 2, 0, 1, 2]
    assert scenario_bounds.unreached(sc.load(_tick_table()).state) == []
    wrong = scenario_bounds.unreached(sc.load(_tick_table(turns_finished=4)).state)
    assert len(wrong) == 1 and wrong[0].startswith("to_play:") and "turn 5 is seat 2's, not seat 1's" in wrong[0]


def test_no_seat_is_derived_where_the_rules_take_play_out_of_order():
    """The first player found at the deal (Sevens: who holds a card), a trick's winner
    leading (Oh Hell), a card that reverses or skips (Crazy Eights' variant): any seat
    may be to play after any number of turns, so nothing is said."""
    from rulings.kernel import flow

    for spec in (load("sevens"), load("oh-hell")):
        assert flow.seat_after_turns(spec, 0, 3, 4) is None, spec.game
    c8 = load("crazy-eights")
    assert flow.seat_after_turns(c8, 0, 3, 4) == 2          # the plain game: no card acts
    assert flow.seat_after_turns(c8.with_readings({"action-cards": "actions"}), 0, 3, 4) is None
