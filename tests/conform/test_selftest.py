"""`rulings conform --self-test`: the spec's own mutants, run as implementations."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulings.checks.conformance import conform, mutants, selftest
from rulings.checks.conformance.adapters import PythonAdapter
from rulings.cli import main


def _mutant(spec, mid):
    found = [m for m in mutants.mutants(spec) if m.id == mid]
    assert found, mid
    return found[0]


def test_the_spec_itself_conforms(spec, docs):
    """The spec's kernel as an implementation passes its own vectors and search: a mutant
    that is killed is killed for its change, not for how it is asked."""
    report = conform.conform(spec, PythonAdapter(mutants.SpecImplementation(spec)), docs, 30, 0)
    assert report.outcome == conform.CONFORMS, [o.to_json() for o in report.problems[:3]] + \
        [d.signature for d in report.divergences]


def test_one_mutant_per_reading_not_in_force_and_per_clause(spec):
    ms = mutants.mutants(spec)
    ids = {m.id for m in ms}
    for cid, c in spec.clauses.items():
        assert f"drop {cid}" in ids
        for name in c.readings:
            assert (f"reading {cid}={name}" in ids) == (name != spec.chosen[cid])
    assert len(ids) == len(ms)


def test_each_kind_of_mutant_is_classified(spec, docs):
    killed = selftest.judge(spec, _mutant(spec, "reading go-out-timing=others-have-played"), docs, 0, 0)
    assert killed.status == selftest.KILLED and killed.by
    assert selftest.judge(spec, _mutant(spec, "drop card-kinds"), docs, 0, 0).status == selftest.NOT_LOADING
    unplayable = selftest.judge(spec, _mutant(spec, "drop players"), docs, 0, 0)
    assert unplayable.status == selftest.NOT_PLAYABLE and "how many" in unplayable.why
    same = selftest.judge(spec, _mutant(spec, "drop claim-score-example"), docs, 0, 0)
    assert same.status == selftest.SAME


def test_a_mutant_no_question_reaches_survives(spec, docs):
    """With no vectors and no search nothing is asked, so a play-changing mutant survives."""
    empty = {name: {**doc, "cases": []} if name != "manifest.json" else doc for name, doc in docs.items()}
    r = selftest.judge(spec, _mutant(spec, "reading go-out-timing=others-have-played"), empty, 0, 0)
    assert r.status == selftest.SURVIVED


def _only(monkeypatch, spec, *ids):
    chosen = [m for m in mutants.mutants(spec) if m.id in ids]
    assert len(chosen) == len(ids)
    monkeypatch.setattr(mutants, "SOURCES", [])
    mutants.add_source(lambda s: chosen)     # the seam another kind of alternative comes in by


def test_cli_prints_the_score_and_the_survivors(monkeypatch, spec, vectors_dir):
    _only(monkeypatch, spec, "reading go-out-timing=others-have-played", "drop claim-score-example")
    res = CliRunner().invoke(main, ["conform", "--self-test", "tick", "--vectors", str(vectors_dir), "--random", "0"])
    assert res.exit_code == 0, res.output
    assert "score: 1 of 1 playable mutants killed" in res.output and "time:" in res.output
    assert "reading go-out-timing=others-have-played" in res.output
    res = CliRunner().invoke(main, ["conform", "--self-test", "tick", "--vectors", str(vectors_dir), "--random", "0",
                                    "--json"])
    data = json.loads(res.output)
    assert data["killed"] == 1 and data["playable"] == 1 and data["counts"]["same play"] == 1


def test_cli_exits_1_when_a_mutant_survives(monkeypatch, spec, tmp_path, docs):
    from rulings.checks.conformance import vectors

    _only(monkeypatch, spec, "reading go-out-timing=others-have-played")
    folder = vectors.write({**docs, "moves.json": {**docs["moves.json"], "cases": []},
                            "games.json": {**docs["games.json"], "cases": []}}, tmp_path / "v")
    # the manifest's counts and digests no longer match: the vectors are refused before any run
    res = CliRunner().invoke(main, ["conform", "--self-test", "tick", "--vectors", str(folder), "--random", "0"])
    assert res.exit_code == 2
    monkeypatch.setattr(selftest.vectors, "generate", lambda s, **where: {
        **docs, "moves.json": {**docs["moves.json"], "cases": []}, "games.json": {**docs["games.json"], "cases": []}})
    res = CliRunner().invoke(main, ["conform", "--self-test", "tick", "--random", "0"])
    assert res.exit_code == 1, res.output
    assert "survivors" in res.output and "reading go-out-timing=others-have-played" in res.output


@pytest.mark.parametrize("extra", [["--adapter", "x.py:factory"], ["--cmd", "node x.js"]])
def test_self_test_takes_no_implementation(extra):
    res = CliRunner().invoke(main, ["conform", "--self-test", "tick", *extra])
    assert res.exit_code == 2 and "leave out --adapter and --cmd" in res.output


def test_what_if_alternatives_are_mutants_once_each(spec):
    """The discovery check's what-if alternatives come in through `add_source`; one that a
    declared reading, a dropped clause or a stepped number already makes is not repeated."""
    from rulings.checks.search import whatif

    ms = mutants.mutants(spec)
    ids = [m.id for m in ms]
    assert len(ids) == len(set(ids))
    whatifs = [m for m in ms if m.kind == "what-if"]
    assert whatifs and mutants.whatif_mutants in mutants.SOURCES
    steps = {m.id for m in ms if m.kind == "step"}
    assert not {m.id.replace("what-if ", "step ", 1) for m in whatifs} & steps
    declared = [a for a in whatif.alternatives(spec) if a.path and whatif._declared(spec, a)]
    assert declared and not {f"what-if {a.clause}:{'.'.join(map(str, a.path))}={a.now}" for a in declared} & set(ids)
    # every alternative of a comparison or an enumerated field that is not a reading is a mutant
    for a in whatif.alternatives(spec):
        if a.path and isinstance(a.was, str) and not whatif._declared(spec, a):
            assert f"what-if {a.clause}:{'.'.join(map(str, a.path))}={a.now}" in ids


def test_a_what_if_mutant_is_built_and_killed(spec, docs):
    m = _mutant(spec, "what-if go-out-timing:go_out.when=turns_finished > players")
    assert m.build().formal("go-out-timing") != spec.formal("go-out-timing")
    r = selftest.judge(spec, m, docs, 0, 0)
    assert r.status == selftest.KILLED and r.by.startswith("vector"), r


def test_the_next_dealer_is_asked(spec, docs):
    """A round_over answer names the next dealer, so a reading of who deals next is killed."""
    for name in ("right", "same"):
        r = selftest.judge(spec, _mutant(spec, f"reading dealer-rotation={name}"), docs, 0, 0)
        assert r.status == selftest.KILLED and "next_dealer" in r.by, r


def test_a_survivor_is_searched_for_a_difference_in_play(spec, docs):
    """With nothing asked, a reading that changes play survives and the generic search
    tells it apart (it stays a survivor, with the finding); a change the search cannot tell
    apart is 'not told apart', with the bound searched, and leaves the score."""
    empty = {name: {**doc, "cases": []} if name != "manifest.json" else doc for name, doc in docs.items()}
    changes = selftest.judge(spec, _mutant(spec, "reading go-out-timing=others-have-played"), empty, 0, 0)
    changes = selftest.searched(spec, changes, 3.0)
    assert changes.status == selftest.SURVIVED and changes.why.startswith("changes play: they disagree")
    same = selftest.searched(spec, selftest.judge(spec, _mutant(spec, "drop several-lays"), empty, 0, 0), 3.0)
    assert same.status == selftest.NOT_TOLD and "not told apart within the bound" in same.why
    st = selftest.SelfTest(spec.game, 0, 0, [changes, same])
    assert st.score == (0, 1)
    text = selftest.text(st)
    assert "not told apart:\n  drop several-lays" in text and "changes play" in text
