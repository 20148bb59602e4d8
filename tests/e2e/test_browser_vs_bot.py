"""Play vs computer in real browsers (issue 11 part 3), one test per game.

Each game runs in one of the three languages (the browser's locale; English, 简体中文 and 日本語
each get at least one game), and no page shows an untranslated key. A person creates a room from the lobby with small options and "Fill empty seats with bots:
random" chosen; the room starts at once with the person in seat 1 and bots in the others; the
person plays by clicking the table (the same clicks as each game's own browser test) until the
game-over banner shows. The bots answer through the server's room path; their thinking time is
cut to a few milliseconds here (``ARENA_BOT_DELAY_*``) to keep the test fast.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.e2e import browser as rc
from tests.e2e import test_browser_civilization as civ
from tests.e2e import test_browser_grid_reversal as gr
from tests.e2e import test_browser_numgr as ng
from tests.e2e import test_browser_zipai as zp
from tests.e2e.browser import give_name, launch

pytestmark = pytest.mark.browser


def _rc_options(page: Page) -> None:
    page.locator("[data-option=regulation]").select_option(label="Half (3 sets, K.O. at 12)")
    page.locator("[data-option=monsters]").uncheck()


def _gr_options(page: Page) -> None:
    page.locator("[data-option=width]").select_option(label="3")
    page.locator("[data-option=depth]").fill("2")


_used: dict = defaultdict(int)

ROOT = Path(__file__).resolve().parents[2]
DICTS = {lang: json.loads((ROOT / "frontend" / "i18n" / f"{lang}.json").read_text("utf-8"))
         for lang in ("en", "zh", "ja")}
#: game -> the browser locale it is played in (Reverse Curse's lobby labels are chosen in English).
LOCALES = {"reverse_curse": "en-US", "numgr": "zh-CN", "zipai": "ja-JP", "grid_reversal": "ja-JP",
           "civilization": "zh-CN"}

#: game -> (set small options in the lobby form, click the next thing on the table).
GAMES: dict[str, tuple[Callable[[Page], None], Callable[[Page], object]]] = {
    "reverse_curse": (_rc_options, rc.click_next),
    "numgr": (lambda page: page.locator("[data-option=hp]").fill("1"), ng.click_next),
    "zipai": (lambda page: page.locator("[data-option=hands]").fill("1"), zp.click_next),
    "grid_reversal": (_gr_options, gr.click_next),
    "civilization": (lambda page: None, lambda page: civ.click_next(page, _used)),
}


@pytest.fixture
def fast_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots think 0–20 ms (read by ``Settings`` when the live server starts)."""
    monkeypatch.setenv("ARENA_BOT_DELAY_MIN", "0")
    monkeypatch.setenv("ARENA_BOT_DELAY_MAX", "0.02")


def create_room_against_bots(page: Page, base_url: str, game: str, level: str) -> None:
    """Create a room of ``game`` from the lobby with bots of ``level`` in the free seats."""
    page.goto(f"{base_url}/")
    page.get_by_test_id("game-select").select_option(game)
    GAMES[game][0](page)
    page.get_by_test_id("bots-select").select_option(level)
    page.get_by_test_id("create-room").click()
    give_name(page, "Ann")
    page.wait_for_url("**/room/*")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_person_plays_bots_to_the_end(fast_bots, live_server, chromium_path, game):
    with sync_playwright() as playwright:
        chrome = launch(playwright, chromium_path)
        try:
            lang = LOCALES[game][:2]
            context = chrome.new_context(viewport={"width": 1280, "height": 900},
                                         locale=LOCALES[game])
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(f"{live_server}/")
            expect(page.locator("label[for=bots-select]")).to_have_text(DICTS[lang]["bots.fill"])
            create_room_against_bots(page, live_server, game, "random")
            seats = page.locator("[data-testid=seats] .seat-name")
            expect(seats.first).to_have_text("Ann")
            expect(page.locator("[data-testid=seats]")).to_contain_text(
                DICTS[lang]["bots.name.random"])
            click = GAMES[game][1]
            deadline = time.monotonic() + 240
            clicks = 0
            while not page.get_by_test_id("game-over").is_visible():
                assert time.monotonic() < deadline, f"{game}: no end after {clicks} clicks"
                if click(page):
                    clicks += 1
                else:
                    page.wait_for_timeout(50)
            result = page.get_by_test_id("game-over").get_attribute("data-result")
            assert result in ("won", "lost", "draw")
            assert clicks > 0
            assert "⟦" not in page.locator("body").inner_text()
        finally:
            chrome.close()
