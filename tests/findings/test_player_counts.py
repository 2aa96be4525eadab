"""The searches that tell two rule sets apart play the player counts at which they differ.

The counts come from the kernel's rules compared count by count (`kernel.at_count`):
readings of sides keyed by player count differ only at their counts, readings of other
rules at every count; copies of Sequence Numbers with a deal or a deck changed for some
counts only (built here from the loaded spec data) differ exactly there. The reading
check plays those counts first, says which counts it played, and leaves a difference at
counts it did not play unresolved, saying so.
"""
from __future__ import annotations

import pytest
import yaml
from test_readings_generic import SPEC, _play_witness_holds, with_reading

from rulings.checks.budget import READING
from rulings import kernel
from rulings.checks.search import player_counts, situations as search_situations
from rulings.checks.findings import CheckRun
from rulings.checks.search.readings import compare_readings, differing_keys
from rulings.checks.report import text
from rulings.checks.search.play import CONFIGS, _configs
from rulings.kernel.at_count import allowed_counts, counts_apart, rules_at
from rulings.spec import load
from rulings.specfile import Loader

GAME = "sequence-numbers"       # the packaged spec whose readings give sides by player count


def _others(spec):
    return [(cid, o) for cid, c in spec.clauses.items() if c.readings for o in c.readings if o != spec.chosen[cid]]


def _usual(spec):
    return sorted({n for n, _ in _configs(spec, CONFIGS)})


def _plan(spec, cid, other):
    spec_b = spec.with_readings(dict(spec.chosen, **{cid: other}))
    return spec_b, player_counts.plan(spec, spec_b, _usual(spec))


def test_readings_of_sides_differ_only_at_the_counts_they_split_otherwise():
    """Expected counts read from the readings' own data: the counts whose split differs."""
    spec = load(GAME)
    keyed = [(cid, o) for cid, o in _others(spec) if differing_keys(spec, cid, spec.chosen[cid], o) == {"teams"}]
    assert len(keyed) >= 2
    for cid, other in keyed:
        c = spec.clauses[cid]
        ta = dict(c.formal.get("teams", {}), **c.readings[spec.chosen[cid]].formal["teams"])
        tb = dict(c.formal.get("teams", {}), **c.readings[other].formal["teams"])
        expected = sorted(int(n) for n in set(ta) | set(tb) if ta.get(n) != tb.get(n))
        spec_b, plan = _plan(spec, cid, other)
        assert counts_apart(spec, spec_b) == (allowed_counts(spec), expected, False)
        assert [n for n in allowed_counts(spec) if rules_at(spec, n) != rules_at(spec_b, n)] == expected
        usual = _usual(spec)
        assert set(expected) - set(usual), "a reading about a count the usual search never plays"
        # played where they differ first (both players), then the usual counts as every search plays them
        assert plan.played == expected + [n for n in usual if n not in expected] and plan.unplayed == []
        configs = plan.configs(_configs(spec, CONFIGS))
        first = configs[:len(player_counts.KINDS) * len(expected)]
        assert {n for n, _ in first} == set(expected) and {k for _, k in first} == set(player_counts.KINDS)
        assert [c for c in configs if c[0] not in expected] == _configs(spec, CONFIGS)


@pytest.mark.parametrize("game", ["tick", "garbage", GAME])
def test_readings_of_count_free_rules_play_the_usual_counts_and_name_the_rest(game):
    spec = load(game)
    usual = _usual(spec)
    free = [(cid, o) for cid, o in _others(spec) if "teams" not in differing_keys(spec, cid, spec.chosen[cid], o)]
    assert free
    for cid, other in free:
        spec_b, plan = _plan(spec, cid, other)
        assert plan.everywhere and plan.differ == allowed_counts(spec)
        assert plan.played == usual and not plan.extra()
        assert plan.unplayed == [n for n in allowed_counts(spec) if n not in usual]
        assert all(f"{n}" in plan.words() for n in plan.unplayed)


def test_readings_with_the_same_rules_differ_at_no_count():
    spec = load("rummikub")
    same = [(cid, o) for cid, o in _others(spec) if not differing_keys(spec, cid, spec.chosen[cid], o)]
    assert same
    for cid, other in same:
        spec_b, plan = _plan(spec, cid, other)
        assert plan.differ == [] and not plan.everywhere and plan.played == _usual(spec)


def test_a_deal_and_a_deck_changed_for_some_counts_differ_only_there(tmp_path):
    """`deal.cards_each` is an expression of players and `decks` rows of player ranges: the
    kernel's reading of each at every count decides, compared with Python's own evaluation."""
    spec = load(GAME)
    deal_cid = spec.rule("deal")[0]
    old_each = spec.formal(deal_cid)["deal"]["cards_each"]
    new_each = old_each.replace("<= 3", "<= 4")
    assert new_each != old_each

    def deal(f):
        f["deal"]["cards_each"] = new_each

    s = load(with_reading(tmp_path, GAME, deal_cid, deal))
    expected = [n for n in allowed_counts(s) if eval(old_each, {"players": n}) != eval(new_each, {"players": n})]
    assert expected and expected != allowed_counts(s)
    assert counts_apart(s, s.with_readings(dict(s.chosen, **{deal_cid: "changed"}))) == (allowed_counts(s), expected,
                                                                                          False)
    decks_cid = spec.rule("decks")[0]
    last = allowed_counts(spec)[-1]

    def decks(f):       # one more pack for the most players
        rows = f["decks"]
        lo, hi = rows[-1]["players"]
        rows[-1]["players"] = [lo, hi - 1]
        rows.append({"players": [hi, hi], "packs": rows[-1]["packs"] + 1})

    s = load(with_reading(tmp_path, GAME, decks_cid, decks))
    assert counts_apart(s, s.with_readings(dict(s.chosen, **{decks_cid: "changed"}))) == (allowed_counts(s), [last],
                                                                                           False)


def test_teams_of_five_is_played_at_five_and_told_apart_and_the_report_names_the_counts():
    spec = load(GAME)
    cid = next(cid for cid, o in _others(spec) if counts_apart(spec, _plan(spec, cid, o)[0])[1] == [5])
    for other in [o for c, o in _others(spec) if c == cid]:
        spec_b = spec.with_readings(dict(spec.chosen, **{cid: other}))
        f = compare_readings(spec, cid, other, budget=READING.but(moves=100, situations=0))
        assert f.extra["told_apart"] and f.resolved, f.verdict
        data, _ = _play_witness_holds(spec, spec_b, f)
        assert data["players"] == 5
        counts = f.extra["player_counts"]
        assert counts["differ"] == [5] and counts["played"][0] == 5 and counts["unplayed"] == []
        assert counts["searched"] == [5], "found at five, the usual counts after it are not played"
        shown = text(GAME, [CheckRun("reading", "reading", [f], f.seconds)], f.seconds)
        assert (f"played 5 players (of {', '.join(map(str, counts['played']))} planned)" in shown
                and "differ at 5 players only" in shown)


def test_a_difference_at_counts_not_played_stays_unresolved_and_says_so(monkeypatch):
    """With the bound at no count beyond the usual ones, the readings of five are searched
    only where they agree: not told apart, unresolved, and the counts not played named."""
    monkeypatch.setattr(player_counts, "MOST", 0)
    spec = load(GAME)
    cid, other = next((cid, o) for cid, o in _others(spec) if counts_apart(spec, _plan(spec, cid, o)[0])[1] == [5])
    f = compare_readings(spec, cid, other, budget=READING.but(moves=30, situations=0))
    assert not f.extra["told_apart"] and not f.resolved
    counts = f.extra["player_counts"]
    assert counts["unplayed"] == [5] and 5 not in counts["played"] and counts["searched"] == _usual(spec)
    assert "not played: 5 players" in f.verdict
    assert "differ at 5 players, where no game was played" in f.extra["open"]


def test_situations_are_built_at_the_counts_asked(monkeypatch):
    spec = load(GAME)
    seen = []

    def record(spec_a, spec_b, doc, proposed):
        seen.append(doc["players"])
        return None

    monkeypatch.setattr(search_situations, "first_difference", record)
    ss = search_situations.situation_difference(spec, spec, max_examples=20, counts=[5])
    assert set(seen) == {5} and len(seen) == ss.examples > 0 and "5 players" in ss.bound()
    seen.clear()
    search_situations.situation_difference(spec, spec, max_examples=20)
    lo = kernel.rules(spec).players_range()[0]
    assert seen and set(seen) <= set(range(lo, lo + search_situations.EXTRA_PLAYERS + 1))


def test_a_clause_of_sides_dropped_differs_only_at_its_counts(tmp_path):
    """A clause that gives nothing but sides, dropped from a copy of the spec: the rules
    differ exactly at the counts it gave sides for (the rest of the spec is unchanged)."""
    spec = load(GAME)
    only_sides = [cid for cid in spec.clauses if set(spec.formal(cid)) == {"teams"}]
    assert len(only_sides) >= 2
    for cid in only_sides:
        data = yaml.load((SPEC / f"{GAME}.yaml").read_text(), Loader=Loader)
        del data["clauses"][cid]
        path = tmp_path / f"{GAME}-without-{cid}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
        expected = sorted(int(n) for n in spec.formal(cid)["teams"])
        assert counts_apart(spec, load(str(path))) == (allowed_counts(spec), expected, False), cid
