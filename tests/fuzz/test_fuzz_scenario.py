"""The scenario loader and `rulings judge` fuzzed with hostile files built by Hypothesis
(tests/fuzz/hostile.py): the worked scenarios of docs/scenarios/ with fields of the wrong
type, size or kind, raw YAML spliced in (deep nesting, alias bombs, NUL bytes, huge
numbers), a valid head followed by YAML-ish text, and plain bytes. Loading raises
ScenarioError (each problem naming its field or place) or gives a scenario; judging it
answers with a verdict's exit code (0 legal, 1 illegal, 4 undecided) or 2 (bad input)."""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, strategies as st

from rulings import scenario as sc
from rulings.spec import load

from .hostile import hostile_scenarios, invoke

VERDICT_CODES = {"legal": 0, "illegal": 1, "undecided": 4}


def written(content: bytes, suffix: str = ".yaml") -> Path:
    folder = Path(tempfile.mkdtemp(prefix="rulings-fuzz-"))
    path = folder / f"hostile{suffix}"
    path.write_bytes(content)
    return path


@given(hostile_scenarios(), st.booleans())
def test_judge_on_hostile_scenarios(case, as_json):
    game, content = case
    path = written(content)
    result = invoke(["judge", game, str(path)] + ["--json"] * as_json)
    try:
        scen = sc.load(path, load(game))
        verdict = sc.judge(scen).verdict
    except sc.ScenarioError as e:
        assert e.problems and all(isinstance(p, str) and p.strip() for p in e.problems), e.problems
        assert result.exit_code == 2, result.output
        assert "the scenario cannot be judged" in result.stderr, result.stderr
        return
    assert result.exit_code == VERDICT_CODES[verdict], result.output


@given(hostile_scenarios())
def test_a_scenario_as_json_is_read_as_yaml_is(case):
    """The same document written as JSON: the loader takes it or names what is wrong."""
    import json

    import yaml

    from rulings.specfile import Loader

    game, content = case
    try:
        data = yaml.load(content.decode("utf-8"), Loader=Loader)
        text = json.dumps(data)
    except Exception:   # noqa: BLE001  (only documents YAML and JSON both hold are of interest)
        return
    invoke(["judge", game, str(written(text.encode("utf-8"), ".json"))])
