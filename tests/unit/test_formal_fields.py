"""Never a silently different game: every formal field of every clause of every shipped
spec, removed in turn, is

- refused at file:line:col (the spec does not validate),
- a restriction lifted, as documented (`kernel.vocabulary.RESTRICTIONS`, a mechanic's or a
  zone kind's restrictions, `rulings.spec.RESTRICTIONS` for the meld layer): the rule is
  simply not part of the game,
- a decision left open (`Rules.unanswered()`), or `Undecided` when a game is played,
- a claim (claims are checked, never played), or
- not read by play at all (seeded games play move for move the same without it), or
- a whole move removed: a move exists only because a clause makes it one (`docs/kernel.md`).

A field is a key the schema names (`properties`), at any depth; the entries of a
mapping of the spec's own names (the piles a draw takes from, the sides by player count)
are the field's value, not fields. Fields in force only: a clause with readings is read
through its adopted reading (issue 24, "Done when").
"""
from __future__ import annotations

import copy

import pytest

from rulings import kernel, players
from rulings import spec as S
from rulings.kernel import vocabulary as V
from rulings.kernel.rules import rules
from rulings.specfile import SpecErrors, read, schema, validate_schema


def node_ref(ref: str) -> list[str]:
    return ref.lstrip("#/").split("/")


def _sub(sch: dict, root: dict) -> dict:
    """The schema node, $refs followed; of several alternatives, the one that is an object."""
    seen = 0
    while isinstance(sch, dict) and seen < 20:
        seen += 1
        if "$ref" in sch:
            node = root
            for part in node_ref(sch["$ref"]):
                node = node[part]
            sch = node
            continue
        for alt in ("oneOf", "anyOf"):
            if alt in sch:
                objs = [a for a in sch[alt] if isinstance(a, dict) and ("properties" in a or "$ref" in a)]
                sch = objs[0] if objs else {}
                break
        else:
            return sch
    return sch if isinstance(sch, dict) else {}


def fields(value, sch: dict, root: dict, path: tuple):
    """Each field of a value: (path) for every key the schema names, at any depth."""
    sch = _sub(sch, root)
    if not isinstance(value, dict):
        return
    props = sch.get("properties") or {}
    extra = sch.get("additionalProperties")
    for k, v in value.items():
        if k in props:
            yield path + (k,)
            yield from fields(v, props[k], root, path + (k,))
        elif isinstance(extra, dict):          # an entry of the spec's own names: its fields, if any
            yield from fields(v, extra, root, path + (k,))


def _plays(spec, seeds=(1, 2), moves=120):
    """The first moves of seeded greedy games at the fewest players: a list per seed, or
    'undecided' when play met a question no clause answers."""
    lo, _ = rules(spec).players_range()
    out = []
    for seed in seeds:
        try:
            state = kernel.new_game(spec, lo, seed)
            agents = [players.GreedyPlayer() for _ in range(lo)]
            trace = []
            for _ in range(moves):
                if isinstance(state, kernel.Refusal) or state.over:
                    break
                m = agents[state.current].choose(state)
                trace.append(m)
                state = kernel.apply(state, m)
            out.append(trace)
        except kernel.Undecided:
            return "undecided"
    return out


def _removals(game: str):
    path = S.spec_path(game)
    data, pos = read(path, str(path), check_schema=False)
    sp = S.load(game)
    root = schema()
    formal = root["$defs"]["formal"]
    for cid, raw in data["clauses"].items():
        rd = sp.chosen.get(cid)
        for key in sp.formal(cid):
            where = ("readings", rd) if rd and key in raw["readings"][rd] else ()
            src = raw
            for w in where:
                src = src[w]
            for p in [(key,)] + list(fields(src[key], formal[key], root, (key,))):
                yield cid, where, p, data, pos


def _restriction(field: str, p: tuple, where: tuple, data: dict, cid: str) -> bool:
    """A restriction, or a mapping every field of which is one (a clause's `deal` that only
    turns a card up)."""
    if V.is_restriction(field) or S.is_restriction(field):
        return True
    node = data["clauses"][cid]
    for part in where + p:
        node = node[part]
    if not isinstance(node, dict) or not node:
        return False
    parts = {q for k in node for q in V.RESTRICTION_PARTS.get(f"{field}.{k}", ())}
    return all(_restriction(f"{field}.{k}", p + (k,), where, data, cid) or f"{field}.{k}" in parts for k in node)


CASES = [(g, cid, ".".join(map(str, p))) for g in S.packaged_games() for cid, _, p, _, _ in _removals(g)]


@pytest.mark.parametrize("game", S.packaged_games())
def test_every_formal_field_removed_is_never_a_silently_different_game(game):
    base = S.load(game)
    base_play = None
    silent = []
    counted = {"refused": 0, "restriction": 0, "decision": 0, "claim": 0, "unread": 0}
    for cid, where, p, data, pos in _removals(game):
        field = ".".join(map(str, p))
        d = copy.deepcopy(data)
        node = d["clauses"][cid]
        for part in where + p[:-1]:
            node = node[part]
        node.pop(p[-1])
        if p[0] == "claim":
            counted["claim"] += 1
            continue
        errors = validate_schema(d, pos)
        if not errors:
            try:
                spec = S.build(d, pos, game, dict(base.chosen))
            except SpecErrors as e:
                errors = e.errors
        if errors:
            assert all(e.line >= 1 and e.col >= 1 and e.file for e in errors), (field, errors)
            counted["refused"] += 1
            continue
        if _restriction(field, p, where, data, cid):
            counted["restriction"] += 1
            continue
        if p[0] == "moves" and len(p) <= 2:          # whole moves
            counted["move"] = counted.get("move", 0) + 1
            continue
        if any(field.startswith(q) or q.startswith(field) for q in rules(spec).unanswered()):
            counted["decision"] += 1
            continue
        got = _plays(spec)
        if got == "undecided":
            counted["decision"] += 1
            continue
        if base_play is None:
            base_play = _plays(base)
        if got == base_play:
            counted["unread"] += 1
            continue
        silent.append(f"{cid}: {field}")
    assert not silent, f"{game}: removing these plays another game in silence: {silent}"
    assert counted["refused"] > 0 and sum(counted.values()) >= 10, counted
