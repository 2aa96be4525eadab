"""Simulation report for a layout game (the `fill` mechanic): hands per game, how often the
stock is reshuffled, and how often a wild decides a hand, under the adopted readings and
each reading named on the command line.

    python benchmarks/layout_report.py garbage --players 2 --games 50 \
        --variant layout=eight-positions --variant wild=kings ...

A wild "stands in" a hand when the winner's completed layout shows a wild face up; it
"completes" a hand when the winner's last placed card was a wild (the layout was finished by
it). Both are measured on the state just before the hand ends.
"""
from __future__ import annotations

import argparse
import statistics

from rulings import kernel, players
from rulings.kernel.mechanics import layout
from rulings.spec import load


def one_game(spec, n: int, seed: int, max_moves: int = 100_000):
    r = kernel.rules(spec)
    fills = [m for m in r.moves.values() if m.mechanic == "fill"]
    agents = [players.GreedyPlayer() for _ in range(n)]
    state = kernel.new_game(spec, n, seed)
    hands = stands = completes = 0
    last_fill: dict[int, bool] = {}
    for _ in range(max_moves):
        if state.over:
            break
        move = agents[state.current].choose(state)
        decl = r.moves[move.id]
        if decl.mechanic == "fill":
            last_fill[state.current] = layout.is_wild(r, decl, layout.held_card(state, decl))
        nxt = kernel.apply(state, move)
        if len(nxt.results) > len(state.results):
            res = nxt.results[-1]
            hands += 1
            won = (res.went_out,) + tuple(res.also_out)
            if any(any(layout.is_wild(r, d, c) and up for d in fills for c, up in state.zone(d.f["to"], s))
                   for s in won if s is not None):
                stands += 1
            if res.went_out is not None and last_fill.get(res.went_out):
                completes += 1
            last_fill = {}
        state = nxt
    return state, hands, stands, completes


def report(game: str, readings: dict, n: int, games: int, seed: int) -> dict:
    spec = load(game, readings or None)
    rows = [one_game(spec, n, seed + g) for g in range(games)]
    finished = [r for r in rows if r[0].over]
    hands = [r[1] for r in finished]
    reshuffles = [sum(x.reshuffles for x in r[0].results) for r in finished]
    total = sum(hands) or 1
    shared = sum(1 for r in finished if len(r[0].winners) > 1)
    return {"readings": readings or "adopted", "players": n, "games": games, "finished": len(finished),
            "hands_mean": round(statistics.mean(hands), 2) if hands else None,
            "hands_max": max(hands, default=None),
            "reshuffles_per_game": round(statistics.mean(reshuffles), 2) if reshuffles else None,
            "games_with_reshuffle": round(sum(1 for x in reshuffles if x) / max(len(reshuffles), 1), 3),
            "wild_stands_in_winning_layout": round(sum(r[2] for r in finished) / total, 3),
            "wild_completes_the_layout": round(sum(r[3] for r in finished) / total, 3),
            "shared_wins": shared}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--players", type=int, nargs="+", default=[2])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", action="append", default=[], help="CLAUSE=READING[,CLAUSE=READING]")
    a = ap.parse_args()
    variants = [{}] + [dict(x.split("=", 1) for x in v.split(",")) for v in a.variant]
    for v in variants:
        for n in a.players:
            print(report(a.game, v, n, a.games, a.seed), flush=True)


if __name__ == "__main__":
    main()
