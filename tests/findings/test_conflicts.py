"""Conflicts between a clause that permits a meld and one whose rule forbids melds: found
with a witness, ruled out for every meld when the rule forbids nothing, and left open,
saying how far the search went, when neither."""
from __future__ import annotations

from rulings.checks.search.conflicts import conflict_findings
from rulings.spec import load


def _by_id(spec, **kw):
    return {f.id: f for f in conflict_findings(spec, **kw)}


def test_a_rule_that_forbids_nothing_never_meets_any_permission():
    found = _by_id(load("level8"))            # adopted: a meld may be wilds alone (naturals >= 0)
    assert found and all(f.resolved and "every meld" in f.verdict for f in found.values())


def test_a_rule_that_forbids_wilds_alone_meets_a_level_in_two_wilds():
    found = _by_id(load("level8", {"wilds-only": "needs-a-number-card"}), hands=200)
    f = found["conflict:levels:wilds-only:same-number"]
    assert f.resolved and f.witness["cards"] == ["W", "W"], f.verdict


def test_a_conflict_not_found_within_the_bound_is_unresolved_and_says_how_far():
    found = _by_id(load("rummikub"), bound=3, hands=100)
    f = found["conflict:further-melds:group-at-most-four"]
    assert not f.resolved
    assert "were not searched" in f.verdict and f.extra["proved_to_bound"] >= 3
