"""What: which other way of writing each clause would play notice? (the what-if map)

For every clause with formal content, the alternatives its own schema allows are made
one at a time in a copy of the spec file: each other value of an enumerated field, a
number moved by one either way, a boolean flipped, a comparison in an expression
loosened or tightened by one (`<` <-> `<=`, `>` <-> `>=`), and the clause dropped.
An alternative the schema or the loader rejects is not a way to write the clause and is
only counted. Each alternative is searched against the spec as written with the generic
search of `tell_apart` (Z3 over hands where meld rules change, differential play in the
kernel otherwise) within a small per-alternative budget, and the games it ran say how
often it matters. An alternative that is already a declared reading of the clause has
been examined by the spec's authors and is left out.

A finding is an alternative that changes some verdict: a choice a reader could make
differently and play would notice. It is unresolved until the rule writer decides what
it is (a new reading, a new assumption, or a place where the text already decides it).
Alternatives are searched comparisons first, then other enum values and flags, then
clauses dropped, then numbers moved by one, so the sweep's budget (how many alternatives
are searched: units of work, never seconds) leaves the last unsearched, the same ones on
every run, and names them. Each alternative is searched within a `Budget` of its own
(`budget.WHATIF`). Alternatives nothing told apart within the budget are listed in the
note, never called equivalent.
"""
from __future__ import annotations

import copy
import hashlib
import re
import shutil
import time
from collections import Counter
from dataclasses import dataclass
import tempfile
from pathlib import Path

import yaml

from rulings.spec import Spec, load
from rulings.specfile import Loader

from ..budget import WHATIF, Budget
from ..findings import Finding
from .play import play_difference
from .tell_apart import tell_apart

SKIP_KEYS = ("claim",)          # claims state facts to check, not rules play follows
LABEL_KEYS = ("cards",)         # the card notation: labels, changed only where they count ...
COUNTED = ("value",)            # ... as the points a card is worth
_COMPARE = re.compile(r"(<=|>=|<|>)")
_SWAP = {"<=": "<", "<": "<=", ">=": ">", ">": ">="}


@dataclass
class Alternative:
    clause: str
    path: tuple                 # inside the clause's formal content; () for the clause dropped
    was: object
    now: object
    what: str                   # in words

    @property
    def key(self) -> str:
        if not self.path:
            return f"what-if:{self.clause}:dropped"
        return f"what-if:{self.clause}:{'.'.join(map(str, self.path))}={self.now}"


def _enums() -> list[list]:
    """Every enumeration the spec schema declares."""
    from rulings.specfile import schema as spec_schema

    schema = spec_schema()
    out: list[list] = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("enum"), list) and node["enum"] not in out:
                out.append(node["enum"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema)
    return out


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path, node


def _resolve(schema: dict, node):
    while isinstance(node, dict) and "$ref" in node:
        target = schema
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def enum_at(schema: dict, path: tuple) -> list | None:
    """The enumeration the schema declares for the value at `path` of a clause's formal
    content: [] when it declares none there (a name, an expression), None when the path
    cannot be followed in the schema."""
    nodes = [_resolve(schema, schema["properties"]["clauses"]["additionalProperties"])]
    for key in path:
        nxt = []
        for node in nodes:
            node = _resolve(schema, node)
            if not isinstance(node, dict):
                continue
            for branch in [node] + list(node.get("oneOf") or []) + list(node.get("anyOf") or []):
                branch = _resolve(schema, branch)
                if not isinstance(branch, dict):
                    continue
                if isinstance(key, int) and isinstance(branch.get("items"), dict):
                    nxt.append(branch["items"])
                elif isinstance(key, str) and key in (branch.get("properties") or {}):
                    nxt.append(branch["properties"][key])
                elif isinstance(key, str) and isinstance(branch.get("additionalProperties"), dict):
                    nxt.append(branch["additionalProperties"])
        if not nxt:
            return None
        nodes = nxt
    for node in nodes:
        node = _resolve(schema, node)
        for branch in [node] + list((node or {}).get("oneOf") or []) + list((node or {}).get("anyOf") or []):
            branch = _resolve(schema, branch)
            if isinstance(branch, dict) and isinstance(branch.get("enum"), list):
                return branch["enum"]
    return []       # the place is known and holds no enumeration (a name, an expression)


def _changes(value, enums, own: list | None = None) -> list[tuple[object, str]]:
    """The schema-allowed alternatives of one value, each with its words (`own`: the
    enumeration the schema declares at the value's place, when known)."""
    if isinstance(value, bool):
        return [(not value, f"{value} -> {not value}")]
    if isinstance(value, int):
        return [(value + d, f"{value} -> {value + d}") for d in (-1, 1) if value + d >= 0]
    if not isinstance(value, str):
        return []
    out = []
    for enum in (enums if own is None else [own] if value in own else []):
        if value in enum:
            out += [(v, f"{value} -> {v}") for v in enum if v != value and (v, f"{value} -> {v}") not in out]
    parts = _COMPARE.split(value)
    for i, part in enumerate(parts):
        if part in _SWAP:
            new = "".join(parts[:i] + [_SWAP[part]] + parts[i + 1:])
            out.append((new, f"{value!r} -> {new!r}"))
    return out


def alternatives(spec: Spec) -> list[Alternative]:
    from rulings.specfile import schema as spec_schema

    enums = _enums()
    schema = spec_schema()
    out = []
    for cid, c in spec.clauses.items():
        formal = spec.formal(cid)
        if not formal or any(k in formal for k in SKIP_KEYS):
            continue
        for path, value in _leaves(formal):
            if path[0] in LABEL_KEYS and path[-1] not in COUNTED:
                continue
            for new, words in _changes(value, enums, enum_at(schema, (cid, *path)[1:])):
                out.append(Alternative(cid, path, value, new, f"{'.'.join(map(str, path))}: {words}"))
        out.append(Alternative(cid, (), None, None, "the clause dropped"))
    # what a reader could most plausibly read otherwise first (a comparison's boundary, another
    # choice of an enumerated field, a flag), then a clause dropped, then numbers moved by one
    # (most of which the text states outright), so a time budget spends itself on those last
    return sorted(out, key=_order)


def _order(alt: Alternative) -> int:
    if not alt.path:
        return 3
    if isinstance(alt.was, bool):
        return 2
    if isinstance(alt.was, int):
        return 4
    return 0 if _COMPARE.search(str(alt.was)) else 1


def _set(node, path, value):
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


def _declared(spec: Spec, alt: Alternative) -> str | None:
    """The declared reading whose formal content the alternative gives, if any."""
    c = spec.clauses[alt.clause]
    if not alt.path or not c.readings:
        return None
    mine = copy.deepcopy(dict(spec.formal(alt.clause)))
    _set(mine, alt.path, alt.now)
    for name, r in c.readings.items():
        if name != spec.chosen[alt.clause] and dict(c.formal, **r.formal) == mine:
            return name
    return None


def build(spec: Spec, alt: Alternative, folder: Path, data: dict) -> Spec:
    """The spec with the alternative written in, loaded from a copy of its file."""
    d = copy.deepcopy(data)
    clauses = d["clauses"]
    if not alt.path:
        clauses.pop(alt.clause)
    else:
        c = clauses[alt.clause]
        chosen = spec.chosen.get(alt.clause)
        where = c["readings"][chosen] if chosen and alt.path[0] in (c.get("readings", {}).get(chosen) or {}) else c
        _set(where, alt.path, alt.now)
    for cid in list(clauses):                      # keep the readings in force
        if cid in spec.chosen and "adopted" in clauses[cid]:
            clauses[cid]["adopted"] = spec.chosen[cid]
    path = folder / f"{spec.game}-{hashlib.sha1(alt.key.encode()).hexdigest()[:10]}.yaml"
    path.write_text(yaml.safe_dump(d, sort_keys=False, allow_unicode=True))
    _rules_beside(spec, folder)
    return load(str(path))


def _rules_beside(spec: Spec, folder: Path) -> None:
    """The rules texts a spec ships in the `rules/` folder beside its file, made visible
    beside the copy too: the loader checks a citation's rulebook there, and without them
    every alternative of such a spec was rejected."""
    from rulings.spec import source_file

    src = source_file(spec.origin or spec.file)
    rules, here = (Path(src).parent / "rules" if src else None), folder / "rules"
    if rules is None or not rules.is_dir() or here.exists():
        return
    try:
        here.symlink_to(rules, target_is_directory=True)
    except OSError:             # no symlinks here (some file systems): a copy does the same
        shutil.copytree(rules, here)


def spec_data(spec: Spec) -> dict:
    """The spec's file as YAML data, which `build` writes alternatives into (a packaged
    game's file found where the package is, whatever the working directory)."""
    from rulings.spec import spec_path

    return yaml.load(spec_path(spec.origin or spec.file).read_text(), Loader=Loader)


def search_alternative(spec: Spec, alt: Alternative, folder: Path, data: dict, budget: Budget = WHATIF) -> tuple:
    """One alternative searched against the spec as written: ("declared", name), ("rejected",
    words), ("quiet", words) or ("finding", Finding)."""
    name = _declared(spec, alt)
    if name:
        return "declared", name
    try:
        other = build(spec, alt, folder, data)
    except Exception as e:         # the schema or the loader rejects it: not a way to write the clause
        return "rejected", f"{type(e).__name__}"
    t1 = time.perf_counter()
    try:
        told = tell_apart(spec, other, "as written", "what-if", budget=budget, count_all=True)
    except Exception as e:         # an alternative the kernel cannot play is reported, not raised
        return "quiet", f"{alt.clause} ({alt.what}): could not be searched ({type(e).__name__}: {e})"
    if not told.apart:
        return "quiet", f"{alt.clause} ({alt.what})"
    often = told.matters
    if not often:
        try:
            ps = play_difference(spec, other, seeds=budget.seeds, max_moves=budget.moves, count_all=True,
                                 max_states=budget.states, shrink_tries=0)
            often = f"differs in {ps.matters} of {ps.games} games played"
        except Exception as e:
            often = f"not counted in play ({type(e).__name__})"
    c = spec.clauses[alt.clause]
    return "finding", Finding(
        id=alt.key, kind="what-if", clauses=[alt.clause], sources=list(c.source),
        question=f"would play notice if {alt.clause} were written otherwise ({alt.what})?",
        verdict=f"yes: {told.verdict}"
                f"; {often}",
        resolved=False,
        resolution="an alternative no declared reading examines: decide whether the text rules it out "
                   "(cite the line), or add it as a reading or an assumption",
        witness=told.witness, method=told.method, seconds=time.perf_counter() - t1,
        extra={"path": list(alt.path), "was": alt.was, "now": alt.now, "how_often": often})


SWEEP = 120         # alternatives searched at most, in the order of `alternatives` (the sweep's budget)


def whatif_findings(spec: Spec, limit: int | None = SWEEP, budget: Budget = WHATIF, progress=None,
                    only: list[str] | None = None, *, workers: int | None = 1, executor: str = "local",
                    scheduler: str | None = None, texts=None):
    """The what-if map. The alternatives the words of the text admit (`text_readings`, the
    texts found through `texts` or RULINGS_RULEBOOKS) are searched first; each alternative
    is a chunk of work (`whatif_chunk`) played wherever `workers`/`executor`/
    `scheduler` say (`rulings.executor`), merged in the alternatives' order. `limit` (None:
    no limit) is the sweep's budget in alternatives searched in play, each within `budget`
    (a declared reading, or a way of writing that the schema rejects, does not count): the
    first ones in order until `limit` have been, the rest listed unsearched, the same ones
    on every run.

    With the texts, an alternative some word supports that play notices is a proposed
    reading (kind `proposed`); those no word supports are summed up in the note, one line
    per clause. Without them, every alternative play notices is a what-if finding."""
    from rulings import executor as ex

    from .proposals import proposal, summaries
    from .text_readings import text_search

    ts = text_search(spec, texts)
    alts = [a for a in alternatives(spec) if only is None or a.clause in only]
    supported = {a.key for a in alts if ts.support(a)}
    alts = [a for a in alts if a.key in supported] + [a for a in alts if a.key not in supported]
    key = ex.spec_key(spec)
    # the budget counts alternatives searched in play: a declared reading or a way of writing
    # the clause that the schema rejects costs none of it. Batches in the alternatives' order
    # until `limit` have been searched, so the same ones are searched on every run.
    searched: list = []
    results: list = []
    notes: list[str] = []
    left, counted = list(alts), 0
    while left and (limit is None or counted < limit):
        take = left if limit is None else left[:limit - counted]
        left = left[len(take):]
        done = len(searched)

        def step(k: int, done=done, n=len(take)) -> None:
            progress(f"what-if: {done + k} of {done + n} alternatives searched")

        out = ex.run(whatif_chunk, [(key, alt, budget) for alt in take], executor=executor, workers=workers,
                     scheduler=scheduler, progress=step if progress else None)
        searched += take
        results += out.results
        notes += [n for n in out.notes if n not in notes]
        counted += sum(what not in ("declared", "rejected") for what, _ in out.results)
    findings: list[Finding] = []
    loud: dict = {}
    declared = rejected = 0
    quiet: list[str] = []
    for alt, (what, said) in zip(searched, results):
        if what == "finding":
            loud[alt.key] = said
            if not ts.ran:
                findings.append(said)
            elif alt.key in supported:
                findings.append(proposal(spec, alt, said, ts))
        elif what == "quiet":
            quiet.append(said)
        elif what == "declared":
            declared += 1
        else:
            rejected += 1
    per_clause = Counter(a.clause for a in left)      # one entry per clause, in the alternatives' order
    unsearched = [f"{c} ({n} alternative{'s' if n != 1 else ''})" for c, n in per_clause.items()]
    note = (f"{len(alts)} alternatives of {len({a.clause for a in alts})} clauses, "
            + (f"{len(supported)} of them admitted by words of the lines their clause cites (searched first): "
               if ts.ran else f"{ts.why}: ")
            + f"{len(loud)} change a verdict"
            + (f" ({sum(k in supported for k in loud)} proposed readings)" if ts.ran else "")
            + f", {len(quiet)} not told apart within the bound (each: {budget.words()}), {declared} already "
            f"declared readings, {rejected} rejected by the schema or the loader")
    if unsearched:
        note += (f"; the budget of {limit} alternatives left {len(left)} unsearched, of {len(unsearched)} "
                 f"clause{'s' if len(unsearched) != 1 else ''} (--what-if-limit 0 searches them all): "
                 + ", ".join(unsearched))
    if ts.ran:
        lines = summaries(spec, searched, loud, ts)
        if lines:
            note += "; " + "; ".join(lines)
    if quiet:
        note += "; not told apart: " + ", ".join(quiet)
    if notes:
        note += "; " + "; ".join(notes)
    return findings, note


__all__ = ["Alternative", "alternatives", "build", "search_alternative", "spec_data", "whatif_findings"]


_data: dict = {}        # spec file -> its YAML, read once per worker process


def whatif_chunk(job: tuple) -> tuple:
    """("declared" | "rejected" | "quiet" | "finding", what: words or a Finding)."""
    from rulings.executor import spec_of

    from ..repeatable import repeatable

    key, alt, budget = job
    spec = spec_of(key)
    if spec.file not in _data:
        _data[spec.file] = spec_data(spec)
    with tempfile.TemporaryDirectory(prefix="rulings-whatif-") as tmp:
        with repeatable():
            return search_alternative(spec, alt, Path(tmp), _data[spec.file], budget)
