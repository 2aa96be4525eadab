"""The checks' searches cut into chunks of work for `rulings.executor`.

A chunk names its spec by `executor.spec_key` (a worker that does not hold the spec
loads it again from where it came from) and carries everything else the search needs,
so a chunk gives the same answer on whichever worker plays it; the results are merged by
the caller in the chunks' order, so a check's findings are the same at any worker count.
A chunk whose search Hypothesis drives runs it `repeatable` (its draws depend on its seed
alone, not on what the worker ran before).

- `reading_chunk`: one clause's reading in force against one other reading
  (`readings.compare_readings`).
- `mutant_chunk`: consecutive mutants of `conform --self-test` (`selftest.one_mutant`).
- `whatif_chunk`: one alternative of the what-if map (`whatif.search_alternative`), with
  its budget in units of work (`budget.Budget`); the sweep's own budget (how many
  alternatives are searched) is applied before the chunks are made, so the same
  alternatives are searched on every run.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from .conform_chunks import repeatable

_data: dict = {}        # spec file -> its YAML, read once per worker process


def reading_chunk(job: tuple):
    from rulings.executor import spec_of

    from .readings import compare_readings

    key, cid, other, budget = job
    with repeatable():
        return compare_readings(spec_of(key), cid, other, budget)


def mutant_chunk(job: tuple) -> list[tuple]:
    """Consecutive mutants of `selftest.self_test` (by their place in `mutants.mutants`),
    each judged as `selftest.one_mutant` judges it: (status, by, why, seconds) each."""
    from rulings.executor import spec_of

    from . import mutants as mut
    from .selftest import one_mutant

    key, indices, docs, random_cases, seed, search_survivors = job
    spec = spec_of(key)
    every = mut.mutants(spec)
    out = []
    for i in indices:
        with repeatable():
            r = one_mutant(spec, every[i], docs, random_cases, seed, search_survivors)
        out.append((r.status, r.by, r.why, r.seconds))
    return out


def whatif_chunk(job: tuple) -> tuple:
    """("declared" | "rejected" | "quiet" | "finding", what: words or a Finding)."""
    from rulings.executor import spec_of

    from .whatif import search_alternative, spec_data

    key, alt, budget = job
    spec = spec_of(key)
    if spec.file not in _data:
        _data[spec.file] = spec_data(spec)
    with tempfile.TemporaryDirectory(prefix="rulings-whatif-") as tmp:
        with repeatable():
            return search_alternative(spec, alt, Path(tmp), _data[spec.file], budget)
