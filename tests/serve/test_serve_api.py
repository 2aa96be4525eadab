"""The JSON API: every route answers with the document the command line prints with
--json for the same question (compared with the command's own output), the exit code in
X-Rulings-Exit, and the HTTP status the exit code maps to."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulings.spec import spec_path

pytestmark = pytest.mark.xdist_group("serve-http")

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "docs" / "scenarios"
RULINGS = str(Path(sys.executable).parent / "rulings")


def cli_json(*args) -> tuple[object, int]:
    p = subprocess.run([RULINGS, *args, "--json"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    return json.loads(p.stdout), p.returncode


def test_games_is_the_commands_document(client):
    r = client.get("/api/games")
    doc, code = cli_json("games")
    assert r.status_code == 200 and r.headers["x-rulings-exit"] == str(code) == "0"
    assert r.json() == doc


def test_one_game(client):
    r = client.get("/api/games/rummikub")
    assert r.status_code == 200
    assert r.json()["game"] == "rummikub" and "initial" in r.json()["contracts"] and r.json()["uploaded"] is False


@pytest.mark.parametrize("level,cards,legal", [(3, ["5", "5", "SW", "BW"], True), (3, ["5", "SW", "SW", "BW"], False)])
def test_meld_is_the_commands_answer(client, level, cards, legal):
    r = client.post("/api/meld", json={"game": "tick", "level": level, "cards": cards})
    doc, code = cli_json("meld", "tick", "--level", str(level), *cards)
    assert r.status_code == 200 and r.headers["x-rulings-exit"] == str(code)
    assert r.json() == doc and r.json()["legal"] is legal


def test_meld_under_a_reading_and_with_the_reference(client):
    q = {"game": "tick", "level": 2, "cards": ["5"] * 6, "readings": {"level-sets-same-rank": "distinct"},
         "engine": "reference"}
    r = client.post("/api/meld", json=q)
    doc, code = cli_json("meld", "tick", "--level", "2", "--reading", "level-sets-same-rank=distinct",
                         "--engine", "reference", *(["5"] * 6))
    assert r.json() == doc and r.headers["x-rulings-exit"] == str(code)


def test_lay_is_the_commands_answer(client):
    cards = "5 5 5 7 7 7 9 B".split()
    r = client.post("/api/lay", json={"game": "tick", "level": 1, "cards": cards})
    doc, code = cli_json("lay", "tick", "--level", "1", *cards)
    assert r.status_code == 200 and r.json() == doc and r.json()["points"] == 45
    assert r.headers["x-rulings-exit"] == str(code) == "0"


def test_rummikubs_initial_meld(client):
    r = client.post("/api/meld", json={"game": "rummikub", "initial": True,
                                       "cards": "r10 r11 r12 k10 o10 b10".split()})
    assert r.status_code == 200 and r.json()["legal"] is True and r.json()["contract"] == "initial"


def test_play_is_the_commands_answer(client):
    q = {"game": "rummikub", "table": "k7 k8 k9 | r5 o5 b5", "hand": "k10 J b5"}
    r = client.post("/api/play", json=q)
    doc, code = cli_json("play", "rummikub", "--table", q["table"], "--hand", q["hand"])
    assert r.status_code == 200 and r.json() == doc and r.headers["x-rulings-exit"] == str(code)
    assert r.json()["placed"] and set(r.json()["placed"]) <= {"k10", "J", "b5"}


def test_play_judges_a_new_table(client):
    q = {"game": "rummikub", "table": "k7 k8 k9", "hand": "k10 k6", "new": "k6 k7 k8 k9 k10"}
    r = client.post("/api/play", json=q)
    assert r.status_code == 200 and r.json()["legal"] is True and r.headers["x-rulings-exit"] == "0"
    r = client.post("/api/play", json=dict(q, new="k6 k7 k8 | k9 k10"))
    assert r.status_code == 200 and r.json()["legal"] is False and r.headers["x-rulings-exit"] == "1"


@pytest.mark.parametrize("path", ["tick/go-out-first-round.yaml", "level8/skip-a-player.yaml",
                                  "rummikub/initial-meld-under-50.yaml", "garbage/place-card.yaml",
                                  "sequence-numbers/cover-matching-space.yaml"])
def test_judge_is_the_commands_judgement(client, path):
    game = path.split("/")[0]
    text = (SCEN / path).read_text(encoding="utf-8")
    r = client.post("/api/judge", json={"game": game, "scenario": text})
    doc, code = cli_json("judge", game, str(SCEN / path))
    assert r.status_code == 200 and r.headers["x-rulings-exit"] == str(code)
    got = r.json()
    assert got.pop("situation")["players"] == yaml.safe_load(text)["players"]
    assert got == doc and got["expect"]["met"]


def test_judge_takes_the_document_and_readings(client):
    data = yaml.safe_load((SCEN / "tick/go-out-first-round.yaml").read_text(encoding="utf-8"))
    data.pop("expect")
    r = client.post("/api/judge", json={"game": "tick", "scenario": data})
    assert r.json()["verdict"] == "illegal" and r.headers["x-rulings-exit"] == "1"
    assert r.json()["clauses"][0]["clause"] == "go-out-timing"
    basis = {b["clause"]: b for b in r.json()["rests_on"]}
    assert basis["go-out-timing"]["otherwise"] == {"others-have-played": "legal"}
    r = client.post("/api/judge", json={"game": "tick", "scenario": data,
                                        "readings": {"go-out-timing": "others-have-played"}})
    assert r.json()["verdict"] == "legal" and r.headers["x-rulings-exit"] == "0" and r.json()["result"]


def test_an_undecided_move_is_a_200_with_its_question(client):
    """An uploaded Garbage without the clause saying what a second finisher does: the
    judgement is undecided (exit 4), named as the question, and still a 200."""
    text = spec_path("garbage").read_text(encoding="utf-8")
    start, end = text.index("  last-turn-finishers:"), text.index("  no-score:")
    r = client.post("/api/validate?name=garbage-open.yaml", content=(text[:start] + text[end:]).encode(),
                    headers={"content-type": "application/yaml"})
    assert r.status_code == 200 and r.json()["ok"], r.json()
    gid = r.json()["game"]
    data = yaml.safe_load((SCEN / "garbage/last-turn-finishers.yaml").read_text(encoding="utf-8"))
    data.pop("expect")
    data["readings"] = {"hand-won": "last-turns"}
    data["cites"] = ["hand-won"]                 # the clause removed is cited no more
    r = client.post("/api/judge", json={"game": gid, "scenario": data})
    assert r.status_code == 200 and r.headers["x-rulings-exit"] == "4", r.text
    assert r.json()["verdict"] == "undecided" and "also finishes" in r.json()["question"]


def test_moves_offered_are_the_kernels_in_the_scenario_form(client):
    from rulings import kernel, scenario as sc
    from rulings.spec import load

    data = yaml.safe_load((SCEN / "sequence-numbers/cover-matching-space.yaml").read_text(encoding="utf-8"))
    data.pop("move"), data.pop("expect")
    r = client.post("/api/moves", json={"game": "sequence-numbers", "scenario": data})
    assert r.status_code == 200
    state = sc.load(dict(data), load("sequence-numbers")).state
    want = [sc.move_to_scenario(state.spec, m) for m in kernel.legal_moves(state)]
    assert [m["move"] for m in r.json()["moves"]] == want and want
    assert all(m["words"] for m in r.json()["moves"])
    # after a move: what the next phase offers
    r = client.post("/api/moves", json={"game": "sequence-numbers", "scenario": dict(data, move={
        "cover": {"card": "3+", "at": [0, 3]}})})
    assert r.json()["after"] == "legal" and r.json()["phase"] == "draw"
    assert [m["move"] for m in r.json()["moves"]] == [{"draw": "stock"}]


def test_situation_blank_deal_and_pasted(client):
    r = client.post("/api/situation", json={"game": "tick"})
    assert r.status_code == 200 and r.json()["stock"] == {"top": [], "rest": "deck"}
    r = client.post("/api/situation", json={"game": "level8", "deal": {"players": 3, "seed": 4}})
    doc = r.json()
    assert r.status_code == 200 and len(doc["hands"]) == 3 and all(len(h) == 10 for h in doc["hands"])
    text = (SCEN / "rummikub/split-a-run.yaml").read_text(encoding="utf-8")
    r = client.post("/api/situation", json={"game": "rummikub", "scenario": text})
    assert r.status_code == 200 and r.json()["moves"] == [{"play": [["r3", "r4", "r5"], ["r5", "r6", "r7", "r8"]]}]
    assert r.json()["reserve"] == {"top": [], "rest": "deck"}


def test_validate_names_each_problem_by_the_uploaded_files_name(client):
    text = spec_path("tick").read_text(encoding="utf-8").replace("wilds <= naturals", "wild <= naturals", 1)
    r = client.post("/api/validate?name=my-tick.yaml", content=text.encode())
    assert r.status_code == 200 and r.headers["x-rulings-exit"] == "1"
    doc = r.json()
    assert doc["ok"] is False and doc["files"] == ["my-tick.yaml"]
    (err,) = doc["errors"]
    assert err["file"] == "my-tick.yaml" and err["line"] > 0 and err["col"] > 0
    assert "unknown name 'wild'" in err["message"]
    assert "rulings-serve-" not in json.dumps(doc)          # never where the server keeps it


def test_a_sound_upload_is_used_on_every_route(client):
    text = spec_path("tick").read_text(encoding="utf-8").replace("title: Tick", "title: Tick as we play it", 1)
    r = client.post("/api/validate?name=house.yaml", content=text.encode())
    assert r.status_code == 200 and r.json()["ok"] and r.headers["x-rulings-exit"] == "0"
    gid = r.json()["game"]
    assert gid.startswith("u-") and r.json()["title"] == "Tick as we play it"
    assert client.get(f"/api/games/{gid}").json()["uploaded"] is True
    r = client.post("/api/meld", json={"game": gid, "level": 3, "cards": ["5", "5", "SW", "BW"]})
    assert r.json()["legal"] is True
    data = yaml.safe_load((SCEN / "tick/discard-last-card.yaml").read_text(encoding="utf-8"))
    r = client.post("/api/judge", json={"game": gid, "scenario": data})
    assert r.status_code == 200 and r.json()["expect"]["met"]
    assert "rulings-serve-" not in r.text


def test_openapi_documents_every_route(client):
    doc = client.get("/api/openapi.json").json()
    paths = set(doc["paths"])
    assert {"/api/games", "/api/meld", "/api/lay", "/api/play", "/api/judge", "/api/validate", "/api/moves",
            "/api/situation"} <= paths
    assert "MeldQuery" in json.dumps(doc["components"])
    assert client.get("/docs").status_code == 404          # no page that loads scripts from the network


# ---- statuses -------------------------------------------------------------------------------------------

def test_a_question_that_cannot_be_asked_is_400_with_the_commands_message(client):
    r = client.post("/api/meld", json={"game": "tick", "level": 3, "cards": ["5", "11"]})
    assert r.status_code == 400 and r.json()["exit"] == 2
    assert r.json()["error"].startswith("unknown card '11'; accepted:")
    r = client.post("/api/meld", json={"game": "tick", "level": 99, "cards": ["5"]})
    assert r.status_code == 400 and "no level 99" in r.json()["error"]
    r = client.post("/api/judge", json={"game": "tick", "scenario": {"players": 4}})
    assert r.status_code == 400 and "dealer: missing" in r.json()["error"]
    r = client.post("/api/meld", json={"game": "tick", "level": 1, "cards": ["5"],
                                       "readings": {"wild-limit": "sometimes"}})
    assert r.status_code == 400 and "its readings: per-set, per-lay-down" in r.json()["error"]


def test_a_request_of_the_wrong_shape_is_422(client):
    r = client.post("/api/meld", json={"game": "tick", "cards": "5 5 5", "colour": "red"})
    assert r.status_code == 422 and r.json()["exit"] == 2
    assert any(p.startswith("cards") for p in r.json()["problems"])
    assert any(p.startswith("colour") for p in r.json()["problems"])


def test_an_unknown_game_is_404(client):
    r = client.post("/api/meld", json={"game": "chess", "level": 1, "cards": ["5"]})
    assert r.status_code == 404 and "no game 'chess'" in r.json()["error"]
    assert client.get("/api/games/u-0123456789abcdef").status_code == 404


def test_a_bug_is_500_with_one_line(client, monkeypatch):
    def boom(*args):
        raise RuntimeError("planted\nacross lines")

    monkeypatch.setattr("rulings.cli.specs.games_document", boom)
    r = client.get("/api/games")
    assert r.status_code == 500 and r.json()["exit"] == 70
    assert "\n" not in r.json()["error"] and "planted across lines" in r.json()["error"]
    assert "Traceback" not in r.text
