"""What: do two readings of one clause ever give different verdicts?

For every clause with readings, the reading in force (the adopted one, unless
`--reading` chose another) is compared with each other one by the one generic search of
`tell_apart`: Z3 over hands, fewest cards first, where the readings change meld
legality; seeded play in the kernel, every state judged under both readings, for
everything else (a constructed situation first where `turns.targeted` has one), then,
where play meets no difference, situations built by Hypothesis from the spec's zones
and counters (`search_situations`).

A difference is a finding, resolved when the clause names an adopted reading (the spec
has chosen): these say where a rule writer should make the text say what the spec
adopts. Readings nothing told apart within the bounds are unresolved and say which
bounds; readings with the same formal content are unresolved (not formalised).
`meld_difference` (every hand enumerated with the reference decider, the first stage of
the meld search) is re-exported for the tests, which use it as an oracle of minimality.
"""
from __future__ import annotations

import time

from rulings.spec import Spec

from ..budget import READING, Budget
from ..findings import Finding
from .melds import meld_difference
from .tell_apart import tell_apart

MELD_KEYS = {"constraint", "meld_kind", "levels", "initial_meld", "level_sets", "extra_melds", "params"}


def differing_keys(spec: Spec, cid: str, a: str, b: str) -> set[str]:
    c = spec.clauses[cid]
    fa, fb = dict(c.formal, **c.readings[a].formal), dict(c.formal, **c.readings[b].formal)
    return {k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k)}


def compare_readings(spec: Spec, cid: str, other: str, budget: Budget = READING) -> Finding:
    """The reading of `cid` in force in `spec` against `other`, by the generic search,
    within `budget` (units of work: the same answer on every run)."""
    from . import turns

    t0 = time.perf_counter()
    clause = spec.clauses[cid]
    current = spec.chosen[cid]
    keys = differing_keys(spec, cid, current, other)
    spec_b = spec.with_readings(dict(spec.chosen, **{cid: other}))
    adopted = clause.adopted
    in_force = "" if current == adopted else f" (this check ran with {current!r} in force)"
    common = dict(id=f"reading:{cid}:{current}/{other}", kind="reading", clauses=[cid], sources=list(clause.source),
                  question=f"do readings {current!r}{' (adopted)' if current == adopted else ''} and {other!r} of "
                           f"{cid} ever give different verdicts?")
    choice = (f"the spec adopts {adopted!r}: {clause.because}{in_force}" if adopted
              else "the spec adopts no reading of this clause")
    if not keys:
        return Finding(**common, verdict="not formalised: both readings carry the same formal content, so no "
                       "verdict of the model can tell them apart", resolved=False, resolution=choice,
                       method="comparison of the readings' formal content", seconds=time.perf_counter() - t0,
                       extra={"told_apart": False, "open": "the readings are not formalised; nothing was searched"})
    fa = dict(clause.formal, **clause.readings[current].formal)
    fb = dict(clause.formal, **clause.readings[other].formal)
    told = tell_apart(spec, spec_b, current, other, budget=budget,
                      targeted=lambda: turns.targeted(spec, spec_b, current, other, fa, fb, keys))
    counts = {"player_counts": told.counts} if told.counts else {}
    if told.apart:
        return Finding(**common, verdict=told.verdict, witness=told.witness, method=told.method,
                       resolved=adopted is not None, resolution=choice,
                       seconds=time.perf_counter() - t0, extra={"told_apart": True, **counts})
    # counts where the rules differ of which no game was compared (not planned, or cut by the budget)
    unplayed = [n for n in (told.counts or {}).get("differ", []) if n not in told.counts["searched"]]
    return Finding(**common, verdict=told.verdict, witness=None, method=told.method, resolved=False,
                   resolution=choice, seconds=time.perf_counter() - t0,
                   extra={"told_apart": False, "bounds": told.bounds, **counts,
                          "open": "nothing searched told the readings apart; that does not show they never differ "
                                  "(a larger bound, or a situation the search did not reach, may)"
                                  + (f"; the readings' rules also differ at {', '.join(map(str, unplayed))} players, "
                                     "where no game was played" if unplayed else "")})


def reading_findings(spec: Spec, bound: int = 6, budget: Budget = READING, progress=None, *,
                     workers: int | None = 1, executor: str = "local", scheduler: str | None = None) -> list[Finding]:
    """Every clause with readings: the reading in force against each other one, each within
    `budget` (`bound` is kept for the callers; the meld search has its own bound). Each
    comparison is a chunk of work (`reading_chunk`) played wherever `workers`,
    `executor` and `scheduler` say (`rulings.executor`), the findings kept in this order."""
    from rulings import executor as ex


    pairs = [(cid, other) for cid, clause in spec.clauses.items() if clause.readings
             for other in clause.readings if other != spec.chosen[cid]]
    key = ex.spec_key(spec)

    def step(k: int) -> None:
        cid, other = pairs[min(k, len(pairs)) - 1]
        progress(f"reading: {k} of {len(pairs)} compared ({cid}: {spec.chosen[cid]} vs {other})")

    out = ex.run(reading_chunk, [(key, cid, other, budget) for cid, other in pairs],
                 executor=executor, workers=workers, scheduler=scheduler, progress=step if progress else None)
    return out.results


__all__ = ["reading_findings", "compare_readings", "differing_keys", "meld_difference", "MELD_KEYS"]


def reading_chunk(job: tuple):
    from rulings.executor import spec_of

    from ..repeatable import repeatable

    key, cid, other, budget = job
    with repeatable():
        return compare_readings(spec_of(key), cid, other, budget)
