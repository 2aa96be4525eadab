"""The table mechanic's play offered (model/kernel/mechanics/table.py): what a decision that
consults it rests on, and the plays that win a wild the search finds."""
from __future__ import annotations

import pytest

from rulings import kernel, simulate as sim
from rulings.kernel import Refusal, codec, rules
from rulings.kernel.mechanics import table
from rulings.spec import load


@pytest.fixture(scope="module")
def rk():
    return load("rummikub")


def position(spec, racks, table_text="", melded=(1, 1)):
    doc = {"format": 1, "game": spec.game, "players": len(racks), "dealer": 0, "to_play": 0, "phase": "turn",
           "turns_finished": 4, "racks": racks, "melded": list(melded),
           "table": [m for m in table_text.split("|") if m.strip()],
           "reserve": {"top": [], "rest": "deck"}}
    return codec.state_from_doc(spec, doc)


# ---- what a decision consulting the play offered rests on ----------------------------------------

def test_a_draw_for_want_of_a_play_rests_on_the_initial_threshold(rk):
    """33 points in the rack: no initial meld under the 50 the spec adopts, so the draw is
    legal; under the other reading (30) the player could play, so the draw rests on it."""
    s = position(rk, [["r10", "r11", "r12", "k2", "o7"], ["b1", "b5", "k9"]], "", melded=(0, 1))
    assert [m.id for m in kernel.legal_moves(s)] == ["draw"]
    out, basis = kernel.apply_traced(s, kernel.Move("draw"))
    assert not isinstance(out, Refusal)
    got = {b.clause: dict(b.otherwise) for b in basis}
    assert "refused" in got["initial-threshold"]["current-30"]
    # 60 points in the rack: a play under either reading, so no draw to rest on it
    s = position(rk, [["r10", "r11", "r12", "k9", "o9", "b9"], ["b1", "b5", "k9"]], "", melded=(0, 1))
    out, basis = kernel.apply_traced(s, kernel.Move("draw"))
    assert isinstance(out, Refusal)
    assert "initial-threshold" not in {b.clause for b in basis}


def test_a_simulated_game_rests_on_the_initial_threshold(rk):
    """The first moves of a seeded game: players draw for want of a 50-point initial meld,
    some of them holding 30; a reading no field reads is still never rested on."""
    g = sim.play_game(rk, 2, sim.game_seed(1, 0), max_moves=12)
    assert g.moves == 12 and g.rested_on["initial-threshold"] >= 1
    rep = sim.report(rk, 2, 1, "greedy", [g])
    share = {a["clause"]: a["games_share"] for a in rep["rested_on"]}
    assert share["initial-threshold"] == 1.0
    assert share["joker-swap-group"] == 0.0


# ---- the plays around melds holding a wild -------------------------------------------------------

def offered(s):
    (m,) = [x for x in kernel.legal_moves(s) if x.id == "play"]
    return m


def tokens(spec, t):
    return sorted(" ".join(spec.cards.tokens(kernel.counts(m, len(spec.cards.types)))) for m in t)


def assert_offered(spec, s, want):
    """The play offered is `want` (melds as text), `check` accepts it, and applying it
    places exactly the cards it adds."""
    m = offered(s)
    assert tokens(spec, m.arg) == sorted(want)
    assert table.check(s, rules(spec), rules(spec).moves["play"], m.arg) is None
    after = kernel.apply(s, m)
    assert not isinstance(after, Refusal)
    return after


def test_cards_added_to_a_meld_holding_a_wild(rk):
    """The joker's run keeps its three tiles and takes r8 (the joker now r7); no other play
    exists: every rearrangement placing more takes r5 or r6 out of the joker's run, and
    there is no r4 or r7 to win the joker with. Before, the search offered the draw."""
    s = position(rk, [["o1", "o2", "r8"], ["b1", "b5", "k9"]], "r5 r6 J | o5 b5 k5 | o6 b6 k6")
    after = assert_offered(rk, s, ["r5 r6 r8 J", "k5 o5 b5", "k6 o6 b6"])
    assert after.hand(0) == rk.cards.hand_of(["o1", "o2"])


def swap_plays(spec, s):
    """The candidate plays the swap search builds here that `check` accepts."""
    decl = rules(spec).moves["play"]
    tries = table._swap_tries(spec, decl, s.zone("table"), s.hand())
    return [tokens(spec, t) for t in tries if table.check(s, rules(spec), decl, t) is None]


def test_two_wilds_won_in_one_play(rk):
    """b5 and b9 win both jokers (each group then full); the jokers go down again with
    o1 o2 and r1 r2. Winning one joker places three tiles at most; the most any
    rearrangement places (eight: k5 pulled out of its group into k5 k6 k7) breaks that
    group. Before, the search offered three tiles."""
    s = position(rk, [["b5", "b9", "o1", "o2", "r1", "r2", "k6", "k7"], ["b1", "b5", "k9"]],
                 "k5 r5 o5 J | k9 r9 o9 J")
    won = ["k5 r5 o5 b5", "k9 r9 o9 b9"]                     # both groups full, both jokers won
    plays = swap_plays(rk, s)
    assert any(all(g in p for g in won) for p in plays)
    # which two of the rack's pairs (o1 o2, r1 r2, k6 k7) take the jokers is the solver's
    # choice among equals: the play offered wins both and places six tiles
    m = offered(s)
    got = tokens(rk, m.arg)
    assert all(g in got for g in won) and sum("J" in g.split() for g in got) == 2
    assert table.check(s, rules(rk), rules(rk).moves["play"], m.arg) is None
    after = kernel.apply(s, m)
    assert not isinstance(after, Refusal) and sum(after.hand(0)) == 2


def test_a_natural_swapped_in_from_the_table(rk):
    """Under `swap: {from: table}` the k4 of the four-colour group wins the joker of J r4
    b4; the joker joins o5 o6 J with o4 and o9 from the rack (two of the rack's, as the
    reuse rule asks). A natural from the rack (o4) wins the same joker but leaves no meld
    for it with two rack tiles. Before, the search offered the draw."""
    other = load("rummikub", {"joker-swap": "from-rack-or-table"})
    s = position(other, [["o4", "o9"], ["b1", "b5", "k9"]], "J r4 b4 | o5 o6 J | k4 r4 o4 b4")
    want = ["k4 r4 b4", "r4 o4 b4", "o4 o5 o6 o9 J J"]
    assert sorted(want) in swap_plays(other, s)
    assert_offered(other, s, want)


def test_a_won_wild_added_to_a_meld_holding_a_wild(rk):
    """k2 wins the joker of J r2 o2; the only meld that takes the won joker with two rack
    tiles is the other joker's run, grown to o3 .. o8 (the four-colour group of 8s takes it
    only with one rack tile, o8, which the reuse rule refuses). Before, the search offered
    the draw."""
    s = position(rk, [["o8", "k2", "b4", "o3"], ["b1", "b5", "k9"]], "o6 o7 J | J r2 o2 | k8 r8 o8 b8")
    want = ["o3 o6 o7 o8 J J", "k2 r2 o2", "k8 r8 o8 b8"]
    assert sorted(want) in swap_plays(rk, s)
    assert_offered(rk, s, want)


def _no_reuse(tmp_path):
    from pathlib import Path

    import yaml

    from rulings.specfile import Loader

    root = Path(__file__).resolve().parents[2]
    data = yaml.load((root / "spec" / "rummikub.yaml").read_text(encoding="utf-8"), Loader=Loader)
    del data["clauses"]["joker-reuse"]["moves"]
    data["clauses"]["joker-reuse"]["says"] = "A joker won from the table may go anywhere on it (a variant)."
    data["clauses"]["joker-reuse"]["informal"] = {"why": "a won joker may go anywhere", "affects_play": False}
    out = tmp_path / "no-reuse.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return load(str(out))


def test_a_won_wild_laid_with_table_cards_only(tmp_path):
    """Without a reuse rule: b5 wins the joker of the group of 5s (which cannot take b5
    beside its joker), and the won joker joins the other joker's run, k2 k3 J J, with no
    rack tile: the only play."""
    spec = _no_reuse(tmp_path)
    s = position(spec, [["b5", "o11"], ["b1", "b5", "k9"]], "k5 r5 o5 J | k2 k3 J")
    want = ["k5 r5 o5 b5", "k2 k3 J J"]
    assert sorted(want) in swap_plays(spec, s)
    assert_offered(spec, s, want)
