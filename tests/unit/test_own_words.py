"""The project keeps the rulebooks outside: no file holds a run of eight words of one.

Runs made only of numbers (a list of ranks such as 1 2 3 4 5 6 7 8) are not prose and do
not count. Needs the texts: RULINGS_RULEBOOKS (CI sets it) or the shared folder beside
this checkout; a clone without either has nothing to compare and says so."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _books() -> Path:
    folder = os.environ.get("RULINGS_RULEBOOKS")
    if folder:
        assert Path(folder).is_dir(), f"RULINGS_RULEBOOKS={folder} is not a folder"
        return Path(folder)
    beside = ROOT.parent / "shared" / "rulebooks"
    if not beside.is_dir():
        pytest.skip("the rulebook texts are not in this checkout; set RULINGS_RULEBOOKS to run this test")
    return beside


def _runs(text: str, n: int = 8) -> set[str]:
    words = re.findall(r"[a-zà-ÿæøå0-9]+", text.lower())
    return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)
            if not all(w.isdigit() for w in words[i:i + n])}


def test_no_project_file_repeats_rulebook_prose():
    source = set()
    for f in _books().glob("*.txt"):
        source |= _runs(f.read_text(errors="ignore"))
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    hits = []
    for name in files:
        p = ROOT / name
        if p.is_file() and p.stat().st_size < 2_000_000:
            common = _runs(p.read_text(errors="ignore")) & source
            if common:
                hits.append(f"{name}: {sorted(common)[0]!r}")
    assert not hits, "rulebook wording in the project (cite the line and paraphrase):\n" + "\n".join(hits)
