"""Every game's FAQ is built once per session (the checks it links to take a while)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulings.checks.faq import build as faq
from rulings.spec import load, packaged_games
from rulings.specfile import Loader

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "faq"
GAMES = packaged_games()

_built: dict = {}


def faq_of(game: str):
    if game not in _built:
        _built[game] = faq.build(load(game), strict=True)
    return _built[game]


def questions_of(game: str) -> dict:
    """The questions file as written, by question id."""
    data = yaml.load(faq.questions_path(game).read_text(encoding="utf-8"), Loader=Loader)
    return {q["id"]: q for q in data["questions"]}


@pytest.fixture(scope="session")
def faqs():
    """The FAQ of a game, built once in the session."""
    return faq_of


@pytest.fixture(scope="session")
def asked():
    """A game's questions as written, by id."""
    return questions_of


@pytest.fixture(scope="session", params=GAMES)
def game_faq(request):
    return faq_of(request.param)


@pytest.fixture(scope="session")
def tick_faq():
    return faq_of("tick")


@pytest.fixture(scope="session")
def rummikub_faq():
    return faq_of("rummikub")
