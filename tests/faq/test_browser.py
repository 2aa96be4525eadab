"""The HTML page in a real browser: headless Chromium (Debian's `chromium`, which .ci/run
installs) loads a copy of the committed page with a measuring script added, in a frame as
wide as a phone (375 CSS pixels: headless windows are at least 500 wide) and in a desktop
window; every entry, card picture and clause link must render with a size, and nothing
may stick out sideways; every game's page. Screenshots of Tick's page are saved as test
artifacts (artifacts/faq-tick.png at phone width, artifacts/faq-tick-desktop.png)."""
from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from rulings.spec import packaged_games


FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]
ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "faq"
GAMES = packaged_games()
ARTIFACTS = ROOT / "artifacts"

MEASURE = r"""
<script>
(function () {
  var r = {entries: [], bad_entries: [], cards: 0, bad_cards: [], links: 0, bad_links: [], figures: 0};
  var width = document.documentElement.clientWidth;
  document.querySelectorAll("article.entry").forEach(function (a) {
    var b = a.getBoundingClientRect();
    var h = a.querySelector("h3"), ans = a.querySelector(".answer .a"), rul = a.querySelector(".ruling");
    var ok = h && ans && rul && b.height > 60 && b.width > 200 && ans.textContent.trim() && rul.textContent.trim()
             && ans.getBoundingClientRect().height > 10 && b.right <= width + 1;
    r.entries.push(a.id);
    if (!ok) r.bad_entries.push(a.id);
  });
  document.querySelectorAll("svg.card").forEach(function (s) {
    r.cards += 1;
    var b = s.getBoundingClientRect(), texts = s.querySelectorAll("text"), drawn = 0;
    texts.forEach(function (t) { if (t.getComputedTextLength() > 0) drawn += 1; });
    if (!(b.width > 24 && b.height > 34 && drawn === texts.length && texts.length >= 2))
      r.bad_cards.push(s.getAttribute("data-card"));
  });
  r.figures = document.querySelectorAll("figure.c").length;
  document.querySelectorAll("a.clause-link").forEach(function (l) {
    r.links += 1;
    var id = l.getAttribute("href").slice(1), t = document.getElementById(id);
    if (!t || t.getBoundingClientRect().height <= 0 || l.getBoundingClientRect().width <= 0) r.bad_links.push(id);
  });
  r.scroll_width = document.documentElement.scrollWidth;
  r.client_width = width;
  if (window.parent !== window) { window.parent.postMessage(JSON.stringify(r), "*"); return; }
  var pre = document.createElement("pre");
  pre.id = "render-report";
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();
</script>
"""


def chromium() -> str:
    found = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    if found is None:
        pytest.fail("headless Chromium is needed for the FAQ page test: apt-get install chromium "
                    "(.ci/run installs it)")
    return found


def run(args: list[str], profile: Path) -> subprocess.CompletedProcess:
    return subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=180)


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


PHONE = """<!doctype html><html><body><pre id="render-report"></pre>
<script>window.addEventListener("message", function (e) {
  document.getElementById("render-report").textContent = e.data; });</script>
<iframe src="measured.html" width="375" height="800" style="border:0"></iframe></body></html>"""


def measure(tmp: Path, phone: bool, game: str) -> dict:
    page = (DOCS / f"{game}.html").read_text(encoding="utf-8")
    (tmp / "measured.html").write_text(page.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    (tmp / "phone.html").write_text(PHONE, encoding="utf-8")
    target = tmp / ("phone.html" if phone else "measured.html")
    done = run(["--window-size=1280,900", "--virtual-time-budget=10000", "--dump-dom", target.as_uri()],
               tmp / "profile")
    found = re.search(r'<pre id="render-report">(.+?)</pre>', done.stdout, re.S)
    assert found, f"Chromium printed no report (exit {done.returncode}):\n{done.stderr[-2000:]}"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


_reports: dict = {}


@pytest.fixture(params=[(g, w) for g in GAMES for w in ("phone", "desktop")], ids=lambda p: f"{p[0]}-{p[1]}")
def report(request, tmp_path_factory):
    game, width = request.param
    if request.param not in _reports:
        _reports[request.param] = measure(tmp_path_factory.mktemp(f"{game}-{width}"), width == "phone", game)
    return game, _reports[request.param]


def test_every_entry_renders(report, faqs):
    game, rep = report
    built = faqs(game)
    assert rep["entries"] == [f"q-{e.id}" for e in built.entries]
    assert not rep["bad_entries"]


def test_every_card_picture_renders(report):
    game, rep = report
    page = (DOCS / f"{game}.html").read_text(encoding="utf-8")
    assert rep["cards"] == page.count('<svg class="card"') and rep["cards"] > 20
    assert rep["figures"] == rep["cards"]
    assert not rep["bad_cards"]


def test_every_clause_link_renders_and_lands(report, faqs):
    game, rep = report
    assert rep["links"] >= sum(len(e.clauses) for e in faqs(game).entries)
    assert not rep["bad_links"]


def test_nothing_sticks_out_sideways(report):
    game, rep = report
    assert rep["client_width"] in (375, 1280)
    assert rep["scroll_width"] <= rep["client_width"], f"{game}'s page scrolls sideways"


@pytest.mark.parametrize("name, size", [("faq-tick.png", "412,2400"), ("faq-tick-desktop.png", "1280,1600")])
def test_screenshot_is_saved(tmp_path, name, size):
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / name
    out.unlink(missing_ok=True)
    done = run([f"--window-size={size}", f"--screenshot={out}", (DOCS / "tick.html").as_uri()], tmp_path / "profile")
    assert out.is_file(), f"no screenshot (exit {done.returncode}):\n{done.stderr[-2000:]}"
    assert png_size(out) == tuple(int(x) for x in size.split(","))
    assert out.stat().st_size > 20_000        # a blank page compresses to a few kilobytes
