"""Recorded games: seeded full games saved move by move, replayed by the tests.

Each transcript (JSON, one file per case) holds the game's setup, every move in the
scenario notation (docs/scenarios.md) with the seat that made it, and after every move a
digest of the whole state: the first 16 hex digits of the SHA-256 of the state written
as a scenario (`rulings.scenario.to_scenario`) in canonical JSON (sorted keys, no
spaces). Replaying runs the same players from the same seed and checks that they choose
the same moves and that the engine reaches the same states; any change in the engine,
the players, the deciders or the spec shows as the first move that differs.

Regenerate after an intended change of behaviour (and read the diff):

    python -m tests.transcripts.record            # rewrite every transcript
    python -m tests.transcripts.record STEM ...   # rewrite only these (a new case, say)
    python -m tests.transcripts.record --check    # replay them, report the first difference
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from rulings import kernel, scenario as sc, simulate as sim
from rulings.kernel import Refusal
from rulings.spec import load

HERE = Path(__file__).resolve().parent
FORMAT = 1

# (file stem, players, player kind, seed, readings other than the adopted ones); the game
# is the stem's first word
CASES = [
    ("tick-2p-greedy-s11", 2, "greedy", 11, {}),
    ("tick-4p-greedy-s2024", 4, "greedy", 2024, {}),
    ("tick-6p-greedy-s5", 6, "greedy", 5, {}),
    ("tick-2p-random-s7", 2, "random", 7, {}),
    ("tick-4p-random-s4", 4, "random", 4, {}),
    ("tick-6p-random-s3", 6, "random", 3, {}),
    ("tick-4p-greedy-s3-other-readings", 4, "greedy", 3,
     {"tick": "top-only", "stock-empty": "level-ends", "go-out-timing": "others-have-played",
      "lay-when-able": "compulsory"}),
    ("level8-2p-greedy-s1", 2, "greedy", 1, {}),
    ("level8-4p-greedy-s8", 4, "greedy", 8, {}),
    ("level8-6p-greedy-s2", 6, "greedy", 2, {}),
    ("level8-3p-greedy-s5-other-readings", 3, "greedy", 5,
     {"reshuffle-when": "when-emptied", "skip-discard": "only-played", "wilds-only": "needs-a-number-card"}),
    ("garbage-2p-greedy-s1", 2, "greedy", 1, {}),
    ("garbage-4p-random-s2", 4, "random", 2, {}),
    ("garbage-3p-greedy-s4-other-readings", 3, "greedy", 4,
     {"hand-won": "last-turns", "wild": "kings", "discard-pile": "face-up-start", "layout": "eight-positions"}),
    ("sequence-numbers-2p-greedy-s3", 2, "greedy", 3, {}),
    ("sequence-numbers-4p-greedy-s4", 4, "greedy", 4, {}),
    ("sequence-numbers-6p-random-s6", 6, "random", 6, {"minus-then-draw": "turn-over"}),
    # Rummikub's offered play is the new table of a Z3 solver built for the position alone
    # (rulings.rearrange, z3melds.for_position): the same table in any process, however busy
    ("rummikub-2p-greedy-s1", 2, "greedy", 1, {}),
    ("rummikub-3p-greedy-s2-other-readings", 3, "greedy", 2,
     {"initial-threshold": "current-30", "joker-swap": "from-rack-or-table", "scoring": "others-table",
      "initial-joker-value": "as-the-tile"}),
    # the games written from the project's own rules texts (spec/rules/)
    ("crazy-eights-4p-greedy-s1", 4, "greedy", 1, {}),
    ("crazy-eights-3p-greedy-s2-actions", 3, "greedy", 2, {"action-cards": "actions"}),
    ("oh-hell-4p-greedy-s1", 4, "greedy", 1, {}),
    ("sevens-4p-greedy-s1", 4, "greedy", 1, {}),
]


def game_of(stem: str) -> str:
    """The game a case's stem starts with (the longest packaged name that prefixes it)."""
    from rulings.spec import packaged_games

    return next(g for g in sorted(packaged_games(), key=len, reverse=True) if stem.startswith(g + "-"))


def digest(state) -> str:
    text = json.dumps(sc.to_scenario(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def play(game: str, players: int, player: str, seed: int, readings: dict, max_moves: int = 100_000):
    """The game as a transcript document."""
    spec = load(game, readings)
    seats = [sim.PLAYERS[player](seed, i) for i in range(players)]
    state = kernel.new_game(spec, players, seed)
    doc = {"format": FORMAT, "game": spec.game, "readings": dict(spec.chosen), "players": players,
           "player": player, "seed": seed, "dealer": 0, "start": digest(state), "moves": []}
    for _ in range(max_moves):
        if state.over:
            break
        move = seats[state.current].choose(state)
        nxt = kernel.apply(state, move)
        if isinstance(nxt, Refusal):
            raise AssertionError(f"a {player} player chose a refused move: {nxt}")
        doc["moves"].append({"seat": state.current, "move": sc.move_to_scenario(spec, move), "digest": digest(nxt)})
        state = nxt
    else:
        raise RuntimeError(f"the game did not end within {max_moves} moves")
    doc["rounds"] = [{"round": r.round, **dict(r.shared), "how": r.how, "went_out": r.went_out,
                      **({"scores": list(r.scores)} if r.terms else {}),
                      **({"advanced": {k: list(v) if isinstance(v, tuple) else v for k, v in r.advanced}}
                         if r.advanced else {})} for r in state.results]
    doc["final"] = final(state)
    return doc


def final(state) -> dict:
    """Each player's counters at the end, and the winners."""
    r = kernel.rules(state.spec)
    out = {c.id: [state.counter(c.id, s) for s in range(state.players)] for c in r.counters.values() if c.each}
    out["winners"] = list(state.winners)
    return out


def replay(doc: dict) -> list[str]:
    """Replay a transcript; the differences found (empty when it replays exactly). Stops
    at the first move that differs, saying where and how."""
    spec = load(doc["game"], doc["readings"])
    n, player, seed = doc["players"], doc["player"], doc["seed"]
    seats = [sim.PLAYERS[player](seed, i) for i in range(n)]
    state = kernel.new_game(spec, n, seed, doc["dealer"])
    if digest(state) != doc["start"]:
        return [f"the deal differs: digest {digest(state)}, recorded {doc['start']}"]
    for i, rec in enumerate(doc["moves"]):
        where = f"move {i + 1} (round {state.round}, turn {state.turns_finished + 1}, seat {state.current})"
        if state.over:
            return [f"{where}: the game is already over, the transcript goes on"]
        if state.current != rec["seat"]:
            return [f"{where}: seat {state.current} is to play, the transcript has seat {rec['seat']}"]
        move = seats[state.current].choose(state)
        chosen = sc.move_to_scenario(spec, move)
        if chosen != rec["move"]:
            return [f"{where}: the {player} player chose {chosen}, the transcript has {rec['move']}"]
        nxt = kernel.apply(state, move)
        if isinstance(nxt, Refusal):
            return [f"{where}: {chosen} is now refused ({', '.join(nxt.clauses)}: {nxt.why})"]
        if digest(nxt) != rec["digest"]:
            return [f"{where}: after {chosen} the state differs (digest {digest(nxt)}, recorded {rec['digest']})"]
        state = nxt
    if not state.over:
        return [f"the transcript ends after {len(doc['moves'])} moves but the game goes on"]
    end = final(state)
    return [] if end == doc["final"] else [f"final result {end}, recorded {doc['final']}"]


def path(stem: str) -> Path:
    return HERE / f"{stem}.json"


def write(stem: str, doc: dict) -> None:
    """One move per line, so a diff of a regenerated transcript reads move by move."""
    head = {k: v for k, v in doc.items() if k not in ("moves", "rounds", "final")}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    lines.append('  "moves": [')
    moves = [f"    {json.dumps(m, ensure_ascii=False)}" for m in doc["moves"]]
    lines.append(",\n".join(moves))
    lines.append("  ],")
    lines.append(f'  "rounds": {json.dumps(doc["rounds"])},')
    lines.append(f'  "final": {json.dumps(doc["final"])}')
    lines.append("}")
    path(stem).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    check = "--check" in argv
    only = [a for a in argv if not a.startswith("--")]
    unknown = set(only) - {c[0] for c in CASES}
    if unknown:
        print(f"no such case: {', '.join(sorted(unknown))}; the cases are CASES in {Path(__file__).name}")
        return 2
    bad = 0
    for stem, n, player, seed, readings in CASES:
        if only and stem not in only:
            continue
        if check:
            found = replay(json.loads(path(stem).read_text(encoding="utf-8")))
            print(f"{stem}: {'ok' if not found else found[0]}")
            bad += bool(found)
        else:
            doc = play(game_of(stem), n, player, seed, readings)
            write(stem, doc)
            print(f"{stem}: {len(doc['moves'])} moves, final {doc['final']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
