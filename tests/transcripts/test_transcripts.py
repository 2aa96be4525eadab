"""Recorded games replay move for move: the same players choose the same moves and the
engine reaches the same states (regenerate with `python -m tests.transcripts.record`)."""
import json

import pytest

from .record import CASES, path, replay


@pytest.mark.parametrize("stem", [c[0] for c in CASES])
def test_recorded_game_replays_exactly(stem):
    doc = json.loads(path(stem).read_text(encoding="utf-8"))
    found = replay(doc)
    assert found == [], (f"{stem}: {found[0]}; if the change of behaviour is intended, regenerate the "
                         "transcripts with `python -m tests.transcripts.record` and read their diff")


def test_a_changed_transcript_is_caught():
    doc = json.loads(path(CASES[0][0]).read_text(encoding="utf-8"))
    doc["moves"][40]["digest"] = "0" * 16
    (found,) = replay(doc)
    assert found.startswith("move 41 ") and "the state differs" in found
    doc = json.loads(path(CASES[0][0]).read_text(encoding="utf-8"))
    doc["moves"][5]["move"] = {"tick": 3}
    (found,) = replay(doc)
    assert found.startswith("move 6 ") and "the transcript has {'tick': 3}" in found
