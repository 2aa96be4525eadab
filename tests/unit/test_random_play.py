"""Random play over every game the kernel plays (after OpenSpiel's random-sim test): at
every player count the spec allows, random players make only offered moves, every one is
applied, a live game always offers a move, every state reads back from its scenario and
is one `scenario_bounds.unreached` sees nothing wrong with (the seat to play agrees with
the turns finished), and greedy players finish whole games."""
from __future__ import annotations

import pytest

from rulings import kernel, players, scenario_bounds
from rulings.kernel import codec
from rulings.spec import load, packaged_games

PLAYABLE = [g for g in packaged_games() if not kernel.rules(load(g)).unanswered()]


def test_the_kernel_plays_at_least_two_games():
    assert len(PLAYABLE) >= 2, PLAYABLE


@pytest.mark.parametrize("game", PLAYABLE)
def test_random_play_at_every_player_count(game):
    spec = load(game)
    lo, hi = kernel.rules(spec).players_range()
    for n in range(lo, hi + 1):
        agents = [players.RandomPlayer(f"{game}:{n}:{i}") for i in range(n)]
        state = kernel.new_game(spec, n, seed=n)
        for step in range(300):
            if state.over:
                break
            moves = kernel.legal_moves(state)
            assert moves, f"{game}, {n} players: no move offered at step {step}"
            move = agents[state.current].choose(state)
            assert move in moves
            nxt = kernel.apply(state, move)
            assert not isinstance(nxt, kernel.Refusal), (game, n, step, move, nxt)
            assert scenario_bounds.unreached(nxt) == [], (game, n, step, move)
            if step % 25 == 0:
                back = codec.state_from_doc(spec, codec.state_to_doc(nxt))
                assert (back.zones, back.counters, back.phase, back.current) == \
                    (nxt.zones, nxt.counters, nxt.phase, nxt.current)
            state = nxt


@pytest.mark.parametrize("game", PLAYABLE)
def test_greedy_players_finish_whole_games(game):
    spec = load(game)
    lo, hi = kernel.rules(spec).players_range()
    for n, seed in ((lo, 1), (hi, 2)):
        state, moves = players.play(spec, [players.GreedyPlayer() for _ in range(n)], seed=seed, max_moves=20_000)
        assert state.over and state.winners, (game, n)
        if kernel.rules(spec).game_end_when is not None:       # won at a round's end, so a round ended
            assert len(state.results) >= 1
