"""Conformance for a board game (Sequence Numbers): the example written apart from the model
conforms, and each error planted in it is found with a shrunk witness naming the clause it
breaks.

The vectors are written once for the module without the reading check's witnesses (that
search is the reading check's, tested with it, and takes most of the generation time);
the moves and games asked are the generator's own."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.cli import main

ADAPTER = str(Path(__file__).resolve().parents[2] / "examples" / "seqnum_faithful.py")
GAME = "sequence-numbers"


@pytest.fixture(scope="module")
def seqnum_vectors(tmp_path_factory):
    import checks.readings
    from checks import vectors
    from rulings.spec import load

    saved = checks.readings.reading_findings
    checks.readings.reading_findings = lambda *a, **k: []
    try:
        docs = vectors.generate(load(GAME), 1)
    finally:
        checks.readings.reading_findings = saved
    return vectors.write(docs, tmp_path_factory.mktemp("seqnum-vectors"))


def conform(vectors, factory: str, code: int, random: int) -> dict:
    result = CliRunner().invoke(main, ["conform", GAME, "--adapter", f"{ADAPTER}:{factory}", "--vectors",
                                       str(vectors), "--random", str(random), "--seed", "1", "--json"])
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


def test_the_vectors_ask_board_questions(seqnum_vectors):
    moves = json.loads((seqnum_vectors / "moves.json").read_text())["cases"]
    kinds = {next(iter(v["scenario"]["move"])) for v in moves}
    assert kinds >= {"draw", "cover", "cover_any", "uncover", "swap_dead"}
    refused = {c for v in moves if not v["legal"] for c in v["clauses"]}
    assert {"dead-card", "play-a-card", "minus-card"} <= refused
    boards = {"".join(v["scenario"]["board"]) for v in moves}
    assert any(b.strip("*.") for b in boards)          # chips on the board, not only empty boards


def test_the_faithful_example_conforms(seqnum_vectors):
    out = conform(seqnum_vectors, "factory", 0, random=60)
    assert out["conforms"] is True and out["divergences"] == []
    assert out["vectors"]["move"]["pass"] > 0 and out["vectors"]["move"]["fail"] == 0
    assert out["vectors"]["game"]["pass"] > 0 and out["vectors"]["game"]["fail"] == 0


def test_every_planted_error_is_found(seqnum_vectors):
    out = conform(seqnum_vectors, "planted", 1, random=100)
    shrunk = [d["shrunk"] for d in out["divergences"]]
    # dead-card-kept: a dead card's exchange refused
    assert any(s["situation"]["move"].keys() == {"swap_dead"} and s["implementation"]["legal"] is False for s in shrunk)
    # minus-breaks-sequence: a chip of a completed line taken, which the spec refuses by sequence-kept
    assert any("sequence-kept" in {c["id"] for c in s["spec"].get("clauses", [])} and s["implementation"]["legal"] is True
               for s in shrunk)
    # foreign-chip-counts: a win the spec does not see
    assert any(s["spec"]["legal"] and s["implementation"].get("state", {}).get("phase") == "over" for s in shrunk)
    assert all(len(json.dumps(s["situation"])) < 6000 for s in shrunk)
