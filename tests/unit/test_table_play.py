"""The table mechanic's play offered (model/kernel/table.py): what a decision that
consults it rests on, and the plays that win a wild the search finds."""
from __future__ import annotations

import pytest

from rulings import kernel, simulate as sim
from rulings.kernel import Refusal, codec
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
