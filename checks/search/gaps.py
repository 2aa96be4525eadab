"""What: is there a reachable situation that no rulebook clause decides?

How: explicit-state exploration with the kernel. Seeded games of the smallest tables are
played move by move (greedy and random players); every move is applied with
`kernel.apply_traced`, which says which assumption clauses the outcome rested on.

- Where the kernel raises `Undecided`, no clause at all decides what happens: a gap
  nobody has settled (kind `gap`, unresolved), with the trace from the deal that reaches it.
- A question the spec's structure asks and no clause answers (`Rules.unanswered`) that
  the exploration did not reach is a gap too, unresolved, saying the search did not reach
  a situation that asks it within its bound.
- The first time a named assumption decides something, the rulebook is silent there and
  the spec has decided: a finding of its own kind (`assumed`), resolved by that
  assumption, with its trace.
- A state where play cannot go on (no legal move) is a dead end: unresolved.

Exploration is bounded (named configurations, a move budget per game); assumptions the
exploration never reached are listed in the note, not claimed absent.
"""
from __future__ import annotations

import re
import time

from rulings import kernel, players as agents
from rulings.kernel.codec import move_to_doc, move_words
from rulings.kernel.vocabulary import question
from rulings.spec import Spec

from ..findings import Finding

CONFIGS = [(2, "greedy"), (2, "random"), (3, "random"), (4, "greedy")]


def _render(spec, state: kernel.State, move) -> str:
    return f"round {state.round}, seat {state.current}: {move_words(spec, move)}"


def _configs(spec: Spec) -> list[tuple[int, str]]:
    """The usual tables (CONFIGS, within the counts the spec allows), and, for every group
    of player counts whose rules differ from all of those (`player_counts.every_rule`: more
    packs for five and up, sides for six), its fewest count, greedy and random."""
    from .player_counts import every_rule

    lo, hi = kernel.rules(spec).players_range()
    out = []
    for n, kind in CONFIGS:
        n = min(max(n, lo), hi)
        if (n, kind) not in out:
            out.append((n, kind))
    counts, _ = every_rule(spec, sorted({n for n, _ in out}))
    for n in counts:
        for kind in ("greedy", "random"):
            if not any(m == n for m, _ in out) or (n not in {m for m, _ in CONFIGS} and (n, kind) not in out):
                out.append((n, kind))
    return sorted(out, key=lambda c: c[0])


def explore(spec, n_players: int, kind: str, seed: int, max_moves: int, seen: dict, dead: list, differs: dict,
            open_: dict):
    """Play one seeded game; record the first move each assumption decided, the first move
    whose outcome another reading of a clause would change, and where no clause decides."""
    agent = agents.GreedyPlayer() if kind == "greedy" else agents.RandomPlayer(seed)
    where = dict(seed=seed, players=n_players, player=kind)
    try:
        state, bases = kernel.new_game_traced(spec, n_players, seed)
    except kernel.Undecided as e:
        open_.setdefault(e.question, dict(where, moves=[], trace=["the deal"], field=e.field, detail=e.detail))
        return 0
    moves, shown = [], []
    for b in bases:
        seen.setdefault(b.clause, dict(where, moves=[], trace=[], decided=b.decided, part=b.part))
    for _ in range(max_moves):
        if state.over:
            return len(moves)
        move = None
        try:
            options = kernel.legal_moves(state)
            if not options:
                dead.append(dict(where, moves=list(moves), trace=list(shown),
                                 why="no legal move in a state that is not over"))
                return len(moves)
            move = agent.choose(state)
            result, bases = kernel.apply_traced(state, move)
        except kernel.Undecided as e:
            trace = list(shown) + ([_render(spec, state, move)] if move is not None else [])
            done = list(moves) + ([move_to_doc(spec, move)] if move is not None else [])
            hit = open_.get(e.question)
            if hit is None or len(hit["moves"]) > len(done):
                open_[e.question] = dict(where, moves=done, trace=trace, field=e.field, detail=e.detail)
            return len(moves)
        moves.append(move_to_doc(spec, move))
        shown.append(_render(spec, state, move))
        for b in bases:
            found = dict(where, moves=list(moves), trace=list(shown), decided=b.decided, part=b.part,
                         reading=b.reading)
            if b.clause in spec.clauses and spec.clauses[b.clause].assumption:
                if b.clause not in seen or len(seen[b.clause]["moves"]) > len(moves):
                    seen[b.clause] = found
            for other, outcome in b.otherwise.items():
                key = (b.clause, other)
                if key not in differs or len(differs[key]["moves"]) > len(moves):
                    differs[key] = dict(found, otherwise=outcome,
                                        outcome="refused" if isinstance(result, kernel.Refusal) else "legal")
        if isinstance(result, kernel.Refusal):   # players choose legal moves; a refusal is a bug
            dead.append(dict(where, moves=list(moves), trace=list(shown),
                             why=f"a legal move was refused: {result.why}"))
            return len(moves)
        state = result
    return len(moves)


_explored: dict = {}


def explore_one(job: tuple) -> tuple:
    """One seeded game of an exploration (a chunk for `rulings.executor`): what it found,
    as (seen, dead, differs, open, moves), merged by `exploration` in the games' order."""
    from rulings.executor import spec_of

    key, n_players, kind, seed, max_moves = job
    seen: dict = {}
    dead: list = []
    differs: dict = {}
    open_: dict = {}
    moves = explore(spec_of(key), n_players, kind, seed, max_moves, seen, dead, differs, open_)
    return seen, dead, differs, open_, moves


def _shorter(into: dict, found: dict) -> None:
    """Keep, for every key, the witness with the fewest moves (the earlier one on a tie)."""
    for k, w in found.items():
        if k not in into or len(into[k]["moves"]) > len(w["moves"]):
            into[k] = w


def exploration(spec: Spec, games_per_config: int = 2, max_moves: int = 3000, progress=None,
                workers: int | None = 1, executor: str = "local", scheduler: str | None = None) -> dict:
    """Seeded play of the named configurations, recording what rested on assumptions,
    where readings would have changed an outcome, and where no clause decides (cached
    per spec and bound). The games may be played on several workers (`rulings.executor`):
    each is seeded, and their findings are merged in the games' order, so the result is
    the same wherever they are played."""
    from rulings import executor as ex

    key = (spec.name, tuple(sorted(spec.chosen.items())), games_per_config, max_moves)
    if key in _explored and _explored[key]["spec"] is spec:
        return _explored[key]
    t0 = time.perf_counter()
    configs = _configs(spec)
    games = [(n_players, kind, seed) for n_players, kind in configs for seed in range(games_per_config)]
    skey = ex.spec_key(spec)
    jobs = [(skey, n, kind, seed, max_moves) for n, kind, seed in games]

    def step(k: int) -> None:
        n, kind, seed = games[k - 1] if k <= len(games) else games[-1]
        progress(f"exploring: {k} of {len(games)} games played ({n} players, {kind} play)")

    out = ex.run(explore_one, jobs, executor=executor, workers=workers, scheduler=scheduler,
                 progress=step if progress else None)
    seen: dict = {}
    dead: list = []
    differs: dict = {}
    open_: dict = {}
    total = 0
    for g_seen, g_dead, g_differs, g_open, moves in out.results:
        _shorter(seen, g_seen)
        dead += g_dead
        _shorter(differs, g_differs)
        _shorter(open_, g_open)
        total += moves
    method = (f"explicit-state exploration with the kernel: {games_per_config} seeded game(s) for each of "
              + ", ".join(f"{n} players {k}" for n, k in configs) + f", at most {max_moves} moves each "
              f"({total} moves in all)")
    _explored[key] = res = dict(spec=spec, seen=seen, dead=dead, differs=differs, open=open_, total=total,
                                method=method, seconds=time.perf_counter() - t0, where=out.where)
    return res


def input_rules(spec: Spec, cid: str) -> tuple[list[str], list[str]]:
    """For an assumption that only gives facts of the table (`inputs`: a dealer's exact
    pick, say), the clauses citing rulebook lines whose rules read those facts, and their
    lines: they decide what follows, so the rulebook is not silent there. ([], []) for any
    other assumption."""
    formal = spec.formal(cid)
    if not formal or set(formal) != {"inputs"}:
        return [], []
    names = set(formal["inputs"])
    rules = [other for other, c in spec.clauses.items() if other != cid and c.source and
             names & set(re.findall(r"[A-Za-z_]\w*", repr(spec.formal(other))))]
    return rules, list(dict.fromkeys(s for r in rules for s in spec.clauses[r].source))


def _replay(w: dict) -> dict:
    return {"seed": w["seed"], "players": w["players"], "moves": w["moves"]}


def gap_findings(spec: Spec, games_per_config: int = 2, max_moves: int = 3000, progress=None, **where):
    """The gaps and assumptions exploration meets (`where`: workers, executor, scheduler, as
    `exploration` takes them), and a note on what it did not reach."""
    r = kernel.rules(spec)
    statics = r.unanswered()
    try:
        r.players_range()
        r.deck(r.players_range()[0])
    except kernel.Undecided as e:
        out = [Finding(id=f"gap:{q}", kind="gap", clauses=[], sources=[], question=question(q),
                       verdict="no clause of the spec decides it, so no game can be set up", resolved=False,
                       resolution="add a rule, a reading or a named assumption that decides it",
                       witness={"unanswered": q}, method="reading the spec's kernel fields")
               for q in statics]
        return out, f"the spec cannot be played ({e.question}); nothing was explored"
    ex = exploration(spec, games_per_config, max_moves, progress, **where)
    seen, dead, total, seconds, method = ex["seen"], ex["dead"], ex["total"], ex["seconds"], ex["method"]
    out = []
    for q, w in sorted(ex["open"].items(), key=lambda kv: len(kv[1]["moves"])):
        where = "the deal" if not w["moves"] else f"move {len(w['moves'])}"
        out.append(Finding(
            id=f"gap:{w['field'] or q}", kind="gap", clauses=[], sources=[],
            question=q, verdict=f"no clause decides it: reached at {where} of a seeded game"
                                + (f" ({w['detail']})" if w.get("detail") else ""),
            resolved=False, resolution="no rule, reading or named assumption of the spec decides it",
            witness={"seed": w["seed"], "players": w["players"], "player": w["player"], "trace": w["trace"],
                     "replay": _replay(w), "field": w["field"]},
            method=method))
    reached = {w["field"] for w in ex["open"].values()} | set(ex["open"])
    for q in statics:
        if q in reached:
            continue
        out.append(Finding(
            id=f"gap:{q}", kind="gap", clauses=[], sources=[], question=question(q),
            verdict="no clause of the spec decides it; the exploration did not reach a situation that asks it",
            resolved=False, resolution="add a rule, a reading or a named assumption that decides it",
            witness={"unanswered": q}, method=f"reading the spec's kernel fields; {method}"))
    for cid, w in sorted(seen.items(), key=lambda kv: len(kv[1]["moves"])):
        c = spec.clauses[cid]
        where = "the deal" if w["part"] == "deal" else f"move {len(w['moves'])}"
        rules, lines = input_rules(spec, cid)
        if rules:       # not silent: cited clauses decide what follows from the table's fact
            verdict = (f"not a silence of the rulebook: {cid} only gives a fact of the table that no rule of play "
                       f"decides ({', '.join(spec.clauses[cid].formal['inputs'])}: taken as its default), and "
                       f"{', '.join(rules)}, citing {', '.join(lines)}, decides{' ' + w['decided'] if w['decided'] else ''} "
                       f"from it; reached at {where} of a seeded game")
        else:
            verdict = (f"assumed: the rulebook is silent on {w['decided']}: the kernel's trace names the named "
                       f"assumption {cid} (it cites no line as deciding it, and reads no fact a cited rule "
                       f"decides from) as what decided it; reached at {where} of a seeded game")
        out.append(Finding(
            id=f"assumed:{cid}", kind="assumed", clauses=[cid] + rules, sources=list(c.source) or lines,
            question=f"does any rulebook clause decide {w['decided']}?",
            verdict=verdict,
            resolved=True, resolution=f"the spec's named assumption {cid} decides it: {c.says}",
            witness={"seed": w["seed"], "players": w["players"], "player": w["player"],
                     "trace": w["trace"], "replay": _replay(w)},
            method=method, seconds=seconds / max(1, len(seen))))
    for i, d in enumerate(dead):
        out.append(Finding(
            id=f"gap:dead-end:{i + 1}", kind="gap", clauses=[], sources=[],
            question="can play always go on until the game ends?",
            verdict=f"no: {d['why']}", resolved=False,
            resolution="no clause or assumption decides what happens here",
            witness={"seed": d["seed"], "players": d["players"], "player": d["player"], "trace": d["trace"],
                     "replay": _replay(d)},
            method=method))
    never = sorted(cid for cid, c in spec.clauses.items() if c.assumption and cid not in seen)
    note = f"{total} moves explored"
    if never:
        note += "; assumptions not reached by this exploration: " + ", ".join(never)
    return out, note


def replay(spec, data: dict):
    """Replay a gap's trace from the deal; the final state and the bases of the last move."""
    from rulings.kernel.codec import move_from_doc

    state = kernel.new_game(spec, data["players"], data["seed"])
    bases = []
    for m in data["moves"]:
        state, bases = kernel.apply_traced(state, move_from_doc(spec, m))
        if isinstance(state, kernel.Refusal):
            raise AssertionError(f"the trace does not replay: {state.why}")
    return state, bases
