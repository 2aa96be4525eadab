"""Every shipped game has its FAQ: a questions file beside its spec, for that game, that
answers; a game added to spec/ without one is caught."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulings.checks.faq import build as faq
from rulings.spec import load, packaged_games

ROOT = Path(__file__).resolve().parents[2]
GAMES = packaged_games()


def faq_problems(spec_folder) -> list[str]:
    """The games of a folder of specs that have no FAQ questions of their own."""
    out = []
    for path in sorted(spec_folder.glob("*.yaml")):
        if path.name == "schema.yaml":
            continue
        spec = load(str(path))
        try:
            data = faq.read_questions(faq.questions_path(spec.game, path))
        except FileNotFoundError as e:
            out.append(str(e))
            continue
        if data["game"] != spec.game:
            out.append(f"{path.name}: its questions are for {data['game']!r}")
    return out


def test_every_shipped_spec_has_an_faq():
    assert GAMES == packaged_games() and len(GAMES) >= 5
    assert faq_problems(ROOT / "spec") == []
    for game in GAMES:
        assert (ROOT / "spec" / "faq" / f"{game}.yaml").is_file(), game


def test_a_game_added_without_questions_is_caught(tmp_path):
    shutil.copy(ROOT / "spec" / "garbage.yaml", tmp_path / "garbage.yaml")
    text = (tmp_path / "garbage.yaml").read_text(encoding="utf-8").replace("game: garbage", "game: trash-heap")
    (tmp_path / "trash-heap.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "garbage.yaml").unlink()
    (problem,) = faq_problems(tmp_path)
    assert "no FAQ questions for 'trash-heap'" in problem
    (tmp_path / "faq").mkdir()
    questions = (ROOT / "spec" / "faq" / "garbage.yaml").read_text(encoding="utf-8")
    (tmp_path / "faq" / "trash-heap.yaml").write_text(questions.replace("game: garbage", "game: trash-heap"),
                                                      encoding="utf-8")
    assert faq_problems(tmp_path) == []


def test_a_new_game_needs_only_its_questions_file(tmp_path):
    """The FAQ of a spec outside the package is built from faq/GAME.yaml beside it."""
    shutil.copy(ROOT / "spec" / "garbage.yaml", tmp_path / "garbage.yaml")
    (tmp_path / "faq").mkdir()
    (tmp_path / "faq" / "garbage.yaml").write_text(
        "format: 1\ngame: garbage\ntopics: [{id: t, title: T}]\nquestions:\n"
        "  - {id: deck, topic: t, ask: 'How many cards do two players use?', form: {deck: {players: 2}}}\n",
        encoding="utf-8")
    built = faq.build(load(str(tmp_path / "garbage.yaml")), strict=True)
    assert [e.id for e in built.entries] == ["deck"] and built.entries[0].answer == "52 cards"
    assert built.questions_file.endswith("faq/garbage.yaml")


def test_every_game_has_questions_on_every_topic(game_faq):
    built = game_faq
    assert {e.topic for e in built.entries} == {t["id"] for t in built.topics}
    order = [t["id"] for t in built.topics]
    assert [e.topic for e in built.entries] == sorted((e.topic for e in built.entries), key=order.index)
    assert len({e.id for e in built.entries}) == len(built.entries)
