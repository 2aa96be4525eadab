"""Whole games per second, and moves per second, for the kernel and its players, every game.

    python benchmarks/games.py [--game G ...] [--games K] [--players N] [--seed S] [--json]

For each game the kernel plays (default: all of them), measured each on its own fresh
seeds (so the kernel's lay-down cache starts cold):
- greedy games: N greedy players play whole games (the players choose, the kernel
  applies): games per second and moves per second;
- the same with the trace `rulings simulate` records (every move also replayed under the
  other readings it consulted);
- the kernel alone: the moves of those games applied again, no players choosing;
- random games (a random kind of move, then a random move of that kind), capped at
  5,000 moves a game.
Prints medians and rates; nothing here is asserted.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

CAP = 5_000


def _games(spec, n, seeds, player, trace):
    from rulings import kernel, simulate as sim
    from rulings.kernel.mechanics import lay

    lay._best_cache.clear()
    per_game, moves, recorded = [], 0, []
    for seed in seeds:
        seats = [sim.PLAYERS[player](seed, i) for i in range(n)]
        t0 = time.perf_counter()
        state = kernel.new_game(spec, n, seed)
        played = []
        while not state.over and len(played) < CAP:
            move = seats[state.current].choose(state)
            state = kernel.apply_traced(state, move)[0] if trace else kernel.apply(state, move)
            played.append(move)
        per_game.append(time.perf_counter() - t0)
        moves += len(played)
        recorded.append((seed, played))
    return per_game, moves, recorded


def _kernel_only(spec, n, recorded):
    from rulings import kernel

    per_game, moves = [], 0
    for seed, played in recorded:
        t0 = time.perf_counter()
        state = kernel.new_game(spec, n, seed)
        for move in played:
            state = kernel.apply(state, move)
        per_game.append(time.perf_counter() - t0)
        moves += len(played)
    return per_game, moves


def measure(game: str, n: int, k: int, seed: int) -> dict:
    from rulings.spec import load

    spec = load(game)
    base = seed * 10_000
    rows = []

    def show(label, per_game, moves):
        total = sum(per_game)
        rows.append({"what": label, "games_per_s": round(len(per_game) / total, 2),
                     "moves_per_s": round(moves / total), "median_s_per_game": round(statistics.median(per_game), 4),
                     "moves_per_game": round(moves / len(per_game))})

    per, moves, recorded = _games(spec, n, range(base, base + k), "greedy", trace=False)
    show(f"{n} greedy players", per, moves)
    per_t, moves_t, _ = _games(spec, n, range(base + k, base + 2 * k), "greedy", trace=True)
    show(f"{n} greedy players, traced", per_t, moves_t)
    show("kernel alone (those games' moves)", *_kernel_only(spec, n, recorded))
    per_r, moves_r, _ = _games(spec, n, range(base + 2 * k, base + 3 * k), "random", trace=False)
    show(f"{n} random players", per_r, moves_r)
    return {"game": game, "players": n, "games_per_row": k, "seeds_from": base, "rows": rows}


def main() -> None:
    from rulings import kernel
    from rulings.spec import load, packaged_games

    playable = [g for g in packaged_games() if not kernel.rules(load(g)).unanswered()]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=playable, help="a game (repeatable; default: every one)")
    ap.add_argument("--games", type=int, default=20, help="games per measurement (default 20)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the whole output as JSON")
    args = ap.parse_args()
    out = [measure(g, args.players, args.games, args.seed) for g in (args.game or playable)]
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for m in out:
        print(f"{m['game']}, {m['players']} players, {m['games_per_row']} games per row (seeds from {m['seeds_from']})")
        print(f"{'':38} {'games/s':>8} {'moves/s':>9} {'median s/game':>14} {'moves/game':>11}")
        for r in m["rows"]:
            print(f"{r['what']:38} {r['games_per_s']:8.2f} {r['moves_per_s']:9.0f} {r['median_s_per_game']:14.3f} "
                  f"{r['moves_per_game']:11.0f}")
        print()


if __name__ == "__main__":
    main()
