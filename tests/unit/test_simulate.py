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
    assert "1 stopped at the move cap" in sim.format_report(rep)


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


# ---- streamed games (issue 27) --------------------------------------------------------------------

def test_a_spread_from_its_histogram_is_the_statistics_one():
    import random
    import statistics

    rng = random.Random(3)
    for size in (1, 2, 3, 10, 101, 1000):
        xs = [rng.randrange(-50, 400) for _ in range(size)]
        want = {"mean": round(statistics.fmean(xs), 2), "median": statistics.median(xs), "min": min(xs),
                "max": max(xs)}
        got = sim._spread(xs, 2)
        assert got == want and type(got["median"]) is type(want["median"]), (xs, got, want)
    assert sim._spread([]) == {"mean": None, "median": None, "min": None, "max": None}


def _fake_games(count: int):
    """Games as play_game records them, made up (no play): what a Summary is fed."""
    import random
    from collections import Counter

    rng = random.Random(count)
    for i in range(count):
        rounds = [sim.RoundPlay(level, "went_out", False, rng.randrange(5, 40), {"tick": (rng.randrange(4), {})}, 0)
                  for level in range(1, 9)]
        yield sim.GamePlay(i, rng.randrange(300, 900), True, rounds, {"scores": (rng.randrange(500),) * 3},
                           (0,), None, Counter({"stalled-level": 1}), "scores")


def test_the_summary_holds_the_same_memory_for_ten_times_the_games(tick):
    """A run's games are summed as they come: feeding ten times as many games to a Summary
    leaves it no larger (its histograms grow with the distinct values, not the games)."""
    import tracemalloc

    def peak(count: int) -> int:
        summary = sim.Summary(tick, 3, 1, "greedy")
        tracemalloc.start()
        for g in _fake_games(count):
            summary.add(g)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert summary.report()["games"] == count
        return top

    small, large = peak(2_000), peak(20_000)
    assert large < small + 200_000, (small, large)


def test_play_games_builds_nothing_for_every_game_before_playing(tick):
    """The most games a run takes: the first ones come at once (the old code built every
    game's job first: 2.7 GB for 10**7 games)."""
    plays, out = sim.play_games(tick, 2, sim.MAX_GAMES, 4, max_moves=5)
    try:
        first = [next(plays) for _ in range(3)]
    finally:
        plays.close()
    assert [g.seed for g in first] == [sim.game_seed(4, i) for i in range(3)]
    assert out.where == "this process"


@pytest.mark.parametrize("games", [0, -5, sim.MAX_GAMES + 1, 10 ** 8])
def test_too_many_or_too_few_games_are_refused_naming_the_limit(tick, games):
    with pytest.raises(sim.RunError, match=r"from 1 to 1,000,000 games in a run"):
        sim.play_games(tick, 2, games, 1)
    result = CliRunner().invoke(main, ["simulate", "tick", "--players", "2", "--games", str(games)])
    assert result.exit_code == 2
    assert f"--games {games}: from 1 to 1,000,000 games in a run" in result.stderr


def test_a_game_that_ends_during_a_round_counts_that_round():
    """Sequence Numbers ends as soon as a side has its lines (game_end at_once), with no
    round end: the round was played all the same (the report said 0 rounds per game)."""
    spec = load("sequence-numbers")
    rep = sim.run(spec, 4, 3, seed=1)
    assert rep["rounds_per_game"]["min"] == 1 and rep["rounds"][0]["played"] == 3
    assert rep["rounds"][0]["ended"]["game_ended"] == 3
    assert "rounds per game: mean 1, max 1" in sim.format_report(rep)
