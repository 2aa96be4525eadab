"""The `rulings` command line, through click's CliRunner (and once through the installed
console script): help with examples, exit codes, the JSON shapes, and no traceback ever
reaching the user. The README's commands run in tests/release/test_wheel.py, from the wheel."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.cli import main
from rulings.spec import RULEBOOKS_ENV, load, packaged_games, spec_path

ENGINES = ["reference", "z3"]
TICK = Path(spec_path("tick"))


@pytest.fixture(autouse=True)
def _no_rulebooks(monkeypatch):
    monkeypatch.delenv(RULEBOOKS_ENV, raising=False)


def run(*args: str, code: int | None = None):
    result = CliRunner().invoke(main, list(args))
    # an exception that escaped the command (CliRunner catches it) is a bug, whatever the code
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"rulings {' '.join(args)} raised {result.exception!r}\n{result.output}")
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    if code is not None:
        assert result.exit_code == code, f"rulings {' '.join(args)}: exit {result.exit_code}\n{result.output}"
    return result


def run_json(*args: str, code: int | None = None) -> dict:
    result = run(*args, "--json", code=code)
    return json.loads(result.stdout)


def usage_error(*args: str) -> str:
    """Exit 2 with the message on stderr and nothing on stdout."""
    result = run(*args, code=2)
    assert result.stdout == ""
    assert result.stderr.strip()
    return result.stderr


# ---- help ------------------------------------------------------------------------------------


def test_group_help_shows_examples():
    out = run("--help", code=0).stdout
    assert "Examples:" in out
    assert "rulings meld tick --level 3 5 5 SW BW" in out
    for command in main.commands:
        assert command in out


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_help_shows_an_example(command):
    out = run(command, "--help", code=0).stdout
    assert re.search(r"Examples?:", out), out
    assert re.search(rf"^\s+(Examples?:\s+)?rulings {command}\b", out, re.M), out


def test_short_help_option_and_version():
    assert "Examples:" in run("-h", code=0).stdout
    assert re.search(r"\d+\.\d+", run("--version", code=0).stdout)


def test_unknown_command_is_a_usage_error():
    result = run("melt", "tick", code=2)
    assert "No such command" in result.stderr


# ---- games -----------------------------------------------------------------------------------


def test_games_lists_every_packaged_spec():
    games = packaged_games()
    assert "tick" in games
    out = run("games", code=0).stdout
    listed = [line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")]
    assert listed == games
    tick_line = next(line for line in out.splitlines() if line.startswith("tick "))
    assert "Tick" in tick_line and "2-8 players" in tick_line and "level 8" in tick_line


def test_games_readings():
    out = run("games", "--readings", code=0).stdout
    assert re.search(r"^\s+wild-limit: per-set \(adopted\), per-lay-down$", out, re.M), out


def test_games_json():
    data = run_json("games", code=0)
    assert [g["game"] for g in data] == packaged_games()
    tick = next(g for g in data if g["game"] == "tick")
    assert tick["players"] == [2, 8]
    assert tick["readings"]["wild-limit"] == {"adopted": "per-set", "all": ["per-set", "per-lay-down"]}
    assert "level 3" in tick["contracts"]


# ---- validate --------------------------------------------------------------------------------


def test_validate_packaged_specs():
    out = run("validate", code=0).stdout
    assert out.splitlines()[-1].startswith("ok: ")     # after the informal clauses, listed
    for game in packaged_games():
        assert game in out


def test_validate_a_spec_file():
    assert "ok: " in run("validate", str(TICK), code=0).stdout


def broken_copy(tmp_path: Path) -> tuple[Path, str]:
    text = TICK.read_text(encoding="utf-8")
    for old, new in [("      expr: wilds <= naturals\n", "      expr: wild <= naturals\n"),
                     ("      3: {melds: [{kind: set, size: 4}]}", "      3: {melds: [{kind: sett, size: 4}]}")]:
        assert text.count(old) == 1
        text = text.replace(old, new)
    path = tmp_path / "tick.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def line_col(text: str, anchor: str, marker: str) -> tuple[int, int]:
    i = text.index(marker, text.index(anchor))
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


def test_validate_a_broken_copy(tmp_path):
    path, text = broken_copy(tmp_path)
    result = run("validate", str(path), code=1)
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert re.match(rf"^{re.escape(str(path))}:\d+:\d+: \S", line), line
    expr_at = line_col(text, "expr: wild <=", "wild")
    kind_at = line_col(text, "kind: sett", "sett")
    assert lines[0].startswith(f"{path}:{expr_at[0]}:{expr_at[1]}: expression 'wild <= naturals': unknown name 'wild'")
    assert lines[1].startswith(f"{path}:{kind_at[0]}:{kind_at[1]}: no meld kind 'sett'")


def test_validate_a_broken_copy_json(tmp_path):
    path, _ = broken_copy(tmp_path)
    data = run_json("validate", str(path), code=1)
    assert data["ok"] is False and data["files"] == [str(path)]
    assert [set(e) for e in data["errors"]] == [{"file", "line", "col", "message"}] * 2
    assert all(e["file"] == str(path) and e["line"] > 0 and e["col"] > 0 for e in data["errors"])


def test_validate_mixes_good_and_broken(tmp_path):
    path, _ = broken_copy(tmp_path)
    result = run("validate", "tick", str(path), code=1)
    assert all(line.startswith(str(path)) for line in result.stdout.splitlines())


def test_validate_reports_a_rulebook_of_another_length(tmp_path):
    books = tmp_path / "books"
    books.mkdir()
    (books / "tick.txt").write_text("just one line\n", encoding="utf-8")
    result = run("validate", "tick", "--rulebooks", str(books), code=1)
    assert re.match(r"^spec/tick\.yaml:\d+:\d+: the spec says tick\.txt has \d+ lines, but .* has 1$", result.stdout)


@pytest.mark.parametrize("content", [b"", b"format: 1\ntitle: [Tick\n", b"title: caf\xe9\n"],
                         ids=["empty", "unclosed-bracket", "not-utf8"])
def test_validate_files_that_are_not_specs(tmp_path, content):
    path = tmp_path / "x.yaml"
    path.write_bytes(content)
    result = run("validate", str(path), code=1)
    assert re.match(rf"^{re.escape(str(path))}:\d+:\d+: \S", result.stdout)


def test_validate_missing_file_and_unknown_game(tmp_path):
    # a file that cannot be read is bad input (exit 2), named on stderr; not a spec with problems (1)
    err = usage_error("validate", str(tmp_path / "none.yaml"), "nogame")
    assert f"rulings: {tmp_path / 'none.yaml'}: no such file" in err
    assert "rulings: nogame: no game 'nogame'; known games:" in err


# ---- meld ------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_legal(engine):
    result = run("meld", "tick", "--level", "3", "--engine", engine, "5", "5", "SW", "BW", code=0)
    assert "LEGAL" in result.stdout and "ILLEGAL" not in result.stdout
    assert "SW(=5)" in result.stdout and "BW(=5)" in result.stdout


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_legal_json_shows_both_wilds_standing_for_5(engine):
    data = run_json("meld", "tick", "--level", "3", "--engine", engine, "5", "5", "SW", "BW", code=0)
    assert {"legal", "melds", "wilds", "violations"} <= set(data)
    assert data["legal"] is True
    assert data["violations"] == []
    assert [sorted(m) for m in data["melds"]] == [sorted(["5", "5", "SW", "BW"])]
    meld = data["melds"][0]
    assert sorted(data["wilds"]) == sorted(f"0.{i}" for i, tok in enumerate(meld) if tok in ("SW", "BW"))
    assert list(data["wilds"].values()) == ["5", "5"]
    assert data["engine"] == engine


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_illegal_cites_the_wild_limit(engine):
    result = run("meld", "tick", "--level", "3", "--engine", engine, "5", "SW", "SW", "BW", code=1)
    assert "ILLEGAL" in result.stdout
    assert re.search(r"wild-limit \[.*tick\.txt:19\b", result.stdout)


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_illegal_json(engine):
    data = run_json("meld", "tick", "--level", "3", "--engine", engine, "5", "SW", "SW", "BW", code=1)
    assert data["legal"] is False and data["melds"] == [] and data["wilds"] == {}
    assert data["violations"]
    for v in data["violations"]:
        assert set(v) == {"clause", "source", "why"}
        assert all(isinstance(v[k], str) and v[k] for k in v)
    wild_limit = [v for v in data["violations"] if v["clause"] == "wild-limit"]
    assert len(wild_limit) == 1
    assert "tick.txt:19" in wild_limit[0]["source"].split(", ")


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_other_reading(engine):
    args = ["meld", "tick", "--level", "2", "--engine", engine, "5", "5", "5", "5", "5", "5"]
    assert run_json(*args, code=0)["legal"] is True
    data = run_json(*args[:2], "--reading", "level-sets-same-rank=distinct", *args[2:], code=1)
    assert data["legal"] is False
    assert "level-sets-same-rank" in {v["clause"] for v in data["violations"]}


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_bad_token_names_it_and_the_accepted_forms(engine):
    err = usage_error("meld", "tick", "--level", "3", "--engine", engine, "5", "5", "XW", "BW")
    assert "'XW'" in err
    assert load("tick").cards.accepted_forms() in err
    assert "SW" in err and "BW" in err


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_unknown_game(engine):
    err = usage_error("meld", "tock", "--level", "3", "--engine", engine, "5")
    assert "no game 'tock'" in err
    for game in packaged_games():
        assert game in err


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_unknown_level(engine):
    err = usage_error("meld", "tick", "--level", "9", "--engine", engine, "5", "5", "5")
    assert "no level 9" in err and "1, 2, 3, 4, 5, 6, 7, 8" in err


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_unknown_reading_lists_the_readings(engine):
    err = usage_error("meld", "tick", "--level", "3", "--engine", engine, "--reading", "wild-limit=loose",
                      "5", "5", "5", "5")
    assert "'loose'" in err and "per-set, per-lay-down" in err


@pytest.mark.parametrize("engine", ENGINES)
def test_meld_reading_of_a_clause_without_readings(engine):
    err = usage_error("meld", "tick", "--level", "3", "--engine", engine, "--reading", "tie=x", "5", "5", "5", "5")
    assert "no clause 'tie' with readings" in err and "wild-limit" in err


@pytest.mark.parametrize("bad", ["wild-limit", "=per-set", "wild-limit="])
def test_meld_malformed_reading(bad):
    err = usage_error("meld", "tick", "--level", "3", "--reading", bad, "5", "5", "5", "5")
    assert "CLAUSE=READING" in err and repr(bad) in err


def test_meld_without_cards_or_level():
    assert "accepted" in usage_error("meld", "tick", "--level", "3")
    assert "needs a level" in usage_error("meld", "tick", "5", "5", "5")


def test_meld_more_cards_than_the_deck_holds():
    err = usage_error("meld", "tick", "--level", "1", *["5"] * 13)
    assert "'5'" in err and "pack-composition" in err


def test_meld_unknown_engine():
    result = run("meld", "tick", "--level", "3", "--engine", "cplex", "5", code=2)
    assert "'cplex' is not one of" in result.stderr


def test_meld_game_without_levels():
    err = usage_error("meld", "rummikub", "--level", "3", "r1", "r2", "r3")
    assert "rummikub has no levels" in err


def test_meld_with_a_broken_spec_file(tmp_path):
    path, _ = broken_copy(tmp_path)
    err = usage_error("meld", str(path), "--level", "3", "5", "5", "5", "5")
    assert "the spec has errors" in err
    assert re.search(rf"^{re.escape(str(path))}:\d+:\d+: ", err, re.M)


# ---- lay -------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_lay_json_shape(engine):
    data = run_json("lay", "tick", "--level", "1", "--engine", engine, "5", "5", "5", "7", "7", "7", "9", "B",
                    code=0)
    assert {"possible", "melds", "discard", "points"} <= set(data)
    assert data["possible"] is True
    assert sorted(sorted(m) for m in data["melds"]) == [["5", "5", "5"], ["7", "7", "7"]]
    assert data["discard"] == "B"
    assert data["points"] == 45


@pytest.mark.parametrize("engine", ENGINES)
def test_lay_level_8_on_eleven_cards_is_impossible(engine):
    cards = ["1"] * 6 + ["2"] * 5
    result = run("lay", "tick", "--level", "8", "--engine", engine, *cards, code=1)
    assert "IMPOSSIBLE" in result.stdout
    data = run_json("lay", "tick", "--level", "8", "--engine", engine, *cards, code=1)
    assert data["possible"] is False and data["melds"] == [] and data["discard"] is None
    assert data["violations"] and all(set(v) == {"clause", "source", "why"} for v in data["violations"])


@pytest.mark.parametrize("engine", ENGINES)
def test_lay_bad_token(engine):
    err = usage_error("lay", "tick", "--level", "1", "--engine", engine, "5", "5", "5", "11")
    assert "'11'" in err and load("tick").cards.accepted_forms() in err


# ---- the installed console script ------------------------------------------------------------


def console_script() -> str:
    beside = Path(sys.executable).parent / "rulings"
    found = str(beside) if beside.exists() else shutil.which("rulings")
    assert found, "the rulings console script is not installed"
    return found


def test_console_script():
    ok = subprocess.run([console_script(), "meld", "tick", "--level", "3", "5", "5", "SW", "BW"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "LEGAL" in ok.stdout and "Traceback" not in ok.stderr
    bad = subprocess.run([console_script(), "meld", "tick", "--level", "3", "5", "ZZ"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert "'ZZ'" in bad.stderr and "Traceback" not in bad.stderr
