"""`rulings serve` in a real browser: Debian's headless Chromium driven through Selenium and
Debian's chromium-driver (.ci/run installs both), against the server the command starts.

For each of the five games a person's question is set up by clicks only (players, seats
and phase chosen, cards clicked into zones, the move composed from card pictures or picked
among the moves the rules offer), asked, and the ruling read: its verdict, the clause and
the reading that decide it, and the ruling under the other reading. Then the pages are
laid out at a phone's width (375 CSS pixels) and a desktop's: nothing sticks out sideways
and every control has a label. Screenshots are saved as test artifacts
(artifacts/serve-PAGE-phone.png, artifacts/serve-PAGE-desktop.png)."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("serve-browser")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]


@pytest.fixture(scope="session")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or "/usr/bin/chromium"
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not Path(binary).exists() or not Path(driver).exists():
        pytest.fail("the browser tests need Debian's chromium and chromium-driver: apt-get install chromium "
                    "chromium-driver (.ci/run installs them)")
    profile = tempfile.mkdtemp(prefix="serve-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for flag in FLAGS + [f"--user-data-dir={profile}", "--window-size=1280,1000"]:
        opts.add_argument(flag)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.set_page_load_timeout(120)
    yield d
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


class Desk:
    """A person at the builder page, clicking."""

    def __init__(self, d, url: str):
        self.d, self.url = d, url

    def open(self, path: str):
        from selenium.webdriver.support.ui import WebDriverWait

        self.d.get(self.url + path)
        WebDriverWait(self.d, 60).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def el(self, css: str):
        return self.d.find_element("css selector", css)

    def choose(self, select_id: str, value: str | None = None, text: str | None = None):
        from selenium.webdriver.support.ui import Select

        s = Select(self.el(f"#{select_id}"))
        s.select_by_value(value) if value is not None else s.select_by_visible_text(text)

    def type_number(self, input_id: str, value: int):
        from selenium.webdriver.common.keys import Keys

        box = self.el(f"#{input_id}")
        box.click()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(str(value), Keys.TAB)

    def error(self) -> str:
        return self.d.execute_script("return document.getElementById('builder-error').textContent")

    def set_counter(self, counter: str, seat: int, value: int):
        from selenium.webdriver.common.keys import Keys

        box = self.el(f'input.counter[data-counter="{counter}"][data-seat="{seat}"]')
        box.click()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(str(value), Keys.TAB)

    def cards_to(self, target: str, tokens: list[str]):
        self.choose("target", target)
        for t in tokens:
            self.el(f'button.pick[data-token="{t}"]').click()

    def compose(self, move: str, tokens: list[str]):
        self.choose("move-id", move)
        self.cards_to("move", tokens)
        self.el("#move-add").click()

    def pick_offered(self, words: str):
        from selenium.webdriver.support.ui import WebDriverWait

        self.el("#offered-show").click()
        WebDriverWait(self.d, 120).until(lambda d: d.find_elements("css selector", "#offered option")
                                         or self.error())
        assert not self.error(), self.error()          # the server refused the situation built
        self.choose("offered", text=words)
        self.el("#offered-add").click()

    def ask(self) -> str:
        from selenium.webdriver.support.ui import WebDriverWait

        self.el("#ask").click()
        WebDriverWait(self.d, 120).until(lambda d: d.find_elements("css selector", "#verdict"))
        return self.el("#verdict").get_attribute("data-verdict")

    def basis(self) -> dict:
        """What the ruling rests on: {clause: {other reading: outcome}}."""
        out = {}
        for li in self.d.find_elements("css selector", "#rests-on li[data-clause]"):
            out[li.get_attribute("data-clause")] = {
                o.get_attribute("data-reading"): o.text for o in li.find_elements("css selector", "li[data-reading]")}
        return out

    def follow_other_reading(self, reading: str) -> str:
        self.el(f'li[data-reading="{reading}"] a').click()
        return self.el("#verdict").get_attribute("data-verdict")


@pytest.fixture(scope="session")
def desk(browser, server):
    return Desk(browser, server.url)


def test_tick_the_dealer_on_turn_five_of_five(desk):
    """5 players, turn 5, the dealer holds a hand that can go out: may they?"""
    desk.open("/games/tick/ask")
    desk.choose("players", "5")
    desk.choose("to_play", "0")
    desk.choose("phase", "play")
    desk.type_number("turns_finished", 4)
    desk.cards_to("hands.0", ["3", "3", "3", "7"])
    desk.compose("lay", ["3", "3", "3"])
    assert desk.ask() == "illegal"
    page = desk.d.page_source
    assert "nobody may go out yet" in page and "tick.txt:41-42" in page
    if os.environ.get("RULINGS_RULEBOOKS"):
        assert "<summary>tick.txt:41-42</summary>" in page            # the rulebook's lines beside the clause
    assert desk.basis()["go-out-timing"] == {"others-have-played": "Read as others-have-played: legal "
                                                                   "(the ruling under it)"}
    assert desk.follow_other_reading("others-have-played") == "legal"


def test_level8_a_skip_card_discarded(desk):
    desk.open("/games/level8/ask")
    desk.choose("players", "3")
    desk.choose("to_play", "1")
    desk.choose("phase", "play")
    desk.cards_to("hands.1", ["SKIP", "r11"])
    desk.compose("discard", ["SKIP"])
    assert desk.ask() == "legal"
    assert "only-played" in desk.basis()["skip-discard"]
    assert desk.follow_other_reading("only-played") == "illegal"


def test_rummikub_an_initial_meld_under_fifty(desk):
    desk.open("/games/rummikub/ask")
    desk.choose("players", "2")
    desk.choose("to_play", "0")
    desk.cards_to("racks.0", ["r1", "r2", "r3", "k10", "o10", "b10", "k2"])
    desk.compose("play", ["r1", "r2", "r3", "|", "k10", "o10", "b10"])
    assert desk.ask() == "illegal"
    assert "initial-first" in desk.d.page_source
    assert "current-30" in desk.basis()["initial-threshold"]
    assert desk.follow_other_reading("current-30") == "legal"


def test_garbage_a_jack_placed_as_a_wild(desk):
    desk.open("/games/garbage/ask")
    desk.choose("players", "2")
    desk.choose("to_play", "1")
    desk.choose("phase", "placing")
    for seat in (0, 1):                  # two positions left each (a layout holds as many as its counter says)
        desk.set_counter("positions", seat, 2)
    desk.el("#face-down").click()
    desk.cards_to("tableau.0", ["3", "4"])
    desk.cards_to("tableau.1", ["10", "2"])
    desk.el("#face-down").click()
    desk.cards_to("in_hand.1", ["J"])
    desk.pick_offered("place_card into position 2")
    assert desk.ask() == "legal"
    assert "kings" in desk.basis()["wild"]
    assert desk.follow_other_reading("kings") == "illegal"


def test_sequence_numbers_a_minus_card_takes_a_chip(desk):
    desk.open("/games/sequence-numbers/ask")
    desk.choose("players", "2")
    desk.choose("dealer", "1")
    desk.choose("to_play", "0")
    desk.choose("phase", "play")
    desk.cards_to("hands.0", ["M"])
    for _ in range(2):                                  # empty -> side 0 -> side 1
        desk.el('button.space[data-row="2"][data-col="2"]').click()
    assert "side 1" in desk.el('button.space[data-row="2"][data-col="2"]').get_attribute("aria-label")
    desk.pick_offered("uncover at [2, 2]")
    assert desk.ask() == "legal"
    assert "turn-over" in desk.basis()["minus-then-draw"]


# ---- layout ------------------------------------------------------------------------------------------

MEASURE = r"""
var w = document.documentElement.clientWidth, out = {width: w, scroll: document.documentElement.scrollWidth,
    sticking_out: [], unlabelled: []};
document.querySelectorAll("body *").forEach(function (el) {
  if (el.closest("select") || el.closest("svg") && el.tagName.toLowerCase() !== "svg") return;
  var r = el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0 && (r.right > w + 1 || r.left < -1))
    out.sticking_out.push(el.tagName + (el.id ? "#" + el.id : "") + "." + el.className + " " + Math.round(r.right));
});
document.querySelectorAll("input, select, textarea, button").forEach(function (el) {
  if (el.type === "hidden") return;
  var named = (el.labels && el.labels.length) || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby")
      || (el.tagName === "BUTTON" && el.textContent.trim());
  if (!named) out.unlabelled.push(el.tagName + (el.id ? "#" + el.id : "") + "." + el.className);
});
return JSON.stringify(out);
"""


def measured(d) -> dict:
    return json.loads(d.execute_script(MEASURE))


def shot(d, name: str, width: int, phone: bool) -> Path:
    """The whole page, as tall as it is (up to 6000 pixels)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"serve-{name}.png"
    height = min(max(d.execute_script("return document.documentElement.scrollHeight"), 600), 6000)
    if phone:
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    else:
        d.set_window_size(width, height)
    d.save_screenshot(str(path))
    assert path.stat().st_size > 5_000
    return path


@pytest.mark.parametrize("width", [375, 1280])
def test_the_pages_fit_the_screen_and_label_every_control(desk, width):
    d = desk.d
    d.set_window_size(1280, 1000)
    phone = width < 500
    if phone:   # a headless window is at least 500 wide: the page is told it is a phone's
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        pages = {
            "index": "/", "rules": "/games/tick", "upload": "/upload", "api": "/api",
            "meld": "/games/tick/meld?cards=5+SW+SW+BW&level=3",
            "table": "/games/rummikub/table?table=k7+k8+k9+%7C+r5+o5+b5&hand=k10+J+b5",
            "builder-garbage": "/games/garbage/ask", "builder-sequence": "/games/sequence-numbers/ask",
        }
        for name, path in pages.items():
            desk.open(path)
            m = measured(d)
            assert m["width"] == (width if phone else m["width"])
            assert m["scroll"] <= m["width"] and not m["sticking_out"], (name, m)
            assert not m["unlabelled"], (name, m["unlabelled"])
        # the Tick builder with cards placed, and its ruling
        desk.open("/games/tick/ask")
        desk.choose("players", "5")
        desk.cards_to("hands.0", ["3", "3", "3", "7", "SW", "BW", "B", "10"])
        desk.compose("lay", ["3", "3", "3"])
        m = measured(d)
        assert m["scroll"] <= m["width"] and not m["sticking_out"] and not m["unlabelled"], ("builder", m)
        if not phone:
            shot(d, "builder-desktop", width, phone)
        desk.ask()
        m = measured(d)
        assert m["scroll"] <= m["width"] and not m["sticking_out"] and not m["unlabelled"], ("ruling", m)
        shot(d, f"ruling-{'phone' if phone else 'desktop'}", width, phone)
    finally:
        if phone:
            d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
