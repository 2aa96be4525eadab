"""The what-if map finds the other ways to write a clause that play notices, leaves out
what the spec already declares as a reading, and its witnesses replay."""
from __future__ import annotations

import tempfile
from pathlib import Path

import yaml

from rulings.checks.budget import WHATIF
from rulings.checks.search.play import replay
from rulings.checks.search.whatif import alternatives, build, whatif_findings
from rulings.spec import load
from rulings.specfile import Loader


def _spec_of(spec, f):
    """The alternative a finding names, built again from the spec file."""
    alt = next(a for a in alternatives(spec) if a.key == f.id)
    data = yaml.load(Path(spec.file).read_text(), Loader=Loader)
    folder = Path(tempfile.mkdtemp(prefix="rulings-test-whatif-"))
    return build(spec, alt, folder, data)


def test_an_alternative_play_notices_is_found_and_its_witness_replays():
    """Who may receive matching cards is an enum of the schema: its other value changes
    play, and no reading of the clause declares it."""
    spec = load("tick")
    cid = next(c for c in spec.clauses if "lay_off" in (spec.formal(c).get("moves", {}).get("lay") or {}))
    found, note = whatif_findings(spec, limit=None, budget=WHATIF.but(hands=2000), only=[cid],
                                  texts="/no-rulebooks-here")
    assert found, note
    changed = [f for f in found if f.extra["path"][-1] == "onto"]
    assert changed, [f.id for f in found]
    f = changed[0]
    assert not f.resolved and f.kind == "what-if" and f.clauses == [cid]
    other = _spec_of(spec, f)
    data = f.witness["replay"]
    assert replay(spec, data) != replay(other, data)
    assert "of 8 games played" in f.verdict or "games played" in f.extra["how_often"]


def test_a_declared_reading_is_not_reported_again():
    """lay-when-able's schema allows `compulsory: true`, which its reading `compulsory`
    already declares: the map must count it as examined, not report it."""
    spec = load("tick")
    cid = "lay-when-able"
    alts = [a for a in alternatives(spec) if a.clause == cid and a.path]
    assert alts and all(a.path[-1] == "compulsory" for a in alts)
    found, note = whatif_findings(spec, limit=None, budget=WHATIF.but(hands=2000), only=[cid],
                                  texts="/no-rulebooks-here")
    assert not [f for f in found if f.extra["path"]], [f.id for f in found]
    assert "1 already declared readings" in note


def test_a_meld_alternative_is_found_with_the_fewest_cards():
    """The wild limit's comparison tightened by one: Z3 finds the smallest hand whose
    lay-down the two versions judge otherwise."""
    from rulings import reference

    spec = load("tick")
    found, note = whatif_findings(spec, limit=None, budget=WHATIF.but(hands=2000), only=["wild-limit"],
                                  texts="/no-rulebooks-here")
    tight = [f for f in found if f.extra["path"] and f.extra["path"][-1] == "expr"]
    assert tight, note
    f = tight[0]
    other = _spec_of(spec, f)
    hand = spec.cards.hand_of(f.witness["cards"])
    k = f.witness["contract"]
    assert reference.decide(spec, spec.contracts[k], hand).legal != reference.decide(other, other.contracts[k], hand).legal


def test_a_packaged_spec_is_read_from_any_working_directory(tmp_path, monkeypatch):
    """`rulings check GAME` run outside the checkout: the what-if search and the
    translation check read the packaged spec where the package is, not `spec/` under the
    working directory (a full check there once stopped on spec/GAME.yaml not found)."""
    from rulings.checks.text import lexicon as translation_lexicon
    from rulings.checks.search import whatif

    spec = load("tick")
    monkeypatch.chdir(tmp_path)
    assert whatif.spec_data(spec)["game"] == spec.game
    found = translation_lexicon.game_path(spec)
    assert found is not None and found.is_file()


def test_an_alternative_the_words_admit_is_a_proposed_reading():
    """With the rulebook text, the alternatives some word of the cited lines admits are
    searched first; one that play notices is a proposed reading, in the rule writer's
    terms (the line, the word, the spec's reading, the other, the witness); the ones no
    word supports are one line per clause in the note, not findings."""
    import os

    books = os.environ.get("RULINGS_RULEBOOKS")
    if not books or not (Path(books) / "tick.txt").is_file():
        import pytest
        pytest.skip("needs the rulebook texts (RULINGS_RULEBOOKS)")
    spec = load("tick")
    found, note = whatif_findings(spec, limit=None, only=["matching-cards", "wild-limit"], texts=books)
    proposed = {f.id: f for f in found}
    assert all(f.kind == "proposed" for f in found), [f.id for f in found]
    f = proposed["proposed:matching-cards:moves.lay.lay_off.onto=own"]
    assert f.verdict.startswith("tick.txt:") and "the spec reads matching-cards as" in f.verdict.lower()
    assert "the text also admits moves.lay.lay_off.onto = own" in f.verdict
    assert any(c["line"] in ("tick.txt:40", "tick.txt:17", "tick.txt:67") for c in f.extra["cues"])
    assert f.witness and "replay" in f.witness
    # the spec settles it: tick.txt:40 speaks of cards laid by another player
    assert f.resolved and f.resolution.startswith("ruled out by tick.txt:40")
    # the tightened wild limit is a what-if no word supports: summed up, not reported
    assert not [x for x in found if x.clauses == ["wild-limit"] and "expr" in x.id]
    assert "wild-limit: " in note and "that no word of its lines supports" in note


def test_a_spec_shipping_its_rules_text_has_its_alternatives_built(tmp_path, monkeypatch):
    """A spec whose rules text lies in `rules/` beside its file (the project's own games)
    is copied with that text in reach: with a rulebooks folder that lacks it, the loader
    checks the citation beside the copy, and the alternative loads."""
    from rulings.checks.search.whatif import spec_data

    monkeypatch.setenv("RULINGS_RULEBOOKS", str(tmp_path / "no-such-texts"))
    (tmp_path / "no-such-texts").mkdir()
    spec = load("crazy-eights")
    data = spec_data(spec)
    loaded = 0
    for alt in alternatives(spec)[:12]:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                build(spec, alt, Path(tmp), data)
                loaded += 1
            except Exception as e:      # the schema may reject some; never for the rulebook
                assert "not found" not in str(e), e
    assert loaded > 0


def test_a_declared_reading_costs_none_of_the_what_if_budget():
    """Tick's lay-when-able has two alternatives: compulsory (a reading the spec declares)
    and the clause dropped. A budget of one alternative searches the dropped clause in
    play; the declared reading is counted as declared, and nothing is left unsearched."""
    spec = load("tick")
    found, note = whatif_findings(spec, limit=1, budget=WHATIF.but(hands=2000), only=["lay-when-able"],
                                  texts="/nonexistent")
    assert "1 already declared readings" in note
    assert "1 not told apart" in note and "lay-when-able (the clause dropped)" in note
    assert "unsearched" not in note
    _, spent = whatif_findings(spec, limit=0, only=["lay-when-able"], texts="/nonexistent")
    assert "left 2 unsearched" in spent
