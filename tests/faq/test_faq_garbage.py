"""The Garbage FAQ (spec/faq/garbage.yaml): every answer computed from the spec, the pages
in docs/faq current, the variants that would change an answer named, and the layouts drawn
position by position."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulings.checks import faq
from rulings.checks.faq_render import html, markdown
from rulings.spec import load

DOCS = Path(__file__).resolve().parents[2] / "docs" / "faq"


@pytest.fixture(scope="module")
def garbage_faq():
    return faq.build(load("garbage"), strict=True)


@pytest.mark.parametrize("fmt, render", [("md", markdown), ("html", html)])
def test_committed_pages_are_current(garbage_faq, fmt, render):
    committed = (DOCS / f"garbage.{fmt}").read_text(encoding="utf-8")
    assert render(garbage_faq) == committed, f"regenerate with: rulings faq garbage --format {fmt} -o docs/faq/garbage.{fmt}"


def test_answers_and_the_readings_they_rest_on(garbage_faq):
    by = {e.id: e for e in garbage_faq.entries}
    assert by["take-discard"].answer.startswith("Yes") and by["first-player-discard"].answer.startswith("No")
    assert by["keep-a-card-that-fits"].answer.startswith("No")
    flagged = {f.clause for f in by["leave-the-wild"].flags}
    assert "must-place" in flagged                      # wild-optional would allow it
    assert by["one-position"].value == ["A", "J"]
    assert {f.clause for f in by["one-position"].flags} == {"wild"}      # kings wild: A and K instead
    assert by["positions-after-win"].answer.startswith("9")


def test_the_layout_is_drawn_position_by_position(garbage_faq):
    by = {e.id: e for e in garbage_faq.entries}
    rows = by["displace-wild"].example["rows"]
    layout = next(r for r in rows if "melds" in r and "position by position" in r["label"])
    assert len(layout["melds"]) == 10
    assert {"card": "J", "as": "6"} in [m[0] for m in layout["melds"]]
