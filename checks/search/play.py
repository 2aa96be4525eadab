"""How: two turn rule sets told apart by differential play in the kernel.

Seeded games are played under one spec (the spec in force) by the players of
`rulings.players`: first at the player counts where the two specs' rules differ, fewest
first, then at the fewest players the spec allows and the next two (`player_counts`),
each game played when it is first compared. At the deal and at every state reached, the
same state is judged under the other spec too: the moves each spec's kernel lists as
legal, and each move's outcome (refused, legal with the same next state, legal with
another next state, undecided). The first state where a move's outcome differs is a
witness: the seed, the players and the moves from the deal, which `rulings judge`
replays (as a scenario of the state before the move) under either reading.

Shrinking: games are searched fewest players first (of the counts where the rules
differ), and among the games searched the
witness with the shortest history is kept; then the situation before the differing move
is shrunk by `shrink_play` (fewer players, cards, history, a smaller move) while the two
specs still judge the move otherwise, and kept beside the replay from the deal as a
scenario `rulings judge` replays. What was played is the bound: a search that finds
nothing says "not told apart within" these games and moves, never more.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from rulings import kernel, players as agents
from rulings.kernel import Refusal, codec
from rulings.kernel.codec import move_to_doc, move_words

from . import shrink_play, state_words
from .shrink_play import words

CONFIGS = [(0, "greedy"), (0, "random"), (1, "random"), (2, "greedy")]   # players above the fewest, player


@dataclass
class Game:
    """One seeded game played under spec `a`: the states, the moves, the legal moves."""

    players: int
    player: str
    seed: int
    deal: object                    # the deal's state, or ("undecided", question)
    states: list = field(default_factory=list)     # the state before each move
    moves: list = field(default_factory=list)
    legal: list = field(default_factory=list)      # spec a's legal moves in each state
    ended: bool = False             # the game ended (or could not go on) within the bound


@dataclass
class PlaySearch:
    found: dict | None
    games: int                      # games compared
    states: int                     # states compared
    seconds: float
    budget_hit: bool
    matters: int = 0                # games in which the specs' verdicts differ somewhere
    bound: str = ""
    counts: object = None           # the player counts planned (`player_counts.CountPlan`)
    searched: list = field(default_factory=list)   # the counts of which a game was compared, in order
    max_states: int | None = None   # the budget: states compared at most (None: every state of every game)

    def how(self) -> str:
        stop = (f"; the budget of {self.max_states} states stopped it before every game was compared"
                if self.budget_hit else "")
        return (f"differential play in the kernel: {self.bound}; at the deal and in each of {self.states} states "
                f"reached, every legal move and the move played judged under both specs{stop}")


def _players(spec) -> tuple[int, int]:
    return kernel.rules(spec).players_range()


def play_games(spec, seeds: int = 2, max_moves: int = 200, configs=CONFIGS, at=None) -> list[Game]:
    """Seeded games under `spec`, cached on the spec (the same bound gives the same games):
    for `configs` (players above the fewest), or for `at`, (players, player) in order."""
    return [game(spec, n, kind, seed, max_moves) for n, kind in (at if at is not None else _configs(spec, configs))
            for seed in range(seeds)]


def game(spec, n: int, kind: str, seed: int, max_moves: int) -> Game:
    """One seeded game under `spec`, played once and kept on the spec."""
    from rulings.spec import derived

    cache = derived(spec, "search_play.games", lambda s: {})
    key = (n, kind, seed, max_moves)
    if key not in cache:
        cache[key] = _play(spec, n, kind, seed, max_moves)
    return cache[key]


def _configs(spec, configs) -> list[tuple[int, str]]:
    lo, hi = _players(spec)
    out = []
    for extra, kind in configs:
        n = min(lo + extra, hi)
        if (n, kind) not in out:
            out.append((n, kind))
    return sorted(out, key=lambda c: c[0])


def _play(spec, n: int, kind: str, seed: int, max_moves: int) -> Game:
    agent = agents.GreedyPlayer() if kind == "greedy" else agents.RandomPlayer(seed)
    try:
        state = kernel.new_game(spec, n, seed)
    except kernel.Undecided as e:
        return Game(n, kind, seed, ("undecided", e.question), ended=True)
    g = Game(n, kind, seed, state)
    if isinstance(state, Refusal):
        g.ended = True
        return g
    for _ in range(max_moves):
        if state.over:
            g.ended = True
            return g
        try:
            legal = kernel.legal_moves(state)
            if not legal:
                g.ended = True
                return g
            move = agent.choose(state)
            nxt = kernel.apply(state, move)
        except kernel.Undecided:
            g.ended = True
            return g
        g.states.append(state)
        g.moves.append(move)
        g.legal.append(frozenset(legal))
        if isinstance(nxt, Refusal):
            g.ended = True
            return g
        state = nxt
    return g


# ---- judging one state under the other spec ------------------------------------------------

def _layout(spec) -> tuple:
    r = kernel.rules(spec)
    return (tuple((z.id, z.kind, z.each) for z in r.zones.values()),
            tuple((c.id, c.each) for c in r.counters.values()), tuple(r.inputs))


def outcome(state, move):
    """What a move does: ("refused",), ("legal", next state), ("undecided", question)."""
    try:
        out = kernel.apply(state, move)
    except kernel.Undecided as e:
        return ("undecided", e.question)
    except kernel.KernelError as e:
        return ("error", str(e))
    if isinstance(out, Refusal):
        return ("refused", tuple(c for c in out.clauses if c))
    return ("legal", out)


def _same(x, y) -> bool:
    if x[0] != y[0]:
        return False
    return x[0] == "refused" or x == y


def _legal(state):
    try:
        return frozenset(kernel.legal_moves(state))
    except kernel.Undecided as e:
        return ("undecided", e.question)


class OverBudget(Exception):
    """The budget of states compared is spent."""


def first_difference(g: Game, spec_b, max_states: int | None, counter: list) -> dict | None:
    """The first point of game `g` where spec b judges otherwise than spec a did."""
    a_spec = g.states[0].spec if g.states else None
    where = dict(seed=g.seed, players=g.players, player=g.player)
    if isinstance(g.deal, tuple):
        return None
    try:
        deal_b = kernel.new_game(spec_b, g.players, g.seed)
    except kernel.Undecided as e:
        deal_b = ("undecided", e.question)
    if isinstance(deal_b, tuple) or isinstance(deal_b, Refusal) != isinstance(g.deal, Refusal) or \
            (not isinstance(deal_b, Refusal) and deal_b != g.deal):
        a_word = "refused" if isinstance(g.deal, Refusal) else "the deal"
        b_word = words(deal_b) if isinstance(deal_b, tuple) else ("refused" if isinstance(deal_b, Refusal)
                                                                   else "another deal")
        apart = state_words.said(g.deal, deal_b, state_words.A, state_words.B) \
            if not isinstance(deal_b, (tuple, Refusal)) and not isinstance(g.deal, Refusal) else ""
        return dict(where, at=0, moves=[], trace=[], move=None, a=a_word, b=b_word, scenario=None,
                    what="the deal", follows=apart)
    spec_a = a_spec or g.deal.spec
    if _layout(spec_a) != _layout(spec_b):
        return None
    for i, (state, move, legal_a) in enumerate(zip(g.states, g.moves, g.legal)):
        if max_states is not None and counter[0] >= max_states:
            raise OverBudget
        counter[0] += 1
        sb = state.replace(spec=spec_b)
        candidates = [move]
        legal_b = _legal(sb)
        if legal_b != legal_a:
            if isinstance(legal_b, tuple):
                candidates = [move]
            else:
                extra = sorted(legal_a ^ legal_b, key=lambda m: (m.id, repr(m.arg)))
                candidates = [move] + extra
        for m in candidates:
            oa, ob = outcome(state, m), outcome(sb, m)
            if not _same(oa, ob):
                moves = [move_to_doc(spec_a, x) for x in g.moves[:i]] + [move_to_doc(spec_a, m)]
                trace = [f"round {s.round}, seat {s.current}: {move_words(spec_a, x)}"
                         for s, x in zip(g.states[:i], g.moves[:i])] + \
                        [f"round {state.round}, seat {state.current}: {move_words(spec_a, m)}"]
                wa, wb = words(oa, state), words(ob, state)
                return dict(where, at=i + 1, moves=moves, trace=trace, move=move_to_doc(spec_a, m),
                            a=wa, b=wb, scenario=codec.state_to_doc(state, [m]), follows=shrink_play.follows(oa, ob, wa, wb),
                            what=move_words(spec_a, m))
    return None


def play_difference(spec_a, spec_b, seeds: int = 2, max_moves: int = 200, count_all: bool = False,
                    max_states: int | None = None, shrink_tries: int = shrink_play.TRIES) -> PlaySearch:
    """The first difference in the games played under spec a, fewest players (of the
    counts at which the specs' rules differ, `player_counts.plan`) then the shortest
    history; with `count_all`, every game is compared (to say how often). The budget is
    in units of work: `seeds` games of at most `max_moves` moves at each count, and at most
    `max_states` states compared (None: all), so a search gives the same answer on every
    run, however busy the machine."""
    from .player_counts import plan

    usual = _configs(spec_a, CONFIGS)
    counts = plan(spec_a, spec_b, sorted({n for n, _ in usual}))
    at = counts.configs(usual)
    t0 = time.perf_counter()
    playing = 0.0       # each game is played when it is first compared, once per spec and bound
    counter = [0]
    best = None
    done = matters = 0
    budget_hit = False
    searched: list[int] = []
    for n_players, kind in at:
        if best is not None and not count_all and n_players != best["players"]:
            break       # the counts where the rules differ come first, fewest first
        t = time.perf_counter()
        games = [game(spec_a, n_players, kind, seed, max_moves) for seed in range(seeds)]
        playing += time.perf_counter() - t
        try:
            for g in games:
                hit = first_difference(g, spec_b, max_states, counter)
                done += 1
                if n_players not in searched:
                    searched.append(n_players)
                if hit is not None:
                    matters += 1
                    if best is None or (hit["players"], hit["at"]) < (best["players"], best["at"]):
                        best = hit
        except OverBudget:
            budget_hit = True
            break
    if best is not None and best.get("scenario"):
        shrunk = shrink_play.shrink(spec_a, spec_b, best["scenario"], tries=shrink_tries)
        if shrunk is not None:
            best["situation"], best["shrunk"] = shrunk.doc, shrunk
    bound = (f"{seeds} seeded game(s) for each of " + ", ".join(f"{p} players {k}" for p, k in at)
             + f", the first {max_moves} moves of each ({done} of {len(at) * seeds} games compared)")
    if counts.extra() or counts.unplayed:
        bound += f" ({counts.words(searched)})"
    return PlaySearch(best, done, counter[0], time.perf_counter() - t0 - playing, budget_hit, matters, bound, counts,
                      searched, max_states)


def replay(spec, data: dict):
    """Replay a witness from the deal under `spec`: the outcome of its last move (or the
    deal, when it has no move), as words."""
    from rulings.kernel.codec import move_from_doc

    try:
        state = kernel.new_game(spec, data["players"], data["seed"])
    except kernel.Undecided as e:
        return f"undecided ({e.question})"
    if not data["moves"]:
        return ("deal", state)
    for m in data["moves"][:-1]:
        state = kernel.apply(state, move_from_doc(spec, m))
        if isinstance(state, Refusal):
            raise AssertionError(f"the witness does not replay: {state.why}")
    o = outcome(state, move_from_doc(spec, data["moves"][-1]))
    return o if o[0] != "refused" else ("refused",)


__all__ = ["Game", "PlaySearch", "play_games", "first_difference", "play_difference", "replay", "outcome", "words"]
