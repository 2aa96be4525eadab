"""docs/faq/ holds the generated FAQ pages: regenerated here, they must not differ, so a
rule change shows up as an FAQ change in review. And the HTML page needs no network."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from rulings.checks.faq_render import html, markdown

DOCS = Path(__file__).resolve().parents[2] / "docs" / "faq"

FIX = "regenerate with: rulings faq tick --format {fmt} -o docs/faq/tick.{fmt}"


@pytest.mark.parametrize("fmt, render", [("md", markdown), ("html", html)])
def test_committed_pages_are_current(tick_faq, fmt, render):
    path = DOCS / f"tick.{fmt}"
    assert path.is_file(), FIX.format(fmt=fmt)
    fresh = render(tick_faq)
    committed = path.read_text(encoding="utf-8")
    if fresh != committed:
        diff = "".join(list(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                                 "committed", "regenerated", n=1))[:40])
        pytest.fail(f"docs/faq/tick.{fmt} is out of date; {FIX.format(fmt=fmt)}\n{diff}")


@pytest.mark.parametrize("fmt, render", [("md", markdown), ("html", html)])
def test_committed_rummikub_pages_are_current(rummikub_faq, fmt, render):
    path = DOCS / f"rummikub.{fmt}"
    fix = f"regenerate with: rulings faq rummikub --format {fmt} -o docs/faq/rummikub.{fmt}"
    assert path.is_file(), fix
    fresh = render(rummikub_faq)
    committed = path.read_text(encoding="utf-8")
    if fresh != committed:
        diff = "".join(list(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                                 "committed", "regenerated", n=1))[:40])
        pytest.fail(f"docs/faq/rummikub.{fmt} is out of date; {fix}\n{diff}")


def test_rendering_is_deterministic(tick_faq):
    assert html(tick_faq) == html(tick_faq) and markdown(tick_faq) == markdown(tick_faq)
    page = html(tick_faq)
    assert not re.search(r"20\d\d-\d\d-\d\d", page)          # no date in the output


def test_the_page_is_self_contained():
    page = (DOCS / "tick.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    assert not re.search(r"\bsrc\s*=", page)
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls        # the SVG namespace is a name, never fetched
    assert '<meta name="viewport"' in page


def test_every_link_on_the_page_has_its_anchor(tick_faq):
    page = (DOCS / "tick.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    targets = set(re.findall(r'href="#([^"]+)"', page))
    assert targets <= ids, sorted(targets - ids)
    for e in tick_faq.entries:
        assert f'id="q-{e.id}"' in page
        for c in e.clauses:
            assert f'href="#clause-{c}"' in page and f'id="clause-{c}"' in page
    md = (DOCS / "tick.md").read_text(encoding="utf-8")
    md_ids = set(re.findall(r'<a id="([^"]+)"></a>', md))
    assert set(re.findall(r"\]\(#([^)]+)\)", md)) <= md_ids
