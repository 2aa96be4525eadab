"""The pytest plugin: one test per vector when asked, nothing at all otherwise."""
from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def pytest_run(tmp_path, *args):
    (tmp_path / "test_own.py").write_text("import sys\n\n\ndef test_own():\n    assert True\n\n\n"
                                          "def test_nothing_of_rulings_loaded():\n"
                                          "    assert 'rulings.spec' not in sys.modules, 'the plugin imported rulings'\n")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rN", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_registered_through_the_pytest11_entry_point():
    assert any(e.value == "rulings.checks.conformance.pytest_plugin" for e in entry_points(group="pytest11"))


def test_without_its_options_it_adds_nothing(tmp_path, pytestconfig):
    assert pytestconfig.getoption("rulings_game") is None     # loaded here too, and idle
    done = pytest_run(tmp_path, "-k", "own or nothing")
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout + done.stderr
    assert "rulings" in pytest_run(tmp_path, "--help").stdout


def test_one_test_per_vector(tmp_path, docs, vectors_dir, faithful_cmd):
    n = sum(len(docs[name]["cases"]) for name in docs if name != "manifest.json")
    done = pytest_run(tmp_path, "--rulings-game", "tick", "--rulings-cmd", faithful_cmd,
                      "--rulings-vectors", str(vectors_dir), "-k", "not nothing_of_rulings")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert f"{n + 1} passed" in done.stdout


def test_failures_show_the_situation_and_the_clauses(tmp_path, vectors_dir):
    done = pytest_run(tmp_path, "--rulings-game", "tick", "--rulings-adapter",
                      f"{EXAMPLES / 'tick_planted.py'}:factory", "--rulings-vectors", str(vectors_dir),
                      "-k", "meld or score")
    assert done.returncode == 1
    assert "the spec says: illegal" in done.stdout and "wild-limit [tick.txt:19" in done.stdout
    assert "the implementation said: legal" in done.stdout
    assert " failed" in done.stdout and " deselected" in done.stdout


def test_bad_options_are_usage_errors(tmp_path):
    done = pytest_run(tmp_path, "--rulings-game", "tick", "--rulings-adapter", "no_such_module_x:factory")
    assert done.returncode == 4 and "cannot import" in done.stderr
    done = pytest_run(tmp_path, "--rulings-game", "tick")
    assert done.returncode == 4 and "exactly one of" in done.stderr


def test_test_ids_name_the_clauses(tmp_path, docs, vectors_dir, faithful_cmd):
    """`-k go-out` selects exactly the vectors that exercise a going-out clause."""
    from rulings.checks.conformance.pytest_plugin import vector_keywords, vector_name

    going_out = [v for name in docs if name != "manifest.json" for v in docs[name]["cases"]
                 if any("go-out" in k for k in vector_keywords(v)) or "go-out" in vector_name(v)]
    assert going_out
    done = pytest_run(tmp_path, "--rulings-game", "tick", "--rulings-cmd", faithful_cmd,
                      "--rulings-vectors", str(vectors_dir), "-k", "go-out", "--collect-only")
    listed = [line for line in done.stdout.splitlines() if line.startswith("rulings::")]
    assert len(listed) == len(going_out), done.stdout[-2000:]
    assert all("go-out" in line for line in listed)


def test_the_search_runs_behind_an_option(tmp_path, vectors_dir):
    done = pytest_run(tmp_path, "--rulings-game", "tick", "--rulings-adapter",
                      f"{EXAMPLES / 'tick_planted.py'}:factory", "--rulings-vectors", str(vectors_dir),
                      "--rulings-search", "30", "-k", "search")
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr
    assert "search:meld" in done.stdout and "spec illegal" in done.stdout
