"""`rulings check` on the executor: the reading searches, the exploration for gaps and the
what-if alternatives give the same findings at any worker count and on a Dask cluster.

Only the `seconds` fields differ between two runs, as they do between two runs on the
same worker count: they measure time, so the comparison leaves them out."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulings.checks.budget import READING, WHATIF
from rulings.checks.search.whatif import whatif_findings
from rulings.spec import load

BIN = Path(sys.executable).parent


def _timeless(o):
    if isinstance(o, dict):
        return {k: _timeless(v) for k, v in o.items() if k != "seconds"}
    if isinstance(o, list):
        return [_timeless(v) for v in o]
    return o


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "rulings"), "check", *args], capture_output=True, text=True, timeout=900)


def test_check_json_is_the_same_at_one_and_two_workers():
    """The kinds searched without a time budget (exploration is bounded by games and moves):
    the same JSON, `seconds` aside."""
    outs = []
    for w in ("1", "2"):
        p = _check("tick", "--kind", "gap", "--json", "--workers", w)
        assert p.returncode in (0, 1), p.stderr
        outs.append(json.loads(p.stdout))
    assert outs[0]["checks"][0]["findings"], "the exploration found nothing"
    assert _timeless(outs[0]) == _timeless(outs[1])


# one comparison of each way the reading search tells readings apart whose budgets the
# test can lift: Z3 over hands, seeded play, a targeted situation, Z3 over players. (Not
# stalled-level=void: told apart only in Hypothesis-built situations, whose search and
# shrink have wall-clock budgets of their own, 30 s and 10 s, that a loaded machine
# reaches; its verdict differed between one and two workers here at a load of 10.)
PAIRS = [("level-set-size", "exactly"), ("several-lays", "one"), ("stock-empty", "level-ends"),
         ("go-out-timing", "others-have-played"), ("dealer-rotation", "same")]


def test_the_reading_searches_are_the_same_at_one_and_two_workers():
    """The reading searches (as `readings.reading_findings` cuts them, for the pairs above)
    have wall-clock budgets (Z3 and play, 20 s each by default) that a busy machine can
    reach at one worker count and not at another; given budgets they do not reach, the
    findings are the same."""
    from rulings import executor as ex
    from rulings.checks.search.readings import reading_chunk

    spec = load("tick")
    key = ex.spec_key(spec)
    jobs = [(key, cid, other, READING) for cid, other in PAIRS]
    runs = [[_timeless(f.to_json()) for f in ex.run(reading_chunk, jobs, workers=w).results] for w in (1, 2)]
    assert [f["id"] for f in runs[0]] == [f"reading:{c}:{spec.chosen[c]}/{o}" for c, o in PAIRS]
    assert any(f["extra"]["told_apart"] for f in runs[0])
    assert runs[0] == runs[1]


def _whatif(**where) -> tuple[list, str]:
    spec = load("tick")
    found, note = whatif_findings(spec, limit=None, budget=WHATIF.but(hands=2000), only=["lay-when-able", "wild-limit"], texts="/nonexistent", **where)
    return [_timeless(f.to_json()) for f in found], note


@pytest.fixture(scope="module")
def whatif_in_process():
    return _whatif(workers=1)


def test_the_whatif_map_is_the_same_on_local_workers(whatif_in_process):
    found, note = whatif_in_process
    assert found and "already declared" in note and "unsearched" not in note
    assert _whatif(workers=2) == whatif_in_process


def test_the_whatif_map_is_the_same_on_a_dask_cluster(whatif_in_process):
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    assert _whatif(executor="dask", workers=2) == whatif_in_process


def test_a_spent_budget_leaves_every_alternative_unsearched_and_listed():
    spec = load("tick")
    found, note = whatif_findings(spec, limit=0, only=["wild-limit"], workers=2)
    assert not found
    assert "budget of 0 alternatives left" in note and "wild-limit (" in note
    # named once per clause with its count, not once per alternative
    from rulings.checks.search.whatif import alternatives

    n = sum(a.clause == "wild-limit" for a in alternatives(spec))
    assert n > 1 and note.count("wild-limit (") == 1
    assert f"left {n} unsearched, of 1 clause" in note and f"wild-limit ({n} alternatives)" in note


def test_check_names_a_scheduler_nobody_answers_at():
    p = _check("tick", "--kind", "reading", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "127.0.0.1:9" in p.stderr and "Traceback" not in p.stderr
