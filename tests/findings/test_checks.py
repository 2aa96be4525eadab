"""The checker finds what the rules hide, and its witnesses are small and replay.

Nothing here names an expected hand: each test asserts a property of what the search
found (it tells the readings apart, nothing smaller does, the kernel agrees), or that an
edit to the spec changes what is found."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulings import reference, z3melds
from rulings.checks.claims.claims import derived_findings
from rulings.checks.search.conflicts import conflict_findings
from rulings.checks.search.readings import meld_difference, reading_findings
from rulings.checks.search.turns import replay
from rulings.spec import load
from rulings.specfile import Loader

TICK = Path(__file__).resolve().parents[2] / "spec" / "tick.yaml"


@pytest.fixture(scope="module")
def tick_readings():
    return {f.id: f for f in reading_findings(load("tick"), bound=6)}


def edited(tmp_path, change) -> str:
    """A copy of spec/tick.yaml with `change(data)` applied."""
    data = yaml.load(TICK.read_text(), Loader=Loader)   # YAML 1.2 booleans, as the loader reads it
    change(data)
    out = tmp_path / "tick.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return str(out)


MELD_READINGS = ["wild-limit", "level-set-size", "level-sets-same-rank", "wilds-alone"]


@pytest.mark.parametrize("cid", MELD_READINGS)
def test_each_meld_reading_difference_is_found_minimal_and_confirmed(tick_readings, cid):
    base = load("tick")
    other = next(r for r in base.clauses[cid].readings if r != base.chosen[cid])
    f = tick_readings[f"reading:{cid}:{base.chosen[cid]}/{other}"]
    assert f.witness, f.verdict
    spec_b = load("tick", {cid: other})
    hand = base.cards.hand_of(f.witness["cards"])
    contract = f.witness["contract"]
    # the two readings really disagree on it, by both deciders
    ra = reference.decide(base, base.contracts[contract], hand).legal
    rb = reference.decide(spec_b, spec_b.contracts[contract], hand).legal
    assert ra != rb
    assert z3melds.decide(base, base.contracts[contract], hand).legal == ra
    assert z3melds.decide(spec_b, spec_b.contracts[contract], hand).legal == rb
    # and no smaller hand does (fewest cards)
    smaller = meld_difference(base, spec_b, sum(hand) - 1, 10**6)
    assert smaller.found is None and smaller.complete


@pytest.mark.parametrize("cid", ["tick", "go-out", "go-out-timing", "stock-empty"])
def test_each_turn_reading_witness_replays_in_the_kernel(tick_readings, cid):
    base = load("tick")
    other = next(r for r in base.clauses[cid].readings if r != base.chosen[cid])
    f = tick_readings[f"reading:{cid}:{base.chosen[cid]}/{other}"]
    data = f.witness["replay"]
    out_a = replay(data, base)
    out_b = replay(data, load("tick", {cid: other}))
    assert out_a == f.witness[base.chosen[cid]] and out_b == f.witness[other]
    assert out_a != out_b


def test_go_out_timing_witness_is_the_smallest_table(tick_readings):
    f = tick_readings["reading:go-out-timing:after-full-round/others-have-played"]
    sit = f.witness["situation"]
    assert sit["players"] == load("tick").rule("players")[1]["min"]
    # the dealer, on the last turn of the first round
    assert sit["turns_finished"] == sit["players"] - 1 and sit["to_move"] == sit["dealer"]


def test_removing_an_ambiguity_removes_its_finding(tmp_path):
    def settle(data):
        c = data["clauses"]["wild-limit"]
        c["constraint"] = c["readings"]["per-set"]["constraint"]
        for k in ("readings", "adopted", "because"):
            c.pop(k)

    ids = {f.id for f in reading_findings(load(edited(tmp_path, settle)), bound=4)}
    assert not any(i.startswith("reading:wild-limit:") for i in ids)
    assert any(i.startswith("reading:go-out-timing:") for i in ids)


def test_conflict_between_a_permission_and_the_wild_limit_is_found():
    found = {f.id: f for f in conflict_findings(load("tick"), bound=5)}
    f = found["conflict:further-sets:wild-limit"]
    spec = load("tick")
    hand = spec.cards.hand_of(f.witness["cards"])
    assert sum(spec.cards.types[t].wild * n for t, n in enumerate(hand)) > \
        sum(spec.cards.types[t].natural * n for t, n in enumerate(hand))


def test_mutation_dropping_the_wild_rule_is_noticed(tmp_path):
    """Break the wild rule: the conflicts it caused disappear, and hands the rule
    forbade become legal."""
    path = edited(tmp_path, lambda d: d["clauses"].pop("wild-limit"))
    assert not [f for f in conflict_findings(load(path), bound=5) if "wild-limit" in f.clauses]
    broken = load(path)
    hand = broken.cards.hand_of("5 SW SW BW".split())
    assert reference.decide(broken, broken.contract(level=3), hand).legal
    assert not reference.decide(load("tick"), load("tick").contract(level=3), hand).legal


def test_mutation_going_out_at_once_is_noticed(tmp_path):
    """Allow going out at once: the earliest turn a level can end moves to turn 1."""
    def at_once(d):
        c = d["clauses"]["go-out-timing"]
        for r in c["readings"].values():
            r["go_out"]["when"] = "True"

    before = derived_findings(load("tick"), 4)[0].witness["levels"]
    after = derived_findings(load(edited(tmp_path, at_once)), 4)[0].witness["levels"]
    assert all(r["earliest_turn"] > 1 for r in before)
    assert all(r["earliest_turn"] == 1 for r in after if r["fewest_units"] == 0)


def test_the_last_level_needs_a_paid_draw_and_the_witness_goes_out():
    rows = {r["level"]: r for r in derived_findings(load("tick"), 4)[0].witness["levels"]}
    assert rows[8]["fewest_units"] >= 1
    assert all(rows[lv]["fewest_units"] == 0 for lv in range(1, 8))
