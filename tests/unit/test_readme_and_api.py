"""The documents a newcomer follows, held to the letter: every Python example of
docs/api.md runs as written (each block on its own, from a folder outside the project), and the
README's set-up and use commands are the ones that work after set-up without
activating the virtual environment."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulings.cli import EXIT_CODES
from rulings.spec import RULEBOOKS_ENV

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "docs" / "api.md"
README = ROOT / "README.md"


def code_blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", path.read_text(encoding="utf-8"), re.M | re.S)


def section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


API_EXAMPLES = code_blocks(API, "python")


def test_api_has_examples():
    assert len(API_EXAMPLES) >= 5


@pytest.mark.parametrize("code", API_EXAMPLES, ids=[f"block-{i + 1}" for i in range(len(API_EXAMPLES))])
def test_api_example_runs_as_written(code, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)   # the API works from anywhere, not only from the project folder
    monkeypatch.delenv(RULEBOOKS_ENV, raising=False)
    exec(compile(code, f"{API.name}", "exec"), {"__name__": "__api_example__"})


def test_readme_set_up_is_two_commands():
    setup = section(README.read_text(encoding="utf-8"), "Set up")
    blocks = re.findall(r"^```sh\n(.*?)^```$", setup, re.M | re.S)
    assert [len(b.strip().splitlines()) for b in blocks] == [1, 1]
    assert blocks[0].startswith("python3 -m venv .venv && .venv/bin/pip install -e '.[test]'")
    assert blocks[1].strip() == ".venv/bin/python -m pytest -q"


def test_readme_use_commands_call_the_installed_script():
    """Set-up does not activate the virtual environment, so each command names it."""
    use = section(README.read_text(encoding="utf-8"), "Use")
    (block,) = re.findall(r"^```sh\n(.*?)^```$", use, re.M | re.S)
    lines = block.strip().splitlines()
    assert lines and all(line.startswith(".venv/bin/rulings ") for line in lines), lines
    # what they write goes outside the checkout
    for line in lines:
        out = re.search(r"-o (\S+)", line)
        assert out is None or out.group(1).startswith("/tmp/"), line


def test_readme_states_every_exit_code():
    text = " ".join(README.read_text(encoding="utf-8").split())
    for code in EXIT_CODES:
        assert re.search(rf"\b{code} (yes|no|bad usage|the solver|the spec|the implementation|a bug|interrupted)",
                         text), code
    assert "Every command but `faq` and `serve` takes `--json`" in text
