"""Conformance on the table question (`best_play`): the vectors of `vectors_table`, then a
differential search over seeded positions, each kind of divergence made small.

The implementation is asked `best_play(table, rack, by, initial)` and answers
`{"placed": n, "table": [[tokens], ...]}` (the table is optional): n is compared with the
spec's most (the reference's), and a table it gives is judged a legal result of the turn
(`rearrange.judge`, or for an initial meld the spec's initial contract over the cards it
adds) that places what it claims. A divergence is made small by taking rack cards and
table melds away one at a time while the implementation still diverges the same way.
The report is `conform.Report`, shown by `conform_report` as every other run.
"""
from __future__ import annotations

import random
import time
from collections import Counter

from rulings import rearrange as ra, reference
from rulings.spec import Spec

from . import vectors_table as vt
from .adapters import Adapter
from .conform import Divergence, Outcome, Report, SearchStats, clause_info, error, finish, kept
from .table_positions import position

FAMILY = vt.KIND
SHAPES = [(0, 14, 2), (0, 8, 1), (4, 3, 0), (8, 4, 0), (12, 6, 0), (20, 8, 1), (30, 14, 0), (40, 14, 1)]


def _counts(spec: Spec, tokens) -> tuple:
    return tuple(spec.cards.hand_of(tokens))


def _situation(spec: Spec, melds, rack, by, initial) -> dict:
    return {"table": [vt.tokens_of(spec, m) for m in melds], "rack": vt.tokens_of(spec, rack), "by": by,
            "initial": initial}


def check_answer(spec: Spec, melds, rack, by: str, initial: bool, want: int, got) -> list[str]:
    """What is wrong with an implementation's answer (empty: nothing)."""
    if not isinstance(got, dict) or isinstance(got.get("placed"), bool) or not isinstance(got.get("placed"), int):
        return [f"not an answer of the form {{\"placed\": n, \"table\": [...]}}: {str(got)[:200]}"]
    diffs = []
    if got["placed"] != want:
        diffs.append(f"placed: expected {want}, got {got['placed']}")
    new = got.get("table")
    if new is None:
        return diffs
    try:
        new_counts = [_counts(spec, m) for m in new]
    except Exception as e:      # noqa: BLE001  (cards the spec does not know: said, not raised)
        return diffs + [f"table after: {str(e)[:200]}"]
    if initial:
        n = len(rack)
        old = Counter(tuple(m) for m in melds)
        added = [m for m in new_counts if not old.get(m) or old.subtract([m])]  # melds not on the old table
        lay = tuple(sum(m[t] for m in added) for t in range(n))
        if any(lay[t] > rack[t] for t in range(n)):
            diffs.append("table after: its new melds use cards the rack does not hold")
        elif sum(lay) and not reference.decide(spec, spec.contract(initial=True), lay).legal:
            diffs.append("table after: its new melds are not a valid initial meld")
        value = sum(lay) if by == "cards" else spec.cards.value_of(lay)
    else:
        j = ra.judge(spec, list(melds), rack, new_counts)
        if not j.legal:
            diffs += [f"table after: {w}" for w in j.why]
            return diffs
        value = sum(j.placed) if by == "cards" else spec.cards.value_of(j.placed)
    if value != got["placed"]:
        diffs.append(f"table after: it places {value}, not the {got['placed']} the answer claims")
    return diffs


def ask(spec: Spec, adapter: Adapter, cid: str, melds, rack, by: str, initial: bool, want: int | None = None,
        clauses: list[str] | None = None) -> Outcome:
    situation = _situation(spec, melds, rack, by, initial)
    if want is None:
        want = vt.answer(spec, melds, rack, by, initial).value
    said_spec = {"placed": want, "by": by, "clauses": clause_info(spec, clauses or vt.clauses_of(spec, initial))}
    a = adapter.ask("best_play", {"game": spec.game, **situation})
    if a.status == "unsupported":
        return Outcome(FAMILY, cid, "skipped", situation, said_spec)
    if a.status == "error":
        return error(FAMILY, cid, situation, said_spec, a)
    diffs = check_answer(spec, melds, rack, by, initial, want, a.value)
    if diffs and diffs[0].startswith("not an answer"):
        return Outcome(FAMILY, cid, "error", situation, said_spec, a.value, error=diffs[0], failure="malformed")
    return Outcome(FAMILY, cid, "fail" if diffs else "pass", situation, said_spec, a.value, diffs)


def run_vectors(spec: Spec, adapter: Adapter, docs: dict, report: Report) -> None:
    t0 = time.perf_counter()
    counts = report.vectors.setdefault(FAMILY, {"pass": 0, "fail": 0, "skipped": 0, "error": 0})
    for v in (docs.get(vt.FILE) or {}).get("cases", []):
        if adapter.expired():
            counts["not asked"] = counts.get("not asked", 0) + 1
            continue
        melds = [_counts(spec, m) for m in v["table"]]
        out = ask(spec, adapter, v["id"], melds, _counts(spec, v["rack"]), v["by"], v["initial"], v["placed"],
                  v["clauses"])
        counts[out.status] += 1
        if out.status in ("fail", "error"):
            report.problems.append(kept(out, adapter))
    report.seconds["vectors"] = report.seconds.get("vectors", 0.0) + time.perf_counter() - t0


def signature(out: Outcome) -> str:
    if out.status == "error":
        return f"{FAMILY}: {out.failure}"
    said = out.implementation if isinstance(out.implementation, dict) else {}
    what = f"{'initial, ' if out.situation.get('initial') else ''}by {out.situation.get('by')}"
    bits = []
    p, q = out.spec.get("placed"), said.get("placed")
    if isinstance(q, int) and q != p:
        bits.append("places more" if q > p else "places less")
    if any(d.startswith("table after") for d in out.differences):
        bits.append("its table is not a legal result")
    return f"{FAMILY} ({what}): implementation {' and '.join(bits) or 'differs'}"


def shrink(spec: Spec, adapter: Adapter, out: Outcome, melds, rack, by, initial) -> Outcome:
    """Take rack cards and table melds away one at a time while the implementation still
    diverges the same way; the smallest position found, asked again."""
    sig, asked = signature(out), 0
    start = len(melds) and sum(map(sum, melds)), sum(rack)
    melds, rack = list(melds), list(rack)
    changed = True
    while changed and not adapter.expired():
        changed = False
        cands = [("meld", i) for i in range(len(melds))] + [("card", t) for t in range(len(rack)) if rack[t]]
        for what, i in cands:
            m2, r2 = list(melds), list(rack)
            if what == "meld":
                del m2[i]
            else:
                r2[i] -= 1
            if not sum(r2):
                continue
            o = ask(spec, adapter, out.id, m2, tuple(r2), by, initial)
            asked += 1
            if o.status in ("fail", "error") and signature(o) == sig:
                melds, rack, out, changed = m2, r2, o, True
                break
    out.extra["shrunk"] = {"from": [0, start[0] + start[1]], "to": [0, sum(map(sum, melds)) + sum(rack)],
                           "asked": asked}
    return out


def search(spec: Spec, adapter: Adapter, n: int, seed: int, report: Report) -> None:
    """n seeded positions of every shape, asked of the spec and the implementation; each
    kind of divergence kept once, made small."""
    stats = report.search.setdefault(FAMILY, SearchStats())
    t0 = time.perf_counter()
    rng = random.Random(seed)
    seen: set[str] = set()
    for i in range(n):
        if adapter.expired():
            stats.stopped = "the run's deadline passed"
            break
        tc, rc, rm = rng.choice(SHAPES)
        initial = tc == 0 and rng.random() < 0.4
        by = rng.choice(ra.BY)
        melds, _, rack = position(spec, rng.randrange(2 ** 32), tc, rc, rm)
        t1 = time.perf_counter()
        out = ask(spec, adapter, f"search:{seed}:{i}", melds, rack, by, initial)
        stats.adapter_seconds += time.perf_counter() - t1
        stats.cases += 1
        if out.status == "skipped":
            stats.skipped_by_adapter += 1
            continue
        if out.status == "error":
            stats.errors[out.failure] += 1
        if out.status in ("fail", "error"):
            sig = signature(out)
            if sig in seen:
                continue
            seen.add(sig)
            first = Outcome(**{**out.__dict__, "extra": dict(out.extra)})
            small = shrink(spec, adapter, out, melds, rack, by, initial) if out.status == "fail" else out
            report.divergences.append(Divergence(FAMILY, sig, small, first, i + 1))
    stats.seconds = time.perf_counter() - t0


def conform(spec: Spec, adapter: Adapter, docs: dict | None = None, random_cases: int = 200, seed: int = 0, *,
            deadline: float | None = None, allow_unsupported: bool = False, report: Report | None = None) -> Report:
    """The table vectors, then the search (into `report` when given, else a new one)."""
    own = report is None
    if own:
        report = Report(spec.game, adapter.name, dict(spec.chosen), allow_unsupported=allow_unsupported,
                        protocol=adapter.protocol)
    if deadline is not None:
        adapter.deadline = deadline if adapter.deadline is None else min(deadline, adapter.deadline)
    t0 = time.perf_counter()
    if docs is None:
        docs = vt.documents(spec)
        report.seconds["generate"] = time.perf_counter() - t0
    if own:
        report.coverage = dict((docs.get("manifest.json") or {}).get("coverage") or {})
    run_vectors(spec, adapter, docs, report)
    if random_cases > 0:
        search(spec, adapter, random_cases, seed, report)
    if own:
        finish(report, adapter, random_cases, (FAMILY,))
        report.seconds["total"] = time.perf_counter() - t0
    return report
