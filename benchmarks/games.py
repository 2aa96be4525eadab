"""Whole Tick games per second, and moves per second, for the engine and its players.

    python benchmarks/games.py [--games K] [--players N] [--seed S]

Measured, each on its own fresh seeds (so the engine's lay-down cache starts cold):
- greedy games: N greedy players play whole games (the players choose, the engine
  applies): games per second and moves per second;
- the same with the trace `rulings simulate` records (every move also replayed under the
  other readings it consulted);
- the engine alone: the moves of those games applied again, no players choosing;
- random games (a random kind of move, then a random move of that kind).
Prints medians and rates; nothing here is asserted.
"""
from __future__ import annotations

import argparse
import statistics
import time


def _games(spec, n, seeds, player, trace):
    from rulings import engine, simulate as sim

    engine._best_cache.clear()
    per_game, moves, recorded = [], 0, []
    for seed in seeds:
        seats = [sim.PLAYERS[player](seed, i) for i in range(n)]
        t0 = time.perf_counter()
        state = engine.new_game(spec, n, seed)
        played = []
        while not state.over:
            move = seats[state.current].choose(state)
            state = engine.apply_traced(state, move)[0] if trace else engine.apply(state, move)
            played.append(move)
        per_game.append(time.perf_counter() - t0)
        moves += len(played)
        recorded.append((seed, played))
    return per_game, moves, recorded


def _engine_only(spec, n, recorded):
    from rulings import engine

    per_game, moves = [], 0
    for seed, played in recorded:
        t0 = time.perf_counter()
        state = engine.new_game(spec, n, seed)
        for move in played:
            state = engine.apply(state, move)
        per_game.append(time.perf_counter() - t0)
        moves += len(played)
    return per_game, moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per measurement (default 20)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    from rulings.spec import load

    spec = load("tick")
    k, n = args.games, args.players
    base = args.seed * 10_000
    rows = []

    def show(label, per_game, moves):
        total = sum(per_game)
        rows.append((label, len(per_game) / total, moves / total, statistics.median(per_game), moves / len(per_game)))

    per, moves, recorded = _games(spec, n, range(base, base + k), "greedy", trace=False)
    show(f"{n} greedy players", per, moves)
    per_t, moves_t, _ = _games(spec, n, range(base + k, base + 2 * k), "greedy", trace=True)
    show(f"{n} greedy players, traced", per_t, moves_t)
    show("engine alone (those games' moves)", *_engine_only(spec, n, recorded))
    per_r, moves_r, _ = _games(spec, n, range(base + 2 * k, base + 3 * k), "random", trace=False)
    show(f"{n} random players", per_r, moves_r)

    print(f"Tick, {n} players, {k} games per row (seeds from {base})")
    print(f"{'':38} {'games/s':>8} {'moves/s':>9} {'median s/game':>14} {'moves/game':>11}")
    for label, gps, mps, med, mpg in rows:
        print(f"{label:38} {gps:8.2f} {mps:9.0f} {med:14.3f} {mpg:11.0f}")


if __name__ == "__main__":
    main()
