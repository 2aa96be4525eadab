"""Readings, variants and assumptions labelled honestly, and every one of them asked about:
a reading only where the clause cites the text and the alternative is a meaning of it, a
published variant as a variant, an assumption as the rulebook's silence, with what the
text leaves open; each question's answer names what it rests on."""
from __future__ import annotations

from rulings.checks.faq import build as faq
from rulings.checks.faq.render import markdown



def test_each_flag_is_labelled_by_what_the_spec_says(game_faq):
    spec = game_faq.spec
    for e in game_faq.entries:
        for f in e.flags:
            c = spec.clauses[f.clause]
            if c.assumption:
                assert f.kind == "assumption" and f.silent == c.assumption, (e.id, f.clause)
                continue
            assert c.readings, (e.id, f.clause)
            others = list(f.otherwise)
            variants = [n for n in others if c.readings[n].variant]
            assert set(f.variants) == set(variants), (e.id, f.clause)
            assert f.kind == ("variant" if variants and len(variants) == len(others) else "reading"), (e.id, f.clause)
            assert f.reading == spec.chosen[f.clause] and not c.readings[f.reading].variant


def test_the_pages_say_variant_reading_or_silence(game_faq):
    page = markdown(game_faq)
    for e in game_faq.entries:
        for f in e.flags:
            if not f.main:
                continue
            tag = {"variant": "**Variant**", "reading": "**Reading**", "assumption": "**Rulebook silent**"}[f.kind]
            assert f"> {tag} ([{f.clause}](#clause-{f.clause}))" in page, (e.id, f.clause)
            for name in f.variants:
                assert f"published variant “{name}”" in page, (e.id, name)
            if f.kind == "assumption":
                assert "The text leaves open:" in page


def test_an_answer_names_every_reading_that_would_change_it(game_faq, asked):
    """Judged again under each other reading or variant of a clause it is about: where
    the headline would change, the answer says so."""
    asked = asked(game_faq.spec.game)
    for e in game_faq.entries:
        for f in e.flags:
            if f.kind != "assumption" or f.reading:
                assert f.otherwise, (e.id, f.clause)
        q = asked.get(e.id, {})
        for cid in q.get("about", []):
            c = game_faq.spec.clauses[cid]
            if c.assumption and not c.readings:
                assert any(f.clause == cid and f.main for f in e.flags), (e.id, cid)


def test_every_reading_assumption_and_claim_is_asked_about(game_faq):
    spec = game_faq.spec
    main = {f.clause for e in game_faq.entries for f in e.flags if f.main}
    with_alternatives = {cid for cid, c in spec.clauses.items() if c.readings}
    assert with_alternatives <= main, sorted(with_alternatives - main)
    assumptions = {cid for cid, c in spec.clauses.items() if c.assumption}
    conventions = set(game_faq.conventions)
    assert conventions <= assumptions and not conventions & main
    assert assumptions - conventions <= main, sorted(assumptions - conventions - main)
    findings = faq.check_findings(spec)
    linked = {f["id"] for e in game_faq.entries for f in e.findings}
    assert set(findings) == linked, sorted(set(findings) - linked)
    claims = {cid for cid in spec.clauses if "claim" in spec.formal(cid)}
    assert claims <= {f.split(":", 1)[1] for f in linked if f.startswith("claim:")}
    assert not game_faq.missing_links
