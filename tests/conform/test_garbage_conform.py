"""Conformance for a game without hands (Garbage): vectors are move and game vectors only
(no melds, no score kept), the faithful Python example conforms, and each error planted in
the other is found, by the vectors or the differential search."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulings.cli import main

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

ADAPTER = str(EXAMPLES / "garbage_faithful.py")


@pytest.fixture(scope="module")
def garbage_vectors(tmp_path_factory):
    out = tmp_path_factory.mktemp("garbage-vectors")
    result = CliRunner().invoke(main, ["vectors", "garbage", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def conform(vectors, factory: str, code: int, random: int = 150) -> dict:
    result = CliRunner().invoke(main, ["conform", "garbage", "--adapter", f"{ADAPTER}:{factory}", "--vectors",
                                       str(vectors), "--random", str(random), "--seed", "1", "--json"])
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


def test_the_vectors_ask_only_what_the_game_has(garbage_vectors):
    for name in ("melds.json", "best_lay.json", "scores.json"):
        assert json.loads((garbage_vectors / name).read_text())["cases"] == []
    moves = json.loads((garbage_vectors / "moves.json").read_text())["cases"]
    kinds = {next(iter(v["scenario"]["move"])) for v in moves}
    assert kinds == {"draw", "take_top", "place_card", "discard"}
    assert any(v["legal"] for v in moves) and any(not v["legal"] for v in moves)


def test_the_faithful_example_conforms(garbage_vectors):
    out = conform(garbage_vectors, "factory", 0)
    assert out["conforms"] is True and out["divergences"] == []
    assert set(out["search"]) == {"move"}
    assert out["vectors"]["move"]["pass"] > 0 and out["vectors"]["move"]["fail"] == 0


def test_every_planted_error_is_found(garbage_vectors):
    out = conform(garbage_vectors, "planted", 1, random=400)
    text = json.dumps(out)
    refused_by = {c["id"] for d in out["divergences"] for c in d["shrunk"]["spec"].get("clauses", [])}
    assert "must-place" in refused_by            # discard-what-fits
    assert "wild" in refused_by                  # wild-on-face-up
    # reshuffle-all: the spec's refill leaves the top discard where it is; a vector of a draw
    # from an empty stock fails
    failed = [p for p in out["problems"] if p["status"] == "fail" and "draw" in p["id"]]
    assert failed and all(p["situation"]["state"]["stock"] == [] for p in failed), text[:2000]
