"""`rulings meld|lay GAME --batch FILE`: one JSON answer per line, in order, each the object
`--json` prints for the same single query; a bad line gets an error object and the run
goes on."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from rulings.cli import main
from rulings.spec import RULEBOOKS_ENV, load

SPECS = {g: load(g) for g in ("tick", "rummikub")}


@pytest.fixture(autouse=True)
def _no_rulebooks(monkeypatch):
    monkeypatch.delenv(RULEBOOKS_ENV, raising=False)


def invoke(args, stdin=None):
    result = CliRunner().invoke(main, args, input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@st.composite
def queries(draw, game):
    """A query line: mostly good ones, some with an unknown card, level or no cards."""
    spec = SPECS[game]
    tokens = [t.token for t in spec.cards.types]
    cards = draw(st.lists(st.sampled_from(tokens + ["ZZ"] * draw(st.sampled_from([0, 0, 1]))), max_size=8))
    query: dict = {"cards": cards}
    if game == "tick":
        query["level"] = draw(st.integers(0, 9))
    elif draw(st.booleans()):
        query["initial"] = True
    return query


def single(command, game, engine, query):
    """The same query asked alone with --json: (exit code, the object or the error text)."""
    args = [command, game, "--engine", engine, "--json"]
    if "level" in query:
        args += ["--level", str(query["level"])]
    if query.get("initial"):
        args.append("--initial")
    result = invoke(args + query["cards"])
    if result.exit_code == 2:
        return 2, result.stderr.strip().removeprefix("rulings: ")
    return result.exit_code, json.loads(result.stdout)


@settings(max_examples=max(10, settings.default.max_examples // 20))
@given(game=st.sampled_from(sorted(SPECS)), command=st.sampled_from(["meld", "lay"]),
       engine=st.sampled_from(["z3", "reference"]), data=st.data())
def test_batch_answers_equal_single_queries(game, command, engine, data):
    lines = data.draw(st.lists(queries(game), min_size=1, max_size=4))
    text = "".join(json.dumps(q) + "\n" for q in lines)
    result = invoke([command, game, "--engine", engine, "--batch", "-"], stdin=text)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    bad = 0
    for number, (query, answer) in enumerate(zip(lines, answers), 1):
        code, alone = single(command, game, engine, query)
        if code == 2:
            bad += 1
            assert answer == {"error": alone, "line": number}
        else:
            assert answer == alone
    assert result.exit_code == (2 if bad else 0)


def test_batch_from_a_file_goes_on_after_bad_lines(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text('{"level": 3, "cards": ["5", "5", "SW", "BW"]}\nnot json\n\n[1, 2]\n'
                    '{"level": 3, "cards": ["5", "SW", "SW", "BW"]}\n')
    result = invoke(["meld", "tick", "--batch", str(path)])
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("legal") for o in out] == [True, None, None, False]
    assert out[1]["line"] == 2 and out[1]["error"].startswith("not JSON")
    assert out[2]["line"] == 4 and '"cards"' in out[2]["error"]
    assert [v["clause"] for v in out[3]["violations"]][0] == "wild-limit"
    assert result.exit_code == 2


def test_batch_takes_no_cards_on_the_command_line():
    result = invoke(["meld", "tick", "--level", "3", "--batch", "-", "5"], stdin="")
    assert result.exit_code == 2 and "--batch" in result.stderr


def test_batch_of_a_missing_file():
    result = invoke(["lay", "tick", "--batch", "/nonexistent/hands.jsonl"])
    assert result.exit_code == 2 and "cannot read" in result.stderr


@pytest.mark.parametrize("command", ["meld", "lay"])
def test_z3_answers_do_not_depend_on_what_was_asked_before(command):
    """The same lines in two orders, each batch in a process of its own: every line gets
    the same answer (melds, wilds and clauses included) whatever was asked before it."""
    import random
    import subprocess
    import sys
    from pathlib import Path

    spec = SPECS["tick"]
    rng = random.Random(28)
    deck = [t.token for t in spec.cards.types for _ in range(spec.deck()[t.index])]
    lines = [{"level": 1 + i % 8, "cards": rng.sample(deck, rng.randint(8, 13))} for i in range(24)]
    lines += [{"level": 3, "cards": ["5", "5", "SW", "BW"]}, {"level": 3, "cards": ["5", "SW", "SW", "BW"]},
              {"level": 1, "cards": "5 5 5 7 7 7 9 9 9 SW B".split()}]
    order = list(range(len(lines)))
    rng.shuffle(order)
    script = Path(sys.executable).parent / "rulings"

    def answers(which):
        text = "".join(json.dumps(lines[i]) + "\n" for i in which)
        out = subprocess.run([str(script), command, "tick", "--batch", "-"], input=text, capture_output=True,
                             text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        return dict(zip(which, (json.loads(x) for x in out.stdout.splitlines())))

    first, second = answers(range(len(lines))), answers(order)
    assert first == second
    assert any(a.get("legal", a.get("possible")) for a in first.values())
    assert any(a.get("legal", a.get("possible")) is False for a in first.values())
