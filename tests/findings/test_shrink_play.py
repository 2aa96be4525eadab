"""A play witness is shrunk (fewer players, cards, history, a smaller move) while the two
readings still judge its move otherwise; the shrunk situation is 1-minimal (no single
seat, card or step removed keeps the difference, checked here by removals written in the
test as well as by the shrinker's own steps) and `rulings judge` replays it: the
verdicts, or the situations after the move, differ between the two readings."""
from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from rulings import kernel
from rulings.checks.search.readings import compare_readings
from rulings.checks.search.shrink_play import differs, single_steps, size
from rulings.cli import main
from rulings.spec import load

CASES = [("tick", "reshuffle-when", "when-emptied"), ("tick", "tick-short-stock", "per-tick"),
         ("tick", "several-lays", "one")]


def _card_removals(spec, doc):
    """Every situation with one card fewer in one zone (written apart from the shrinker)."""
    for z in kernel.rules(spec).zones.values():
        seats = range(doc["players"]) if z.each else [None]
        for s in seats:
            value = doc[z.id] if s is None else doc[z.id][s]
            groups = value if z.kind == "melds" else [value]
            for g, cards in enumerate(groups):
                for i in range(len(cards)):
                    out = copy.deepcopy(doc)
                    holder = out[z.id] if s is None else out[z.id][s]
                    target = holder[g] if z.kind == "melds" else holder
                    del target[i]
                    if z.kind == "melds" and not target:
                        del holder[g]
                    yield out


def _judge(path, *extra):
    r = CliRunner().invoke(main, ["judge", "tick", str(path), "--json", *extra])
    assert r.exit_code in (0, 1, 4), r.output
    out = json.loads(r.output)
    out.pop("readings")
    return r.exit_code, out


@pytest.mark.parametrize("game,cid,other", CASES, ids=[c[1] for c in CASES])
def test_play_witness_is_shrunk_minimal_and_replays_in_judge(tmp_path, game, cid, other):
    spec = load(game)
    f = compare_readings(spec, cid, other)
    assert f.extra["told_apart"], f.verdict
    w = f.witness
    assert "shrunk" in w and "shrunk to a built situation" in f.verdict, f.verdict
    spec_b = spec.with_readings(dict(spec.chosen, **{cid: other}))
    doc = w["shrunk"]["scenario"]
    assert differs(spec, spec_b, doc)
    # smaller than the situation the seeded game reached
    before, after = size(spec, w["scenario"]), size(spec, doc)
    assert (after["players"], after["cards"]) < (before["players"], before["cards"]) or \
        after["history"] < before["history"]
    assert "removing any one seat, card, part of the move" in w["shrunk"]["how"]
    # 1-minimal: no single removal keeps the difference
    steps = list(single_steps(spec, doc))
    own = list(_card_removals(spec, doc))
    assert len(own) == after["cards"] and len(steps) >= len(own)
    for d in steps + own:
        assert not differs(spec, spec_b, d), {k: d[k] for k in d if k != "readings"}
    # `rulings judge` replays it: the verdicts, or the situations after the move, differ
    path = tmp_path / "witness.json"
    path.write_text(json.dumps(doc))
    code_a, out_a = _judge(path)
    code_b, out_b = _judge(path, "--reading", f"{cid}={other}")
    assert (code_a, out_a.get("verdict"), out_a.get("result")) != (code_b, out_b.get("verdict"), out_b.get("result"))
    assert code_a == {"legal": 0, "illegal": 1, "undecided": 4}[out_a["verdict"]]
