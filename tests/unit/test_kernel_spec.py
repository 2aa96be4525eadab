"""The kernel never invents a rule, and plays every spec its schema accepts.

- Removing any one clause from a copy of a spec either fails validation (with a
  `file:line:col` message), or leaves a spec the kernel plays: every kernel field the
  clause gave is then a restriction (its absence lifts it), part of a move the clause
  alone made (the move is gone), or a decision the kernel lists as unanswered and raises
  `Undecided` for when play needs it. Never a silent default.
- Every value the schema allows in a kernel field, put in a copy of a spec, either fails
  validation or plays: the schema and the kernel accept the same specs.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulings import kernel, players
from rulings.kernel import vocabulary as V
from rulings.spec import SpecErrors, load
from rulings.specfile import Loader

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("tick", "level8", "garbage")


def _data(game: str) -> dict:
    return yaml.load((ROOT / "spec" / f"{game}.yaml").read_text(encoding="utf-8"), Loader=Loader)


def _write(tmp_path: Path, data: dict, name: str) -> Path:
    out = tmp_path / f"{name}.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return out


def _leaves(rules) -> dict[str, str]:
    """Every kernel field a spec gives that is a value (not a mapping), with its clause."""
    out = {}
    for name, cid in rules.where.items():
        v = rules.get(name)
        if not isinstance(v, dict):
            out[name] = cid
    return out


def _covered(field: str, unanswered: list[str], rules=None) -> bool:
    """A missing field is answered for: a restriction, a move taken out of the game whole
    (a move or a phase exists only because a clause makes it one), or a decision (or part of one)
    the kernel lists as open."""
    parts = field.split(".")
    if rules is not None and parts[0] in ("moves", "phases") and parts[1] not in getattr(rules, parts[0]):
        return True
    if any(V.is_restriction(".".join(parts[:i])) for i in range(1, len(parts) + 1)):
        return True
    if any(field in V.PARTS.get(q, ()) for q in unanswered):
        return True
    return any(field == q or field.startswith(q + ".") or q.startswith(field + ".") for q in unanswered)


def play_a_little(spec, games: int = 2, max_moves: int = 400) -> list[str]:
    """Play a few seeded games; the questions play raised (Undecided), in order."""
    asked = []
    try:
        lo, hi = kernel.rules(spec).players_range()
    except kernel.Undecided as e:
        return [e.field or e.question]
    for seed in range(games):
        agents = [players.GreedyPlayer() if (seed + i) % 2 == 0 else players.RandomPlayer(seed * 7 + i)
                  for i in range(lo)]
        try:
            state = kernel.new_game(spec, lo, seed)
            for _ in range(max_moves):
                if state.over:
                    break
                state = kernel.apply(state, agents[state.current].choose(state))
                assert not isinstance(state, kernel.Refusal), state
        except kernel.Undecided as e:
            asked.append(e.field or e.question)
    return asked


@pytest.mark.parametrize("game", GAMES)
def test_removing_any_clause_never_leaves_a_silent_default(game, tmp_path):
    base = kernel.rules(load(game))
    before = _leaves(base)
    outcomes = {"invalid": 0, "plays": 0, "undecided": 0}
    for cid in _data(game)["clauses"]:
        data = _data(game)
        del data["clauses"][cid]
        path = _write(tmp_path, data, f"{game}-without-{cid}")
        try:
            spec = load(str(path))
        except SpecErrors as e:
            assert all(str(x).startswith(f"{path}:") for x in e.errors), e   # file:line:col of the copy
            outcomes["invalid"] += 1
            continue
        r = kernel.rules(spec)
        open_ = r.unanswered()
        gone = [f for f, c in before.items() if c == cid and f not in r.where]
        silent = [f for f in gone if not _covered(f, open_, r)]
        assert not silent, f"without {cid}, nothing answers {silent} and the kernel does not say so"
        asked = play_a_little(spec)
        for q in asked:
            assert q in ("levels",) or _covered(q, open_) or q in V.QUESTIONS, (cid, q, open_)
        outcomes["undecided" if asked else "plays"] += 1
    # all three outcomes occur: the test exercises each path
    assert all(outcomes.values()), outcomes


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_specs_leave_nothing_open_and_play(game):
    spec = load(game)
    assert kernel.rules(spec).unanswered() == []
    assert play_a_little(spec, games=3, max_moves=300) == []


def _schema() -> dict:
    return yaml.safe_load((ROOT / "spec" / "schema.yaml").read_text(encoding="utf-8"))


def _set(data: dict, cid: str, path: tuple, value) -> bool:
    """Set a field of a clause's formal content (the reading in force, if it has one)."""
    c = data["clauses"][cid]
    node = c
    if "readings" in c and path[0] in c["readings"][c["adopted"]]:
        node = c["readings"][c["adopted"]]
    for k in path[:-1]:
        if not isinstance(node.get(k), dict):
            return False
        node = node[k]
    node[path[-1]] = value
    return True


def _variants(game: str):
    """(clause, path, value) for every value the schema's enums allow in a kernel field
    the spec gives."""
    r = kernel.rules(load(game))
    schema = _schema()["$defs"]
    out = []

    def enums(node):
        if isinstance(node, dict):
            if "enum" in node:
                return list(node["enum"])
            if "const" in node:
                return [node["const"]]
            if "$ref" in node:
                return enums(schema[node["$ref"].split("/")[-1]])
            for k in ("oneOf",):
                if k in node:
                    return [x for alt in node[k] for x in (enums(alt) or [])]
        return None

    for name, cid in _leaves(r).items():
        parts = name.split(".")
        node = schema["formal"].get(parts[0])
        for p in parts[1:]:
            if not isinstance(node, dict):
                node = None
                break
            if "$ref" in node:
                node = schema[node["$ref"].split("/")[-1]]
            props = node.get("properties") or {}
            node = props.get(p) if p in props else node.get("additionalProperties")
        values = enums(node) if node is not None else None
        for v in values or []:
            if v != r.get(name):
                out.append((cid, tuple(parts), v))
    return out


STRUCTURE = ("mechanic", "owner", "kind", "face")     # what a field is, not what a rule says


@pytest.mark.parametrize("game", GAMES)
def test_every_value_the_schema_allows_is_played_or_refused_by_validation(game, tmp_path):
    """A value that changes what a rule says (who deals next, when the stock is refilled,
    how many units a draw takes, ...) always validates and plays; a value that changes
    what a thing is (a move's mechanic, a zone's owner or kind) may make the spec
    inconsistent, and then validation says so."""
    variants = _variants(game)
    assert len(variants) >= 10, variants
    rules_changed = 0
    for i, (cid, path, value) in enumerate(variants):
        data = _data(game)
        assert _set(data, cid, path, value), (cid, path)
        p = _write(tmp_path, data, f"{game}-{i}")
        try:
            spec = load(str(p))
        except SpecErrors as e:
            assert path[-1] in STRUCTURE, f"{cid} {'.'.join(path)} = {value!r} is refused: {e}"
            assert all(str(x).startswith(f"{p}:") for x in e.errors)
            continue
        r = kernel.rules(spec)
        try:
            asked = play_a_little(spec, games=1, max_moves=250)
        except Exception as e:
            raise AssertionError(f"{game}: {cid} {'.'.join(path)} = {value!r} validates but does not play: {e!r}")
        assert all(q in r.unanswered() or q in V.QUESTIONS or q == "levels" for q in asked), (cid, path, value, asked)
        rules_changed += path[-1] not in STRUCTURE
    assert rules_changed >= 10
