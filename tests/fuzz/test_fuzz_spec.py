"""The spec loader fuzzed with hostile files built by Hypothesis (tests/fuzz/hostile.py):
packaged specs with fields of the wrong type, size or kind, raw YAML spliced in (deep
nesting, alias bombs, NUL bytes, huge numbers, unicode), YAML-ish text and plain bytes.
Loading raises SpecErrors (each problem at file:line:col) or gives a spec; the command
line answers with a documented exit code; libyaml and the pure-Python parser agree."""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import given, strategies as st

from rulings.spec import ReadingError, Spec, load
from rulings.specfile import SpecErrors, parse_yaml, Loader

from .hostile import card_tokens, hostile_specs, invoke

PLACE = re.compile(r"^.+:\d+:\d+: \S")


def written(content: bytes) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="rulings-fuzz-"))
    path = folder / "hostile.yaml"
    path.write_bytes(content)
    return path


def loaded(path: Path) -> Spec | None:
    try:
        return load(path)
    except SpecErrors as e:
        assert e.errors, "SpecErrors with no error in it"
        for err in e.errors:
            assert PLACE.match(str(err)), str(err)
            assert err.line >= 1 and err.col >= 1, str(err)
        return None


@given(hostile_specs())
def test_the_loader_takes_or_refuses_with_a_place(content):
    loaded(written(content))


@given(hostile_specs(), st.data())
def test_the_command_line_on_hostile_specs(content, data):
    path = written(content)
    result = invoke(["validate", str(path)])
    spec = loaded(path)
    assert (result.exit_code == 0) == (spec is not None), result.output
    if spec is None:
        invoke(["meld", str(path), "--level", "1", "5"])   # a spec with problems is bad input
        return
    contract = ["--initial"] if "initial" in spec.contracts else ["--level", "1"]
    cards = data.draw(card_tokens(spec.game if spec.file.startswith("spec/") else "", most=6))
    for command in ("meld", "lay"):
        invoke([command, str(path), *contract, "--engine", "reference", *cards])


@given(hostile_specs())
def test_both_parsers_agree_on_hostile_text(content):
    text = content.decode("utf-8", errors="replace")
    out = []
    for parser in (None, Loader):
        try:
            data, pos = parse_yaml(text, "h.yaml", parser)
            out.append((repr(data), pos.at, pos.keys, pos.spans))
        except SpecErrors as e:
            out.append(str(e))
    assert out[0] == out[1]


@given(hostile_specs(), st.lists(st.text(max_size=20), max_size=2))
def test_readings_on_hostile_specs(content, choices):
    """Reading choices that name nothing are a ReadingError, never anything else."""
    path = written(content)
    try:
        load(path, {c: c for c in choices})
    except (SpecErrors, ReadingError):
        pass
