"""Hand-checked verdicts of the reference decider on Tick."""
import pytest

from rulings import reference
from rulings.spec import load


def verdict(spec, level, cards):
    return reference.decide(spec, spec.contract(level=level), spec.cards.hand_of(cards.split()))


@pytest.mark.parametrize("level,cards,legal", [
    (3, "5 5 SW BW", True),
    (3, "5 SW SW BW", False),
    (1, "5 5 5 7 7 7", True),
    (1, "5 5 5 7", False),
    (1, "5 5 5 SW", True),
    (1, "5 5 SW SW SW", True),       # a set of four and a wild on its own
    (1, "5 SW", False),
    (2, "5 5 5 5 5 5", True),
    (2, "5 5 5 5 5", False),
    (8, "1 1 1 1 SW BW 2 2 2 2 SW SW", True),
    (8, "1 1 1 1 SW BW 2 2 2 SW SW SW", True),
    (8, "1 1 1 1 SW BW 2 2 SW SW SW SW", False),
    (4, "B B SW SW 9 9 9 9", True),
])
def test_tick_verdicts(tick, level, cards, legal):
    v = verdict(tick, level, cards)
    assert v.legal is legal
    if legal:
        laid = sorted(t for m in v.melds for t in m.cards)
        hand = tick.cards.hand_of(cards.split())
        assert laid == sorted(i for i, n in enumerate(hand) for _ in range(n))
        assert sum(m.required for m in v.melds) == len(tick.contract(level=level).required)


def test_wild_limit_is_cited(tick):
    v = verdict(tick, 3, "5 SW SW BW")
    assert [x.clause for x in v.violations] == ["wild-limit"]
    assert "tick.txt:19" in v.violations[0].source


def test_a_reading_changes_the_verdict(tick):
    distinct = load("tick", {"level-sets-same-rank": "distinct"})
    assert verdict(tick, 2, "5 5 5 5 5 5").legal
    assert not verdict(distinct, 2, "5 5 5 5 5 5").legal
    no_alone = load("tick", {"wilds-alone": "into-sets"})
    assert verdict(tick, 1, "5 5 SW SW SW").legal
    assert not verdict(no_alone, 1, "5 5 SW SW SW").legal


def test_best_lay_keeps_a_card_to_discard(tick):
    hand = tick.cards.hand_of("5 5 5 7 7 7 9".split())
    v = reference.best_lay(tick, tick.contract(level=1), hand)
    assert v.legal and v.points == 15 + 30
    assert [tick.cards.types[t].token for t in v.kept] == ["9"]


def test_best_lay_level_8_on_eleven_cards_is_impossible(tick):
    hand = tick.cards.hand_of("1 1 1 1 1 1 2 2 2 2 2".split())
    assert reference.best_lay(tick, tick.contract(level=8), hand).legal is False


# ---- like-card contracts: the per-cell computation against the general search ----------------

def random_hands(spec, rng, count, most=14):
    deck = spec.deck()
    for _ in range(count):
        attr = rng.choice(list(spec.cards.attributes))      # naturals sharing a few values of one attribute
        values = rng.sample(list(spec.cards.attributes[attr]), rng.randint(1, 4))
        palette = [t for t in spec.cards.naturals if t.attrs[attr] in values] + list(spec.cards.wilds)
        hand = [0] * len(spec.cards.types)
        for _ in range(rng.randint(1, most)):
            t = rng.choice(palette)
            hand[t.index] = min(hand[t.index] + 1, deck[t.index] or 99)
        yield tuple(hand)


@pytest.mark.parametrize("game,choices", [
    ("tick", {}), ("tick", {"wilds-alone": "into-sets"}), ("tick", {"level-sets-same-rank": "distinct"}),
    ("tick", {"level-set-size": "exactly"}), ("level8", {}), ("level8", {"wilds-only": "needs-a-number-card"}),
])
def test_like_card_contracts_agree_with_the_general_search(game, choices):
    import dataclasses
    import random

    from tests.unit.test_z3melds import check_lay

    spec = load(game, choices)
    rng = random.Random(3)
    compiled, legal = 0, 0
    for name in sorted(spec.contracts):
        for contract in (spec.contracts[name], dataclasses.replace(spec.contracts[name], required=())):
            plan = reference._like(spec, contract)
            if plan is None:
                continue
            compiled += 1
            for hand in random_hands(spec, rng, 60):
                fast = plan.legal(hand)
                assert fast == (reference._Search(spec, contract, hand).run() is not None), \
                    (name, spec.cards.tokens(hand))
                if fast:
                    legal += 1
                    check_lay(spec, contract, hand, reference._order(plan.melds(hand)))
    assert compiled >= 2 and legal >= 3, (compiled, legal)


def test_which_contracts_are_compiled(tick):
    assert all(reference._like(tick, c) is not None for c in tick.contracts.values())
    per_lay = load("tick", {"wild-limit": "per-lay-down"})          # a rule over the whole lay-down
    assert reference._like(per_lay, per_lay.contract(level=1)) is None
    rk = load("rummikub")                                           # runs and distinct colours
    assert all(reference._like(rk, c) is None for c in rk.contracts.values())
    l8 = load("level8")
    assert reference._like(l8, l8.contract(level=2)) is not None    # pairs only
    assert reference._like(l8, l8.contract(level=1)) is None        # runs


def test_explanations_reuse_the_relaxed_tables(tick):
    """The relaxed contracts an explanation tries are made once per contract and kept."""
    contract = tick.contract(level=3)
    hand = tick.cards.hand_of("5 SW SW BW".split())
    first = reference._relaxations(tick, contract)
    assert [x.clause for x in reference.explain(tick, contract, hand)] == ["wild-limit"]
    assert reference._relaxations(tick, contract) is first
    relaxed_specs = {id(r[0]) for _, r in first if r is not None}
    assert id(tick) in relaxed_specs           # a relaxation that keeps the meld kinds keeps the spec


@pytest.mark.parametrize("game,choices", [
    ("tick", {}), ("tick", {"wilds-alone": "into-sets"}), ("tick", {"level-sets-same-rank": "distinct"}),
    ("level8", {}),
])
def test_the_compiled_explainer_names_the_clauses_the_relaxed_contracts_name(game, choices):
    """An explanation compiled per contract (the relaxed plans grouped by what they read,
    answers kept per signature) names what trying each relaxed contract on its own names,
    hand by hand, and the same twice."""
    import random

    spec = load(game, choices)
    rng = random.Random(5)
    compiled = refused = 0
    for name in sorted(spec.contracts):
        contract = spec.contracts[name]
        explainer = reference._explainer(spec, contract)
        if explainer is None:
            continue
        compiled += 1
        for hand in random_hands(spec, rng, 80):
            if reference.legal(spec, contract, hand):
                continue
            refused += 1
            one_by_one = [cid for cid, relaxed in reference._relaxations(spec, contract)
                          if relaxed is not None and reference.legal(*relaxed, hand)]
            expected = reference._violations(spec, contract, one_by_one)
            assert explainer.explain(hand) == expected == reference.explain(spec, contract, hand), \
                (name, spec.cards.tokens(hand))
    assert compiled >= 2 and refused >= 20, (compiled, refused)
