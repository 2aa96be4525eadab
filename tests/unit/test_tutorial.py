"""docs/tutorial.md cannot go stale: its files are built again from its blocks, in order,
every command it shows is run at its point of the tutorial (on the files as they stand
there), its exit code and output compared with what the tutorial shows, and the files it
ends with are the ones in docs/tutorial/.

The tutorial's conventions (it states them to the reader too):
- a fenced block whose header names a file (```yaml docs/tutorial/X.yaml) is a piece of
  that file, added at its end;
- a ```diff FILE block changes the file: its `-` lines (with the ` ` context lines) become
  its `+` lines (with the same context);
- a ```sh block holds one `rulings ...` command, `# exit N` after it giving its exit code
  (0 when absent); the ```text block right after it is what it prints: `...` alone on a
  line stands for any lines (none included), `...` inside a line for any text; lines not
  separated by a `...` line follow each other in the output, and a first or last line
  that is not `...` is the output's first or last.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.cli import main

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(kind, file or '', body) of each fenced block, in order."""
    out = []
    for m in FENCE.finditer(text):
        head = m.group(1).split()
        kind = head[0] if head else ""
        out.append((kind, head[1] if len(head) > 1 else "", m.group(2)))
    return out


def apply_diff(text: str, body: str, where: str) -> str:
    old, new = [], []
    for line in body.splitlines():
        mark, rest = line[:1], line[1:]
        if mark in (" ", ""):
            old.append(rest)
            new.append(rest)
        elif mark == "-":
            old.append(rest)
        elif mark == "+":
            new.append(rest)
        else:
            raise AssertionError(f"{where}: a diff line starts with ' ', '-' or '+': {line!r}")
    before, after = "\n".join(old) + "\n", "\n".join(new) + "\n"
    assert text.count(before) == 1, f"{where}: the lines to change occur {text.count(before)} times, not once"
    return text.replace(before, after)


def line_matches(shown: str, real: str) -> bool:
    parts = [re.escape(p) for p in shown.split("...")]
    return re.fullmatch(".*".join(parts), real) is not None


def output_differs(shown: str, real: str) -> str | None:
    """None when the output shown is the real one, under the elisions; else why not."""
    want = shown.rstrip("\n").split("\n")
    got = [x.rstrip() for x in real.rstrip("\n").split("\n")]
    segments: list[list[str]] = [[]]
    for w in want:
        if w.strip() == "...":
            segments.append([])
        else:
            segments[-1].append(w.rstrip())
    at = 0
    for i, seg in enumerate(segments):
        if not seg:
            continue
        anchored_start = i == 0
        anchored_end = i == len(segments) - 1
        starts = [at] if anchored_start else range(at, len(got) - len(seg) + 1)
        found = None
        for s in starts:
            if s + len(seg) <= len(got) and all(line_matches(w, g) for w, g in zip(seg, got[s:s + len(seg)])):
                if anchored_end and s + len(seg) != len(got):
                    continue
                found = s
                break
        if found is None:
            return f"not found in order: {seg!r}"
        at = found + len(seg)
    return None


def walk(tmp: Path, monkeypatch) -> tuple[dict[str, str], list[tuple[str, int]]]:
    """Play the tutorial through; the files it ends with, and each command's exit code."""
    files: dict[str, str] = {}
    ran = []
    monkeypatch.chdir(tmp)
    todo = blocks(TUTORIAL.read_text(encoding="utf-8"))
    for i, (kind, name, body) in enumerate(todo):
        where = f"docs/tutorial.md, block {i + 1}"
        if name and kind != "diff":
            files[name] = files.get(name, "") + body
        elif kind == "diff":
            assert name in files, f"{where}: a diff of {name}, which no block has written yet"
            files[name] = apply_diff(files[name], body, where)
        elif kind == "sh":
            (line,) = [x for x in body.splitlines() if x.strip()]
            command, _, comment = line.partition("#")
            code = int(comment.split("exit")[1]) if "exit" in comment else 0
            args = shlex.split(command)
            assert args[0] == "rulings", f"{where}: {line!r} is not a rulings command"
            for n, content in files.items():
                (tmp / n).parent.mkdir(parents=True, exist_ok=True)
                (tmp / n).write_text(content, encoding="utf-8")
            result = CliRunner().invoke(main, args[1:], catch_exceptions=False)
            real = result.output
            assert result.exit_code == code, f"{where}: {command.strip()} exited {result.exit_code}, " \
                                              f"the tutorial says {code}:\n{real}"
            nxt = todo[i + 1] if i + 1 < len(todo) else None
            assert nxt is not None and nxt[0] == "text" and not nxt[1], f"{where}: the output should follow"
            why = output_differs(nxt[2], real)
            assert why is None, f"{where}: {command.strip()}: {why}\nthe real output:\n{real}"
            ran.append((args[1], code))
    return files, ran


def test_the_tutorial_runs_as_written_and_ends_with_the_files_in_docs_tutorial(tmp_path, monkeypatch):
    monkeypatch.delenv("RULINGS_RULEBOOKS", raising=False)     # the reader has no folder of rulebooks
    files, ran = walk(tmp_path, monkeypatch)
    assert {c for c, _ in ran} >= {"validate", "simulate", "judge", "check", "faq"}
    assert ("validate", 1) in ran and ("check", 1) in ran            # a problem found, then fixed
    for name, content in files.items():
        on_disk = ROOT / name
        assert on_disk.is_file(), f"{name}: the tutorial writes it; it should be in the repository"
        assert on_disk.read_text(encoding="utf-8") == content, f"{name} differs from the tutorial's blocks"
    made = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs" / "tutorial").rglob("*") if p.is_file()}
    assert made == set(files), "every file of docs/tutorial/ is written by the tutorial"


@pytest.mark.parametrize("shown,real,ok", [
    ("a\nb\n", "a\nb\n", True),
    ("a\n", "a\nb\n", False),                    # the last line shown is the last printed
    ("a\n...\n", "a\nb\n", True),
    ("...\nb\n", "a\nb\n", True),
    ("a\nc\n", "a\nb\nc\n", False),              # no line may be left out silently
    ("a\n...\nc\n", "a\nb\nc\n", True),
    ("x: ... s\n", "x: 3.2 s\n", True),
    ("x: ... s\n", "y: 3.2 s\n", False),
    ("...\nb\n...\n", "a\nc\n", False),
])
def test_the_output_matcher_is_strict_outside_the_elisions(shown, real, ok):
    assert (output_differs(shown, real) is None) is ok
