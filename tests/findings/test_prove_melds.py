"""Level 8's meld witnesses (7 and 8 cards, past what hand-by-hand search completes) are
proven the smallest: Z3 shows that no hand of fewer cards is judged otherwise, and the
finding says "smallest: proven". The proof is not vacuous: asked about one size more, it
finds the witness's size holds a hand that differs, and both deciders confirm that hand."""
from __future__ import annotations

import pytest

from rulings.checks.budget import READING
from rulings import reference, z3melds
from rulings.checks.search.prove_melds import prove_smallest
from rulings.checks.search.readings import compare_readings
from rulings.checks.search.melds import _contract_order, _deck, _differs, _least
from rulings.spec import load

CASES = [("level-set-size", "exactly"), ("level-sets-same-number", "distinct")]


@pytest.mark.parametrize("cid,other", CASES, ids=[c for c, _ in CASES])
def test_level8_meld_witness_is_proven_smallest(cid, other):
    spec = load("level8")
    spec_b = spec.with_readings(dict(spec.chosen, **{cid: other}))
    f = compare_readings(spec, cid, other, budget=READING.but(hands=6000, situations=0))
    assert f.extra["told_apart"] and "cards" in f.witness, f.verdict
    assert f.verdict.endswith("smallest: proven"), f.verdict
    hand = spec.cards.hand_of(f.witness["cards"])
    name = f.witness["contract"]
    n = sum(hand)
    assert n >= 7
    ra = reference.decide(spec, spec.contracts[name], hand).legal
    rb = reference.decide(spec_b, spec_b.contracts[name], hand).legal
    assert ra != rb
    # the proof over the sizes below n, from scratch (nothing enumerated)
    names = [k for k in _contract_order(spec) if _differs(spec, spec_b, k)]
    least = {k: min(_least(spec, k), _least(spec_b, k)) for k in names}
    pr = prove_smallest(spec, spec_b, names, least, n, 5, _deck(spec, spec_b))
    assert pr.proven and all(pr.sizes[k] == "proven" for k in range(6, n)), pr.words()
    # not vacuous: asked whether n + 1 is the smallest, it meets a hand of n cards that differs
    more = prove_smallest(spec, spec_b, names, least, n + 1, n - 1, _deck(spec, spec_b))
    assert more.smaller is not None and not more.proven, more.words()
    small, cname, la, lb = more.smaller
    assert sum(small) == n
    assert z3melds.decide(spec, spec.contracts[cname], small).legal == la
    assert z3melds.decide(spec_b, spec_b.contracts[cname], small).legal == lb
    assert reference.decide(spec, spec.contracts[cname], small).legal == la
    assert reference.decide(spec_b, spec_b.contracts[cname], small).legal == lb
