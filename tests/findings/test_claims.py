"""Claims are evaluated against what the other clauses imply, and change when those clauses do.

No test names an expected number of the rules: each asserts that a verdict agrees with
the value the check found, that the value's witness replays in the kernel, that the
model checker finds nothing smaller, or that editing a clause the claim rests on (not
the claim) moves the verdict the way the edit must.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from rulings import kernel
from rulings.checks.search import bmc
from rulings.checks.claims.claims import claim_findings, derived_findings, evaluate
from rulings.checks.search.turns import replay
from rulings.cli import main
from rulings.spec import load
from rulings.specfile import Loader

SPECS = Path(__file__).resolve().parents[2] / "spec"


def edited(tmp_path, game: str, change) -> object:
    """The game's spec with `change(data)` applied to a copy of its YAML, loaded."""
    data = yaml.load((SPECS / f"{game}.yaml").read_text(), Loader=Loader)
    change(data)
    out = tmp_path / f"{game}.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return load(str(out))


def claim(spec, cid):
    return evaluate(spec, cid, spec.formal(cid)["claim"], 4)


def _moves_of(f, move: str) -> int:
    """Units of `move` the witness's scenario plays."""
    return sum(m[move] if isinstance(m[move], int) else 1 for m in f.witness["replay"]["scenario"]["moves"]
               if move in m)


@pytest.fixture(scope="module")
def tick_claims():
    return {f.id: f for f in claim_findings(load("tick"), bound=4)}


@pytest.fixture(scope="module")
def level8_claims():
    return {f.id: f for f in claim_findings(load("level8"), bound=4)}


def test_every_claim_of_both_games_gets_a_verdict(tick_claims, level8_claims):
    for game, found in (("tick", tick_claims), ("level8", level8_claims)):
        spec = load(game)
        cids = [cid for cid, _ in spec.rules("claim")]
        assert cids, game
        for cid in cids:
            f = found[f"claim:{cid}"]
            assert f.extra["holds"] in (True, False), (cid, f.verdict)
            assert f.verdict.split(":")[0] in ("holds", "refuted", "holds within the bound",
                                              "refuted within the bound"), f.verdict
            assert f.resolved == (f.extra["holds"] and "within the bound" not in f.verdict)
            assert len(f.clauses) > 1, "a claim names the clauses it was evaluated against"


def test_the_deal_claim_counts_what_the_kernel_deals(tick_claims):
    f = tick_claims["claim:claim-deal-for-four"]
    args = load("tick").formal("claim-deal-for-four")["claim"]["deal_cards"]
    spec = load("tick")
    state = kernel.new_game(spec, args["players"], seed=7)
    r = kernel.rules(spec)
    assert f.witness["deal_cards"] == len(r.deck(args["players"])) - len(state.zone(r.stock.id))
    assert f.extra["holds"] == (f.witness["deal_cards"] == args["equals"] and f.witness["each"] == args["each"])


def test_the_score_claim_is_scored_by_the_kernel_from_card_values(tick_claims):
    f = tick_claims["claim:claim-score-example"]
    spec = load("tick")
    args = spec.formal("claim-score-example")["claim"]["score"]
    for zone, tokens in f.witness["placed"].items():
        cards = spec.cards.parse(tokens)
        assert sum(c.value for c in cards) in args["terms"].values()
    assert f.extra["holds"] == (f.witness["score"] == args["equals"])


def test_the_fewest_units_claim_is_a_replayed_minimum(tick_claims):
    spec = load("tick")
    args = spec.formal("claim-level-8-two-ticks")["claim"]["fewest_units"]
    f = tick_claims["claim:claim-level-8-two-ticks"]
    w = f.witness
    out = replay(w["replay"], spec)
    assert out["legal"] and out["round_ended"]
    assert _moves_of(f, args["move"]) == w["fewest_units"]
    # nothing smaller within the bound, for the player count of the witness
    plan = bmc.search(spec, args["level"], w["players"], 4, [args["move"]])
    assert plan.units[args["move"]] == w["fewest_units"]
    assert f.extra["holds"] == (w["fewest_units"] == args["equals"])


def test_level8_claims_replay_and_the_winner_is_the_player(level8_claims):
    spec = load("level8")
    for cid in ("claim-win-by-level-8", "claim-win-from-level-7", "claim-level-moves"):
        f = level8_claims[f"claim:{cid}"]
        out = replay(f.witness["replay"], spec)
        assert out["legal"], (cid, out)
    for cid in ("claim-win-by-level-8", "claim-win-from-level-7"):
        f = level8_claims[f"claim:{cid}"]
        assert f.extra["holds"] == (f.witness["seat"] in f.witness["winners"])


def test_the_deck_claim_follows_the_pack_reading(level8_claims):
    """The 96 of the rulebook against the pack clause: the verdict moves with its reading."""
    base = load("level8")
    want = base.formal("claim-all-cards")["claim"]["deck_cards"]["equals"]
    for reading in base.clauses["pack-composition"].readings:
        spec = base.with_readings({"pack-composition": reading})
        f = claim(spec, "claim-all-cards")
        sizes = set(f.witness["deck_cards"].values())
        assert f.extra["holds"] == (sizes == {want}), reading


# ---- edits to the clauses a claim rests on move its verdict --------------------------------

def _bigger_last_level(size):
    def change(d):
        levels = d["clauses"]["levels"]["levels"]
        last = max(levels)
        levels[last] = {"melds": [{"kind": "set", "size": size, "count": 2}]}
    return change


def test_a_last_level_needing_more_cards_needs_more_paid_draws(tmp_path):
    """Two sets of 7 and of 8 at the last level: more cards than a hand reaches with one
    paid draw. The check answers (no crash), finds more units, and the witness replays."""
    base = claim(load("tick"), "claim-level-8-two-ticks")
    args = load("tick").formal("claim-level-8-two-ticks")["claim"]["fewest_units"]
    seen = [base.witness["fewest_units"]]
    for size in (7, 8):
        (tmp_path / str(size)).mkdir()
        spec = edited(tmp_path / str(size), "tick", _bigger_last_level(size))
        f = claim(spec, "claim-level-8-two-ticks")
        assert f.extra["holds"] is not None, f.verdict
        units = f.witness["fewest_units"]
        assert units > seen[-1]
        assert _moves_of(f, args["move"]) == units
        out = replay(f.witness["replay"], spec)
        assert out["legal"] and out["round_ended"]
        assert f.extra["holds"] == (units == args["equals"])
        seen.append(units)
    assert args["equals"] in seen, "one of the edits makes the tip true"


def test_a_bigger_deal_changes_the_deal_claim_and_the_paid_draws(tmp_path):
    def change(d):
        d["clauses"]["deal"]["deal"]["cards_each"] += 2
    spec = edited(tmp_path, "tick", change)
    f = claim(spec, "claim-deal-for-four")
    assert f.extra["holds"] is False
    assert "not what the deal takes" in f.verdict         # the bonus clause's own count no longer agrees
    before = claim(load("tick"), "claim-level-8-two-ticks").witness["fewest_units"]
    after = claim(spec, "claim-level-8-two-ticks").witness["fewest_units"]
    assert after < before


def test_a_changed_scoring_clause_changes_the_score_claim(tmp_path):
    def change(d):
        d["clauses"]["scoring"]["scoring"]["round"] = "laid_points"
    f = claim(edited(tmp_path, "tick", change), "claim-score-example")
    assert f.extra["holds"] is False and f.witness["score"] == f.witness["laid_points"]


def test_a_changed_advance_clause_changes_the_level_claim(tmp_path):
    def change(d):
        d["clauses"]["level-advance"]["round_end"]["advance"]["level"] = "level + (3 if went_out else 1 if down else 0)"
    f = claim(edited(tmp_path, "level8", change), "claim-level-moves")
    assert f.extra["holds"] is False and f.witness["moved"]["went_out"] == 3


def test_a_changed_game_end_changes_the_win_claim(tmp_path):
    def change(d):
        d["clauses"]["game-end"]["game_end"]["when"] = "went_out and level == 6"
    f = claim(edited(tmp_path, "level8", change), "claim-win-from-level-7")
    assert f.extra["holds"] is False and f.witness["seat"] not in f.witness["winners"]


# ---- the derived table ----------------------------------------------------------------------

def test_every_level_of_both_games_gets_replayed_minima():
    for game in ("tick", "level8"):
        spec = load(game)
        f, = derived_findings(spec, 4)
        rows = f.witness["levels"]
        assert [r["level"] for r in rows] == sorted(int(x) for x in spec.levels())
        for r in rows:
            assert r["replayed"] and r["earliest_turn"] is not None, (game, r)
            assert set(r["fewest"]) == {m.id for m in bmc.Model(spec).draws}
        assert "within 4 own turns" in f.verdict


def test_a_level_no_hand_reaches_is_never_finished_however_long_the_round(tmp_path):
    """With several paid units a turn, the search covers every round (more own turns cannot
    lower the units), so a level asking more cards than the counters can ever buy is
    refuted outright, and the derived table says so."""
    spec = edited(tmp_path, "tick", _bigger_last_level(20))
    f = claim(spec, "claim-level-8-two-ticks")
    assert f.extra["holds"] is False and "can never be finished" in f.verdict
    assert all(r["complete"] and r["fewest"] is None for r in f.witness["by_players"])
    d, = derived_findings(spec, 4)
    assert not d.resolved and "unresolved" in d.verdict


def test_beyond_the_bound_is_unresolved_where_the_argument_does_not_apply(tmp_path):
    """One paid unit a turn (the other reading of the paid draw): more turns could help,
    so what the bound does not reach is reported unresolved, with the bound."""
    def change(d):
        _bigger_last_level(20)(d)
        c = d["clauses"]["tick"]
        c["adopted"] = "top-only"
    spec = edited(tmp_path, "tick", change)
    f = claim(spec, "claim-level-8-two-ticks")
    assert f.extra["holds"] is None and "within 4 own turns" in f.verdict and not f.resolved
    assert not any(r["complete"] for r in f.witness["by_players"])


def test_a_claim_that_holds_only_within_the_bound_stays_unresolved(tmp_path):
    def change(d):
        _bigger_last_level(7)(d)
        d["clauses"]["tick"]["adopted"] = "top-only"
    spec = edited(tmp_path, "tick", change)
    f = claim(spec, "claim-level-8-two-ticks")
    assert f.extra["holds"] is True and "within the bound" in f.verdict and not f.resolved
    out = replay(f.witness["replay"], spec)
    assert out["legal"] and out["round_ended"]


# ---- the command line -------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["tick", "level8"])
def test_the_claim_check_runs_from_the_command_line(game):
    result = CliRunner().invoke(main, ["check", game, "--kind", "claim"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1)
    assert re.search(r"findings in [0-9.]+ s", result.output)
    counts = Counter(re.findall(r"\((resolved|UNRESOLVED)\)", result.output))
    assert sum(counts.values()) == len(load(game).rules("claim")) + 1


def test_the_first_go_out_claim_follows_the_go_out_timing_reading():
    """The rulebook's 'the first player after the dealer has the first chance' is what tells
    the readings of the go-out timing apart: under the other reading the claim fails."""
    base = load("tick")
    want = base.formal("claim-first-to-go-out")["claim"]["first_go_out"]["seat"]
    for reading in base.clauses["go-out-timing"].readings:
        f = claim(base.with_readings({"go-out-timing": reading}), "claim-first-to-go-out")
        seats = {r["seat"] for r in f.witness["by_players"]}
        assert all(r["replayed"] for r in f.witness["by_players"])
        assert f.extra["holds"] == (seats == {want}), reading


def test_a_level_laid_exactly_is_finished_by_adding_to_its_melds():
    """Under the reading where a level's combinations hold exactly their cards, no single lay
    empties a hand: the witness lays the level and adds the other cards to its melds one
    at a time, and the kernel replays every level that way."""
    spec = load("level8").with_readings({"level-set-size": "exactly"})
    d, = derived_findings(spec, 4)
    assert d.resolved and all(r["replayed"] for r in d.witness["levels"])
    f = claim(spec, "claim-win-from-level-7")
    moves = [next(iter(m)) for m in f.witness["replay"]["scenario"]["moves"]]
    extends = {m.id for m in kernel.rules(spec).moves.values() if m.mechanic == "extend"}
    assert extends & set(moves)
    assert replay(f.witness["replay"], spec)["legal"] and f.extra["holds"] is True
