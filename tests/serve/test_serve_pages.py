"""Every page, through the framework's test client: what it shows is what the command
line answers (the ruling's download judged again by `rulings judge` gives the same
verdict), the permalink carries the question, readings are carried, the long pages are
computed in the background and then shown."""
from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from rulings.serve.situation import decode, encode
from rulings.spec import load, packaged_games

pytestmark = pytest.mark.xdist_group("serve-http")

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "docs" / "scenarios"
RULINGS = str(Path(sys.executable).parent / "rulings")
TICK_DEALER = {"format": 1, "game": "tick", "players": 5, "dealer": 0, "to_play": 0, "phase": "play",
               "turns_finished": 4, "hands": [["3", "3", "3", "7"], [], [], [], []],
               "stock": {"top": [], "rest": "deck"}, "face_up": ["9"]}


def verdict(page: str) -> str:
    m = re.search(r'id="verdict"[^>]*data-verdict="([^"]+)"', page)
    assert m, page[:3000]
    return m.group(1)


def test_the_index_lists_every_game(client):
    r = client.get("/")
    assert r.status_code == 200
    for g in packaged_games():
        assert f'href="/games/{g}"' in r.text
    for g in packaged_games():                               # every shipped game has its FAQ
        assert f'href="/games/{g}/faq"' in r.text
    assert 'href="/games/garbage/meld"' not in r.text        # nor Garbage melds


@pytest.mark.parametrize("game", packaged_games())
def test_a_games_page_shows_its_clauses_in_rulebook_order(client, game):
    r = client.get(f"/games/{game}")
    assert r.status_code == 200
    spec = load(game)
    ids = re.findall(r'<div class="clause" id="clause-([^"]+)"', r.text)
    assert sorted(ids) == sorted(spec.clauses)
    firsts = []
    for cid in ids:
        src = spec.clauses[cid].source
        if not src:
            break
        book, _, lines = src[0].partition(":")
        firsts.append((list(spec.rulebooks).index(book), int(lines.split("-")[0])))
    assert firsts == sorted(firsts) and firsts
    assert all(not spec.clauses[c].source for c in ids[len(firsts):])       # then those citing no line
    for cid, c in spec.clauses.items():
        if c.readings:
            assert f"<strong>{c.adopted}</strong> (adopted)" in r.text
        if c.assumption:
            assert html.escape(c.assumption.split()[0]) in r.text


def test_the_rulebook_lines_are_shown_beside_a_clause(client, monkeypatch):
    books = os.environ.get("RULINGS_RULEBOOKS")
    if not books or not (Path(books) / "tick.txt").is_file():
        pytest.skip("RULINGS_RULEBOOKS does not name the rulebooks' folder")
    r = client.get("/games/tick")
    line = (Path(books) / "tick.txt").read_text(encoding="utf-8").splitlines()[18]      # tick.txt:19, wild-limit
    block = r.text[r.text.index('id="clause-wild-limit"'):]
    block = block[:block.index('<div class="clause"')]
    assert "<summary>tick.txt:19</summary>" in block and line.strip() in html.unescape(block)
    monkeypatch.delenv("RULINGS_RULEBOOKS")
    assert "<summary>tick.txt:19</summary>" not in client.get("/games/tick").text


def test_readings_are_carried_and_shown(client):
    r = client.get("/games/tick?reading=go-out-timing=others-have-played")
    assert r.status_code == 200 and "readings: go-out-timing=others-have-played" in r.text
    assert 'href="/games/tick/ask?reading=go-out-timing%3Dothers-have-played"' in r.text
    assert client.get("/games/tick?reading=go-out-timing=never").status_code == 400
    assert client.get("/games/tick?reading=nonsense").status_code == 400


@pytest.mark.parametrize("game", packaged_games())
def test_the_builder_page_describes_the_game_from_its_spec(client, game):
    r = client.get(f"/games/{game}/ask")
    assert r.status_code == 200
    desc = json.loads(re.search(r'<script type="application/json" id="builder-desc">(.*?)</script>', r.text, re.S)
                      .group(1))
    assert [c["token"] for c in desc["cards"]] == [t.token for t in load(game).cards.types]
    # a zone kind the builder has no pictures for (a trick) is written as scenario text ("other")
    assert {z["kind"] for z in desc["zones"]} <= {"hand", "pile", "melds", "table", "layout", "board", "other"}
    assert r.text.count('class="pick"') == len(desc["cards"])
    assert '<script src="/static/builder.js"></script>' in r.text
    assert not re.search(r'(?:src|href)="(?:https?:)?//', r.text)          # nothing fetched from elsewhere


def test_the_builder_starts_from_a_permalink(client):
    token = encode(dict(TICK_DEALER, move={"lay": ["3", "3", "3"]}))
    r = client.get(f"/games/tick/ask?s={token}")
    doc = json.loads(re.search(r'id="builder-doc">(.*?)</script>', r.text, re.S).group(1))
    assert doc["players"] == 5 and doc["hands"][0] == ["3", "3", "3", "7"]


def test_asking_a_ruling_end_to_end(client):
    """The Tick question of the issue: 5 players, turn 5, the dealer holds a hand that can go out."""
    form = {"scenario": json.dumps(TICK_DEALER), "raw.moves": "- {lay: [3, 3, 3]}\n"}
    r = client.post("/games/tick/ask", data=form, follow_redirects=False)
    assert r.status_code == 303
    where = r.headers["location"]
    assert decode(re.search(r"s=([^&]+)", where).group(1))["moves"] == [{"lay": [3, 3, 3]}]
    page = client.get(where).text
    assert verdict(page) == "illegal"
    assert "nobody may go out yet" in page and "go-out-timing" in page and "tick.txt:41-42" in page
    rests = page[page.index('id="rests-on"'):]
    assert 'data-clause="go-out-timing"' in rests and 'data-reading="others-have-played"' in rests
    # the reading that would change it, followed
    other = html.unescape(re.search(r'href="([^"]+reading=go-out-timing=others-have-played)"', rests).group(1))
    assert verdict(client.get(other).text) == "legal"
    # the download is a scenario `rulings judge` reads to the same verdict
    link = html.unescape(re.search(r'id="download" href="([^"]+)"', page).group(1))
    d = client.get(link)
    assert d.status_code == 200 and "attachment" in d.headers["content-disposition"]
    data = yaml.safe_load(d.text)
    assert data["format"] == 1 and data["game"] == "tick"
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"serve-download-{os.getpid()}.yaml"
    path.write_text(d.text, encoding="utf-8")
    try:
        p = subprocess.run([RULINGS, "judge", "tick", str(path)], capture_output=True, text=True, timeout=120)
    finally:
        path.unlink()
    assert p.returncode == 1 and "ILLEGAL" in p.stdout, p.stdout + p.stderr


def test_a_pasted_scenario_is_judged(client):
    text = (SCEN / "level8/skip-a-player.yaml").read_text(encoding="utf-8")
    r = client.post("/games/level8/ask", data={"scenario": text})
    assert r.status_code == 200 and verdict(r.text) == "legal"        # followed the redirect
    r = client.post("/games/level8/ask", data={"scenario": "players: [unclosed"})
    assert r.status_code == 400 and "not valid YAML" in r.text
    r = client.post("/games/level8/ask", data={"scenario": json.dumps({"players": 3})})
    assert r.status_code == 400 and "no move to judge" in r.text


def test_a_ruling_with_a_bad_scenario_says_what_is_wrong(client):
    token = encode(dict(TICK_DEALER, hands=[["3", "X"], [], [], [], []], move={"discard": "3"}))
    r = client.get(f"/games/tick/ruling?s={token}")
    assert r.status_code == 400 and "hands[0][1]: unknown card &#39;X&#39;" in r.text


@pytest.mark.parametrize("query,word", [("cards=5+5+SW+BW&level=3", "legal"), ("cards=5+SW+SW+BW&level=3", "illegal"),
                                        ("cards=5+5+5+7+7+7+9+B&level=1&question=lay", "legal")])
def test_the_meld_checker(client, query, word):
    r = client.get(f"/games/tick/meld?{query}")
    assert r.status_code == 200 and verdict(r.text) == word
    if word == "illegal":
        assert "wild-limit" in r.text and "tick.txt:19" in r.text
    if "lay" in query:
        assert "Points laid: 45" in r.text


def test_the_meld_checker_for_an_initial_meld(client):
    r = client.get("/games/rummikub/meld?cards=r10+r11+r12+k10+o10+b10&initial=true")
    assert verdict(r.text) == "legal" and "initial" in r.text
    assert client.get("/games/garbage/meld?cards=A&level=").status_code == 400     # no melds in Garbage


def test_the_table_question(client):
    r = client.get("/games/rummikub/table?table=k7+k8+k9+%7C+r5+o5+b5&hand=k10+J+b5")
    assert r.status_code == 200 and verdict(r.text) == "possible" and "The new table" in r.text
    r = client.get("/games/rummikub/table?table=k7+k8+k9&hand=k10+k6&new=k6+k7+k8+%7C+k9+k10")
    assert verdict(r.text) == "illegal"
    assert client.get("/games/rummikub/table?table=k7+k8&hand=k10").status_code == 400     # not a valid table


def wait_for(client, path: str, seconds: float = 900) -> str:
    end = time.monotonic() + seconds
    while True:
        r = client.get(path)
        if "Refresh" not in r.headers:
            assert r.status_code == 200, r.text[:2000]
            return r.text
        assert r.status_code == 200 and "Being computed" in r.text
        if time.monotonic() > end:
            pytest.fail(f"{path} still being computed after {seconds} s")
        time.sleep(1)


def test_findings_are_computed_in_the_background_then_shown(client):
    text = wait_for(client, "/games/tick/findings?kind=conflict&kind=claim")
    doc = json.loads(subprocess.run([RULINGS, "check", "tick", "--kind", "conflict", "--kind", "claim", "--json"],
                                    capture_output=True, text=True, timeout=600).stdout)
    ids = re.findall(r'<article class="finding (?:open|resolved)" id="([^"]+)"', text)
    assert ids == [f["id"] for c in doc["checks"] for f in c["findings"]] and ids
    assert "claim:claim-deal-for-four" in ids
    assert client.get("/games/tick/findings?kind=nonsense").status_code == 400


def test_the_faq_is_served_live(client):
    """Garbage's FAQ (the smallest): the page `rulings faq garbage --format html` writes."""
    text = wait_for(client, "/games/garbage/faq")
    p = subprocess.run([RULINGS, "faq", "garbage", "--format", "html"], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0
    want = re.findall(r'<article class="entry" id="([^"]+)"', p.stdout)
    assert re.findall(r'<article class="entry" id="([^"]+)"', text) == want and want
    assert 'href="/games/garbage"' in text


def test_uploading_a_spec(client):
    from rulings.spec import spec_path

    good = spec_path("tick").read_text(encoding="utf-8").replace("title: Tick", "title: Tick at home", 1)
    r = client.post("/upload", files={"file": ("home.yaml", good.encode(), "application/yaml")})
    assert r.status_code == 200 and verdict(r.text) == "ok"
    gid = re.search(r'id="use" href="/games/(u-[0-9a-f]{16})"', r.text).group(1)
    assert "Tick at home" in client.get("/").text
    assert client.get(f"/games/{gid}").status_code == 200
    assert verdict(client.get(f"/games/{gid}/meld?cards=5+5+SW+BW&level=3").text) == "legal"
    bad = good.replace("wilds <= naturals", "wild <= naturals", 1)
    r = client.post("/upload", files={"file": ("../../etc/home.yaml", bad.encode(), "application/yaml")})
    assert verdict(r.text) == "problems"
    assert re.search(r"home\.yaml:\d+:\d+: expression &#39;wild &lt;= naturals&#39;", r.text), r.text
    assert "/etc/" not in r.text and "rulings-serve-" not in r.text


def test_the_api_page_lists_the_routes(client):
    r = client.get("/api")
    assert r.status_code == 200 and "POST /api/judge" in r.text and "/api/openapi.json" in r.text


def test_static_files_are_served_and_small(client):
    for name in ("builder.js", "pick.js", "serve.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.content) < 40_000
        assert "http://" not in r.text and "https://" not in r.text       # nothing fetched from elsewhere
    assert client.get("/static/../app.py").status_code == 404
