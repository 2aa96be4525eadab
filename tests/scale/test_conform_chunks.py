"""`rulings conform` on the executor: the differential search, cut into seeded batches (each
asked of an implementation started in the worker that plays it, and shrunk there), gives
the same report at any worker count and on a Dask cluster.

The comparison leaves out the fields that measure time (`seconds`, `implementation_seconds`,
`cases_per_second`), which differ between two runs on the same worker count too."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulings.checks.conformance import conform, chunks as cc
from rulings.spec import load

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PLANTED = f"{ROOT / 'examples' / 'tick_planted.py'}:factory"


def _timeless(o):
    if isinstance(o, dict):
        return {k: _timeless(v) for k, v in o.items() if "seconds" not in k and k != "cases_per_second"}
    if isinstance(o, list):
        return [_timeless(v) for v in o]
    return o


def _search(**where) -> dict:
    spec = load("tick")
    recipe = cc.Recipe(PLANTED, None, 10.0, spec.game)
    report = conform.Report(spec.game, "planted", dict(spec.chosen))
    adapter = recipe.start()
    try:
        families = ("meld", "move")
        cc.search(spec, adapter, recipe, 40, 5, report, families, hunt=conform.hunt,
                  active=conform.searchable(spec, adapter, families, report), **where)
    finally:
        adapter.close()
    return {"divergences": [d.to_json() for d in report.divergences], "requests": adapter.requests,
            "search": {f: (s.cases, dict(s.errors), dict(s.players), s.skipped_by_adapter, s.stopped)
                       for f, s in report.search.items()}}


@pytest.fixture(scope="module")
def in_process() -> dict:
    return _search(workers=1)


def test_the_batched_search_finds_the_planted_errors(in_process):
    found = [d["family"] for d in in_process["divergences"]]
    assert "meld" in found and "move" in found, in_process["divergences"]
    assert all(d["shrunk"]["status"] == "fail" for d in in_process["divergences"])
    assert all(in_process["search"][f][0] > 0 for f in ("meld", "move"))


def test_local_workers_give_the_same_search(in_process):
    assert _search(workers=2) == in_process


def test_a_dask_cluster_gives_the_same_search(in_process):
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    assert _search(executor="dask", workers=2) == in_process


def test_batches_do_not_depend_on_the_worker_count():
    assert cc.batches(60) == [25, 25, 10] and sum(cc.batches(1000)) == 1000 and cc.batches(0) == []


@pytest.fixture(scope="module")
def vectors_dir(tmp_path_factory) -> Path:
    """A vectors folder with its manifest and no cases: the runs below are about the search
    (generating the full vectors takes longer than these tests may; `rulings vectors` is
    compared at one and two workers below, on a smaller game)."""
    from rulings.checks.conformance import vectors

    spec = load("tick")
    docs = {name: vectors._doc(spec, family, []) for family, name in vectors.FILES.items()}
    docs["manifest.json"] = vectors.manifest(spec, 1, docs, [])
    return vectors.write(docs, tmp_path_factory.mktemp("vectors") / "tick")


def test_conform_json_is_the_same_at_one_and_two_workers(vectors_dir):
    outs = []
    for w in ("1", "2"):
        p = subprocess.run([str(BIN / "rulings"), "conform", "tick", "--adapter", PLANTED, "--vectors",
                            str(vectors_dir), "--random", "15", "--seed", "2", "--json", "--workers", w],
                           capture_output=True, text=True, timeout=900)
        assert p.returncode == 1, p.stderr          # the planted errors: diverged
        outs.append(json.loads(p.stdout))
    assert outs[0]["divergences"] and outs[0]["search"]["move"]["cases"] > 0
    assert _timeless(outs[0]) == _timeless(outs[1])


def test_conform_names_a_scheduler_nobody_answers_at(vectors_dir):
    p = subprocess.run([str(BIN / "rulings"), "conform", "tick", "--adapter", PLANTED, "--vectors", str(vectors_dir),
                        "--random", "5", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "127.0.0.1:9" in p.stderr and "Traceback" not in p.stderr


def test_vectors_are_the_same_files_at_one_and_two_workers(tmp_path):
    """Garbage: its reading searches (seven, on the executor) give vectors in seconds."""
    folders = []
    for w in ("1", "2"):
        out = tmp_path / f"w{w}"
        p = subprocess.run([str(BIN / "rulings"), "vectors", "garbage", "-o", str(out), "--workers", w],
                           capture_output=True, text=True, timeout=900)
        assert p.returncode == 0, p.stderr
        folders.append(out)
    names = sorted(f.name for f in folders[0].iterdir())
    assert names and names == sorted(f.name for f in folders[1].iterdir())
    for name in names:
        assert (folders[0] / name).read_bytes() == (folders[1] / name).read_bytes(), name
