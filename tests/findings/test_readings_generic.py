"""One search tells readings apart whatever the clause: a second reading is added to
clauses of several kinds in copies of Tick and of Level 8 (built here from the loaded
spec data, never typed), and the finding must tell them apart with a witness that the
kernel (or both meld deciders) replays, and that is minimal in the sense the search
claims: fewest cards for hands, the first difference of its game for play."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from rulings.checks.budget import READING
from rulings import kernel, reference, z3melds
from rulings.checks.search.readings import compare_readings, meld_difference
from rulings.checks.search.play import outcome, replay
from rulings.kernel.codec import move_from_doc
from rulings.spec import load
from rulings.specfile import Loader

SPEC = Path(__file__).resolve().parents[2] / "spec"


def with_reading(tmp_path, game: str, cid: str, change) -> str:
    """A copy of spec/GAME.yaml where clause `cid` gets two readings: `as-written` (its
    formal content) and `changed` (that content after `change(formal)`), as-written adopted."""
    data = yaml.load((SPEC / f"{game}.yaml").read_text(), Loader=Loader)
    spec = load(game)
    formal = copy.deepcopy(dict(spec.formal(cid)))
    other = copy.deepcopy(formal)
    change(other)
    assert other != formal
    c = data["clauses"][cid]
    c["readings"] = {"as-written": {"means": "as the clause is written", **formal},
                     "changed": {"means": "a changed reading made by the test", **other}}
    c["adopted"] = "as-written"
    c["because"] = "the test adopts the clause as written"
    out = tmp_path / f"{game}-{cid}.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return str(out)


def _meld_witness_holds(spec_a, spec_b, f):
    hand = spec_a.cards.hand_of(f.witness["cards"])
    contract = f.witness["contract"]
    ra = reference.decide(spec_a, spec_a.contracts[contract], hand).legal
    rb = reference.decide(spec_b, spec_b.contracts[contract], hand).legal
    assert ra != rb
    assert z3melds.decide(spec_a, spec_a.contracts[contract], hand).legal == ra
    assert z3melds.decide(spec_b, spec_b.contracts[contract], hand).legal == rb
    return hand


def _play_witness_holds(spec_a, spec_b, f):
    """The witness replays from the deal; its last move is judged otherwise under the two
    specs, and no earlier move of the trace is (the first difference of its game)."""
    data = f.witness["replay"]
    assert replay(spec_a, data) != replay(spec_b, data)
    state = kernel.new_game(spec_a, data["players"], data["seed"])
    for m in data["moves"][:-1]:
        move = move_from_doc(spec_a, m)
        oa, ob = outcome(state, move), outcome(state.replace(spec=spec_b), move)
        assert oa == ob or (oa[0] == ob[0] == "refused")
        state = oa[1]
    lo = kernel.rules(spec_a).players_range()[0]
    return data, lo


def test_meld_reading_of_a_tick_clause_without_readings(tmp_path):
    """Further sets of four instead of three: the fewest-cards witness, both deciders agree."""
    def four(f):
        f["extra_melds"][0]["size"] = 4

    spec = load(with_reading(tmp_path, "tick", "further-sets", four))
    f = compare_readings(spec, "further-sets", "changed", budget=READING.but(hands=6000))
    assert f.extra["told_apart"] and f.resolved, f.verdict
    spec_b = spec.with_readings({"further-sets": "changed"})
    hand = _meld_witness_holds(spec, spec_b, f)
    smaller = meld_difference(spec, spec_b, sum(hand) - 1, 10**6)
    assert smaller.found is None and smaller.complete


def test_meld_reading_of_a_level8_level_reaches_its_size(tmp_path):
    """A level of Level 8 that needs one card more: the witness has as many cards as the
    level needs (7 or more), which the old 300,000-hand enumeration never reached."""
    base = load("level8")
    sizes = {k: sum(s.size for s in c.required) for k, c in base.contracts.items() if k.startswith("level ")}
    name = max(sizes, key=sizes.get)
    level = name.split()[1]

    def longer(f):
        f["levels"][level]["melds"][0]["size"] += 1

    spec = load(with_reading(tmp_path, "level8", "levels", longer))
    f = compare_readings(spec, "levels", "changed", budget=READING.but(hands=12000))
    assert f.extra["told_apart"], f.verdict
    hand = _meld_witness_holds(spec, spec.with_readings({"levels": "changed"}), f)
    assert f.witness["contract"] == name
    assert sum(hand) == sizes[name] >= 6


@pytest.mark.parametrize("game,cid,change", [
    ("tick", "matching-cards", lambda f: f["moves"]["lay"]["lay_off"].update(onto="own")),
    ("tick", "chips", lambda f: f["counters"]["chips"].update(start=1)),
    ("tick", "scoring", lambda f: f["scoring"].update(round="laid_points")),
    ("tick", "turn-order", lambda f: f["turn"].update(first="dealer")),
    ("level8", "dealer-rotation", lambda f: f["dealer"].update(next="same")),
    ("level8", "deal", lambda f: f["deal"].update(cards_each=f["deal"]["cards_each"] - 1)),
], ids=lambda x: x if isinstance(x, str) else "")
def test_turn_reading_is_told_apart_in_play_and_replays(tmp_path, game, cid, change):
    path = with_reading(tmp_path, game, cid, change)
    try:
        spec = load(path)
    except Exception as e:      # the change must be a valid spec: say so rather than pass
        pytest.fail(f"the changed reading does not load: {e}")
    f = compare_readings(spec, cid, "changed")
    assert f.extra["told_apart"] and f.resolved, f.verdict
    assert "replay" in f.witness and "not searched" not in f.verdict
    spec_b = spec.with_readings({cid: "changed"})
    _play_witness_holds(spec, spec_b, f)


def test_a_reading_nothing_tells_apart_is_unresolved_and_names_its_bound(tmp_path):
    """Two readings with different formal content that play cannot tell apart within the
    bound: unresolved, saying what was searched, never "equivalent"."""
    def same_effect(f):            # a comparison rewritten so it means the same
        f["moves"]["place_skip"]["unless"] = "size(skipped) >= 1"

    spec = load(with_reading(tmp_path, "level8", "skip-play", same_effect))
    f = compare_readings(spec, "skip-play", "changed", budget=READING.but(moves=100))
    assert not f.extra["told_apart"] and not f.resolved
    assert "not told apart within the bound" in f.verdict and "100 moves" in f.verdict
    assert "equivalent" not in f.verdict


def test_check_runs_with_another_reading_in_force():
    """--reading: the reading in force is compared with the others, and the finding says
    which one the spec adopts."""
    spec = load("tick", {"go-out-timing": "others-have-played"})
    f = compare_readings(spec, "go-out-timing", "after-full-round")
    assert f.id == "reading:go-out-timing:others-have-played/after-full-round"
    assert f.extra["told_apart"] and "adopts 'after-full-round'" in f.resolution
