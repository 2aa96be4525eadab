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

The games are streamed: `play_games` hands them out in chunks as workers take them and
yields them in order, and a `Summary` takes them one at a time, keeping a histogram per
figure (the exact mean, median and extremes come from it), so a run holds the same
memory whatever its number of games (at most `MAX_GAMES`).
"""
from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from . import kernel, players as agents
from .kernel import Refusal, Undecided
from .spec import Spec

PLAYERS = {"greedy": lambda seed, seat: agents.GreedyPlayer(),
           "random": lambda seed, seat: agents.RandomPlayer(f"simulate:{seed}:{seat}")}
# how a round ends; game_ended: the game ended during it (a `game_end: at_once` condition met)
ENDS = ("went_out", "stalled", "nothing_left", "stock_empty", "game_ended")
MAX_GAMES = 1_000_000        # games in one run (more: several runs, other seeds)
CHUNK_GAMES = 25             # games a worker plays per chunk, at most


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
    stopped: str | None = None                      # "repeated" (a position came back) or "move cap"
    trace: dict | None = None                       # a scenario to replay the moves before the stop

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
    positions: Counter = Counter()  # positions met this round (a greedy player's choices are fixed:
    again = 2 if player == "greedy" else REPEATS     # one that comes back comes back for ever)
    recent: deque = deque(maxlen=TRACE_MOVES)
    for _ in range(max_moves):
        if state.over:
            break
        key = position(state)
        positions[key] += 1
        if positions[key] >= again:
            g.stopped, g.trace = "repeated", _trace(recent)
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
        recent.append((state, move))
        if nxt.round != state.round:
            positions.clear()
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
    if state.over and g.moves and not _round_closed(state):
        # the game ended during a round (no round end recorded): that round was played too
        group = state.counter(by) if by != "round" else state.round
        g.rounds.append(RoundPlay(group, "game_ended", False, state.turns_finished + 1,
                                  {m: (u, dict(c)) for m, (u, c) in spent.items()}, state.reshuffles,
                                  emptied or state.reshuffles > 0))
    g.finished = state.over
    if not state.over and not g.undecided and not g.stopped:
        g.stopped, g.trace = "move cap", _trace(recent)
    for c in r.counters.values():
        if c.each:
            g.counters[c.id] = tuple(state.counter(c.id, s) for s in range(n))
    g.score_counter = r.get("scoring.into") or ""
    g.winners = state.winners
    return g


KEPT_STOPS = 3       # stopped games a report shows, with their traces
REPEATS = 4          # a random player's game is stopped when a position comes back this often
TRACE_MOVES = 40     # the moves before a stop kept to replay


def position(state) -> tuple:
    """What a position is, apart from how many turns led to it: the round, dealer, seat to
    play, phase, every zone and counter, the direction of play and effects pending."""
    return (state.round, state.dealer, state.current, state.phase, state.zones, state.counters, state.direction,
            state.pending, state.finished, state.reshuffles, state.lays_this_turn)


def _trace(recent) -> dict | None:
    """The last moves before a stop as a scenario: the position before them, and the moves
    (`rulings judge` replays them one by one)."""
    if not recent:
        return None
    from .kernel import codec

    first = recent[0][0]
    return codec.state_to_doc(first, [m for _, m in recent])


def _round_closed(state) -> bool:
    """Whether the last round of a game that is over was recorded as a round end."""
    return bool(state.results) and state.results[-1].round == state.round


class Spread:
    """Whole numbers seen, as a histogram: their mean, median, least and greatest exactly,
    in memory that grows with the distinct values, not with how many were seen."""

    __slots__ = ("counts", "n", "total")

    def __init__(self):
        self.counts: Counter = Counter()
        self.n = 0
        self.total = 0

    def add(self, v: int, times: int = 1) -> None:
        self.counts[v] += times
        self.n += times
        self.total += v * times

    def _nth(self, k: int, ordered: list) -> int:
        for v in ordered:
            k -= self.counts[v]
            if k < 0:
                return v
        raise IndexError(k)

    def to_json(self, digits: int = 1) -> dict:
        if not self.n:
            return {"mean": None, "median": None, "min": None, "max": None}
        ordered = sorted(self.counts)
        half = self.n // 2
        median = self._nth(half, ordered) if self.n % 2 else \
            (self._nth(half - 1, ordered) + self._nth(half, ordered)) / 2
        return {"mean": round(self.total / self.n, digits), "median": median, "min": ordered[0],
                "max": ordered[-1]}


def _spread(xs, digits: int = 1) -> dict:
    sp = Spread()
    for x in xs:
        sp.add(x)
    return sp.to_json(digits)


def assumptions(spec: Spec) -> dict[str, str]:
    """The clauses play rests on that are assumptions or have readings, id -> says."""
    return {cid: c.says for cid, c in spec.clauses.items() if c.assumption or c.readings}


class _Group:
    """The rounds of one group value (a level, a round number), summed."""

    def __init__(self, paid: dict):
        self.played = self.void = self.ran_out = 0
        self.ends: Counter = Counter()
        self.turns, self.reshuffles = Spread(), Spread()
        self.units = {m: Spread() for m in paid}
        self.spent = {m: {c: Spread() for c in cost} for m, cost in paid.items()}

    def add(self, p: RoundPlay) -> None:
        self.played += 1
        self.ends[p.how] += 1
        self.void += p.void
        self.turns.add(p.turns)
        for m, spreads in self.spent.items():
            self.units[m].add(p.paid[m][0])
            for c, sp in spreads.items():
                sp.add(p.paid[m][1].get(c, 0))
        self.ran_out += p.ran_out
        self.reshuffles.add(p.reshuffles)


class Summary:
    """What a run's report says, gathered one game at a time (`add`), then written out
    (`report`): a histogram or a count per figure, so its memory does not grow with the
    number of games."""

    def __init__(self, spec: Spec, n: int, seed: int, player: str):
        self.spec, self.n, self.seed, self.player = spec, n, seed, player
        r = kernel.rules(spec)
        self.by, self.paid = grouping(spec), paid_moves(spec)
        self.each = [c.id for c in r.counters.values() if c.each]
        win_by = r.get("game_end.winner") or {}
        self.most = win_by.get("most") if isinstance(win_by, dict) else None
        self.clauses = list(assumptions(spec))
        self.games = self.finished = self.shared_wins = 0
        self.undecided: Counter = Counter()          # in the order the games first met each question
        self.stopped: Counter = Counter()            # why games were stopped: repeated, move cap
        self.stops: list = []                        # the first few, with their seeds and traces
        self.moves, self.rounds_per_game, self.margins = Spread(), Spread(), Spread()
        self.groups: dict = {}
        self.finals = {c: Spread() for c in self.each}
        self.winners: Counter = Counter()
        self.rounds_seen = self.rounds_ran_out = 0
        self.reshuffles_per_game = Spread()
        self.rest_games: Counter = Counter()
        self.rest_hits: Counter = Counter()

    def add(self, g: GamePlay) -> None:
        self.games += 1
        if g.undecided:
            self.undecided[g.undecided] += 1
        if g.stopped:
            self.stopped[g.stopped] += 1
            if len(self.stops) < KEPT_STOPS:
                self.stops.append({"seed": g.seed, "why": g.stopped, "moves": g.moves, "trace": g.trace})
        self.moves.add(g.moves)
        self.rounds_per_game.add(len(g.rounds))
        for p in g.rounds:
            if p.group not in self.groups:
                self.groups[p.group] = _Group(self.paid)
            self.groups[p.group].add(p)
            self.rounds_seen += 1
            self.rounds_ran_out += p.ran_out
        self.reshuffles_per_game.add(sum(p.reshuffles for p in g.rounds))
        for cid in self.clauses:
            hits = g.rested_on[cid]
            self.rest_hits[cid] += hits
            self.rest_games[cid] += 1 if hits else 0
        if not g.finished:
            return
        self.finished += 1
        for c in self.each:
            for v in g.counters.get(c, ()):
                self.finals[c].add(v)
        if self.most is not None:
            top = sorted(g.counters.get(self.most, ()), reverse=True)
            self.margins.add(top[0] - top[1] if len(top) > 1 else 0)
        self.winners[len(g.winners)] += 1
        self.shared_wins += len(g.winners) > 1

    def report(self) -> dict:
        spec, by, games = self.spec, self.by, self.games
        rounds = []
        for value in sorted(self.groups):
            grp = self.groups[value]
            rounds.append({
                by: value,
                "played": grp.played,
                "ended": {k: grp.ends.get(k, 0) for k in ENDS},
                "went_out_share": round(grp.ends.get("went_out", 0) / grp.played, 4),
                "void": grp.void,
                "turns": grp.turns.to_json(),
                "paid": {m: {"units": grp.units[m].to_json(2),
                             "spent": {c: sp.to_json(2) for c, sp in spent.items()}}
                         for m, spent in grp.spent.items()},
                "stock_ran_out_share": round(grp.ran_out / grp.played, 4),
                "reshuffles": grp.reshuffles.to_json(2),
            })
        rests = []
        for cid in self.clauses:
            c = spec.clauses[cid]
            rests.append({"clause": cid, "kind": "reading" if c.readings else "assumption",
                          "reading": spec.chosen.get(cid), "source": spec.source(cid),
                          "games_share": round(self.rest_games[cid] / games, 4) if games else None,
                          "per_game": round(self.rest_hits[cid] / games, 2) if games else None})
        rests.sort(key=lambda x: (-(x["games_share"] or 0), x["clause"]))
        return {
            "game": spec.game,
            "readings": dict(spec.chosen),
            "readings_not_adopted": {c: x for c, x in spec.chosen.items() if x != spec.clauses[c].adopted},
            "players": self.n,
            "player": self.player,
            "games": games,
            "seed": self.seed,
            "finished": self.finished,
            "unfinished": games - self.finished - sum(self.undecided.values()),
            "undecided": dict(self.undecided),
            "stopped": dict(self.stopped),
            "stopped_games": self.stops,
            "moves_per_game": self.moves.to_json(),
            "rounds_per_game": self.rounds_per_game.to_json(),
            "grouped_by": by,
            "rounds": rounds,
            "final": {c: sp.to_json() for c, sp in self.finals.items()},
            "winners": dict(sorted(self.winners.items())),
            "winning_margin": self.margins.to_json(),
            "shared_wins": self.shared_wins,
            "stock": {"rounds_where_it_ran_out_share": round(self.rounds_ran_out / self.rounds_seen, 4)
                      if self.rounds_seen else None,
                      "reshuffles_per_game": self.reshuffles_per_game.to_json(2)},
            "rested_on": rests,
        }


def report(spec: Spec, n: int, seed: int, player: str, plays: Iterable[GamePlay]) -> dict:
    """The report on these games (a list, or games streamed from `play_games`)."""
    summary = Summary(spec, n, seed, player)
    for g in plays:
        summary.add(g)
    return summary.report()


def play_chunk(job: tuple) -> list[GamePlay]:
    """Games `indices` of a run (a chunk of work for `executor.run`): each game's seed comes
    from the run's seed and the game's index, so who plays a chunk does not matter."""
    from .executor import spec_of

    key, n, seed, indices, player, max_moves = job
    spec = spec_of(key)
    return [play_game(spec, n, game_seed(seed, i), player, max_moves=max_moves) for i in indices]


class RunError(ValueError):
    """A run that cannot be asked for (too many games, an unknown player)."""


def play_games(spec: Spec, n: int, games: int, seed: int, player: str = "greedy", max_moves: int = 200_000,
               executor: str = "local", workers: int | None = 1, scheduler: str | None = None,
               progress: Callable[[int], None] | None = None):
    """(games, outcome): the `games` games of a run, yielded in order as they are played
    (a generator: close it to stop the workers early), and where they are played
    (`executor.Outcome`, filled in as they go); `progress(k)` after each game, k so far."""
    from . import executor as ex

    if player not in PLAYERS:
        raise RunError(f"player {player!r}: one of {', '.join(PLAYERS)}")
    if not 1 <= games <= MAX_GAMES:
        raise RunError(f"--games {games}: from 1 to {MAX_GAMES:,} games in a run (for more, run again "
                       "with other seeds)")
    key = ex.spec_key(spec)
    w = workers or ex.default_workers()
    parallel = w > 1 or executor != "local"
    jobs = ((key, n, seed, part, player, max_moves)
            for part in ex.ranges(games, w, CHUNK_GAMES if parallel else 1))
    outcome = ex.Outcome([], "")
    chunks = ex.stream(play_chunk, jobs, executor=executor, workers=workers, scheduler=scheduler, outcome=outcome)
    return _games(chunks, progress), outcome


def _games(chunks: Iterator, progress) -> Iterator[GamePlay]:
    done = 0
    try:
        for chunk in chunks:
            for g in chunk:
                done += 1
                if progress:
                    progress(done)
                yield g
    finally:
        chunks.close()


def run(spec: Spec, n: int, games: int, seed: int, player: str = "greedy",
        progress: Callable[[int], None] | None = None, max_moves: int = 200_000,
        executor: str = "local", workers: int | None = 1, scheduler: str | None = None) -> dict:
    """Play `games` games of `n` players and report on them (the same report wherever and
    on how many workers they are played)."""
    plays, _ = play_games(spec, n, games, seed, player, max_moves, executor, workers, scheduler, progress)
    try:
        return report(spec, n, seed, player, plays)
    finally:
        plays.close()


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
    stops = rep.get("stopped", {})
    if stops.get("repeated"):
        extra.append(f"{stops['repeated']} stopped: a position came back without progress")
    if stops.get("move cap"):
        extra.append(f"{stops['move cap']} stopped at the move cap")
    for q, k in rep["undecided"].items():
        extra.append(f"{k} undecided: {q}")
    w(f"{rep['game']}: {rep['games']} games, {rep['players']} {rep['player']} players, seed {rep['seed']}"
      + ("; " + "; ".join(extra) if extra else ""))
    for s in rep.get("stopped_games", []):
        why = "a position came back without progress" if s["why"] == "repeated" else "the move cap was reached"
        w(f"  game seed {s['seed']}: {why} after {s['moves']} moves (--json gives the moves before it as a "
          "scenario, stopped_games[].trace, that rulings judge replays)")
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
