"""The Z3 meld decider: hand-checked verdicts, witnesses checked against the meld
semantics independently of the solver, clause-tagged violations, best lay-downs."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import z3

from rulings import reference, z3melds
from rulings.spec import load

SPEC_DIR = Path(__file__).resolve().parents[2] / "spec"


def spec_or_skip(game: str, choices=None):
    if not (SPEC_DIR / f"{game}.yaml").exists():
        pytest.skip(f"no spec/{game}.yaml yet")
    return load(game, choices)


def hand(spec, cards: str):
    return spec.cards.hand_of(cards.split())


def decide(spec, cards: str, level=None, initial=False, **kw):
    """Z3's verdict, a legal one with the melds of Z3's own model (the melds a user is
    shown are the reference's arrangement: `test_the_melds_shown_...` holds those)."""
    kw.setdefault("witness", "model")
    return z3melds.decide(spec, spec.contract(level=level, initial=initial), hand(spec, cards), **kw)


# ---- an independent check of a witness ------------------------------------------------------

def meld_ok(spec, kind, meld) -> bool:
    """Does this placed meld satisfy its kind, wilds replaced by their stand-ins?"""
    cards = spec.cards
    types = [cards.types[t] for t in meld.cards]
    if any(t.special for t in types):
        return False
    stand = dict(meld.stands_for)
    wild_pos = [i for i, t in enumerate(types) if t.wild]
    if sorted(stand) != wild_pos:
        return False
    seen = [dict(stand[i]) if t.wild else dict(t.attrs) for i, t in enumerate(types)]
    by_attrs = {tuple(sorted(t.attrs.items())): t for t in cards.naturals}
    if any(tuple(sorted(a.items())) not in by_attrs for a in seen):
        return False                                    # a stand-in must be a natural card
    n = len(types)
    if n < kind.size_min or (kind.size_max is not None and n > kind.size_max):
        return False
    for a in kind.same:
        if len({s[a] for s in seen}) > 1:
            return False
    for a in kind.distinct + ((kind.run,) if kind.run else ()):
        if len({s[a] for s in seen}) < n:
            return False
    if kind.run:
        codes = sorted(cards.code(kind.run, s[kind.run]) for s in seen)
        if codes != list(range(codes[0], codes[0] + n)):
            return False
    nat = [t for t in types if t.natural]
    env = dict(spec.params, size=n, naturals=len(nat), wilds=n - len(nat),
               points=sum(by_attrs[tuple(sorted(s.items()))].value for s in seen),
               face_points=sum(t.value for t in types))
    return meld.points == env["points"] and all(r.expr.evaluate(env) for r in kind.rules)


def check_lay(spec, contract, laid_hand, melds):
    """The melds use exactly `laid_hand`, fill each required slot once, use extras only as
    the contract allows, and meet every meld kind and contract rule."""
    laid = sorted(t for m in melds for t in m.cards)
    assert laid == sorted(i for i, k in enumerate(laid_hand) for _ in range(k))
    for m in melds:
        assert meld_ok(spec, spec.meld_kinds[m.kind], m), m
        assert m.cards == tuple(sorted(m.cards, key=lambda t: (not spec.cards.types[t].natural, t)))
    req = [m for m in melds if m.required]
    assert [m.required for m in melds] == sorted((m.required for m in melds), reverse=True)
    assert len(req) == len(contract.required)
    assert any(all(m.kind in s.kinds and s.fits(len(m.cards)) for m, s in zip(perm, contract.required))
               for perm in itertools.permutations(req))
    for m in melds:
        if not m.required:
            assert any(m.kind in s.kinds and s.fits(len(m.cards)) for s in contract.extras)
    for a in contract.distinct:
        values = [spec.cards.types[m.cards[0]].attrs[a] if spec.cards.types[m.cards[0]].natural
                  else m.stands_for[0][1][a] for m in req]
        assert len(set(values)) == len(values)
    for rule in contract.rules:
        counted = [m for m in melds if rule.kinds is None or m.kind in rule.kinds]
        types = spec.cards.types
        env = dict(spec.params, size=sum(len(m.cards) for m in counted),
                   naturals=sum(types[t].natural for m in counted for t in m.cards),
                   wilds=sum(types[t].wild for m in counted for t in m.cards),
                   points=sum(m.points for m in counted),
                   face_points=sum(types[t].value for m in counted for t in m.cards))
        assert rule.expr.evaluate(env), rule.expr.text


def assert_legal(spec, cards, level=None, initial=False):
    v = decide(spec, cards, level, initial)
    assert v.legal is True, [x.clause for x in v.violations]
    assert v.engine == "z3" and not v.violations
    check_lay(spec, spec.contract(level=level, initial=initial), hand(spec, cards), v.melds)
    return v


def assert_illegal(spec, cards, level=None, initial=False, cites=()):
    v = decide(spec, cards, level, initial)
    assert v.legal is False and v.engine == "z3" and not v.melds
    clauses = [x.clause for x in v.violations]
    assert clauses and all(c in spec.clauses for c in clauses)
    assert len(set(clauses)) == len(clauses)
    for c in cites:
        assert c in clauses, clauses
    for x in v.violations:
        assert x.source == spec.source(x.clause) and x.why
    return v


# ---- Tick --------------------------------------------------------------------------------------

@pytest.mark.parametrize("level,cards", [
    (3, "5 5 SW BW"),                # four 5s, the two wilds standing for 5
    (1, "5 5 5 7 7 7"),              # the level set and a further set
    (1, "5 5 5 SW"),
    (1, "5 5 SW SW SW"),             # 5 5 SW SW and a wild on its own
    (2, "5 5 5 5 5 5"),              # two level sets may share a rank
    (2, "5 5 5 7 7 SW"),
    (3, "B B B B 1 1 1"),
    (4, "B B SW SW 9 9 9 9"),
    (5, "3 3 3 3 3 SW"),
    (6, "1 1 1 SW BW 2 2 2 2 2"),
    (7, "8 8 8 8 SW SW 4 4 4"),
    (8, "1 1 1 1 SW BW 2 2 2 2 SW SW"),
    (8, "1 1 1 1 SW BW 2 2 2 SW SW SW"),
])
def test_tick_legal(tick, level, cards):
    assert_legal(tick, cards, level)


@pytest.mark.parametrize("level,cards,cites", [
    (3, "5 SW SW BW", ["wild-limit"]),
    (1, "5 5 5 7", ["further-sets"]),
    (1, "5 SW", []),
    (2, "5 5 5 5 5", ["levels"]),
    (4, "5 5 5 5 7 7 7", ["levels"]),
    (5, "3 3 3 3", ["levels"]),
    (6, "1 1 2 2 2 SW SW SW SW SW", ["wild-limit"]),
    (7, "8 8 8 8 8", ["levels"]),
    (8, "1 1 1 1 SW BW 2 2 SW SW SW SW", ["wild-limit"]),
    (1, "1 2 3 4 5 6 7 8 9 10 B SW BW", ["like-set"]),   # one card of every kind
])
def test_tick_illegal(tick, level, cards, cites):
    assert_illegal(tick, cards, level, cites=cites)


def test_wilds_stand_for_the_set_rank(tick):
    v = assert_legal(tick, "5 5 SW BW", 3)
    (meld,) = v.melds
    assert meld.kind == "set" and meld.required
    assert [tick.cards.types[t].token for t in meld.cards] == ["5", "5", "SW", "BW"]
    assert meld.stands_for == ((2, {"rank": 5}), (3, {"rank": 5}))
    assert meld.points == 20


def test_a_wild_on_its_own_is_a_wild_meld(tick):
    v = assert_legal(tick, "5 5 SW SW SW", 1)
    assert {m.kind for m in v.melds} == {"set", "wild"}
    assert all(len(m.cards) == 1 and m.stands_for for m in v.melds if m.kind == "wild")


def test_violations_put_the_rule_first_and_say_what_the_level_asks(tick):
    v = assert_illegal(tick, "5 SW SW BW", 3)
    assert [x.clause for x in v.violations] == ["wild-limit", "levels"]
    assert "tick.txt:19" in v.violations[0].source
    assert v.violations[1].why == "level 3 asks for: one set of at least 4 cards"
    v8 = assert_illegal(tick, "6 6 6 6 6 7 7 7 7 7 7", 8)
    assert "two sets of at least 6 cards" in v8.violations[0].why


def test_core_is_minimal(tick):
    """Dropping any cited clause would make the lay-down legal (tick: 5 5 5 7 at level 1)."""
    v = assert_illegal(tick, "5 5 5 7", 1)
    assert set(x.clause for x in v.violations) == {"like-set", "further-sets", "wilds-alone", "levels"}


@pytest.mark.parametrize("choices,level,cards,before,after", [
    ({"level-sets-same-rank": "distinct"}, 2, "5 5 5 5 5 5", True, False),
    ({"wilds-alone": "into-sets"}, 1, "5 5 SW SW SW", True, False),
    ({"wild-limit": "per-lay-down"}, 3, "7 7 7 7 5 SW SW SW", False, True),
    ({"level-set-size": "exactly"}, 1, "5 5 5 5", True, False),
    ({"level-set-size": "exactly"}, 1, "5 5 5 5 5 5", True, True),
])
def test_readings_change_verdicts(tick, choices, level, cards, before, after):
    assert decide(tick, cards, level).legal is before
    other = load("tick", choices)
    v = decide(other, cards, level)
    assert v.legal is after
    if after:
        check_lay(other, other.contract(level=level), hand(other, cards), v.melds)


def test_distinct_reading_cites_its_clause():
    spec = load("tick", {"level-sets-same-rank": "distinct"})
    assert_illegal(spec, "5 5 5 5 5 5", 2, cites=["level-sets-same-rank"])
    assert_legal(spec, "5 5 5 7 7 7", 2)


def test_fresh_and_reused_solvers_agree(tick):
    for level, cards in [(1, "5 5 5 7 7 7"), (3, "5 SW SW BW"), (8, "1 1 1 1 SW BW 2 2 2 2 SW SW")]:
        a = decide(tick, cards, level)
        b = decide(tick, cards, level, reuse=False)
        assert a.legal == b.legal
        assert [x.clause for x in a.violations] == [x.clause for x in b.violations]


def test_one_solver_answers_many_hands(tick):
    solver = z3melds.MeldSolver(tick, tick.contract(level=1), 8)
    assert solver.decide(hand(tick, "5 5 5")).legal
    assert not solver.decide(hand(tick, "5 5 7")).legal
    assert solver.decide(hand(tick, "5 5 5 9 9 SW")).legal
    assert not solver.decide(hand(tick, "5 5 5 9 9")).legal
    with pytest.raises(ValueError):
        solver.decide(hand(tick, "5 5 5 5 5 5 5 5 5"))


def test_solver_cache_is_shared_by_similar_hands(tick):
    c = tick.contract(level=2)
    a = z3melds.solver_for(tick, c, hand(tick, "5 5 5 7 7 7 9 9 9 1"))
    b = z3melds.solver_for(tick, c, hand(tick, "1 2 3 4 5 6 7 8 9 10 B SW BW"))
    assert a is b and a.N == 16
    assert z3melds.solver_for(load("tick", {"level-sets-same-rank": "distinct"}), c, hand(tick, "5")) is not a


def test_unknown_is_neither_legal_nor_illegal(tick, monkeypatch):
    solver = z3melds.MeldSolver(tick, tick.contract(level=1), 8)
    monkeypatch.setattr(solver.s, "check", lambda *a: z3.unknown)
    monkeypatch.setattr(solver.s, "reason_unknown", lambda: "timeout")
    v = solver.decide(hand(tick, "5 5 5"))
    assert v.legal is None and "timeout" in v.note
    assert solver.best(hand(tick, "5 5 5 7")).legal is None


# ---- best lay-down -----------------------------------------------------------------------------

def test_best_lay_keeps_the_card_that_cannot_be_laid(tick):
    h = hand(tick, "5 5 5 7 7 7 9")
    v = z3melds.best_lay(tick, tick.contract(level=1), h, witness="model")
    assert v.legal and v.points == 15 + 30
    assert [tick.cards.types[t].token for t in v.kept] == ["9"]
    laid = list(h)
    for t in v.kept:
        laid[t] -= 1
    check_lay(tick, tick.contract(level=1), tuple(laid), v.melds)


def test_best_lay_weighs_what_to_keep(tick):
    # all seven cannot go (one card must stay); 7 7 7 + 5 5 5 (45) beats 7 7 7 7 (40)
    v = z3melds.best_lay(tick, tick.contract(level=1), hand(tick, "7 7 7 7 5 5 5"), witness="model")
    assert v.legal and v.points == 45
    assert [tick.cards.types[t].token for t in v.kept] == ["7"]


def test_best_lay_level_8_needs_twelve_laid_and_one_kept(tick):
    eleven = z3melds.best_lay(tick, tick.contract(level=8), hand(tick, "6 6 6 6 6 6 7 7 7 7 7"))
    assert eleven.legal is False and "levels" in [x.clause for x in eleven.violations]
    twelve = z3melds.best_lay(tick, tick.contract(level=8), hand(tick, "6 6 6 6 6 6 7 7 7 7 7 7"))
    assert twelve.legal is False
    assert [x.clause for x in twelve.violations] == ["levels", "discard"]
    assert z3melds.best_lay(tick, tick.contract(level=8), hand(tick, "6 6 6 6 6 6 7 7 7 7 7 7 9")).points == 120


# ---- other games, when their specs exist -------------------------------------------------------

def test_rummikub_initial_meld_threshold():
    rk = spec_or_skip("rummikub")
    v = assert_legal(rk, "r10 r11 r12 k10 o10 b10", initial=True)
    assert sum(m.points for m in v.melds) == 63
    assert_illegal(rk, "r1 r2 r3 k1 o1 b1", initial=True, cites=["initial-joker-value", "initial-threshold"])
    assert_illegal(rk, "r10 r11 r12 k10 o10", initial=True)
    assert_illegal(rk, "r10 r11 r13 k12 o12 b12", initial=True, cites=["run"])


def test_rummikub_joker_readings():
    rk = spec_or_skip("rummikub")
    assert_legal(rk, "r9 J r11", initial=True)                            # adopted: 9 + 30 + 11 = 50
    tile = load("rummikub", {"initial-joker-value": "as-the-tile"})
    assert decide(tile, "r9 J r11", initial=True).legal is False         # 9 + 10 + 11 = 30 < 50
    low = load("rummikub", {"initial-threshold": "current-30", "initial-joker-value": "as-the-tile"})
    v = assert_legal(low, "r9 J r11", initial=True)
    assert v.melds[0].stands_for == ((2, {"colour": "r", "number": 10}),)


def test_rummikub_groups_need_distinct_colours():
    rk = spec_or_skip("rummikub")
    assert_legal(rk, "r10 k10 o10 b10 J r11 r12", initial=True)
    assert_illegal(rk, "r10 r10 o10 k11 k12 k13", initial=True, cites=["group"])


def test_level8_runs_colours_and_skips():
    l8 = spec_or_skip("level8")
    assert_legal(l8, "r1 o2 y3 g7 g8 W", 1)
    assert_legal(l8, "r1 o2 y3 g7 g8 W g1", 3)
    assert_legal(l8, "r1 o1 y3 g3 b3 W W W W", 8)
    assert_illegal(l8, "r1 o2 y3 g7 g9", 1, cites=["levels"])
    assert_illegal(l8, "r1 o2 y3 g7 g9 b4", 1, cites=["run"])
    v = assert_illegal(l8, "r1 o2 y3 g7 g8 W SKIP", 1, cites=["card-kinds"])
    assert "SKIP" in v.violations[0].why


def test_level8_wild_only_pairs_may_take_fresh_numbers():
    l8 = spec_or_skip("level8", {"level-sets-same-number": "distinct"})
    assert_legal(l8, "r1 y3 g3 g10 W W W W", 2)


# ---- witnesses of random hands, checked against the semantics ----------------------------------

def palette_hands(spec, rng, count, most=9):
    """Hands of a few neighbouring naturals and the wilds, so that legal hands are common."""
    naturals = sorted(spec.cards.naturals, key=lambda t: tuple(spec.cards.code(a, t.attrs[a]) for a in t.attrs))
    for _ in range(count):
        start = rng.randrange(len(naturals) - 4)
        palette = naturals[start:start + rng.randint(2, 5)] + list(spec.cards.wilds)
        counts = [0] * len(spec.cards.types)
        for t in (rng.choice(palette) for _ in range(rng.randint(3, most))):
            counts[t.index] += 1
        yield tuple(counts)


@pytest.mark.parametrize("game", ["tick", "rummikub", "level8"])
def test_random_hands_give_sound_witnesses(game):
    import random
    spec = spec_or_skip(game)
    rng = random.Random(11)
    legal = 0
    for i, counts in enumerate(palette_hands(spec, rng, 40, most=12)):
        contract = spec.contracts[sorted(spec.contracts)[i % len(spec.contracts)]]
        v = z3melds.decide(spec, contract, tuple(counts), witness="model")
        assert v.legal is not None
        if v.legal:
            legal += 1
            check_lay(spec, contract, tuple(counts), v.melds)
            shown = z3melds.decide(spec, contract, tuple(counts))
            check_lay(spec, contract, tuple(counts), shown.melds)
            assert shown.melds == reference.lay_down(spec, contract, tuple(counts))
        else:
            assert v.violations and all(x.clause in spec.clauses for x in v.violations)
    assert legal >= 3, legal


def test_the_melds_shown_do_not_depend_on_what_the_solver_was_asked_before(tick):
    """A legal answer shows the reference's arrangement (Z3's verdict confirms the cards
    lay down): the same melds on a solver asked many questions before as on one built
    for this question alone, and sound."""
    import random

    contract = tick.contract(level=3)
    h = hand(tick, "5 5 5 SW 7 7 7 BW 9 9 9")
    first = z3melds.decide(tick, contract, h, reuse=False)
    for other in palette_hands(tick, random.Random(3), 30, most=12):
        z3melds.decide(tick, contract, other)
    again = z3melds.decide(tick, contract, h)
    assert first.legal and again.melds == first.melds == reference.lay_down(tick, contract, h)
    check_lay(tick, contract, h, again.melds)
    best = z3melds.best_lay(tick, tick.contract(level=1), hand(tick, "7 7 7 7 5 5 5"))
    assert best.melds == reference.best_lay(tick, tick.contract(level=1), hand(tick, "7 7 7 7 5 5 5")).melds


def test_past_its_budget_the_reference_gives_way_to_a_solver_of_its_own(monkeypatch):
    """Where the reference's search would take more than WITNESS_BUDGET states, the melds
    come from a solver built for the question in a Z3 context of its own: sound, and the
    same however the shared solver was used."""
    import random

    l8 = spec_or_skip("level8")
    monkeypatch.setattr(z3melds, "WITNESS_BUDGET", 0)
    rng = random.Random(4)
    shown = 0
    for i, counts in enumerate(palette_hands(l8, rng, 40, most=12)):
        contract = l8.contracts[sorted(l8.contracts)[i % len(l8.contracts)]]
        if reference._like(l8, contract) is not None:
            continue                                  # decided per cell: no search to budget
        v = z3melds.decide(l8, contract, counts)
        if v.legal:
            shown += 1
            check_lay(l8, contract, counts, v.melds)
            assert z3melds.decide(l8, contract, counts, reuse=False).melds == v.melds
    assert shown >= 2, shown


# ---- the two encodings and the two twins ---------------------------------------------------------

@pytest.mark.parametrize("game", ["tick", "rummikub", "level8"])
def test_count_and_copy_encodings_agree(game):
    """The copy encoding (z3copies) answers what the count encoding does not cover; on the
    packaged specs both must give the same verdicts, and the copy one sound witnesses."""
    import random

    from rulings.z3copies import copy_solver
    CopySolver = copy_solver(z3melds.Queries)

    spec = spec_or_skip(game)
    rng = random.Random(5)
    solvers: dict = {}
    for i, hand in enumerate(palette_hands(spec, rng, 24)):
        contract = spec.contracts[sorted(spec.contracts)[i % len(spec.contracts)]]
        if contract.name not in solvers:
            solvers[contract.name] = z3melds.MeldSolver(spec, contract, 16), CopySolver(spec, contract, 16)
        count = solvers[contract.name][0].decide(hand, explain=False)
        copy = solvers[contract.name][1].decide(hand, explain=False)
        assert count.legal is not None and count.legal == copy.legal, (contract.name, spec.cards.tokens(hand))
        if copy.legal:
            check_lay(spec, contract, hand, copy.melds)


def test_what_the_count_encoding_does_not_cover_goes_to_the_copy_encoding(tick, monkeypatch):
    from rulings.z3copies import copy_solver
    CopySolver = copy_solver(z3melds.Queries)

    def unsupported(*a, **k):
        raise z3melds.Unsupported("for the test")

    monkeypatch.setattr(z3melds, "MeldSolver", unsupported)
    solver = z3melds.build(tick, tick.contract(level=3), 8)
    assert isinstance(solver, CopySolver)
    v = solver.decide(hand(tick, "5 SW SW BW"))
    assert v.legal is False and [x.clause for x in v.violations] == ["wild-limit", "levels"]


def test_verdicts_come_from_the_untagged_twin_and_cores_from_the_tagged_one(tick):
    solver = z3melds.MeldSolver(tick, tick.contract(level=1), 8)
    assert not solver.tagged and not solver.lits            # no clause literals to carry
    assert solver.decide(hand(tick, "5 5 5 7"), explain=False).violations == []
    v = solver.decide(hand(tick, "5 5 5 7"))
    twin = solver._explainer()
    assert twin.tagged and twin is not solver and set(twin.lits) >= {"like-set", "further-sets", "levels"}
    assert {x.clause for x in v.violations} == {"like-set", "further-sets", "wilds-alone", "levels"}
    import random
    rng = random.Random(2)
    for h in palette_hands(tick, rng, 30):
        if sum(h) <= 8:
            assert solver.decide(h, explain=False).legal == twin.decide(h, explain=False).legal


def test_split_further_melds_are_not_candidates():
    """Rummikub: with no rule reading a meld's wilds, a further run of six or more is two
    runs; only runs of 3 to 5 and groups are candidates (the untagged twin), all in the
    tagged one, and both decide a long run alike."""
    rk = spec_or_skip("rummikub")
    fast = z3melds.MeldSolver(rk, rk.contract(), 16)
    sizes = {len(cand[1]) for p in fast.plans for _, cand, _, _ in p.units}
    assert sizes == {3, 4, 5}
    tagged = fast._explainer()
    assert max(len(cand[1]) for p in tagged.plans for _, cand, _, _ in p.units) == 13
    long_run = hand(rk, "r1 r2 r3 r4 r5 r6 r7 r8 J")
    assert fast.decide(long_run).legal and tagged.decide(long_run).legal
