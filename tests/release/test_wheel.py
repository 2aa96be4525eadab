"""`rulings` as it ships: `python -m build` makes an sdist and a wheel from a copy of the
checkout, the wheel is installed (not editable) into a fresh virtual environment, and every
command of the README's "Use" section runs from there, in a folder outside the checkout.

Every other test runs on the editable install, which finds modules in the checkout
whatever the wheel holds; this one alone sees what a user installing a release gets.

The commands are the README's, written `.venv/bin/rulings ...` and run from a folder whose
`.venv` is the fresh one, beside copies of the files they name (`spec/tick.yaml`,
`docs/scenarios/...`, `examples/...`). The slow ones run with their work cut down
(`lighter`: at most 10 games, a 10 s what-if budget, one worker), the rest as written.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

# every test here shares one build and one install: one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("wheel")

SKIP_COPY = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", ".pytest_cache",
                                   ".hypothesis", "artifacts", "*.tmp")


def readme_use_commands() -> list[str]:
    """The lines of the README's Use block, as written (comments dropped)."""
    text = README.read_text(encoding="utf-8")
    use = text.split("## Use\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"^```sh\n(.*?)^```$", use, re.M | re.S)
    return [re.sub(r"\s+#.*$", "", line).strip() for line in block.strip().splitlines()]


SCALED = ("simulate", "check", "vectors", "conform")       # the commands that take --workers


def lighter(args: list[str]) -> list[str]:
    """A README command as written, its work cut down: at most 10 games, 10 what-if
    budget, one worker. What this test holds the README to is that each command runs and
    answers from the installed wheel; what they find is the commands' own tests' business."""
    out = list(args)
    if out[0] == "serve":      # runs until stopped: tests/serve/ starts it and stops it with Ctrl-C
        return ["serve", "--help"]
    for i, a in enumerate(out[:-1]):
        if a == "--games":
            out[i + 1] = str(min(int(out[i + 1]), 10))
    if out[0] == "check" and "--what-if-limit" not in out:
        out += ["--what-if-limit", "10"]
    if out[0] in SCALED and "--workers" not in out:
        out += ["--workers", "1"]
    return out


def test_lighter_keeps_the_command_and_cuts_its_work():
    assert lighter(["simulate", "tick", "--players", "4", "--games", "200"]) == \
        ["simulate", "tick", "--players", "4", "--games", "10", "--workers", "1"]
    assert lighter(["check", "tick"]) == ["check", "tick", "--what-if-limit", "10", "--workers", "1"]
    assert lighter(["meld", "tick", "--level", "3", "5"]) == ["meld", "tick", "--level", "3", "5"]
    assert lighter(["serve", "--port", "8080"]) == ["serve", "--help"]


def clean_env(home: Path) -> dict:
    """The environment of a user who installed the wheel: nothing that leads Python back
    into the checkout or into the test run's own environment."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP") and not k.startswith("PYTEST")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and Path(sys.executable).parent != Path(p))
    env["HOME"] = str(home)
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """An sdist and a wheel built by `python -m build` (the wheel from the sdist) from a copy
    of the checkout, so nothing is written into it."""
    src = tmp_path_factory.mktemp("src") / "rulings"
    shutil.copytree(ROOT, src, ignore=SKIP_COPY)
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(src)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def user(dist, tmp_path_factory) -> Path:
    """A folder outside the checkout holding `.venv`, a fresh virtual environment with the
    wheel installed in it (not editable; with the dask extra), and copies of the files the
    README's commands name."""
    home = tmp_path_factory.mktemp("user")
    (wheel,) = dist.glob("*.whl")
    venv = home / ".venv"
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    # with the dask extra, which the README's `--executor dask` command needs (its set-up
    # installs the test extra, which holds it)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"{wheel}[dask]"],
                         capture_output=True, text=True, timeout=900, cwd=home, env=clean_env(home))
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    for line in readme_use_commands():
        for word in shlex.split(line):
            for part in word.split():                       # --cmd "node examples/tick-faithful.js"
                if not part.startswith("/") and (ROOT / part).is_file():
                    (home / part).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(ROOT / part, home / part)
    return home


def run_in(home: Path, args: list[str], timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, cwd=home, env=clean_env(home), timeout=timeout)


def test_build_makes_an_sdist_and_a_wheel(dist):
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # every module and every data file of the checkout, under its import name
    for folder, package in (("model", "rulings"), ("checks", "rulings/checks"), ("spec", "rulings/games")):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".yaml", ".json") and "__pycache__" not in path.parts:
                rel = path.relative_to(ROOT / folder).as_posix()
                assert f"{package}/{rel}" in names, f"{folder}/{rel} is not in the wheel"
    assert sdist.name.startswith("rulings-")


def test_the_wheel_is_installed_not_linked_to_the_checkout(user):
    py = str(user / ".venv" / "bin" / "python")
    shown = run_in(user, [py, "-c", "import json, rulings, rulings.cli, rulings.kernel, rulings.simulate, "
                                    "rulings.scenario, rulings.checks.conformance.conform, importlib.metadata as m; "
                                    "d = m.distribution('rulings'); "
                                    "print(json.dumps([rulings.__file__, rulings.__version__, "
                                    "d.read_text('direct_url.json')]))"])
    assert shown.returncode == 0, shown.stderr
    where, version, direct = json.loads(shown.stdout)
    assert Path(where).is_relative_to(user / ".venv"), where
    assert not Path(where).is_relative_to(ROOT)
    assert '"editable": true' not in (direct or "")
    got = run_in(user, [str(user / ".venv" / "bin" / "rulings"), "--version"])
    assert got.returncode == 0 and version in got.stdout, got.stdout + got.stderr


@pytest.mark.parametrize("line", readme_use_commands())
def test_readme_use_command_runs_from_the_wheel(user, line, tmp_path):
    words = shlex.split(line)
    assert words[0] == ".venv/bin/rulings"
    args = lighter(words[1:])
    # what a command writes (-o PATH) goes to this test's folder
    args = [str(tmp_path / Path(a).name) if i and args[i - 1] == "-o" else a for i, a in enumerate(args)]
    done = run_in(user, [words[0], *args])
    assert done.returncode in (0, 1), f"{' '.join(args)}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.strip() or "-o" in args, f"{line}: printed nothing"
    for i, a in enumerate(args[:-1]):
        if a == "-o":
            assert Path(args[i + 1]).exists(), f"{line}: wrote nothing to {args[i + 1]}"
