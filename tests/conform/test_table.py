"""The table question (`best_play`) in conformance: its vectors, the search that makes a
divergence small, the command line for a game whose turn rules are prose, and
rummikub-solver held to the spec (skipped, saying why, when it is not installed)."""
from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings import rearrange as ra
from rulings.checks.conformance import table as ct, vectors_table as vt
from rulings.checks.conformance.adapters import PythonAdapter
from rulings.checks.conformance.conform import CONFORMS, DIVERGED
from rulings.checks.conformance.vectors import VectorError, read_table_only as read
from rulings.cli import main
from rulings.spec import load

SPEC = load("rummikub")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Faithful:
    """Answers with the spec's Z3 engine (the harness's own check: it must conform)."""

    def __init__(self, drop_wilds: bool = False):
        self.drop_wilds = drop_wilds

    def best_play(self, table, rack, by, initial):
        melds = [SPEC.cards.hand_of(m) for m in table]
        hand = list(SPEC.cards.hand_of(rack))
        if self.drop_wilds:                 # planted: never plays a wild from the rack
            for w in SPEC.cards.wilds:
                hand[w.index] = 0
        counts = tuple(sum(m[t] for m in melds) for t in range(len(hand)))
        p = ra.best(SPEC, (0,) * len(hand) if initial else counts, tuple(hand), by, "z3", initial=initial)
        if not p.possible:
            return {"placed": 0, "table": table}
        new = [SPEC.cards.tokens(SPEC.cards.hand(SPEC.cards.types[t] for t in m.cards)) for m in p.melds]
        return {"placed": p.value, "table": (table + new) if initial else new}


@pytest.fixture(scope="module")
def docs():
    return vt.documents(SPEC)


def test_the_vectors_cover_empty_and_full_tables_initial_melds_and_both_counts(docs):
    cases = docs[vt.FILE]["cases"]
    assert {c["by"] for c in cases} == set(ra.BY) and {c["initial"] for c in cases} == {True, False}
    assert max(sum(map(len, c["table"])) for c in cases) >= 45 and min(sum(map(len, c["table"])) for c in cases) == 0
    assert any(c["placed"] > 0 for c in cases if c["initial"]) and any(c["placed"] == 0 for c in cases)
    for c in cases:                       # each witness table is a legal result placing what the vector says
        assert not ct.check_answer(SPEC, [SPEC.cards.hand_of(m) for m in c["table"]], SPEC.cards.hand_of(c["rack"]),
                                   c["by"], c["initial"], c["placed"], {"placed": c["placed"], "table": c["table_after"]})
    assert vt.documents(SPEC) == docs     # seeded: the same files every time
    assert vt.documents(load("tick")) == {}


def test_the_spec_engine_conforms(docs):
    report = ct.conform(SPEC, PythonAdapter(Faithful()), docs, random_cases=12, seed=1)
    assert report.outcome == CONFORMS, [d.signature for d in report.divergences]
    assert report.vectors["best_play"]["pass"] == len(docs[vt.FILE]["cases"])


def test_a_planted_error_is_found_and_made_small(docs):
    report = ct.conform(SPEC, PythonAdapter(Faithful(drop_wilds=True)), docs, random_cases=40, seed=2)
    assert report.outcome == DIVERGED
    found = [d for d in report.divergences if "places less" in d.signature and "initial" not in d.signature]
    assert found, [d.signature for d in report.divergences]
    for d in found:
        small = d.outcome.situation
        assert "J" in small["rack"]                        # the wild it will not play is what is left
        assert len(small["rack"]) + sum(map(len, small["table"])) <= 6, small


def test_a_wrong_table_is_caught_even_when_the_count_is_right():
    h = SPEC.cards.hand_of
    melds, rack = [h("k7 k8 k9".split())], h(["k10"])
    assert ct.check_answer(SPEC, melds, rack, "cards", False, 1, {"placed": 1, "table": [["k8", "k9", "k10"]]})
    assert not ct.check_answer(SPEC, melds, rack, "cards", False, 1, {"placed": 1, "table": [["k7", "k8", "k9", "k10"]]})
    assert ct.check_answer(SPEC, melds, rack, "cards", False, 1, {"placed": True})[0].startswith("not an answer")


def _rulings(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """`rulings vectors rummikub -o DIR`, run once for the tests below."""
    out = tmp_path_factory.mktemp("rummikub") / "v"
    code, said = _rulings("vectors", "rummikub", "-o", str(out))
    assert code == 0, said
    return out


def test_the_command_line_writes_table_vectors_and_conforms_a_faithful_adapter(written, tmp_path):
    out = written
    assert "best_play.json" in [p.name for p in out.iterdir()]       # beside the move, game and score vectors
    adapter = tmp_path / "faithful.py"
    adapter.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_table import Faithful
        def factory():
            return Faithful()
    """))
    code, said = _rulings("conform", "rummikub", "--adapter", f"{adapter}:factory", "--vectors", str(out),
                          "--random", "4", "--allow-unsupported")
    assert code == 0, said
    assert "best_play 16 pass" in said and "conforms" in said


def test_a_tampered_vectors_folder_is_refused(written, tmp_path):
    folder = tmp_path / "v"
    shutil.copytree(written, folder)
    assert read(folder)[vt.FILE] == json.loads((written / vt.FILE).read_text())
    doc = json.loads((folder / vt.FILE).read_text())
    doc["cases"][0]["placed"] += 1
    (folder / vt.FILE).write_text(json.dumps(doc))
    with pytest.raises(VectorError, match="SHA-256"):
        read(folder)


# ---- rummikub-solver (PyPI), held to the spec ----------------------------------------------------

def _package():
    try:
        sys.path.insert(0, str(EXAMPLES))
        from rummikub_solver_adapter import factory
        return factory()
    except ImportError as e:
        pytest.skip(f"rummikub-solver is not installed ({e}); `pip install -e '.[test]'` installs it")
    finally:
        sys.path.remove(str(EXAMPLES))


def test_rummikub_solver_answers_every_vector_and_agrees_without_jokers_by_cards(docs):
    pkg = PythonAdapter(_package())
    report = ct.conform(SPEC, pkg, docs, random_cases=0)
    assert not report.errors, [o.error for o in report.errors]
    assert report.answered == len(docs[vt.FILE]["cases"])
    # its integer program is den Hertog and Hulshof's: on joker-free positions, counted in
    # tiles and after the initial meld, it must place what the spec says is the most
    for seed in range(8):
        melds, table, rack = ct.position(SPEC, 500 + seed, 30, 14)
        if any(table[w.index] + rack[w.index] for w in SPEC.cards.wilds):
            continue
        out = ct.ask(SPEC, pkg, f"nojoker:{seed}", melds, rack, "cards", False)
        assert out.status == "pass", out.differences


def test_rummikub_solver_divergences_are_each_made_small(docs):
    pkg = PythonAdapter(_package())
    report = ct.conform(SPEC, pkg, docs, random_cases=30, seed=1)
    assert not report.errors
    for d in report.divergences:           # every kind the search met is shrunk to a handful of tiles
        s = d.outcome.situation
        assert len(s["rack"]) + sum(map(len, s["table"])) <= 8, (d.signature, s)
