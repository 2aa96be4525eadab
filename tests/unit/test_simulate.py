"""Simulated games: reports that add up, the same seed giving the same report, and the
assumptions a game rests on counted from the kernel's own trace."""
import json

import pytest
from click.testing import CliRunner

from rulings import kernel, simulate as sim
from rulings.cli import main
from rulings.spec import load


@pytest.fixture(scope="module")
def plays(tick):
    return [sim.play_game(tick, 3, sim.game_seed(7, i)) for i in range(4)]


def test_same_seed_same_report_and_games_differ(tick):
    a = sim.run(tick, 2, 2, seed=3)
    assert a == sim.run(tick, 2, 2, seed=3)
    assert a != sim.run(tick, 2, 2, seed=4)
    assert sim.game_seed(3, 0) != sim.game_seed(3, 1)


def test_a_game_record_adds_up(tick, plays):
    r = kernel.rules(tick)
    for g in plays:
        assert g.finished and [p.group for p in g.rounds] == [int(x) for x in tick.levels()]
        assert all(p.how == "went_out" for p in g.rounds)
        assert sum(p.paid["tick"][1].get("chips", 0) for p in g.rounds) <= r.counters["chips"].start * 3
        # the recorded game is the kernel's game: replaying it gives the same scores
        again = sim.play_game(tick, 3, g.seed, trace=False)
        assert again.scores == g.scores and again.moves == g.moves


def test_the_report_counts_every_level_and_every_game(tick, plays):
    rep = sim.report(tick, 3, 7, "greedy", plays)
    assert rep["finished"] == 4 and rep["unfinished"] == 0
    assert rep["grouped_by"] == "level"
    for lv in rep["rounds"]:
        assert lv["played"] == 4 and sum(lv["ended"].values()) == 4
        assert lv["turns"]["min"] <= lv["turns"]["median"] <= lv["turns"]["max"]
    finals = [s for g in plays for s in g.scores]
    assert rep["final"]["scores"]["max"] == max(finals) and rep["final"]["scores"]["min"] == min(finals)
    margins = [sorted(g.scores)[-1] - sorted(g.scores)[-2] for g in plays]
    assert rep["winning_margin"]["max"] == max(margins)
    json.dumps(rep)


def test_assumptions_hit_are_the_kernels_own(tick, plays):
    rep = sim.report(tick, 3, 7, "greedy", plays)
    share = {a["clause"]: a["games_share"] for a in rep["rested_on"]}
    assert set(share) == set(sim.assumptions(tick))
    # every game is dealt from the assumed pack, by the assumed deal order
    assert share["pack-composition"] == share["deal-order"] == 1.0
    # the stock-empty rule is hit exactly in the games where the stock ran out
    ran_out = sum(1 for g in plays if any(p.reshuffles for p in g.rounds)) / len(plays)
    assert share["stock-empty"] >= ran_out


def test_a_stalled_level_is_counted_as_such_stalled_level():
    """Random players spend their chips long before level 8, which then cannot end by
    going out: the stalled-level assumption ends it."""
    spec = load("tick")
    g = sim.play_game(spec, 2, 5, "random")
    assert g.finished and g.rounds[-1].how == "stalled" and g.rested_on["stalled-level"] == 1
    rep = sim.report(spec, 2, 5, "random", [g])
    assert rep["rounds"][-1]["ended"]["stalled"] == 1


def test_a_move_cap_reports_unfinished_games(tick):
    rep = sim.run(tick, 2, 1, seed=1, max_moves=50)
    assert rep["unfinished"] == 1 and rep["final"]["scores"]["mean"] is None
    assert "1 unfinished" in sim.format_report(rep)


def test_simulate_command_is_deterministic_and_checks_its_input():
    run = CliRunner().invoke
    a = run(main, ["simulate", "tick", "--players", "2", "--games", "2", "--seed", "9", "--json"])
    b = run(main, ["simulate", "tick", "--players", "2", "--games", "2", "--seed", "9", "--json"])
    assert a.exit_code == 0 and a.output == b.output
    assert json.loads(a.output)["games"] == 2
    text = run(main, ["simulate", "tick", "--players", "2", "--games", "1", "--seed", "9"])
    assert text.exit_code == 0 and "winning margins" in text.output and "stalled-level=scored" in text.output
    bad = run(main, ["simulate", "tick", "--players", "9", "--games", "1"])
    assert bad.exit_code == 2 and "2 to 8 players (clause players)" in bad.output


def test_every_reading_plays_whole_games(tick):
    """Each reading of every clause can be selected and played to the end, by both kinds
    of player, with the reading's own clause in the report."""
    for cid, names in tick.reading_choices().items():
        for name in names:
            if name == tick.chosen[cid]:
                continue
            spec = load("tick", {cid: name})
            for player, n in (("greedy", 3), ("random", 2)):
                g = sim.play_game(spec, n, sim.game_seed(1, n), player)
                assert g.finished, (cid, name, player)
            rep = sim.report(spec, n, 1, player, [g])
            assert rep["readings_not_adopted"] == {cid: name}


def test_a_round_where_the_stock_was_refilled_ran_out(tick, plays):
    """`ran_out` (what the "stock ran out" share counts) holds in every round whose stock
    was refilled or that ended for want of cards, and the report's share is its mean."""
    rounds = [p for g in plays for p in g.rounds]
    assert all(p.ran_out for p in rounds if p.reshuffles or p.how in ("stock_empty", "nothing_left"))
    rep = sim.report(tick, 3, 7, "greedy", plays)
    assert rep["stock"]["rounds_where_it_ran_out_share"] == round(sum(p.ran_out for p in rounds) / len(rounds), 4)
