"""The Garbage FAQ (spec/faq/garbage.yaml): the answers an editor checked against
garbage.fr.txt, the variants named as variants, and the layouts drawn position by position."""
from __future__ import annotations

import pytest



@pytest.fixture(scope="module")
def garbage_faq(faqs):
    return faqs("garbage")


def test_answers_and_what_they_rest_on(garbage_faq):
    by = {e.id: e for e in garbage_faq.entries}
    assert by["take-discard"].answer == "Yes" and by["first-player-discard"].answer == "No"
    assert by["keep-a-card-that-fits"].answer == "No" and by["second-copy"].answer == "No"
    assert by["queen-or-king"].answer.startswith("No")                 # line 11: they end the turn
    assert by["tens-after-win"].answer.startswith("No")
    assert by["who-starts-next"].answer.startswith("Seat 1, the winner")   # line 33
    assert by["win-a-hand"].answer == "Yes" and by["win-the-game"].answer == "Yes"
    leave = {f.clause: f for f in by["leave-the-wild"].flags}
    assert leave["must-place"].kind == "reading"                       # line 23's "may"
    assert leave["wild"].kind == "variant" and "kings" in leave["wild"].variants   # FACTS.md, not a reading
    assert by["one-position"].value == ["A", "J"]
    assert {f.clause: f.kind for f in by["one-position"].flags} == {"wild": "variant"}
    assert by["positions-after-win"].answer == "9 positions"


def test_the_layout_is_drawn_position_by_position(garbage_faq):
    by = {e.id: e for e in garbage_faq.entries}
    rows = by["displace-wild"].example["rows"]
    layout = next(r for r in rows if "melds" in r and "position by position" in r["label"])
    assert len(layout["melds"]) == 10
    assert {"card": "J", "as": "6"} in [m[0] for m in layout["melds"]]


def test_a_variant_that_postpones_the_end_of_the_hand_is_not_said_to_answer_otherwise(garbage_faq):
    """Under 'last-turns' the moves that end the hand under the rulebook's rule leave the
    others a last turn: the next hand's positions and the game's winner are not reached, so
    the variant's answer is 'not answered by these moves', never the state where they stop
    (it once read '10 positions' and 'No': the winner still wins, after the last turns)."""
    by = {e.id: e for e in garbage_faq.entries}
    for eid in ("positions-after-win", "win-the-game", "who-starts-next"):
        flag = next(f for f in by[eid].flags if f.clause == "hand-won")
        said = flag.otherwise["last-turns"]
        assert "would not end the hand" in said and "would not answer it" in said, (eid, said)
    # a question whether the hand ends is answered where the moves stop: No, under the variant
    ends = next(f for f in by["win-a-hand"].flags if f.clause == "hand-won")
    assert "would not answer" not in ends.otherwise["last-turns"]
