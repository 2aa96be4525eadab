"""Every hostile input of issue 27, each with the exit code and the message it now gets.

Files a user would pass are kept in tests/fuzz/regressions/ (each tested below: the first
test holds the folder to that); inputs too large to keep, or made from a packaged spec so
that they follow it, are made here. Inputs tested where their subject lives: the wheel
(tests/release/test_wheel.py), Ctrl-C during simulate (tests/scale/test_executor.py:
exit 130, every worker stopped), memory that does not grow with --games
(tests/unit/test_simulate.py), the README's figures and commands (test_readme_issue27
below, and the wheel test)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from rulings.checks.faq.questions import QUESTION_KEYS
from rulings.spec import spec_path
from rulings.specfile import MAX_VALUES, Loader

from .hostile import invoke

HERE = Path(__file__).parent
REGRESSIONS = HERE / "regressions"
ROOT = HERE.parents[1]
BIN = Path(sys.executable).parent

# file: (the command's words before the file, the message's lines that must be there)
JUDGED = {
    "garbage-positions-negative.yaml": ("judge garbage", [
        "the scenario cannot be judged:",
        "positions[0]: must be 0 to 10, got -1 (it is the number of positions of the layout tableau; clause layout)"]),
    "garbage-positions-huge.yaml": ("judge garbage", [
        "positions[0]: must be 0 to 10, got a number of 21 digits (it is the number of positions of the layout "
        "tableau; clause layout)"]),
    "garbage-layout-short.yaml": ("judge garbage", [
        "tableau[0]: 2 positions, but positions[0] is 10 (a layout holds as many positions as its counter says; "
        "clause layout)"]),
    "rummikub-laid-negative.yaml": ("judge rummikub", [
        "laid[0]: must be 0 to 1,000,000, got -60 (move play adds the points laid to it; clause scoring)",
        "laid[1]: must be 0 to 1,000,000, got a number of 31 digits (move play adds the points laid to it; "
        "clause scoring)"]),
    "sequence-numbers-chip-of-no-side.yaml": ("judge sequence-numbers", [
        "board: row 0, column 3: a chip of side 7, but 2 players form 2 side(s), numbered 0-1 (clause chip-sets)"]),
    "questions-not-a-list.yaml": ("faq tick --questions", [
        "the FAQ questions cannot be answered:",
        f"questions: a list of questions, each a mapping ({', '.join(QUESTION_KEYS)}), got 5"]),
}


def test_every_file_of_the_regressions_is_tested():
    assert sorted(p.name for p in REGRESSIONS.iterdir()) == sorted(JUDGED)


@pytest.mark.parametrize("name", sorted(JUDGED))
def test_a_regression_file_is_refused_with_exit_2(name):
    words, lines = JUDGED[name]
    path = REGRESSIONS / name
    result = invoke([*words.split(), str(path)])
    assert result.exit_code == 2, result.output
    for line in lines:
        assert line in result.stderr, result.stderr
    assert "LEGAL" not in result.stdout and "internal error" not in result.stderr


# ---- play: a game without a table ---------------------------------------------------------------

@pytest.mark.parametrize("args", [["garbage", "--hand", "5"], ["sequence-numbers", "--hand", "5+"],
                                  ["garbage", "--table", "A 2 3", "--hand", "4"]])
def test_play_refuses_a_game_without_a_table(args):
    """These answered "nothing can be added to the table" (exit 1), and a table of them
    "not a valid meld (the rules it breaks: )" with the list empty."""
    result = invoke(["play", *args])
    assert result.exit_code == 2, result.output
    assert f"rulings: {args[0]}'s free melds (its `any` contract) name no kind of meld, so it has no shared table " \
           "of melds to rearrange" in result.stderr
    assert "the rules it breaks: )" not in result.output


# ---- simulate ------------------------------------------------------------------------------------

def test_simulate_refuses_a_hundred_million_games_naming_the_limit():
    """--games 100000000 --workers 1 built every game's job (2.7 GB at 10^7) and ended in a MemoryError."""
    result = invoke(["simulate", "tick", "--players", "4", "--games", "100000000", "--workers", "1"])
    assert result.exit_code == 2
    assert "--games 100000000: from 1 to 1,000,000 games in a run (for more, run again with other seeds)" \
        in result.stderr


def test_simulate_on_dask_starts_no_more_workers_than_cores():
    """--executor dask --workers 1000 started every worker asked for (152 processes, 7.9 GB,
    never finishing); now one per core, as local workers, saying so."""
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    from rulings.executor import cores

    p = subprocess.run([str(BIN / "rulings"), "simulate", "tick", "--players", "2", "--games", "2", "--seed", "1",
                        "--executor", "dask", "--workers", "1000"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert f"1000 worker processes asked for: {cores()} started, one per core of this machine" in p.stderr
    assert "tick: 2 games" in p.stdout


# ---- spec files: size, digits, every expression --------------------------------------------------

def _tick_data() -> dict:
    return yaml.load(spec_path("tick").read_text(encoding="utf-8"), Loader=Loader)


def _written(tmp_path: Path, data: dict, name: str = "hostile.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10 ** 6), encoding="utf-8")
    return path


def _place(path: Path, text: str) -> tuple[int, int]:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return n, line.index(text) + 1
    raise AssertionError(f"{text!r} is not in {path}")


def test_ten_thousand_clauses_without_an_alias_are_past_the_size_limit(tmp_path):
    """A 10,000-clause spec with no alias at all was refused as a 'billion laughs' alias bomb."""
    data = _tick_data()
    for i in range(10_000):
        data["clauses"][f"extra-{i}"] = {"says": "x", "assumption": "y"}
    path = _written(tmp_path, data)
    first = invoke(["validate", str(path)]).stdout.splitlines()[0]
    assert f"this value holds more than {MAX_VALUES:,} values; no file rulings reads needs that many (the size limit)" \
        in first, first
    assert "billion laughs" not in first and "alias" not in first


def test_a_list_of_sixty_thousand_items_is_past_the_size_limit(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text("format: 1\ngame: x\nitems:\n" + "".join(f"  - {i}\n" for i in range(60_000)), encoding="utf-8")
    result = invoke(["validate", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:4:3: this value holds more than {MAX_VALUES:,} values"), result.stdout
    assert "alias" not in result.stdout


def test_a_five_thousand_digit_literal_is_past_the_digit_limit(tmp_path):
    """It got "syntax error: it ends too soon, something is missing" (or Python's own words)."""
    data = _tick_data()
    data["clauses"]["game-end"]["game_end"]["when"] = "level >= " + "9" * 5000
    path = _written(tmp_path, data)
    line, col = _place(path, "9" * 50)
    result = invoke(["validate", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:{line}:{col}: clause 'game-end', game_end.when: expression "), result.stdout
    assert result.stdout.rstrip().endswith("a number of 5000 digits is too long to read (at most 4300)"), result.stdout
    assert "ends too soon" not in result.stdout and "syntax error" not in result.stdout


def test_an_expression_of_a_reading_not_adopted_is_parsed(tmp_path):
    """__import__(...) under a reading that is not adopted was never parsed: validate said ok."""
    data = _tick_data()
    clause = data["clauses"]["go-out-timing"]
    other = next(r for r in clause["readings"] if r != clause["adopted"])
    clause["readings"][other]["go_out"] = {"when": "__import__('os').system('echo hostile')"}
    path = _written(tmp_path, data)
    line, col = _place(path, "__import__")
    result = invoke(["validate", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:{line}:{col}: clause 'go-out-timing', go_out.when: expression "
                                    "\"__import__('os').system('echo hostile')\": call to this function is not "
                                    "supported"), result.stdout
    assert f"(under the reading go-out-timing={other})" in result.stdout


# ---- files that are not regular files -----------------------------------------------------------

@pytest.mark.parametrize("command", [["validate"], ["judge", "tick"], ["meld"], ["faq", "tick", "--questions"],
                                     ["meld", "tick", "--batch"]], ids=lambda c: " ".join(c))
def test_a_named_pipe_with_no_writer_is_refused_at_once(command, tmp_path):
    """`validate` on a named pipe nobody writes to waited for ever."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    args = [str(BIN / "rulings"), *command, str(fifo)] + (["--level", "1", "5"] if command == ["meld"] else [])
    started = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert time.monotonic() - started < 60
    assert p.returncode == 2, p.stdout + p.stderr
    assert "this is a named pipe, not a regular file" in p.stdout + p.stderr, p.stdout + p.stderr


# ---- output pipes closed early -------------------------------------------------------------------

def _closed(args: list[str], which: str) -> int:
    """Run rulings with its standard output or error a pipe whose reader is already gone."""
    read, write = os.pipe()
    os.close(read)
    streams = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, which: write}
    try:
        return subprocess.run([str(BIN / "rulings"), *args], timeout=120, **streams).returncode
    finally:
        os.close(write)


@pytest.mark.parametrize("args", [["simulate", "tick", "--workers", "-3"], ["games", "--bogus"],
                                  ["meld", "tick", "--level", "3", "ZZ"]], ids=lambda a: " ".join(a))
@pytest.mark.parametrize("which", ["stdout", "stderr"])
def test_a_usage_error_to_a_closed_pipe_is_exit_2(args, which):
    """A usage error whose output pipe closed early exited 1 or 120."""
    assert _closed(args, which) == 2


@pytest.mark.parametrize("args", [["--help"], ["meld", "--help"], ["--version"]], ids=lambda a: " ".join(a))
def test_help_to_a_closed_pipe_is_exit_2(args):
    assert _closed(args, "stdout") == 2
    assert _closed(args, "stderr") == 0          # nothing was said there


def test_an_answer_to_a_closed_output_pipe_is_exit_2_and_to_an_open_one_0():
    assert _closed(["meld", "tick", "--level", "3", "5", "5", "SW", "BW"], "stdout") == 2
    assert _closed(["meld", "tick", "--level", "3", "5", "5", "SW", "BW"], "stderr") == 0


# ---- the README --------------------------------------------------------------------------------

def test_readme_issue27():
    """Its simulate commands counted right, no option `check` lacks, timings as ranges with
    the machine they were measured on."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    use = text.split("## Use", 1)[1].split("## Layout", 1)[0]
    simulate = len(re.findall(r"\.venv/bin/rulings simulate ", use))
    assert "three `simulate`" not in use and "the three simulate" not in use
    words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    assert f"the {words[simulate]} `simulate` commands" in use, simulate
    assert "check --rulebooks" not in text
    timings = re.findall(r"(\d+)-(\d+) s", use)
    assert timings and all(int(a) < int(b) for a, b in timings), timings
    assert re.search(r"measured on a fresh clone.* on a machine of two cores", use, re.I), \
        "the machine the figures were measured on"
