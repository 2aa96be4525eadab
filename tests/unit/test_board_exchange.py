"""The once-a-turn exchange of a dead card is not the turn's card: after it the player still
places a chip (the exchange alone counts in lays_this_turn), and only a second exchange is
refused."""
from pathlib import Path

import yaml

from rulings import kernel, scenario

SCENARIO = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "sequence-numbers" / "dead-card-exchange.yaml"


def test_a_chip_still_goes_down_after_the_exchange():
    from rulings.spec import load

    spec = load("sequence-numbers")
    s = scenario.load(yaml.safe_load(SCENARIO.read_text()), spec)
    after = kernel.apply(s.state, s.moves[0])
    assert not isinstance(after, kernel.Refusal) and after.lays_this_turn == 1 and after.current == s.state.current
    offered = {m.id for m in kernel.legal_moves(after)}
    assert "cover" in offered and "swap_dead" not in offered
    cover = next(m for m in kernel.legal_moves(after) if m.id == "cover")
    placed = kernel.apply(after, cover)
    assert not isinstance(placed, kernel.Refusal) and placed.phase == "draw"
