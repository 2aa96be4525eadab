"""`rulings conform` passes the faithful example and finds, and shrinks, every error planted
in the other: as a JavaScript program over JSON lines and as a Python adapter."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulings.checks.conformance import conform, report as conform_report
from rulings.checks.conformance.adapters import PythonAdapter
from rulings.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

RANDOM = "120"


def run(*args, code=None):
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"rulings {' '.join(args)} raised {result.exception!r}\n{result.output}")
    assert "Traceback" not in result.stdout
    if code is not None:
        assert result.exit_code == code, f"exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result


def conform_json(*args, code=None) -> dict:
    return json.loads(run("conform", "tick", *args, "--json", code=code).stdout)


def test_the_faithful_javascript_conforms(faithful_cmd, vectors_dir):
    out = conform_json("--cmd", faithful_cmd, "--vectors", str(vectors_dir), "--random", RANDOM, code=0)
    assert out["conforms"] is True and out["divergences"] == [] and out["problems"] == []
    for family, counts in out["vectors"].items():
        assert counts["pass"] > 0 and counts["fail"] == counts["error"] == counts["skipped"] == 0, family
    assert set(out["search"]) == {"meld", "best_lay", "move", "score"}
    assert all(s["cases"] >= int(RANDOM) for s in out["search"].values())
    assert out["cases_per_second"] > 0


def _size(shrunk: dict) -> int:
    sit = shrunk["situation"]
    if "cards" in sit:
        return len(sit["cards"])
    return sum(len(h) for h in sit["state"]["hands"]) + 100 * sit["state"]["players"]


def planted_errors_found(out: dict) -> dict:
    """Each planted error, and the smallest shrunk divergence that shows it (one error may
    show as several kinds of divergence: other clauses, other moves)."""
    found = {}
    for d in sorted(out["divergences"], key=lambda d: _size(d["shrunk"])):
        s = d["shrunk"]
        clauses = {c["id"] for c in s["spec"].get("clauses", [])}
        said = s.get("implementation") or {}
        if d["family"] == "meld" and "wild-limit" in clauses and said.get("legal") is True:
            found.setdefault("wilds-outnumber", s)
        if d["family"] == "move" and "go-out-timing" in clauses and said.get("legal") is True:
            found.setdefault("first-turn-out", s)
        if d["family"] == "move" and "tick" in s["situation"]["move"] and (
                "chips" in clauses and said.get("legal") is True
                or any(x.startswith("state after: chips") for x in s.get("differences", []))):
            found.setdefault("free-tick", s)
        if d["family"] == "score":
            found.setdefault("bonus-in-hand", s)
    return found


def check_planted(out: dict) -> None:
    assert out["conforms"] is False
    found = planted_errors_found(out)
    assert set(found) == {"wilds-outnumber", "first-turn-out", "free-tick", "bonus-in-hand"}, \
        [d["signature"] for d in out["divergences"]]
    # each is shrunk to a small situation
    wilds = found["wilds-outnumber"]["situation"]
    assert len(wilds["cards"]) == 4 and sum(c in ("SW", "BW") for c in wilds["cards"]) == 3, wilds
    out_early = found["first-turn-out"]["situation"]["state"]
    assert out_early["players"] == 2 and out_early["turns_finished"] < out_early["players"]
    assert len(out_early["hands"][out_early["to_play"]]) <= 2
    tick = found["free-tick"]["situation"]["state"]
    assert tick["players"] == 2 and tick["level"] == 1 and len(tick["hands"][tick["to_play"]]) <= 4
    bonus = found["bonus-in-hand"]["situation"]["state"]
    assert any("B" in hand for hand in bonus["hands"])
    assert sum(len(h) for h in bonus["hands"]) <= 3
    # and the first divergence of each kind was bigger than what it shrank to, or as small
    for d in out["divergences"]:
        assert d["found_after"] >= 1


def test_the_planted_javascript_errors_are_found_and_shrunk(planted_js_cmd, vectors_dir):
    out = conform_json("--cmd", planted_js_cmd, "--vectors", str(vectors_dir), "--random", RANDOM, code=1)
    check_planted(out)
    assert out["problems"], "the vectors catch planted errors too"


def test_the_planted_python_adapter_errors_are_found_and_shrunk(vectors_dir):
    out = conform_json("--adapter", f"{EXAMPLES / 'tick_planted.py'}:factory", "--vectors", str(vectors_dir),
                       "--random", RANDOM, code=1)
    check_planted(out)


def test_each_planted_error_alone_is_found(spec, docs):
    """One error planted at a time: the search reports it, and nothing the others would."""
    import importlib.util

    mod_spec = importlib.util.spec_from_file_location("tick_planted_example", EXAMPLES / "tick_planted.py")
    mod = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(mod)
    for plant in mod.PLANTED:
        report = conform.conform(spec, PythonAdapter(mod.TickPlanted(plant)), docs, random_cases=60, seed=1,
                                 families=("meld", "move", "score"))
        found = planted_errors_found(conform_report.as_json(report))
        assert set(found) == {plant}, (plant, [d.signature for d in report.divergences])


def test_the_text_report_says_what_the_spec_says_and_what_the_implementation_said(vectors_dir):
    out = run("conform", "tick", "--adapter", f"{EXAMPLES / 'tick_planted.py'}:factory", "--vectors",
              str(vectors_dir), "--random", "40", code=1).stdout
    assert "DIVERGENCE 1 of" in out
    assert "the spec says: illegal" in out and "wild-limit [tick.txt:19" in out
    assert "the implementation said: legal" in out
    assert "shrunk from (first met after" in out
    assert "VECTORS THE IMPLEMENTATION GOT WRONG" in out
    assert "cases/s" in out and out.rstrip().splitlines()[-1].startswith("result: ")


def test_the_module_form_of_adapter(vectors_dir, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = conform_json("--adapter", "examples.tick_planted:factory", "--vectors", str(vectors_dir), "--random", "0",
                       code=1)
    assert out["problems"] and "search" in out and not out["divergences"]


@pytest.mark.parametrize("args,message", [
    (["--adapter", "no_such_module_anywhere:factory"], "cannot import"),
    (["--cmd", "no-such-program-for-rulings"], "command not found"),
    (["--cmd", "node /nonexistent/tick.js"], "does not speak the protocol"),
    ([], "exactly one of"),
    (["--adapter", "x:y", "--cmd", "z"], "exactly one of"),
    (["--cmd", "cat", "--vectors", "/nonexistent/vectors"], "no vectors folder"),
])
def test_bad_input_exits_2(args, message, node):
    result = run("conform", "tick", *args, code=2)
    assert message in result.stderr and result.stdout == ""


def test_vectors_command_writes_the_same_bytes_again(tmp_path, docs):
    """`rulings vectors` is deterministic: the same spec gives the same files, byte for byte."""
    from rulings.checks.conformance import vectors

    result = run("vectors", "tick", "-o", str(tmp_path / "v"), "--json", code=0)
    m = json.loads(result.stdout)
    assert m["counts"]["meld"] > 0 and m["coverage"]["not_exercised"]
    for name, doc in docs.items():
        assert (tmp_path / "v" / name).read_text(encoding="utf-8") == vectors.dump(doc), name


def test_a_game_the_kernel_cannot_play_gets_only_its_table_question(tmp_path):
    import yaml

    from rulings.specfile import Loader

    data = yaml.load((ROOT / "spec" / "rummikub.yaml").read_text(encoding="utf-8"), Loader=Loader)
    del data["clauses"]["one-hand"]            # nobody says who deals next
    del data["clauses"]["winner"]              # nor when the game ends
    spec = tmp_path / "rummikub-open.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    # vectors: the table question alone (a game with a shared table of melds whose play is open)
    result = run("vectors", str(spec), "-o", str(tmp_path / "v"), code=0)
    assert "best_play" in result.stdout
    assert sorted(p.name for p in (tmp_path / "v").iterdir()) == ["best_play.json", "manifest.json"]
    # the self-test needs the whole game, and says what the spec leaves open
    result = run("conform", "--self-test", str(spec), code=2)
    assert "rummikub's spec leaves open" in result.stderr


@pytest.mark.parametrize("game", ["sequence-numbers", "garbage"])
def test_vectors_are_written_for_a_game_of_boards_and_layouts(tmp_path, game):
    """Games whose moves are not lays (a board's marks, a layout's fills) still get move
    vectors the judge agrees with, not an internal error."""
    from rulings import scenario
    from rulings.spec import load

    result = run("vectors", game, "-o", str(tmp_path / "v"), "--json", code=0)
    assert json.loads(result.stdout)["counts"]["move"] > 0
    spec = load(game)
    cases = json.loads((tmp_path / "v" / "moves.json").read_text(encoding="utf-8"))["cases"]
    for v in cases:
        j = scenario.judge(scenario.load(v["scenario"], spec))
        assert j.legal == v["legal"], v["id"]
