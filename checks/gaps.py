"""What: is there a reachable situation that no rulebook clause decides?

How: explicit-state exploration with the engine. Seeded games of the smallest tables are
played move by move (greedy and random players); every move is applied with
`engine.apply_traced`, which says which assumption clauses the outcome rested on. The
first time an assumption decides something is a gap in the rulebook, reached by the
trace from the deal that led there (seed, players, moves), which the engine replays. A
state where play cannot go on (no legal move, or the engine cannot decide) is a gap no
clause fills: unresolved.

Exploration is bounded (named configurations, a move budget per game); assumptions the
exploration never reached are listed in the note, not claimed absent.
"""
from __future__ import annotations

import time

from rulings import engine, players as agents
from rulings.spec import load

from .findings import Finding

CONFIGS = [(2, "greedy"), (2, "random"), (3, "random"), (4, "greedy")]


def _render(spec, state: engine.State, move) -> str:
    tok = lambda ts: " ".join(spec.cards.types[t].token for t in ts)  # noqa: E731
    who = f"level {state.level}, seat {state.current}"
    if isinstance(move, engine.Draw):
        return f"{who}: draw " + ("from the stock" if move.kind == "stock" else f"a tick of {move.count}")
    if isinstance(move, engine.Lay):
        return f"{who}: lay {tok(move.cards)}"
    return f"{who}: discard {tok([move.card])}"


def explore(spec, n_players: int, kind: str, seed: int, max_moves: int, seen: dict, dead: list, differs: dict):
    """Play one seeded game; record the first move each assumption decided, and the first
    move whose outcome another reading of a clause would change."""
    agent = agents.GreedyPlayer() if kind == "greedy" else agents.RandomPlayer(seed)
    state, bases = engine.new_game_traced(spec, n_players, seed)
    moves, shown = [], []
    for b in bases:
        seen.setdefault(b.clause, dict(seed=seed, players=n_players, player=kind, moves=[], trace=[],
                                       decided=b.decided, part=b.part))
    for _ in range(max_moves):
        if state.over:
            return len(moves)
        try:
            options = engine.legal_moves(state)
            if not options:
                dead.append(dict(seed=seed, players=n_players, player=kind, moves=list(moves), trace=list(shown),
                                 why="no legal move in a state that is not over"))
                return len(moves)
            move = agent.choose(state)
            result, bases = engine.apply_traced(state, move)
        except engine.EngineError as e:
            dead.append(dict(seed=seed, players=n_players, player=kind, moves=list(moves), trace=list(shown),
                             why=f"the engine cannot decide: {e}"))
            return len(moves)
        moves.append(move.to_json())
        shown.append(_render(spec, state, move))
        for b in bases:
            found = dict(seed=seed, players=n_players, player=kind, moves=list(moves), trace=list(shown),
                         decided=b.decided, part=b.part, reading=b.reading)
            if b.clause in spec.clauses and spec.clauses[b.clause].assumption:
                if b.clause not in seen or len(seen[b.clause]["moves"]) > len(moves):
                    seen[b.clause] = found
            for other, outcome in b.otherwise.items():
                key = (b.clause, other)
                if key not in differs or len(differs[key]["moves"]) > len(moves):
                    differs[key] = dict(found, otherwise=outcome,
                                        outcome="refused" if isinstance(result, engine.Refusal) else "legal")
        if isinstance(result, engine.Refusal):   # players choose legal moves; a refusal is a bug
            dead.append(dict(seed=seed, players=n_players, player=kind, moves=list(moves), trace=list(shown),
                             why=f"a legal move was refused: {result.why}"))
            return len(moves)
        state = result
    return len(moves)


_explored: dict = {}


def exploration(game: str, games_per_config: int = 2, max_moves: int = 3000, progress=None) -> dict:
    """Seeded play of the named configurations, recording what rested on assumptions and
    where readings would have changed an outcome (cached per game and bound)."""
    key = (game, games_per_config, max_moves)
    if key in _explored:
        return _explored[key]
    spec = load(game)
    t0 = time.perf_counter()
    seen: dict = {}
    dead: list = []
    differs: dict = {}
    total = 0
    for n_players, kind in CONFIGS:
        for seed in range(games_per_config):
            if progress:
                progress(f"exploring: {n_players} players, {kind} play, seed {seed}")
            total += explore(spec, n_players, kind, seed, max_moves, seen, dead, differs)
    method = (f"explicit-state exploration with the engine: {games_per_config} seeded game(s) for each of "
              + ", ".join(f"{n} players {k}" for n, k in CONFIGS) + f", at most {max_moves} moves each "
              f"({total} moves in all)")
    _explored[key] = out = dict(spec=spec, seen=seen, dead=dead, differs=differs, total=total, method=method,
                                seconds=time.perf_counter() - t0)
    return out


def gap_findings(game: str, games_per_config: int = 2, max_moves: int = 3000, progress=None):
    spec = load(game)
    try:
        engine.rules(spec)
    except engine.EngineError as e:
        return [], f"no engine plays {game} yet ({e}); the gap check needs one"
    ex = exploration(game, games_per_config, max_moves, progress)
    seen, dead, total, seconds, method = ex["seen"], ex["dead"], ex["total"], ex["seconds"], ex["method"]
    out = []
    for cid, w in sorted(seen.items(), key=lambda kv: len(kv[1]["moves"])):
        c = spec.clauses[cid]
        where = "the deal" if w["part"] == "deal" else f"move {len(w['moves'])}"
        out.append(Finding(
            id=f"gap:{cid}", kind="gap", clauses=[cid], sources=list(c.source),
            question=f"does any rulebook clause decide {w['decided']}?",
            verdict=f"no: the rulebook is silent on {w['decided']}; reached at {where} of a seeded game",
            resolved=True, resolution=f"the spec's named assumption {cid} decides it: {c.says}",
            witness={"seed": w["seed"], "players": w["players"], "player": w["player"],
                     "trace": w["trace"], "replay": {"seed": w["seed"], "players": w["players"], "moves": w["moves"]}},
            method=method, seconds=seconds / max(1, len(seen))))
    for i, d in enumerate(dead):
        out.append(Finding(
            id=f"gap:dead-end:{i + 1}", kind="gap", clauses=[], sources=[],
            question="can play always go on until the game ends?",
            verdict=f"no: {d['why']}", resolved=False,
            resolution="no clause or assumption decides what happens here",
            witness={"seed": d["seed"], "players": d["players"], "player": d["player"], "trace": d["trace"],
                     "replay": {"seed": d["seed"], "players": d["players"], "moves": d["moves"]}},
            method=method))
    never = sorted(cid for cid, c in spec.clauses.items() if c.assumption and cid not in seen)
    note = f"{total} moves explored in {seconds:.1f} s"
    if never:
        note += "; assumptions not reached by this exploration: " + ", ".join(never)
    return out, note


def replay(spec, data: dict):
    """Replay a gap's trace from the deal; the final state and the bases of the last move."""
    state = engine.new_game(spec, data["players"], data["seed"])
    bases = []
    for m in data["moves"]:
        state, bases = engine.apply_traced(state, engine.move_from_json(m))
        if isinstance(state, engine.Refusal):
            raise AssertionError(f"the trace does not replay: {state.why}")
    return state, bases
