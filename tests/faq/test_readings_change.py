"""Editing a clause's adopted reading in a copy of the spec changes the answers that rest
on that clause, and nothing else."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from rulings.checks.faq import build as faq
from rulings.checks.faq.render import to_json
from rulings.spec import load
from rulings.specfile import Loader

TICK = Path(__file__).resolve().parents[2] / "spec" / "tick.yaml"


def adopt(tmp_path, clause: str, reading: str) -> str:
    data = yaml.load(TICK.read_text(encoding="utf-8"), Loader=Loader)
    assert reading in data["clauses"][clause]["readings"] and data["clauses"][clause]["adopted"] != reading
    data["clauses"][clause]["adopted"] = reading
    out = tmp_path / "tick.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return str(out)


def mentions(entry: dict, clause: str) -> bool:
    return (any(c["id"] == clause for c in entry["clauses"])
            or any(a.split("=")[0] == clause for a in entry["assumptions"]))


@pytest.mark.parametrize("clause, reading, flips", [
    ("go-out-timing", "others-have-played", {"dealer-first-round": "Yes"}),
    ("wild-limit", "per-lay-down", {"wilds-lean-on-other-set": "Yes", "wilds-level-2": "At most 3"}),
])
def test_changing_an_adopted_reading_changes_only_the_answers_resting_on_it(tmp_path, tick_faq, clause, reading,
                                                                            flips):
    before = {e["id"]: e for e in to_json(tick_faq)}
    edited = faq.build(load(adopt(tmp_path, clause, reading)))
    after = {e["id"]: e for e in to_json(edited)}
    assert list(after) == list(before)
    changed = {i for i in before if json.dumps(before[i], sort_keys=True) != json.dumps(after[i], sort_keys=True)}
    # nothing changes that does not cite the clause or rest on it
    unrelated = sorted(i for i in changed if not (mentions(before[i], clause) or mentions(after[i], clause)))
    assert not unrelated, unrelated
    # every answer that rested on the old reading now rests on the new one
    rested = {i for i, e in before.items() if f"{clause}={tick_faq.spec.chosen[clause]}" in e["assumptions"]}
    assert rested and rested <= changed
    for i in rested:
        assert f"{clause}={tick_faq.spec.chosen[clause]}" not in after[i]["assumptions"]
    # and the answers the other reading decides differently say so
    for i, answer in flips.items():
        assert before[i]["answer"] != answer and after[i]["answer"] == answer, (i, after[i]["answer"])
