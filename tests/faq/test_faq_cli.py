"""`rulings faq GAME [--format md|html|json] [-o PATH]` through click's CliRunner."""
from __future__ import annotations

import json

from click.testing import CliRunner

from rulings.cli import main

KEYS = {"id", "question", "answer", "ruling", "clauses", "assumptions", "scenario"}


def run(*args):
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"rulings {' '.join(args)} raised {result.exception!r}\n{result.output}")
    return result


def test_json_is_a_list_of_entries(tick_faq):
    r = run("faq", "tick", "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert isinstance(data, list) and len(data) == len(tick_faq.entries)
    for entry in data:
        assert KEYS <= set(entry)
        assert all(set(c) == {"id", "source"} for c in entry["clauses"])
        assert isinstance(entry["assumptions"], list) and isinstance(entry["scenario"], dict)


def test_output_file_and_markdown_by_default(tmp_path, tick_faq):
    out = tmp_path / "faq.html"
    r = run("faq", "tick", "--format", "html", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert f"{len(tick_faq.entries)} answers written to" in r.stderr
    r = run("faq", "tick")
    assert r.exit_code == 0 and r.stdout.startswith("# Tick: questions and answers")


def test_bad_input_exits_2():
    r = run("faq", "nosuchgame")
    assert r.exit_code == 2 and "no game 'nosuchgame'" in r.stderr
    r = run("faq", "tick", "--format", "pdf")
    assert r.exit_code == 2


def test_a_questions_file_that_cannot_be_answered_exits_2(tmp_path):
    bad = tmp_path / "q.yaml"
    bad.write_text("format: 1\ngame: tick\ntopics: [{id: t, title: T}]\n"
                   "questions:\n  - {id: q, topic: t, ask: 'May I?', form: yes-no, meld: {level: 9, cards: [1]}}\n")
    r = run("faq", "tick", "--questions", str(bad))
    assert r.exit_code == 2 and "q: meld:" in r.stderr


def test_level8_and_a_spec_file_have_their_faq(faqs):
    from pathlib import Path

    ROOT = Path(__file__).resolve().parents[2]

    r = run("faq", "level8", "--format", "json")
    assert r.exit_code == 0 and len(json.loads(r.stdout)) == len(faqs("level8").entries)
    r = run("faq", str(ROOT / "spec" / "garbage.yaml"), "--format", "json")   # faq/garbage.yaml beside it
    assert r.exit_code == 0 and len(json.loads(r.stdout)) == len(faqs("garbage").entries)
