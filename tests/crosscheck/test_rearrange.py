"""The most a hand can add to a shared table of melds: Z3 over the card counts, the
reference's direct search and brute force (every sub-multiset of the hand, every partition
of the table with it) agree; each engine's new table is judged a legal result of the turn."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import assume, given, settings, strategies as st

from rulings import rearrange as ra
from rulings.spec import load

from .bruteforce import BruteForce
from .test_deciders import built_meld

SPEC = load("rummikub")
BRUTE = BruteForce(SPEC)
ANY = SPEC.contracts["any"]


def _counts(cards) -> tuple:
    return SPEC.cards.hand(cards)


def _brute_best(table, hand, by):
    best = None
    ranges = [range(n + 1) for n in hand]
    for sub in itertools.product(*ranges):
        both = tuple(x + y for x, y in zip(table, sub))
        if BRUTE.decide(ANY, both):
            v = sum(sub) if by == "cards" else SPEC.cards.value_of(sub)
            best = v if best is None else max(best, v)
    return best


@st.composite
def positions(draw):
    rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))
    melds = []
    for _ in range(draw(st.integers(0, 1))):
        kind = SPEC.meld_kinds[rng.choice(sorted(SPEC.meld_kinds))]
        m = _counts(built_meld(SPEC, kind, 3, rng))
        assume(ra.judge(SPEC, [m], tuple(0 for _ in m), [m]).legal)
        melds.append(m)
    pool = SPEC.cards.naturals + SPEC.cards.wilds
    hand = _counts(rng.choice(pool) for _ in range(draw(st.integers(1, 4))))
    table = tuple(sum(m[t] for m in melds) for t in range(len(hand)))
    deck = SPEC.deck()
    assume(all(a + b <= d for a, b, d in zip(table, hand, deck)))
    return melds, table, hand


# each example is brute force over every part of the hand, besides both engines: a quarter
# of the profile's examples
@settings(settings.default, max_examples=max(10, settings.default.max_examples // 4))
@given(positions(), st.sampled_from(ra.BY))
def test_z3_reference_and_brute_force_add_as_much(pos, by):
    melds, table, hand = pos
    z, r = ra.best(SPEC, table, hand, by, "z3"), ra.best(SPEC, table, hand, by, "reference")
    assert z.possible is not None, z.note
    assert z.possible and r.possible                 # the table alone is always a table
    g = ra._best_search(SPEC, ANY, table, hand, by)        # the general search the sweep stands in for
    assert z.value == r.value == g.value == _brute_best(table, hand, by), (SPEC.cards.tokens(table),
                                                                         SPEC.cards.tokens(hand))
    for p in (z, r, g):
        new = [SPEC.cards.hand(SPEC.cards.types[t] for t in m.cards) for m in p.melds]
        j = ra.judge(SPEC, melds, hand, new)
        assert j.legal, (p.engine, j.why)
        assert j.placed == p.placed


def test_a_table_missing_one_of_its_cards_is_not_a_result_of_the_turn():
    h = SPEC.cards.hand_of
    old = [h("k7 k8 k9".split())]
    j = ra.judge(SPEC, old, h(["k10"]), [h("k8 k9 k10".split())])
    assert not j.legal and "missing" in j.why[0] and "k7" in j.why[0]


def test_an_invalid_meld_on_the_new_table_names_the_rules_it_breaks():
    h = SPEC.cards.hand_of
    j = ra.judge(SPEC, [h("k7 k8 k9".split())], h("k10 k6".split()), [h("k6 k7 k8".split()), h("k9 k10".split())])
    assert not j.legal and "meld 2" in j.why[0]
    assert "further-melds" in j.clauses


def test_splitting_a_run_to_place_a_card_is_found():
    h = SPEC.cards.hand_of
    # k5 k6 k7 k8 k9 k10 on the table; a second k7 from the hand fits only by splitting it
    table, hand = h("k5 k6 k7 k8 k9 k10".split()), h(["k7"])
    for engine in ("z3", "reference"):
        p = ra.best(SPEC, table, hand, "cards", engine)
        assert p.value == 1, engine
        assert sorted(len(m.cards) for m in p.melds) == [3, 4], engine


def test_a_game_without_free_melds_has_no_table():
    with pytest.raises(ra.RearrangeError, match="no shared table"):
        ra.table_contract(load("tick"))


INITIAL = SPEC.contract(initial=True)


def _brute_initial(hand, by):
    best = 0
    for sub in itertools.product(*[range(n + 1) for n in hand]):
        if any(sub) and BRUTE.decide(INITIAL, sub):
            best = max(best, sum(sub) if by == "cards" else SPEC.cards.value_of(sub))
    return best


@st.composite
def initial_hands(draw):
    rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))
    cards = []
    for _ in range(draw(st.integers(1, 2))):       # melds of high tiles, so the threshold is in reach
        kind = SPEC.meld_kinds[rng.choice(sorted(SPEC.meld_kinds))]
        cards += [t for t in built_meld(SPEC, kind, 3, rng)]
    cards += [rng.choice(SPEC.cards.naturals) for _ in range(draw(st.integers(0, 1)))]
    hand = _counts(cards)
    assume(sum(hand) <= 7 and all(a <= d for a, d in zip(hand, SPEC.deck())))
    return hand


@settings(settings.default, max_examples=max(10, settings.default.max_examples // 8))     # brute force, as above
@given(initial_hands(), st.sampled_from(ra.BY))
def test_the_initial_meld_adds_as_much_by_every_engine(hand, by):
    zero = tuple(0 for _ in hand)
    z = ra.best(SPEC, zero, hand, by, "z3", initial=True)
    r = ra.best(SPEC, zero, hand, by, "reference", initial=True)
    want = _brute_initial(hand, by)
    got = [p.value if p.possible else 0 for p in (z, r)]
    assert got == [want, want], (SPEC.cards.tokens(hand), got, want)


# ---- tables the general search could not reach: 30 to 60 cards, racks of 14 ------------------

from rulings.checks.conformance.table_positions import position  # noqa: E402


# each example is a whole table of 30-60 cards solved twice over
@settings(settings.default, max_examples=max(4, settings.default.max_examples // 66))
@given(st.integers(0, 2 ** 32 - 1), st.integers(30, 60), st.sampled_from(ra.BY))
def test_z3_and_the_reference_sweep_agree_on_full_tables(seed, size, by):
    melds, table, hand = position(SPEC, seed, size, 14)
    assert sum(table) >= size and sum(hand) == 14
    z, r = ra.best(SPEC, table, hand, by, "z3"), ra.best(SPEC, table, hand, by, "reference")
    assert z.possible is True, z.note
    assert r.possible is True
    assert z.value == r.value, (seed, size, by, z.value, r.value)
    for p in (r, z):                  # each engine's table, Z3's with its wilds shared out kind by kind
        new = [SPEC.cards.hand(SPEC.cards.types[t] for t in m.cards) for m in p.melds]
        j = ra.judge(SPEC, melds, hand, new)
        assert j.legal and j.placed == p.placed, (p.engine, j.why)


def test_the_copy_encoding_answers_where_the_count_encoding_does_not(monkeypatch):
    """A spec whose melds the count encoding cannot take goes to the copy encoding: the
    same question, by assumptions over a Python-built solver (forced here on Rummikub's
    small positions, where it decides within its resource limit)."""
    from rulings import z3melds

    count_encoding = z3melds.MeldSolver.__init__

    def unsupported_for_a_position(self, *args, position=None, **kw):
        if position is not None:
            raise z3melds.Unsupported("forced by the test")
        count_encoding(self, *args, position=position, **kw)

    monkeypatch.setattr(z3melds.MeldSolver, "__init__", unsupported_for_a_position)
    monkeypatch.setattr(z3melds, "_CACHE", {})
    for seed in range(3):
        melds, table, hand = position(SPEC, seed, 0, 14, 2)
        for by in ra.BY:
            z, r = ra.best(SPEC, table, hand, by, "z3"), ra.best(SPEC, table, hand, by, "reference")
            assert z.possible is True and z.value == r.value, (seed, by, z.note)
            new = [SPEC.cards.hand(SPEC.cards.types[t] for t in m.cards) for m in z.melds]
            assert ra.judge(SPEC, melds, hand, new).legal


def test_the_table_shown_depends_on_the_position_only():
    """Of several equally good new tables, the one shown must not depend on what the
    reused solver was asked before: a game replayed elsewhere picks the same."""
    from rulings.checks.conformance import table_positions as tp

    spec = load("rummikub")
    positions = [tp.position(spec, seed, 30)[1:] for seed in range(6)]
    first = [ra.best(spec, t, h).melds for t, h in positions]
    again = [ra.best(spec, t, h).melds for t, h in reversed(positions)][::-1]
    assert first == again


_SHOW_TABLES = """
import json, sys
from rulings import rearrange as ra, z3melds
from rulings.checks.conformance import table_positions as tp
from rulings.spec import load

spec = load("rummikub")
seeds = json.loads(sys.argv[1])
if sys.argv[2] == "busy":          # another history first: other solvers, other questions, reversed order
    other = load("level8")
    z3melds.decide(other, other.contract(level=1), other.cards.hand(other.cards.naturals[:6]))
    ra.best(spec, *tp.position(spec, 999, 45)[1:], "points")
    seeds = seeds[::-1]
out = {}
for seed, size, by in seeds:
    table, hand = tp.position(spec, seed, size, 14, 2 if size == 0 else 0)[1:]
    p = ra.best(spec, table, hand, by)
    out[f"{seed}/{size}/{by}"] = [p.possible, p.value, sorted(list(m.cards) for m in p.melds)]
print(json.dumps(out, sort_keys=True))
"""


def test_the_table_shown_is_the_same_in_other_processes():
    """Two processes with different hash seeds and different histories (another game's
    solver, another position, the positions in reverse order) show the same new tables:
    what a game replayed under pytest-xdist or on another machine relies on."""
    import json
    import os
    import subprocess
    import sys

    seeds = json.dumps([[s, size, by] for s, size, by in
                        [(1, 0, "cards"), (3, 30, "points"), (4, 45, "cards")]])
    runs = []
    for hash_seed, history in (("0", "quiet"), ("1", "busy")):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        runs.append(subprocess.Popen([sys.executable, "-c", _SHOW_TABLES, seeds, history], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    outs = []
    for p in runs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        outs.append(json.loads(out))
    assert len(outs[0]) == 3 and all(v[0] for v in outs[0].values())
    assert outs[0] == outs[1]
