"""Z3 == reference == brute force, over random hands, every contract of every game, and
every reading that bears on melds."""
from __future__ import annotations

import random
from functools import lru_cache

from hypothesis import event, given, settings, strategies as st

from rulings import reference, z3melds
from rulings.spec import load, packaged_games

from .bruteforce import BruteForce

GAMES = [g for g in packaged_games() if load(g).meld_kinds]      # the games that have melds to decide
MELD_KEYS = {"constraint", "meld_kind", "levels", "initial_meld", "level_sets", "extra_melds", "params"}


@lru_cache(maxsize=None)
def spec_for(game: str, choices: tuple) -> object:
    return load(game, dict(choices))


@lru_cache(maxsize=None)
def brute_for(game: str, choices: tuple) -> BruteForce:
    return BruteForce(spec_for(game, choices))


def meld_readings(game: str) -> dict[str, list[str]]:
    spec = spec_for(game, ())
    return {cid: list(c.readings) for cid, c in spec.clauses.items()
            if any(set(r.formal) & MELD_KEYS for r in c.readings.values())}


def built_meld(spec, kind, size, rng):
    """Cards that should form a meld of `kind` (some wilds in place of naturals); the
    deciders, not this function, say whether they do."""
    cards = spec.cards
    t0 = rng.choice(cards.naturals)
    compat = [t for t in cards.naturals if all(t.attrs[a] == t0.attrs[a] for a in kind.same)]
    if kind.run is not None:
        values = sorted(cards.attributes[kind.run])
        size = min(size, len(values))
        s = rng.randrange(len(values) - size + 1)
        out = []
        for v in values[s:s + size]:
            opts = [t for t in compat if t.attrs[kind.run] == v]
            if opts:
                out.append(rng.choice(opts))
    elif kind.distinct:
        pool = list(compat)
        rng.shuffle(pool)
        out, seen = [], set()
        for t in pool:
            sig = tuple(t.attrs[a] for a in kind.distinct)
            if sig not in seen and len(out) < size:
                seen.add(sig)
                out.append(t)
    else:
        out = [rng.choice(compat) for _ in range(size)]
    wilds = list(cards.wilds)
    if wilds:
        for i in range(len(out)):
            if rng.random() < 0.25:
                out[i] = rng.choice(wilds)
    return out


@st.composite
def cases(draw, min_cards: int, max_cards: int):
    game = draw(st.sampled_from(GAMES))
    choices = tuple(sorted((cid, draw(st.sampled_from(names))) for cid, names in meld_readings(game).items()))
    spec = spec_for(game, choices)
    names = sorted(spec.contracts)
    if max_cards <= 7:   # brute-force sized: contracts that fit in a few cards
        names = [k for k in names if sum(s.size for s in spec.contracts[k].required) <= max_cards] or names
    contract = spec.contracts[draw(st.sampled_from(names))]
    rng = draw(st.randoms(use_true_random=False))
    deck = spec.deck()
    cards = []
    built = draw(st.booleans())
    if built:
        # built from the contract: its required melds and maybe a further one, then perturbed
        slots = list(contract.required) + ([rng.choice(contract.extras)] if contract.extras and rng.random() < 0.4 else [])
        for slot in slots:
            kind = spec.meld_kinds[rng.choice(slot.kinds)]
            cards += built_meld(spec, kind, max(slot.size, kind.size_min) + (rng.random() < 0.3), rng)
        for _ in range(rng.choice([0, 0, 1, 2])):
            if cards and rng.random() < 0.5:
                cards.pop(rng.randrange(len(cards)))
            else:
                cards.append(rng.choice(spec.cards.types))
    else:
        # random cards from a neighbourhood of naturals, plus the wilds
        attr = rng.choice(list(spec.cards.attributes))
        naturals = sorted(spec.cards.naturals, key=lambda t: (spec.cards.code(attr, t.attrs[attr]), t.index))
        start = rng.randrange(max(1, len(naturals) - 6))
        palette = naturals[start:start + rng.randint(2, 6)] + list(spec.cards.wilds)
        cards = [rng.choice(palette) for _ in range(max_cards)]
    n = draw(st.integers(min_cards, max_cards))
    if built and len(cards) <= max_cards and draw(st.booleans()):
        n = len(cards)
    hand = [0] * len(spec.cards.types)
    for t in cards[:n]:
        if hand[t.index] < (deck[t.index] or 99):
            hand[t.index] += 1
    if not any(hand):
        hand[spec.cards.naturals[0].index] = 1
    return spec, (game, choices), contract, tuple(hand)


def check_witness(spec, contract, hand, verdict):
    """A legal verdict's melds use exactly the hand and fill every required slot."""
    laid = sorted(t for m in verdict.melds for t in m.cards)
    assert laid == sorted(i for i, k in enumerate(hand) for _ in range(k))
    assert sum(m.required for m in verdict.melds) == len(contract.required)
    for m in verdict.melds:
        kind = spec.meld_kinds[m.kind]
        assert len(m.cards) >= kind.size_min
        assert sum(spec.cards.types[t].wild for t in m.cards) == len(m.stands_for)


def share(fraction: float) -> settings:
    """A share of the profile's examples (tests/conftest.py: 400 under "ci")."""
    return settings(max_examples=max(10, round(settings.default.max_examples * fraction)))


@share(1.0)
@given(cases(1, 6))
def test_small_hands_z3_reference_and_brute_force_agree(case):
    spec, key, contract, hand = case
    z = z3melds.decide(spec, contract, hand, witness="model")      # the melds of Z3's own model
    r = reference.decide(spec, contract, hand)
    b = brute_for(*key).decide(contract, hand)
    event(f"{spec.game}: {'legal' if b else 'illegal'}")
    assert z.legal is not None, z.note
    assert z.legal == r.legal == b, (spec.game, dict(key[1]), contract.name, spec.cards.tokens(hand))
    for v in (z, r):
        if v.legal:
            check_witness(spec, contract, hand, v)
        else:
            assert v.violations and all(x.clause in spec.clauses for x in v.violations)


@share(0.75)
@given(cases(8, 14))
def test_table_sized_hands_z3_and_reference_agree(case):
    spec, key, contract, hand = case
    z = z3melds.decide(spec, contract, hand, witness="model")
    r = reference.decide(spec, contract, hand)
    event(f"{spec.game}: {'legal' if r.legal else 'illegal'}")
    assert z.legal is not None, z.note
    assert z.legal == r.legal, (spec.game, dict(key[1]), contract.name, spec.cards.tokens(hand))
    if z.legal:
        check_witness(spec, contract, hand, z)
        check_witness(spec, contract, hand, r)


@share(0.375)
@given(cases(4, 13))
def test_best_lay_down_scores_the_same(case):
    spec, key, contract, hand = case
    z = z3melds.best_lay(spec, contract, hand, witness="model")
    r = reference.best_lay(spec, contract, hand)
    assert z.legal is not None, z.note
    assert z.legal == r.legal, (spec.game, dict(key[1]), contract.name, spec.cards.tokens(hand))
    if z.legal:
        assert z.points == r.points
        for v in (z, r):
            kept = sorted(v.kept)
            laid = sorted(t for m in v.melds for t in m.cards)
            assert sorted(kept + laid) == sorted(i for i, k in enumerate(hand) for _ in range(k))
            assert len(kept) >= contract.keep
            assert sum(spec.cards.types[t].value for t in laid) == v.points


def test_the_generator_reaches_both_verdicts():
    """The cross-check is only worth something if random hands are often legal and often not."""
    rng = random.Random(7)
    outcomes = {True: 0, False: 0}
    for _ in range(300):
        game = rng.choice(GAMES)
        spec = spec_for(game, ())
        contract = spec.contracts[rng.choice(sorted(spec.contracts))]
        naturals = sorted(spec.cards.naturals, key=lambda t: t.index)
        start = rng.randrange(len(naturals))
        palette = naturals[start:start + 3] + list(spec.cards.wilds)
        hand = [0] * len(spec.cards.types)
        for _ in range(rng.randint(3, 8)):
            t = rng.choice(palette)
            hand[t.index] = min(hand[t.index] + 1, spec.deck()[t.index])
        outcomes[reference.decide(spec, contract, tuple(hand)).legal] += 1
    assert outcomes[True] >= 20 and outcomes[False] >= 20, outcomes
