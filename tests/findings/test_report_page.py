"""The report page of `rulings check --format html`: self-contained, cards drawn, the
findings grouped by rulebook line, each situation with the command that replays it; and
in headless Chromium it fits a phone's width and a desktop's (no sideways scrolling)."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from rulings.checks.findings import CheckRun, Finding
from rulings.checks.report import text
from rulings.checks.report_html import page
from rulings.spec import load


def _runs(spec):
    scenario = {"format": 1, "game": spec.game, "players": 2, "dealer": 0, "to_play": 0, "phase": "play",
                "hands": [["1", "4", "5"], []], "moves": [{"lay": ["1"]}]}
    meld = Finding(id="reading:x:a/b", kind="reading", clauses=["wild-limit"], sources=["tick.txt:19", "tick.txt:36"],
                   question="q?", verdict="they disagree on 1 1 SW SW", resolved=True, resolution="adopted a",
                   witness={"cards": ["1", "1", "SW", "SW"], "contract": "level 3",
                            "a": {"legal": True, "engine": "z3", "melds": [["1", "1", "SW", "SW"]]},
                            "b": {"legal": False, "engine": "z3",
                                  "violations": [{"clause": "wild-limit", "source": "tick.txt:19"}]}},
                   method="Z3")
    play = Finding(id="proposed:x:y=z", kind="proposed", clauses=["several-lays"], sources=["tick.txt:38"],
                   question="q?", verdict="tick.txt:38 says ...", resolved=False, resolution="add a reading",
                   witness={"a": "legal", "b": "refused (several-lays)",
                            "shrunk": {"how": "shrunk from 4 to 2 players", "scenario": scenario}},
                   method="play")
    loose = Finding(id="gap:x", kind="gap", clauses=[], sources=[], question="q?", verdict="no clause decides it",
                    resolved=False, resolution="none", witness={"unanswered": "who deals"}, method="exploration")
    return [CheckRun("reading", "reading", [meld], 1.0, "a note"),
            CheckRun("what-if", "what-if", [play, loose], 2.0, "another note")]


def test_the_page_draws_cards_groups_by_line_and_says_how_to_replay():
    spec = load("tick")
    html = page(spec, _runs(spec))
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    heads = re.findall(r"<h2 id=\"line-[^\"]*\">([^<]+)</h2>", html)
    assert heads == ["tick.txt:19", "tick.txt:38", "Findings citing no rulebook line"], heads
    assert html.count('<svg class="card"') >= 4 + 3          # the hand of the meld, and the seat's hand
    assert "rulings judge tick FILE" in html and "&quot;lay&quot;" in html


def test_the_text_output_holds_no_raw_json():
    spec = load("tick")
    out = text("tick", _runs(spec), 3.0)
    assert "{" not in out and "[\"" not in out, out
    assert "illegal, forbidden by wild-limit (tick.txt:19)" in out
    assert "seat 0 1 4 5" in out and "the move: lay 1" in out


@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_fits_a_phone_and_a_desktop_in_chromium(tmp_path, width):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    spec = load("tick")
    (tmp_path / "report.html").write_text(page(spec, _runs(spec)), encoding="utf-8")
    # the page in a frame as wide as the screen (a headless window is never narrower than 500 px)
    f = tmp_path / "probe.html"
    f.write_text(f'<iframe id="f" src="report.html" style="width:{width}px;height:1200px;border:0"></iframe>'
                 "<script>document.getElementById('f').onload = function () {"
                 "var w = this.contentWindow; document.title = 'W' + w.document.documentElement.scrollWidth"
                 " + 'x' + w.innerWidth; };</script>", encoding="utf-8")
    p = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--allow-file-access-from-files", "--virtual-time-budget=10000", "--window-size=1400,1300",
                        "--dump-dom", f.as_uri()], capture_output=True, text=True, timeout=120)
    m = re.search(r"<title>W(\d+)x(\d+)</title>", p.stdout)
    assert m, (p.stdout[-500:], p.stderr[-1000:])
    scroll, inner = int(m[1]), int(m[2])
    assert inner == width and scroll <= inner, (scroll, inner)
    f = tmp_path / "report.html"
    shot = tmp_path / "report.png"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},1200", f"--screenshot={shot}", f.as_uri()],
                   capture_output=True, timeout=120)
    assert shot.is_file() and shot.stat().st_size > 5000
