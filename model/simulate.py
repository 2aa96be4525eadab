"""Whole games played by computer players, summarised for a rule writer.

`run(spec, players, games, seed)` plays `games` seeded games and returns a report (plain
data, JSON-ready): rounds grouped by the shared counter that picks each round's contract
(a game of levels played together) or by their number, how each ended, how many turns it
took, the units taken by each paid move and what they cost, how often the stock ran out;
the final value of every counter of each player, the winners and the winning margin; and,
for every assumption and reading the game rests on, the share of games in which some
decision rested on it (`kernel.apply_traced`). A game that reaches a question no clause
answers is reported as undecided, with the question. Same arguments, same report: every
game's seed, every player's stream and every shuffle derive from `seed`.
"""
from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from . import kernel, players as agents
from .kernel import Refusal, Undecided
from .spec import Spec

PLAYERS = {"greedy": lambda seed, seat: agents.GreedyPlayer(),
           "random": lambda seed, seat: agents.RandomPlayer(f"simulate:{seed}:{seat}")}
ENDS = ("went_out", "stalled", "nothing_left", "stock_empty")


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed` (independent streams per game)."""
    return random.Random(f"rulings-simulate:{seed}:{index}").randrange(2 ** 31)


@dataclass
class RoundPlay:
    group: int                     # the value of the grouping counter (or the round number)
    how: str                       # went_out, stalled, nothing_left, stock_empty
    void: bool
    turns: int
    paid: dict                     # move -> (units taken, {counter: spent})
    reshuffles: int
    ran_out: bool = False          # the stock was empty at some point (refilled, passed over, or the end)


@dataclass
class GamePlay:
    seed: int
    moves: int
    finished: bool
    rounds: list[RoundPlay] = field(default_factory=list)
    counters: dict = field(default_factory=dict)   # counter of each player -> final values
    winners: tuple[int, ...] = ()
    undecided: str | None = None                    # the question that stopped the game
    rested_on: Counter = field(default_factory=Counter)    # clause -> decisions that rested on it
    score_counter: str = ""                         # the counter scores go into, if a score is kept

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.counters.get(self.score_counter, ()))


def grouping(spec: Spec) -> str:
    """What rounds are grouped by: the shared counter that picks the contract, else round."""
    r = kernel.rules(spec)
    lay = r.lay_move()
    which = lay.f.get("contract") if lay else None
    if which in r.counters and not r.counters[which].each:
        return which
    return "round"


def paid_moves(spec: Spec) -> dict[str, dict]:
    r = kernel.rules(spec)
    return {m.id: {c: int(v) for c, v in (m.f.get("cost") or {}).items()} for m in r.moves.values()
            if m.mechanic == "draw" and any(int(v) for v in (m.f.get("cost") or {}).values())}


def play_game(spec: Spec, n: int, seed: int, player: str = "greedy", trace: bool = True,
              max_moves: int = 200_000) -> GamePlay:
    """One seeded game, recorded round by round (with what its decisions rested on)."""
    r = kernel.rules(spec)
    seats = [PLAYERS[player](seed, i) for i in range(n)]
    by = grouping(spec)
    paid = paid_moves(spec)
    g = GamePlay(seed, 0, False)
    try:
        if trace:
            state, basis = kernel.new_game_traced(spec, n, seed)
        else:
            state, basis = kernel.new_game(spec, n, seed), []
    except Undecided as e:
        g.undecided = e.question
        return g
    if isinstance(state, Refusal):
        raise ValueError(state.why)
    g.rested_on.update(b.clause for b in basis)
    spent: dict = {m: [0, Counter()] for m in paid}
    seen = 0
    emptied = False                # the stock seen empty this round (a `pass` rule leaves it so)
    for _ in range(max_moves):
        if state.over:
            break
        try:
            move = seats[state.current].choose(state)
            if trace:
                nxt, basis = kernel.apply_traced(state, move)
                g.rested_on.update(b.clause for b in basis)
            else:
                nxt = kernel.apply(state, move)
        except Undecided as e:
            g.undecided = e.question
            break
        if isinstance(nxt, Refusal):
            raise AssertionError(f"a {player} player chose a refused move {move!r}: {nxt}")
        g.moves += 1
        if move.id in paid and nxt.results == state.results:
            units = move.arg if isinstance(move.arg, int) else 1      # a paid draw's units
            spent[move.id][0] += units
            for c, v in paid[move.id].items():
                spent[move.id][1][c] += v * units
        if r.stock is not None and len(nxt.results) == seen and not nxt.zone(r.stock.id):
            emptied = True
        for res in nxt.results[seen:]:
            turns = res.turns_finished + (1 if res.how == "went_out" else 0)
            group = dict(res.shared).get(by, res.round) if by != "round" else res.round
            out = emptied or res.reshuffles > 0 or res.how in ("stock_empty", "nothing_left")
            g.rounds.append(RoundPlay(group, res.how or "went_out", res.void, turns,
                                      {m: (u, dict(c)) for m, (u, c) in spent.items()}, res.reshuffles, out))
            spent = {m: [0, Counter()] for m in paid}
            emptied = False
        seen = len(nxt.results)
        state = nxt
    g.finished = state.over
    for c in r.counters.values():
        if c.each:
            g.counters[c.id] = tuple(state.counter(c.id, s) for s in range(n))
    g.score_counter = r.get("scoring.into") or ""
    g.winners = state.winners
    return g


def _spread(xs, digits: int = 1) -> dict:
    if not xs:
        return {"mean": None, "median": None, "min": None, "max": None}
    return {"mean": round(statistics.fmean(xs), digits), "median": statistics.median(xs),
            "min": min(xs), "max": max(xs)}


def assumptions(spec: Spec) -> dict[str, str]:
    """The clauses play rests on that are assumptions or have readings, id -> says."""
    return {cid: c.says for cid, c in spec.clauses.items() if c.assumption or c.readings}


def report(spec: Spec, n: int, seed: int, player: str, plays: list[GamePlay]) -> dict:
    done = [g for g in plays if g.finished]
    r = kernel.rules(spec)
    by = grouping(spec)
    paid = paid_moves(spec)
    groups = sorted({p.group for g in plays for p in g.rounds})
    rounds = []
    for value in groups:
        rows = [p for g in plays for p in g.rounds if p.group == value]
        ends = Counter(p.how for p in rows)
        rounds.append({
            by: value,
            "played": len(rows),
            "ended": {k: ends.get(k, 0) for k in ENDS},
            "went_out_share": round(ends.get("went_out", 0) / len(rows), 4) if rows else None,
            "void": sum(p.void for p in rows),
            "turns": _spread([p.turns for p in rows]),
            "paid": {m: {"units": _spread([p.paid[m][0] for p in rows], 2),
                         "spent": {c: _spread([p.paid[m][1].get(c, 0) for p in rows], 2) for c in cost}}
                     for m, cost in paid.items()},
            "stock_ran_out_share": round(sum(p.ran_out for p in rows) / len(rows), 4) if rows else None,
            "reshuffles": _spread([p.reshuffles for p in rows], 2),
        })
    finals = {c.id: _spread([v for g in done for v in g.counters.get(c.id, ())])
              for c in r.counters.values() if c.each}
    win_by = (r.get("game_end.winner") or {})
    margins = []
    if isinstance(win_by, dict) and "most" in win_by:
        for g in done:
            top = sorted(g.counters.get(win_by["most"], ()), reverse=True)
            margins.append(top[0] - top[1] if len(top) > 1 else 0)
    rests = []
    for cid in assumptions(spec):
        c = spec.clauses[cid]
        hit = [g.rested_on[cid] for g in plays]
        rests.append({"clause": cid, "kind": "reading" if c.readings else "assumption",
                      "reading": spec.chosen.get(cid), "source": spec.source(cid),
                      "games_share": round(sum(1 for h in hit if h) / len(plays), 4) if plays else None,
                      "per_game": round(statistics.fmean(hit), 2) if plays else None})
    rests.sort(key=lambda x: (-(x["games_share"] or 0), x["clause"]))
    all_rounds = [p for g in plays for p in g.rounds]
    undecided = Counter(g.undecided for g in plays if g.undecided)
    return {
        "game": spec.game,
        "readings": dict(spec.chosen),
        "readings_not_adopted": {c: x for c, x in spec.chosen.items() if x != spec.clauses[c].adopted},
        "players": n,
        "player": player,
        "games": len(plays),
        "seed": seed,
        "finished": len(done),
        "unfinished": len(plays) - len(done) - sum(undecided.values()),
        "undecided": dict(undecided),
        "moves_per_game": _spread([g.moves for g in plays]),
        "rounds_per_game": _spread([len(g.rounds) for g in plays]),
        "grouped_by": by,
        "rounds": rounds,
        "final": finals,
        "winners": dict(sorted(Counter(len(g.winners) for g in done).items())),
        "winning_margin": _spread(margins),
        "shared_wins": sum(1 for g in done if len(g.winners) > 1),
        "stock": {"rounds_where_it_ran_out_share": round(sum(p.ran_out for p in all_rounds)
                                                         / len(all_rounds), 4) if all_rounds else None,
                  "reshuffles_per_game": _spread([sum(p.reshuffles for p in g.rounds) for g in plays], 2)},
        "rested_on": rests,
    }


def play_chunk(job: tuple) -> list[GamePlay]:
    """Games `indices` of a run (a chunk of work for `executor.run`): each game's seed comes
    from the run's seed and the game's index, so who plays a chunk does not matter."""
    from .executor import spec_of

    key, n, seed, indices, player, max_moves = job
    spec = spec_of(key)
    return [play_game(spec, n, game_seed(seed, i), player, max_moves=max_moves) for i in indices]


def play_games(spec: Spec, n: int, games: int, seed: int, player: str = "greedy", max_moves: int = 200_000,
               executor: str = "local", workers: int | None = 1, scheduler: str | None = None,
               progress: Callable[[int], None] | None = None):
    """The `games` games of a run, in order, and where they were played (`executor.Outcome`);
    `progress(k)` after each chunk, k games done so far."""
    from . import executor as ex

    if player not in PLAYERS:
        raise ValueError(f"player {player!r}: one of {', '.join(PLAYERS)}")
    key = ex.spec_key(spec)
    w = workers or ex.default_workers()
    chunks = ex.chunked(range(games), w) if (w > 1 or executor != "local") else [[i] for i in range(games)]
    jobs = [(key, n, seed, tuple(c), player, max_moves) for c in chunks]

    def step(k: int) -> None:            # k chunks done, in any order: about that many games
        progress(min(games, round(k * games / len(jobs))))

    out = ex.run(play_chunk, jobs, executor=executor, workers=workers, scheduler=scheduler,
                 progress=step if progress else None)
    return [g for chunk in out.results for g in chunk], out


def run(spec: Spec, n: int, games: int, seed: int, player: str = "greedy",
        progress: Callable[[int], None] | None = None, max_moves: int = 200_000,
        executor: str = "local", workers: int | None = 1, scheduler: str | None = None) -> dict:
    """Play `games` games of `n` players and report on them (the same report wherever and
    on how many workers they are played)."""
    plays, out = play_games(spec, n, games, seed, player, max_moves, executor, workers, scheduler, progress)
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
    extra = []
    if rep["unfinished"]:
        extra.append(f"{rep['unfinished']} unfinished (move cap)")
    for q, k in rep["undecided"].items():
        extra.append(f"{k} undecided: {q}")
    w(f"{rep['game']}: {rep['games']} games, {rep['players']} {rep['player']} players, seed {rep['seed']}"
      + ("; " + "; ".join(extra) if extra else ""))
    changed = rep["readings_not_adopted"]
    w("readings: " + (", ".join(f"{c}={x}" for c, x in changed.items()) if changed else "the spec's adopted ones"))
    m, rp = rep["moves_per_game"], rep["rounds_per_game"]
    w(f"moves per game: mean {_num(m['mean'])}, median {_num(m['median'])}, max {_num(m['max'])}; "
      f"rounds per game: mean {_num(rp['mean'])}, max {_num(rp['max'])}")
    w("")
    by = rep["grouped_by"]
    paid_cols = []
    for row in rep["rounds"][:1]:
        for mv, info in row["paid"].items():
            paid_cols.append((mv, None))
            paid_cols += [(mv, c) for c in info["spent"]]
    head = f"{by:>5}  played  went out  other ends                     turns mean/median/max  "
    head += "".join(f"{(mv if c is None else c) + ' mean/max':<16}" for mv, c in paid_cols)
    w(head + "stock ran out")
    for lv in rep["rounds"]:
        other = ", ".join(f"{k} {v}" for k, v in lv["ended"].items() if k != "went_out" and v) or "-"
        if lv["void"]:
            other += f" ({lv['void']} void)"
        t = lv["turns"]
        line = (f"{lv[by]:>5}  {lv['played']:>6}  {_pct(lv['went_out_share']):>8}  "
                f"{other:<29}  {_num(t['mean']):>6} / {_num(t['median']):>5} / {_num(t['max']):<5}  ")
        for mv, c in paid_cols:
            s = lv["paid"][mv]["units"] if c is None else lv["paid"][mv]["spent"][c]
            line += f"{_num(s['mean']):>6} / {_num(s['max']):<7}"
        w(line + f"{_pct(lv['stock_ran_out_share']):>6}")
    w("")
    for cid, f in rep["final"].items():
        w(f"final {cid}: mean {_num(f['mean'])}, min {_num(f['min'])}, max {_num(f['max'])}")
    mg = rep["winning_margin"]
    if mg["mean"] is not None:
        w(f"winning margins: mean {_num(mg['mean'])}, median {_num(mg['median'])}, min {_num(mg['min'])}, "
          f"max {_num(mg['max'])}; shared wins {rep['shared_wins']}")
    else:
        w(f"winners per game: {', '.join(f'{k}: {v} game(s)' for k, v in rep['winners'].items()) or '-'}; "
          f"shared wins {rep['shared_wins']}")
    s = rep["stock"]
    share = s["rounds_where_it_ran_out_share"]
    w(f"stock: ran out in {100 * share:.1f}% of rounds" if share is not None else "stock: -")
    w(f"       reshuffles per game: mean {_num(s['reshuffles_per_game']['mean'])}, "
      f"max {_num(s['reshuffles_per_game']['max'])}")
    w("")
    w("assumptions and readings: share of games in which a decision rested on each (decisions per game)")
    for a in rep["rested_on"]:
        name = f"{a['clause']}={a['reading']}" if a["kind"] == "reading" else f"{a['clause']} (assumption)"
        w(f"  {name:<44} {100 * (a['games_share'] or 0):5.1f}%  {a['per_game'] or 0:>7g}/game")
    return "\n".join(out)
