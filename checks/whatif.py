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
clauses dropped, then numbers moved by one, so a time budget leaves the last unsearched.
Alternatives nothing told apart within the budget are listed in the note, never called
equivalent.
"""
from __future__ import annotations

import copy
import re
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from rulings.spec import Spec, load
from rulings.specfile import Loader

from .findings import Finding
from .search_play import play_difference
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


def _changes(value, enums) -> list[tuple[object, str]]:
    """The schema-allowed alternatives of one value, each with its words."""
    if isinstance(value, bool):
        return [(not value, f"{value} -> {not value}")]
    if isinstance(value, int):
        return [(value + d, f"{value} -> {value + d}") for d in (-1, 1) if value + d >= 0]
    if not isinstance(value, str):
        return []
    out = []
    for enum in enums:
        if value in enum:
            out += [(v, f"{value} -> {v}") for v in enum if v != value and (v, f"{value} -> {v}") not in out]
    parts = _COMPARE.split(value)
    for i, part in enumerate(parts):
        if part in _SWAP:
            new = "".join(parts[:i] + [_SWAP[part]] + parts[i + 1:])
            out.append((new, f"{value!r} -> {new!r}"))
    return out


def alternatives(spec: Spec) -> list[Alternative]:
    enums = _enums()
    out = []
    for cid, c in spec.clauses.items():
        formal = spec.formal(cid)
        if not formal or any(k in formal for k in SKIP_KEYS):
            continue
        for path, value in _leaves(formal):
            if path[0] in LABEL_KEYS and path[-1] not in COUNTED:
                continue
            for new, words in _changes(value, enums):
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
    path = folder / f"{spec.game}-{abs(hash(alt.key)) % 10**10}.yaml"
    path.write_text(yaml.safe_dump(d, sort_keys=False, allow_unicode=True))
    return load(str(path))


def spec_data(spec: Spec) -> dict:
    """The spec's file as YAML data, which `build` writes alternatives into (a packaged
    game's file found where the package is, whatever the working directory)."""
    from rulings.spec import spec_path

    return yaml.load(spec_path(spec.origin or spec.file).read_text(), Loader=Loader)


def search_alternative(spec: Spec, alt: Alternative, folder: Path, data: dict, per_alt: float, seeds: int,
                       max_moves: int) -> tuple:
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
        told = tell_apart(spec, other, "as written", "what-if", meld_seconds=per_alt / 2,
                          play_seconds=per_alt / 2, seeds=seeds, max_moves=max_moves, count_all=True)
    except Exception as e:         # an alternative the kernel cannot play is reported, not raised
        return "quiet", f"{alt.clause} ({alt.what}): could not be searched ({type(e).__name__}: {e})"
    if not told.apart:
        return "quiet", f"{alt.clause} ({alt.what})"
    often = told.matters
    if not often:
        try:
            ps = play_difference(spec, other, seconds=per_alt / 2, seeds=seeds, max_moves=max_moves,
                                 count_all=True)
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


def whatif_findings(spec: Spec, seconds: float | None = 150.0, per_alt: float = 4.0, seeds: int = 2,
                    max_moves: int = 300, progress=None, only: list[str] | None = None, *,
                    workers: int | None = 1, executor: str = "local", scheduler: str | None = None):
    """The what-if map. Each alternative is a chunk of work (`chunks.whatif_chunk`) played
    wherever `workers`/`executor`/`scheduler` say (`rulings.executor`), merged in the
    alternatives' order. `seconds` (None: no budget) is the sweep's wall-clock budget: an
    alternative whose search has not started by then is left unsearched and listed."""
    from rulings import executor as ex

    from .chunks import whatif_chunk

    alts = [a for a in alternatives(spec) if only is None or a.clause in only]
    ends = None if seconds is None else time.time() + seconds
    key = ex.spec_key(spec)
    jobs = [(key, alt, ends, per_alt, seeds, max_moves) for alt in alts]

    def step(k: int) -> None:
        progress(f"what-if: {k} of {len(alts)} alternatives searched")

    out = ex.run(whatif_chunk, jobs, executor=executor, workers=workers, scheduler=scheduler,
                 progress=step if progress else None)
    findings: list[Finding] = []
    declared = rejected = 0
    quiet: list[str] = []
    unsearched: list[str] = []
    for what, said in out.results:
        if what == "finding":
            findings.append(said)
        elif what == "quiet":
            quiet.append(said)
        elif what == "unsearched":
            unsearched.append(said)
        elif what == "declared":
            declared += 1
        else:
            rejected += 1
    note = (f"{len(alts)} alternatives of {len({a.clause for a in alts})} clauses: {len(findings)} change a verdict, "
            f"{len(quiet)} not told apart within the bound ({per_alt:.0f} s each: Z3 over hands where meld rules "
            f"change, {seeds} seeded games per table size of at most {max_moves} moves), {declared} already "
            f"declared readings, {rejected} rejected by the schema or the loader")
    if unsearched:
        note += f"; the {seconds:.0f} s budget left {len(unsearched)} unsearched: " + ", ".join(unsearched)
    if quiet:
        note += "; not told apart: " + ", ".join(quiet)
    if out.notes:
        note += "; " + "; ".join(out.notes)
    return findings, note


__all__ = ["Alternative", "alternatives", "build", "search_alternative", "spec_data", "whatif_findings"]
