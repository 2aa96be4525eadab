"""Reading spec files whatever they hold: bounds on nesting, aliases and size, control
characters, names the file system refuses; libyaml and the pure-Python parser agreeing
on every place; the packaged specs validated here, so that loading them need not be."""
from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
import yaml

from rulings import specfile
from rulings.spec import RULEBOOKS_ENV, is_packaged, load, packaged_games, spec_path, validate
from rulings.specfile import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NUMBER,
    MAX_VALUES,
    FileProblem,
    Loader,
    SpecErrors,
    parse_yaml,
    validate_schema,
)

ROOT = Path(__file__).resolve().parents[2]
PARSERS = [pytest.param(None, id="libyaml"), pytest.param(Loader, id="pure-python")]


@pytest.fixture(autouse=True)
def _no_rulebooks(monkeypatch):
    monkeypatch.delenv(RULEBOOKS_ENV, raising=False)


def laughs(levels: int) -> str:
    """The 'billion laughs' document: each level lists the one before nine times."""
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def flow(depth: int) -> str:
    """A mapping holding `depth - 1` nested flow lists: `depth` collections deep."""
    return "a: " + "[" * (depth - 1) + "]" * (depth - 1) + "\n"


def block(depth: int) -> str:
    """`depth` nested block mappings."""
    return "".join("  " * i + "k:\n" for i in range(depth)) + "  " * depth + "v\n"


def the_error(text: str, parser=None) -> specfile.SpecError:
    with pytest.raises(SpecErrors) as exc:
        parse_yaml(text, "t.yaml", parser)
    assert len(exc.value.errors) == 1, str(exc.value)
    return exc.value.errors[0]


# ---- bounds ----------------------------------------------------------------------------------


@pytest.mark.parametrize("parser", PARSERS)
def test_billion_laughs_is_refused_fast_and_small(parser):
    tracemalloc.start()
    try:
        err = the_error(laughs(10), parser)   # 9**10 values once expanded
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size, line = 10, 1   # values in level `line` once expanded: the list and its items
    while size <= MAX_VALUES:
        size, line = 1 + 9 * size, line + 1
    assert (err.line, err.col) == (line, 4), str(err)   # the first list that expands past the bound
    assert "aliases" in err.message and f"{MAX_VALUES:,} values" in err.message
    assert peak < 20_000_000, f"{peak:,} bytes to refuse it"


@pytest.mark.parametrize("parser", PARSERS)
def test_aliases_within_the_bound_are_read(parser):
    data, _ = parse_yaml(laughs(4), "t.yaml", parser)   # 9**4 = 6,561 values
    assert len(data["d"]) == 9 and data["d"][0][0][0] == data["a"]


@pytest.mark.parametrize("parser", PARSERS)
def test_an_alias_of_itself(parser):
    err = the_error("a: 1\nb: &x [1, *x]\n", parser)
    assert (err.line, err.col) == (2, 4)
    assert "alias" in err.message and "of itself" in err.message


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("text,where", [(flow(MAX_DEPTH + 1), (1, MAX_DEPTH + 3)),
                                        (flow(5000), (1, MAX_DEPTH + 3)),
                                        (block(MAX_DEPTH + 1), (MAX_DEPTH + 1, 2 * MAX_DEPTH + 1)),
                                        (block(3000), (MAX_DEPTH + 1, 2 * MAX_DEPTH + 1))],
                         ids=["flow-just-past", "flow-5000", "block-just-past", "block-3000"])
def test_nesting_past_the_bound(parser, text, where):
    err = the_error(text, parser)
    assert (err.line, err.col) == where, str(err)
    assert f"more than {MAX_DEPTH} levels deep" in err.message


@pytest.mark.parametrize("parser", PARSERS)
def test_nesting_at_the_bound_is_read(parser):
    for text in (flow(MAX_DEPTH), block(MAX_DEPTH)):
        parse_yaml(text, "t.yaml", parser)


@pytest.mark.parametrize("parser", PARSERS)
def test_nesting_through_an_alias(parser):
    deep = "[" * 40 + "]" * 40
    err = the_error(f"a: &d {deep}\nb: " + "[" * 30 + "*d" + "]" * 30 + "\n", parser)
    assert err.line == 1 and "levels deep" in err.message


def test_the_loader_others_use_is_bounded_too():
    """Scenarios and FAQ questions are read with yaml.load(text, Loader=Loader): its
    errors are YAMLErrors with a place, which those readers report."""
    for text, words in ((flow(5000), "levels deep"), (laughs(10), "aliases"), ("a: &x [*x]\n", "of itself")):
        with pytest.raises(yaml.MarkedYAMLError) as exc:
            yaml.load(text, Loader=Loader)
        assert words in exc.value.problem and exc.value.problem_mark is not None


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("char,words", [("\0", "a NUL byte (U+0000)"), ("\x07", "control character U+0007"),
                                        ("\ufffe", "character U+FFFE")])
def test_control_characters(parser, char, words):
    err = the_error(f"format: 1\ngame: ti{char}ck\n", parser)
    assert (err.line, err.col) == (2, 9)
    assert words in err.message


@pytest.mark.parametrize("number,shown", [(MAX_NUMBER + 1, f"{MAX_NUMBER + 1}"), (-10 ** 18, f"{-10 ** 18}"),
                                          (10 ** 400, "a number of 401 digits")])
def test_numbers_past_the_bound(number, shown):
    err = the_error(f"format: 1\nlevels:\n  4: {{count: {number}}}\n")
    assert (err.line, err.col) == (3, 14)
    assert err.message == f"{shown} is larger than any number a spec needs (at most {MAX_NUMBER:,})"


def test_numbers_at_the_bound_are_read():
    assert parse_yaml(f"a: [{MAX_NUMBER}, {-MAX_NUMBER}]\n", "t.yaml")[0] == {"a": [MAX_NUMBER, -MAX_NUMBER]}


def test_nul_byte_in_a_spec_through_the_cli(tmp_path):
    from click.testing import CliRunner

    from rulings.cli import main

    f = tmp_path / "nul.yaml"
    f.write_bytes(spec_path("tick").read_bytes().replace(b"format: 1", b"format: 1\x00", 1))
    result = CliRunner().invoke(main, ["validate", str(f)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert f"{f}:" in result.stdout and "a NUL byte" in result.stdout


def test_a_file_past_the_size_bound(tmp_path):
    f = tmp_path / "big.yaml"
    f.write_text("a: " + "x" * MAX_BYTES + "\n")
    errors = validate([str(f)])
    assert len(errors) == 1 and isinstance(errors[0], FileProblem)
    assert f"larger than {MAX_BYTES:,} bytes" in errors[0].message


def test_a_device_is_refused_before_it_is_read():
    errors = validate(["/dev/zero"])
    assert len(errors) == 1 and isinstance(errors[0], FileProblem)
    assert errors[0].message == "this is a device, not a regular file; rulings reads a spec file only from a regular file"


@pytest.mark.parametrize("name", ["x" * 300, "x" * 300 + ".yaml", "ti\0ck", "a/b/c", ""])
def test_names_the_file_system_refuses(name):
    errors = validate([name])
    assert len(errors) == 1 and isinstance(errors[0], FileProblem), errors
    with pytest.raises((FileNotFoundError, SpecErrors)):
        load(name)


def test_a_folder_and_a_missing_file(tmp_path):
    errors = validate([str(tmp_path), str(tmp_path / "none.yaml")])
    assert [type(e) for e in errors] == [FileProblem, FileProblem]
    assert [e.message for e in errors] == ["this is a folder, not a spec file", "no such file"]


# ---- libyaml and the pure-Python parser agree ------------------------------------------------


def yaml_files() -> list[Path]:
    files = [spec_path(g) for g in packaged_games()]
    for folder in ("spec", "spec/faq", "docs/scenarios", "tests/unit/broken_specs", "tests/fuzz/corpus"):
        files += sorted((ROOT / folder).glob("*.yaml"))
    return files


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_both_parsers_give_the_same_data_places_and_errors(path):
    text = path.read_bytes().decode("utf-8", errors="replace")
    out = []
    for parser in (None, Loader):
        try:
            data, pos = parse_yaml(text, path.name, parser)
            out.append((data, pos.at, pos.keys, pos.spans))
        except SpecErrors as e:
            out.append(str(e))
    assert out[0] == out[1]


def test_the_unicode_places_agree():
    text = "t: 'é😀 x'\nu: \"ж\n  z\"\nv: |\n  ü\n   😀\nw: [é, 😀, {k: ü}]\n"
    a, b = (parse_yaml(text, "t.yaml", p)[1] for p in (None, Loader))
    assert (a.at, a.keys, a.spans) == (b.at, b.keys, b.spans)


# ---- the packaged specs, validated here (loading skips the schema for them) -------------------


@pytest.mark.parametrize("game", packaged_games())
def test_packaged_spec_passes_the_schema(game):
    path = spec_path(game)
    assert is_packaged(path)
    data, pos = specfile.read(path, check_schema=False)
    assert validate_schema(data, pos) == []
    assert validate([game]) == []


def test_loading_a_packaged_spec_does_not_import_jsonschema():
    code = ("import sys; from rulings.spec import load; load('tick'); "
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_packaged_spec_edited_in_place_still_reports_schema_errors(tmp_path, monkeypatch):
    """Should a packaged spec be edited in a checkout so that it cannot be built, the
    schema errors are reported as for any other file, not a traceback."""
    broken = tmp_path / "tick.yaml"
    broken.write_text(spec_path("tick").read_text(encoding="utf-8").replace("clauses:\n", "clauses: 5\nx:\n", 1),
                      encoding="utf-8")
    monkeypatch.setattr("rulings.spec.is_packaged", lambda p: True)
    with pytest.raises(SpecErrors) as exc:
        load(broken)
    assert "clauses: expected a mapping of keys to values, got 5" in str(exc.value)
