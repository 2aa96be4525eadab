"""Hostile input to the command line, each case a reproducer of issue 17 with its exit code
and message: the guard against unexpected exceptions, names the file system refuses,
repeated readings, impossible option values, output paths checked before any work."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from rulings.cli import EXIT_BUG, EXIT_CODES, main
from rulings.spec import RULEBOOKS_ENV, spec_path

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = str(ROOT / "docs" / "scenarios" / "tick" / "draw-stock.yaml")


@pytest.fixture(autouse=True)
def _no_rulebooks(monkeypatch):
    monkeypatch.delenv(RULEBOOKS_ENV, raising=False)


def run(*args: str, code: int):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, f"rulings {' '.join(args)[:200]}: exit {result.exit_code}\n{result.output}"
    assert "Traceback" not in result.output
    return result


def usage(*args: str) -> str:
    result = run(*args, code=2)
    assert result.stdout == ""
    return result.stderr


# ---- the guard -------------------------------------------------------------------------------


def test_exit_codes_documented():
    assert EXIT_CODES == (0, 1, 2, 3, 4, 5, 70, 130) and EXIT_BUG == 70
    text = " ".join(run("--help", code=0).stdout.split())
    for said in ("3 the solver could not decide", "4 the spec does not decide", "5 the implementation misbehaved",
                 "70 a bug in rulings"):
        assert said in text, said


@pytest.fixture
def broken_games(monkeypatch):
    """`rulings games` made to fail as a bug would."""
    def boom():
        raise RuntimeError("some problem\nover two lines")

    monkeypatch.setattr("rulings.cli.specs.packaged_games", boom)


def test_an_unexpected_exception_is_one_line_asking_for_a_report(broken_games):
    result = run("games", code=EXIT_BUG)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("rulings: internal error (RuntimeError: some problem over two lines)")
    assert "bug in rulings" in line and "report" in line and "--debug" in line
    assert result.stdout == ""


def test_debug_shows_the_traceback(broken_games):
    result = CliRunner().invoke(main, ["--debug", "games"])
    assert result.exit_code == EXIT_BUG
    assert "Traceback (most recent call last)" in result.stderr and "RuntimeError: some problem" in result.stderr
    assert result.stderr.rstrip().splitlines()[-1].startswith("rulings: internal error")


def test_debug_from_the_environment(broken_games, monkeypatch):
    monkeypatch.setenv("RULINGS_DEBUG", "1")
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == EXIT_BUG and "Traceback" in result.stderr


def test_a_file_system_error_names_the_path(monkeypatch):
    def full(*_):
        raise OSError(28, "No space left on device", "/somewhere/out.json")

    monkeypatch.setattr("rulings.cli.specs.packaged_games", full)
    assert usage("games").strip() == "rulings: /somewhere/out.json: No space left on device"


def test_a_closed_standard_output_ends_quietly(monkeypatch):
    def closed():
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("rulings.cli.specs.packaged_games", closed)
    result = run("games", code=2)
    assert result.output == ""


def test_usage_errors_and_exits_pass_through_the_guard():
    run("--version", code=0)
    assert "No such command" in usage("melt")


# ---- names ------------------------------------------------------------------------------------

LONG = "x" * 300

GAME_COMMANDS = {
    "meld": ["meld", LONG, "--level", "1", "5"],
    "lay": ["lay", LONG, "--level", "1", "5"],
    "check": ["check", LONG],
    "judge": ["judge", LONG, SCENARIO],
    "simulate": ["simulate", LONG, "--players", "2", "--games", "1"],
    "faq": ["faq", LONG],
    "vectors": ["vectors", LONG, "-o", "OUT"],
    "conform": ["conform", LONG, "--cmd", "true"],
}


@pytest.mark.parametrize("command", sorted(GAME_COMMANDS))
@pytest.mark.parametrize("name", [LONG, LONG + ".yaml", "ti\0ck"], ids=["300-chars", "300-chars.yaml", "nul"])
def test_a_game_name_the_file_system_refuses(command, name, tmp_path):
    args = [name if a == LONG else str(tmp_path / "v") if a == "OUT" else a for a in GAME_COMMANDS[command]]
    err = usage(*args)
    assert err.startswith("rulings: ")
    assert "no game" in err or "cannot read the file" in err, err
    assert len(err) < 1000, err   # the name is shortened, not printed whole each time


def test_validate_a_name_too_long():
    assert "File name too long" in usage("validate", LONG + ".yaml")


def test_validate_a_folder(tmp_path):
    assert usage("validate", str(tmp_path)).strip() == f"rulings: {tmp_path}: this is a folder, not a spec file"


# ---- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["meld", "tick", "--level", "3", "5", "5", "SW", "BW"],
                                     ["judge", "tick", SCENARIO]], ids=["meld", "judge"])
def test_a_clause_read_twice(command):
    err = usage(*command, "--reading", "wild-limit=per-set", "--reading", "wild-limit=per-lay-down")
    assert "--reading names clause 'wild-limit' twice (per-set and per-lay-down)" in err


@pytest.mark.parametrize("moves", ["0", "100000001", str(10 ** 30)])
def test_simulate_max_moves_out_of_range(moves):
    assert f"Invalid value for '--max-moves': {moves} is not in the range 1<=x<=100000000" in usage(
        "simulate", "tick", "--players", "2", "--max-moves", moves)


# ---- output paths, before any work -------------------------------------------------------------


@pytest.fixture
def no_work(monkeypatch):
    """Fails the test if the vectors or the FAQ are built."""
    def work(*_, **__):
        raise AssertionError("the work started before the output path was checked")

    monkeypatch.setattr("rulings.checks.conformance.vectors.generate", work)
    monkeypatch.setattr("rulings.checks.faq.build.build", work)


def a_file(tmp_path: Path) -> Path:
    f = tmp_path / "file.txt"
    f.write_text("x")
    return f


def refused(command: list[str], option: str, tmp_path: Path, out: str, why: str):
    out = out.replace("FILE", str(a_file(tmp_path))).replace("TMP", str(tmp_path))
    err = usage(*command, "-o", out)
    assert f"Invalid value for '-o' / '{option}'" in err and f"{out}'" in err, err
    assert why.replace("TMP", str(tmp_path)) in err, err


VECTORS, FAQ = (["vectors", "tick"], "--out"), (["faq", "tick"], "--output")


@pytest.mark.parametrize("command,out,why", [
    (VECTORS, "/dev/null", "it exists and is not a folder"),
    (VECTORS, "FILE", "is a file"),
    (VECTORS, "FILE/sub", "is not a folder"),
    (VECTORS, "TMP/" + "y" * 300, "File name too long"),
    (FAQ, "TMP/missing/faq.html", "the folder TMP/missing does not exist"),
    (FAQ, "FILE/faq.html", "is not a folder"),
    (FAQ, "TMP", "is a directory"),
    (FAQ, "TMP/" + "y" * 300, "File name too long"),
], ids=["vectors-dev-null", "vectors-a-file", "vectors-under-a-file", "vectors-name-too-long",
        "faq-missing-folder", "faq-under-a-file", "faq-a-folder", "faq-name-too-long"])
def test_output_path_refused_before_any_work(no_work, tmp_path, command, out, why):
    (args, option) = command
    out = out.replace("FILE", str(a_file(tmp_path))).replace("TMP", str(tmp_path))
    err = usage(*args, "-o", out)
    assert f"Invalid value for '-o' / '{option}'" in err and f"{out}'" in err, err
    assert why.replace("TMP", str(tmp_path)) in err, err


def test_vectors_output_folder_may_be_missing(tmp_path, monkeypatch):
    """A folder that does not exist yet is fine: it is created."""
    made = {}
    monkeypatch.setattr("rulings.checks.conformance.vectors.generate", lambda spec, size, **where: {"manifest.json": {}})
    monkeypatch.setattr("rulings.checks.conformance.vectors.write", lambda docs, out: made.setdefault("out", Path(out)))
    run("vectors", "tick", "-o", str(tmp_path / "a" / "b"), "--json", code=0)
    assert made["out"] == tmp_path / "a" / "b"


def test_the_scenario_used_here_exists():
    assert Path(SCENARIO).is_file()
    run("judge", "tick", SCENARIO, code=0)


def test_vectors_into_a_folder_nothing_can_be_created_in(no_work):
    """/proc passes a permission check when run as root, yet nothing can be created in it:
    the folder is tried, not its permission bits read (15 s of work were lost before)."""
    err = usage("vectors", "tick", "-o", "/proc/rulings-vectors")
    assert "Invalid value for '-o' / '--out': cannot write into '/proc/rulings-vectors'" in err, err


def test_faq_into_a_folder_nothing_can_be_created_in(no_work):
    err = usage("faq", "tick", "-o", "/proc/rulings-faq.html")
    assert "Invalid value for '-o' / '--output': cannot write '/proc/rulings-faq.html'" in err, err


# ---- scenario fields of the wrong type (judge: exit 2, `field: what is wrong`) ------------------


def scenario_with(tmp_path: Path, **fields) -> str:
    data = yaml.safe_load(Path(SCENARIO).read_text(encoding="utf-8"))
    for k, v in fields.items():
        if v is None:
            data.pop(k)
        else:
            data[k] = v
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


@pytest.mark.parametrize("fields,message", [
    ({"readings": ["a", "b"]}, "readings: a mapping {clause: reading} of names, got ['a', 'b']"),
    ({"readings": 5}, "readings: a mapping {clause: reading} of names, got 5"),
    ({"cites": [["a"]]}, "cites: a list of clause ids, got [['a']]"),
    ({"cites": ["draw", "nonsense"]}, "cites: not clauses of tick: nonsense"),
    ({"expect": {"clauses": 5}}, "expect.clauses: a list of clause ids, got 5"),
    ({"expect": {"result": "x"}}, "expect.result: a mapping of fields, got 'x'"),
    ({"expect": {"verdict": "maybe"}}, "expect.verdict: one of legal, illegal, undecided, got 'maybe'"),
    ({"move": None}, "move: missing; a scenario to judge gives the move"),
    ({"move": None, "moves": []}, "moves: at least one move to judge"),
], ids=["readings-list", "readings-number", "cites-nested", "cites-unknown", "expect-clauses-number",
        "expect-result-text", "expect-verdict-maybe", "no-move", "no-moves"])
def test_a_scenario_field_of_the_wrong_type(tmp_path, fields, message):
    path = scenario_with(tmp_path, **fields)
    for extra in ([], ["--json"]):
        err = usage("judge", "tick", path, *extra)
        assert err.startswith(f"rulings: {path}: the scenario cannot be judged:\n  "), err
        assert message in err, err


# ---- a spec whose numbers contradict each other -----------------------------------------------


def test_players_min_above_max(tmp_path):
    text = spec_path("tick").read_text(encoding="utf-8")
    assert text.count("players: {min: 2, max: 8}") == 1
    path = tmp_path / "tick.yaml"
    path.write_text(text.replace("players: {min: 2, max: 8}", "players: {min: 9, max: 2}"), encoding="utf-8")
    line = text[:text.index("players: {min: 2, max: 8}")].count("\n") + 1
    out = run("validate", str(path), code=1).stdout
    assert out.startswith(f"{path}:{line}:") and "players: min 9 is more than max 2" in out, out
    err = usage("meld", str(path), "--level", "1", "5", "5", "5")
    assert "the spec has errors" in err and "players: min 9 is more than max 2" in err, err


# ---- FAQ questions that are not a questions file ------------------------------------------------


@pytest.mark.parametrize("content", ["[1, 2, 3]\n", "just text\n", "7\n"], ids=["list", "text", "number"])
def test_a_questions_file_that_is_not_a_mapping(tmp_path, content):
    path = tmp_path / "questions.yaml"
    path.write_text(content)
    err = usage("faq", "tick", "--questions", str(path))
    assert "the FAQ questions cannot be answered" in err and "a mapping with format, game, topics and questions" in err


# ---- files with no end, and lines that are not JSON or not UTF-8 ------------------------------


@pytest.mark.parametrize("command", [["judge", "tick", "/dev/zero"], ["faq", "tick", "--questions", "/dev/zero"]],
                         ids=["judge", "faq"])
def test_a_device_is_refused_before_it_is_read(command):
    """/dev/zero was read until memory ran out; then up to the size bound; a device is now
    refused at once, as a named pipe is (which blocked for ever, issue 27)."""
    err = usage(*command)
    assert "/dev/zero: this is a device, not a regular file; rulings reads a" in err, err


def test_batch_lines_that_are_not_json_or_not_utf8(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_bytes(b'{"cards": ["5", "5", "5"], "level": 1}\n'
                     + b'{"cards": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"
                     + b'{"cards": [], "level": ' + b"9" * 5000 + b"}\n"
                     + b'{"cards": ["5", "\xe9"], "level": 1}\n'
                     + b'{"cards": ["5", "5", "5", "5"], "level": 1}\n')
    out = run("meld", "tick", "--batch", str(path), code=2).stdout.splitlines()
    import json

    answers = [json.loads(line) for line in out]
    assert [a.get("legal") for a in answers] == [True, None, None, None, True]
    assert answers[1] == {"error": "not JSON: the JSON nests more than 64 levels deep here; no file rulings reads "
                                   "needs that many", "line": 2}
    assert answers[2] == {"error": "not JSON: a number of 5000 digits is too long to read", "line": 3}
    assert answers[3] == {"error": "not UTF-8 text: byte 0xe9", "line": 4}


def test_batch_of_a_stream_with_no_line_end():
    result = CliRunner().invoke(main, ["meld", "tick", "--batch", "-"], input=b"0" * 300_000)
    assert result.exit_code == 2, result.output
    assert "rulings: -: line 1 is longer than 100,000 bytes; a query is far shorter" in result.stderr, result.stderr


def test_batch_of_a_device_is_refused_pointing_to_standard_input():
    err = usage("meld", "tick", "--batch", "/dev/zero")
    assert "cannot read /dev/zero: this is a device, not a regular file (for a stream, give - and send it to " \
           "standard input)" in err, err


@pytest.mark.parametrize("address", ["nonsense", "tcp://host", "foo://127.0.0.1:1", "tcp://127.0.0.1:99999",
                                     "127.0.0.1:0", ":8786"])
def test_a_scheduler_address_that_is_not_one(address):
    """`nonsense` and an unknown scheme ended in a ValueError from Dask (exit 70)."""
    err = usage("simulate", "tick", "--players", "2", "--games", "1", "--executor", "dask", "--scheduler", address)
    assert f"Invalid value for '--scheduler': {address!r} is not a scheduler address" in err, err
