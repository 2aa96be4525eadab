"""`rulings conform --self-test` on the executor: its mutants, independent of each other, are
chunks of work, and a seeded self-test gives the same verdict on every mutant at any
worker count and on a Dask cluster.

The vectors are left empty here (generating them takes longer than this test may), so
each mutant is judged by the differential search alone: the Hypothesis-driven part, the
one whose answers could depend on where it ran. The `seconds` fields measure time and
are left out of the comparison."""
from __future__ import annotations

import pytest

from rulings.checks.conformance import mutants as mut, selftest, vectors
from rulings.spec import load


def _timeless(o):
    if isinstance(o, dict):
        return {k: _timeless(v) for k, v in o.items() if "seconds" not in k}
    if isinstance(o, list):
        return [_timeless(v) for v in o]
    return o


@pytest.fixture(scope="module")
def spec():
    return load("tick")


@pytest.fixture(scope="module")
def picked(spec) -> set:
    """Every 36th mutant: readings, dropped clauses, steps and what-if alternatives alike."""
    return {m.id for m in mut.mutants(spec)[::36]}


def _self_test(spec, picked, **where) -> dict:
    docs = {name: {"cases": []} for name in vectors.FILES.values()}
    st = selftest.self_test(spec, 15, 3, docs, only=lambda m: m.id in picked, search_survivors=0, **where)
    return _timeless(st.to_json())


@pytest.fixture(scope="module")
def in_process(spec, picked) -> dict:
    return _self_test(spec, picked, workers=1)


def test_the_self_test_judges_the_picked_mutants_in_their_order(in_process, picked, spec):
    assert [m["mutant"] for m in in_process["mutants"]] == [m.id for m in mut.mutants(spec) if m.id in picked]
    assert in_process["counts"]["killed"] >= 1, in_process["counts"]


def test_local_workers_give_the_same_self_test(spec, picked, in_process):
    assert _self_test(spec, picked, workers=2) == in_process


def test_a_dask_cluster_gives_the_same_self_test(spec, picked, in_process):
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    assert _self_test(spec, picked, executor="dask", workers=2) == in_process
