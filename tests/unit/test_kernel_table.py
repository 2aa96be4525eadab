"""The `table` zone kind and the `rearrange` mechanic (model/kernel/mechanics/table.py), on the spec
that uses them: what a play may do, what the kernel offers, how a play is written, and
the checks a spec using them must pass."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulings import kernel, rearrange
from rulings.kernel import Move, Refusal, codec
from rulings.kernel.mechanics import table
from rulings.spec import SpecErrors, load
from rulings.specfile import Loader

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rk():
    return load("rummikub")


def position(spec, racks, table_text="", melded=(1, 1), reserve="deck", **kw):
    doc = {"format": 1, "game": "rummikub", "players": len(racks), "dealer": 0, "to_play": 0, "phase": "turn",
           "turns_finished": 4, "racks": racks, "melded": list(melded),
           "table": [m for m in table_text.split("|") if m.strip()],
           "reserve": {"top": [], "rest": "deck"} if reserve == "deck" else reserve, **kw}
    return codec.state_from_doc(spec, doc)


def play(spec, text):
    return codec.move_from_doc(spec, {"play": text})


def test_a_play_is_offered_and_the_draw_is_not(rk):
    s = position(rk, [["r10", "r11", "r12", "k3"], ["b1", "b5", "k9"]], "k11 o11 b11")
    moves = kernel.legal_moves(s)
    assert [m.id for m in moves] == ["play"]
    after = kernel.apply(s, moves[0])
    assert not isinstance(after, Refusal)
    assert after.hand(0) == rk.cards.hand_of(["k3"])        # the most: r10 r11 r12 (k3 fits nowhere)
    assert after.counter("laid", 0) == 33 and after.current == 1


def test_the_offered_play_places_what_the_solver_says_is_the_most(rk):
    s = position(rk, [["r6", "k5", "o5", "J", "b13"], ["b1", "b5", "k9"]], "r3 r4 r5 | k7 k8 k9")
    (m,) = kernel.legal_moves(s)
    width = len(rk.cards.types)
    old = kernel.counts([c for g in s.zone("table") for c in g], width)
    best = rearrange.best(rk, old, s.hand(), engine="reference")
    after = kernel.apply(s, m)
    assert sum(s.hand()) - sum(after.hand(0)) == best.value


def test_a_stuck_player_draws_and_the_turn_ends(rk):
    s = position(rk, [["r1", "k5", "o9"], ["b1", "b5", "k9"]], "k11 o11 b11")
    moves = kernel.legal_moves(s)
    assert [m.id for m in moves] == ["draw"]
    after = kernel.apply(s, moves[0])
    assert sum(after.hand(0)) == 4 and after.current == 1 and after.phase == "turn"


def test_drawing_when_able_is_refused_by_its_clause(rk):
    s = position(rk, [["r10", "r11", "r12"], ["b1", "b5", "k9"]])
    out = kernel.apply(s, Move("draw"))
    assert isinstance(out, Refusal) and out.clauses == ("draw-when-stuck",)


def test_before_the_initial_meld_the_table_is_untouched(rk):
    s = position(rk, [["r10", "r11", "r12", "k13", "o13", "b13", "k10"], ["b1", "b5", "k9"]], "k7 k8 k9",
                 melded=(0, 1))
    bad = kernel.apply(s, play(rk, "k7 k8 k9 k10 | r10 r11 r12 | k13 o13 b13"))
    assert isinstance(bad, Refusal) and bad.clauses[0] == "initial-first"
    good = kernel.apply(s, play(rk, "k7 k8 k9 | r10 r11 r12 | k13 o13 b13"))
    assert not isinstance(good, Refusal) and good.counter("melded", 0) == 1
    # the offered initial meld leaves the old meld as it was
    (m,) = [x for x in kernel.legal_moves(s) if x.id == "play"]
    assert (rk.cards.parse(["k7"])[0].index, rk.cards.parse(["k8"])[0].index,
            rk.cards.parse(["k9"])[0].index) in m.arg


def test_a_refused_play_names_the_rule_it_breaks(rk):
    s = position(rk, [["k6", "o6", "b9"], ["b1", "b5", "k9"]], "r3 r4 r5 r6")
    out = kernel.apply(s, play(rk, "r3 r4 | r5 r6 k6 o6"))
    assert isinstance(out, Refusal) and out.clauses[0] == "manipulation"
    out = kernel.apply(s, Move("play", ()))
    assert isinstance(out, Refusal)


def test_joker_rules(rk):
    s = position(rk, [["r6", "k9", "o9", "b2"], ["b1", "b5", "k8"]], "r5 J r7 | k1 k2 k3")
    assert not isinstance(kernel.apply(s, play(rk, "r5 r6 r7 | J k9 o9 | k1 k2 k3")), Refusal)
    out = kernel.apply(s, play(rk, "r5 r6 r7 | k1 k2 k3 J"))
    assert isinstance(out, Refusal) and out.clauses == ("joker-reuse",)
    s = position(rk, [["k5", "o5", "r8"], ["b1", "b5", "k8"]], "r5 J r7")
    out = kernel.apply(s, play(rk, "r5 k5 o5 | J r7 r8"))         # r5 taken out of the joker's run
    assert isinstance(out, Refusal) and out.clauses[0] == "joker-locks-meld"
    swap_any = load("rummikub", {"joker-swap": "from-rack-or-table"})
    s = position(swap_any, [["b10", "b11", "o1"], ["b1", "b5", "k8"]], "r3 r4 r5 r6 | k6 o6 J")
    assert not isinstance(kernel.apply(s, play(swap_any, "r3 r4 r5 | k6 o6 r6 | J b10 b11")), Refusal)
    s = position(rk, [["b10", "b11", "o1"], ["b1", "b5", "k8"]], "r3 r4 r5 r6 | k6 o6 J")
    out = kernel.apply(s, play(rk, "r3 r4 r5 | k6 o6 r6 | J b10 b11"))
    # the joker was swapped for a tile it stands for, from the table: the swap's own rule
    # (a tile from the rack) refuses it, and says so, not the lock on the joker's meld
    assert isinstance(out, Refusal) and out.clauses[0] == "joker-swap", out
    assert "from the hand" in out.why and "from the table" in out.why


def test_going_out_ends_the_hand_and_the_winner_collects_the_other_racks(rk):
    s = position(rk, [["r13"], ["k1", "k2", "J"]], "r10 r11 r12", laid=[40, 20])
    out = kernel.apply(s, play(rk, "r10 r11 r12 r13"))
    assert out.over and out.winners == (0,)
    assert out.results[0].scores == (40 + 13 + 33, 20 - 33)
    lit = load("rummikub", {"scoring": "others-table"})
    s2 = position(lit, [["r13"], ["k1", "k2", "J"]], "r10 r11 r12", laid=[40, 20])
    assert kernel.apply(s2, play(lit, "r10 r11 r12 r13")).results[0].scores == (40 + 13 + 20, 20 - 33)


def test_an_empty_pool_passes_and_a_hand_nobody_can_play_ends(rk):
    s = position(rk, [["b9", "k2"], ["r4", "o8"]], "r1 r2 r3", reserve=[])
    out = kernel.apply(s, Move("draw"))
    assert not out.over and out.current == 1 and out.hand(0) == s.hand(0)
    s = position(rk, [["b9", "k2"], ["o8"]], "r1 r2 r3", reserve=[], laid=[60, 45])
    out = kernel.apply(s, Move("draw"))
    assert out.results[0].how == "stalled" and out.results[0].scores == (49, 37)
    # nobody emptied their rack, so nobody has won: another hand, started by the next seat
    assert not out.over and out.round == 2 and out.dealer == 1 and out.counter("scores", 0) == 49


@pytest.mark.parametrize("doc", [
    {"play": "k7 k8 k9 | r5 o5 b5"},
    {"play": [["k7", "k8", "k9"], ["r5", "o5", "b5"]]},
    {"play": ["k7 k8 k9", "r5 o5 b5"]},
])
def test_a_play_is_written_as_the_new_table(rk, doc):
    m = codec.move_from_doc(rk, doc)
    assert len(m.arg) == 2
    assert codec.move_from_doc(rk, codec.move_to_doc(rk, m)) == m
    assert codec.move_words(rk, m).startswith("play: ")


@pytest.mark.parametrize("doc", [{"play": []}, {"play": 3}, {"play": "k7 k8 | | r5"}, {"play": ["k7 X9"]}])
def test_a_badly_written_play_is_a_clear_error(rk, doc):
    with pytest.raises(codec.CodecError):
        codec.move_from_doc(rk, doc)


def _variant(tmp_path, change) -> Path:
    data = yaml.load((ROOT / "spec" / "rummikub.yaml").read_text(encoding="utf-8"), Loader=Loader)
    change(data["clauses"])
    out = tmp_path / "variant.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return out


@pytest.mark.parametrize("change, words", [
    (lambda c: c["manipulation"]["moves"]["play"].update(to="reserve"), "is a pile"),
    (lambda c: c["scoring"]["moves"]["play"].update(tally="nothing"), "not a counter"),
    (lambda c: c["initial-first"]["moves"]["play"]["initial"].update(counter="nothing"), "initial needs counter"),
    (lambda c: c["draw-when-stuck"]["readings"]["only-when-stuck"]["moves"]["draw"].update(instead_of="draw"),
     "the draw itself"),
    (lambda c: c["manipulation"]["moves"]["play"].update(then="turn"), "ends the turn"),
])
def test_a_spec_misusing_the_table_fails_validation(tmp_path, change, words):
    with pytest.raises(SpecErrors) as e:
        load(str(_variant(tmp_path, change)))
    assert words in str(e.value)


def test_able_asks_each_seat(rk):
    s = position(rk, [["b9", "k2"], ["r4", "o8"]], "r1 r2 r3")
    assert not table.able(s, 0) and table.able(s, 1)


def test_a_swap_for_the_joker_is_searched(rk):
    """The offered play's search includes winning a joker by a swap from the hand: the
    joker's run with r6 in its place, the joker gone down again with two rack tiles."""
    from rulings.kernel import rules
    from rulings.kernel.mechanics import table as table_

    s = position(rk, [["r6", "k9", "o9", "b2"], ["b1", "b5", "k8"]], "r5 J r7 | k1 k2 k3")
    decl = rules(rk).moves["play"]
    tries = table_._swap_tries(rk, decl, s.zone("table"), s.hand())
    r567 = tuple(sorted(t.index for t in rk.cards.parse(["r5", "r6", "r7"])))
    assert tries and all(r567 in t for t in tries)
    legal = [t for t in tries if table_.check(s, rules(rk), decl, t) is None]
    assert legal and all(sum(map(len, t)) == 9 for t in legal)     # r6, k9, o9 placed; b2 fits nowhere
    (m,) = kernel.legal_moves(s)
    assert kernel.apply(s, m).hand(0) == rk.cards.hand_of(["b2"])
