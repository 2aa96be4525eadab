"""docs/faq/ holds the generated FAQ pages of every game: regenerated here, they must not
differ, so a rule change shows up as an FAQ change in review and a committed page is never
stale. And the HTML pages need no network."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from rulings.checks.faq.render import html, markdown
from rulings.spec import packaged_games

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "faq"
GAMES = packaged_games()



@pytest.mark.parametrize("fmt, render", [("md", markdown), ("html", html)])
def test_committed_pages_are_current(game_faq, fmt, render):
    game = game_faq.spec.game
    fix = f"regenerate with: rulings faq {game} --format {fmt} -o docs/faq/{game}.{fmt}"
    path = DOCS / f"{game}.{fmt}"
    assert path.is_file(), fix
    fresh = render(game_faq)
    committed = path.read_text(encoding="utf-8")
    if fresh != committed:
        diff = "".join(list(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                                 "committed", "regenerated", n=1))[:40])
        pytest.fail(f"docs/faq/{game}.{fmt} is out of date; {fix}\n{diff}")


def test_no_page_is_left_over():
    pages = {p.stem for p in DOCS.iterdir() if p.suffix in (".md", ".html")}
    assert pages == set(GAMES), pages ^ set(GAMES)


def test_rendering_is_deterministic(tick_faq):
    assert html(tick_faq) == html(tick_faq) and markdown(tick_faq) == markdown(tick_faq)
    assert not re.search(r"20\d\d-\d\d-\d\d", html(tick_faq))          # no date in the output


@pytest.mark.parametrize("game", GAMES)
def test_the_page_is_self_contained(game):
    page = (DOCS / f"{game}.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    assert not re.search(r"\bsrc\s*=", page)
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls        # the SVG namespace is a name, never fetched
    assert '<meta name="viewport"' in page


def test_every_link_on_the_page_has_its_anchor(game_faq):
    game = game_faq.spec.game
    page = (DOCS / f"{game}.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    targets = set(re.findall(r'href="#([^"]+)"', page))
    assert targets <= ids, sorted(targets - ids)
    for e in game_faq.entries:
        assert f'id="q-{e.id}"' in page
        for c in e.clauses:
            assert f'href="#clause-{c}"' in page and f'id="clause-{c}"' in page
    md = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    md_ids = set(re.findall(r'<a id="([^"]+)"></a>', md))
    assert set(re.findall(r"\]\(#([^)]+)\)", md)) <= md_ids
