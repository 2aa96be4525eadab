"""Whole games played by computer players, summarised for a rule writer.

`run(spec, players, games, seed)` plays `games` seeded games and returns a report (plain
data, JSON-ready): for each level, how often it ended by someone going out and how
otherwise, how many turns it took, the chips spent on ticks, how often the stock ran
out; the spread of final scores and of winning margins; and, for every assumption and
reading the engine plays by, the share of games in which some decision rested on it
(`engine.apply_traced`). Same arguments, same report: every game's seed, every player's
stream and every shuffle derive from `seed`.
"""
from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from . import engine, players as agents
from .engine import Draw, Refusal
from .spec import Spec

PLAYERS = {"greedy": lambda seed, seat: agents.GreedyPlayer(),
           "random": lambda seed, seat: agents.RandomPlayer(f"simulate:{seed}:{seat}")}
ENDS = ("went_out", "stalled", "nothing_to_draw", "stock_empty")


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed` (independent streams per game)."""
    return random.Random(f"rulings-simulate:{seed}:{index}").randrange(2 ** 31)


@dataclass
class LevelPlay:
    level: int
    how: str                       # went_out, stalled, nothing_to_draw, stock_empty
    void: bool
    turns: int
    ticks: int                     # tick moves
    chips: int                     # chips spent on them
    reshuffles: int


@dataclass
class GamePlay:
    seed: int
    moves: int
    finished: bool
    levels: list[LevelPlay] = field(default_factory=list)
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    rested_on: Counter = field(default_factory=Counter)    # clause -> decisions that rested on it


def play_game(spec: Spec, n: int, seed: int, player: str = "greedy", trace: bool = True,
              max_moves: int = 200_000) -> GamePlay:
    """One seeded game, recorded level by level (with what its decisions rested on)."""
    r = engine.rules(spec)
    seats = [PLAYERS[player](seed, i) for i in range(n)]
    if trace:
        state, basis = engine.new_game_traced(spec, n, seed)
    else:
        state, basis = engine.new_game(spec, n, seed), []
    if isinstance(state, Refusal):
        raise ValueError(state.why)
    g = GamePlay(seed, 0, False)
    g.rested_on.update(b.clause for b in basis)
    ticks = chips = 0
    seen = 0
    for _ in range(max_moves):
        if state.over:
            break
        move = seats[state.current].choose(state)
        if trace:
            nxt, basis = engine.apply_traced(state, move)
            g.rested_on.update(b.clause for b in basis)
        else:
            nxt = engine.apply(state, move)
        if isinstance(nxt, Refusal):
            raise AssertionError(f"a {player} player chose a refused move {move!r}: {nxt}")
        g.moves += 1
        if isinstance(move, Draw) and move.kind == "tick" and nxt.results == state.results:
            ticks += 1
            chips += move.count * r.tick_chips
        for res in nxt.results[seen:]:
            turns = res.turns_finished + (1 if res.how == "went_out" else 0)
            g.levels.append(LevelPlay(res.level, res.how or "went_out", res.void, turns, ticks, chips,
                                      res.reshuffles))
            ticks = chips = 0
        seen = len(nxt.results)
        state = nxt
    g.finished = state.over
    g.scores, g.winners = state.scores, state.winners
    return g


def _spread(xs, digits: int = 1) -> dict:
    if not xs:
        return {"mean": None, "median": None, "min": None, "max": None}
    return {"mean": round(statistics.fmean(xs), digits), "median": statistics.median(xs),
            "min": min(xs), "max": max(xs)}


def report(spec: Spec, n: int, seed: int, player: str, plays: list[GamePlay]) -> dict:
    done = [g for g in plays if g.finished]
    levels = []
    for lv in engine.rules(spec).levels:
        rows = [p for g in plays for p in g.levels if p.level == lv]
        ends = Counter(p.how for p in rows)
        levels.append({
            "level": lv,
            "played": len(rows),
            "ended": {k: ends.get(k, 0) for k in ENDS},
            "went_out_share": round(ends.get("went_out", 0) / len(rows), 4) if rows else None,
            "void": sum(p.void for p in rows),
            "turns": _spread([p.turns for p in rows]),
            "ticks": _spread([p.ticks for p in rows], 2),
            "chips_spent": _spread([p.chips for p in rows], 2),
            "stock_ran_out_share": round(sum(p.reshuffles > 0 for p in rows) / len(rows), 4) if rows else None,
            "reshuffles": _spread([p.reshuffles for p in rows], 2),
        })
    finals = [s for g in done for s in g.scores]
    margins = []
    for g in done:
        top = sorted(g.scores, reverse=True)
        margins.append(top[0] - top[1] if len(top) > 1 else 0)
    considered = engine.assumptions(spec)
    rests = []
    for cid in considered:
        c = spec.clauses[cid]
        hit = [g.rested_on[cid] for g in plays]
        rests.append({"clause": cid, "kind": "reading" if c.readings else "assumption",
                      "reading": spec.chosen.get(cid), "source": spec.source(cid),
                      "games_share": round(sum(1 for h in hit if h) / len(plays), 4) if plays else None,
                      "per_game": round(statistics.fmean(hit), 2) if plays else None})
    rests.sort(key=lambda x: (-(x["games_share"] or 0), x["clause"]))
    all_levels = [p for g in plays for p in g.levels]
    return {
        "game": spec.game,
        "readings": dict(spec.chosen),
        "readings_not_adopted": {c: r for c, r in spec.chosen.items() if r != spec.clauses[c].adopted},
        "players": n,
        "player": player,
        "games": len(plays),
        "seed": seed,
        "finished": len(done),
        "unfinished": len(plays) - len(done),
        "moves_per_game": _spread([g.moves for g in plays]),
        "levels": levels,
        "final_scores": _spread(finals),
        "winning_margin": _spread(margins),
        "shared_wins": sum(1 for g in done if len(g.winners) > 1),
        "stock": {"levels_where_it_ran_out_share": round(sum(p.reshuffles > 0 for p in all_levels)
                                                         / len(all_levels), 4) if all_levels else None,
                  "reshuffles_per_game": _spread([sum(p.reshuffles for p in g.levels) for g in plays], 2)},
        "rested_on": rests,
    }


def run(spec: Spec, n: int, games: int, seed: int, player: str = "greedy",
        progress: Callable[[int], None] | None = None, max_moves: int = 200_000) -> dict:
    """Play `games` games of `n` players and report on them."""
    if player not in PLAYERS:
        raise ValueError(f"player {player!r}: one of {', '.join(PLAYERS)}")
    plays = []
    for i in range(games):
        plays.append(play_game(spec, n, game_seed(seed, i), player, max_moves=max_moves))
        if progress:
            progress(i + 1)
    return report(spec, n, seed, player, plays)


def _num(x) -> str:
    if x is None:
        return "-"
    return f"{x:g}" if isinstance(x, float) else str(x)


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def format_report(rep: dict) -> str:
    """The report as text for a terminal."""
    out = []
    w = out.append
    w(f"{rep['game']}: {rep['games']} games, {rep['players']} {rep['player']} players, seed {rep['seed']}"
      + (f"; {rep['unfinished']} unfinished (move cap)" if rep["unfinished"] else ""))
    changed = rep["readings_not_adopted"]
    w("readings: " + (", ".join(f"{c}={r}" for c, r in changed.items()) if changed else "the spec's adopted ones"))
    m = rep["moves_per_game"]
    w(f"moves per game: mean {_num(m['mean'])}, median {_num(m['median'])}, max {_num(m['max'])}")
    w("")
    w("level  played  went out  other ends                     turns mean/median/max  "
      "ticks mean/max  chips mean/max  stock ran out")
    for lv in rep["levels"]:
        other = ", ".join(f"{k} {v}" for k, v in lv["ended"].items() if k != "went_out" and v) or "-"
        if lv["void"]:
            other += f" ({lv['void']} void)"
        t, k, c = lv["turns"], lv["ticks"], lv["chips_spent"]
        out_share, ran_out = _pct(lv["went_out_share"]), _pct(lv["stock_ran_out_share"])
        w(f"{lv['level']:>5}  {lv['played']:>6}  {out_share:>8}  "
          f"{other:<29}  {_num(t['mean']):>6} / {_num(t['median']):>5} / {_num(t['max']):<5}  "
          f"{_num(k['mean']):>6} / {_num(k['max']):<4}  {_num(c['mean']):>6} / {_num(c['max']):<4}  "
          f"{ran_out:>6}")
    w("")
    f, mg = rep["final_scores"], rep["winning_margin"]
    w(f"final scores: mean {_num(f['mean'])}, min {_num(f['min'])}, max {_num(f['max'])}")
    w(f"winning margins: mean {_num(mg['mean'])}, median {_num(mg['median'])}, min {_num(mg['min'])}, "
      f"max {_num(mg['max'])}; shared wins {rep['shared_wins']}")
    s = rep["stock"]
    share = s["levels_where_it_ran_out_share"]
    w(f"stock: ran out in {100 * share:.1f}% of levels" if share is not None else "stock: -")
    w(f"       reshuffles per game: mean {_num(s['reshuffles_per_game']['mean'])}, "
      f"max {_num(s['reshuffles_per_game']['max'])}")
    w("")
    w("assumptions and readings: share of games in which a decision rested on each (decisions per game)")
    for a in rep["rested_on"]:
        name = f"{a['clause']}={a['reading']}" if a["kind"] == "reading" else f"{a['clause']} (assumption)"
        w(f"  {name:<44} {100 * a['games_share']:5.1f}%  {a['per_game']:>7g}/game")
    return "\n".join(out)
