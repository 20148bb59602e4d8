"""Play vs computer in real browsers, one test per game.

Each game runs in one of the three languages (the browser's locale; English, 简体中文 and 日本語
each get at least one game), and no page shows an untranslated key. A person creates a room from the lobby with small options and "Fill empty seats with bots:
random" chosen; the room starts at once with the person in seat 1 and bots in the others; the
person plays by clicking the table (the same clicks as each game's own browser test) until the
game-over banner shows. The bots answer through the server's room path; their thinking time is
cut to a few milliseconds here (``ARENA_BOT_DELAY_*``) to keep the test fast.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import browser as rc
from tests.e2e import test_browser_civilization as civ
from tests.e2e import test_browser_grid_reversal as gr
from tests.e2e import test_browser_numgr as ng
from tests.e2e import test_browser_zipai as zp
from tests.e2e.browser import chromium, create_room, new_page, play_to_the_end

pytestmark = pytest.mark.browser

_used: dict = defaultdict(int)

ROOT = Path(__file__).resolve().parents[2]
DICTS = {lang: json.loads((ROOT / "frontend" / "i18n" / f"{lang}.json").read_text("utf-8"))
         for lang in ("en", "zh", "ja")}
#: game -> the browser locale it is played in (Reverse Curse's lobby labels are chosen in English).
LOCALES = {"reverse_curse": "en-US", "numgr": "zh-CN", "zipai": "ja-JP", "grid_reversal": "ja-JP",
           "civilization": "zh-CN"}

#: game -> (set small options in the lobby form, click the next thing on the table).
GAMES: dict[str, tuple[Callable[[Page], None], Callable[[Page], object]]] = {
    "reverse_curse": (rc.rc_half_no_monsters, rc.click_next),
    "numgr": (ng.one_hp, ng.click_next),
    "zipai": (zp.one_hand, zp.click_next),
    "grid_reversal": (gr.small_board, gr.click_next),
    "civilization": (lambda page: None, lambda page: civ.click_next(page, _used)),
}


@pytest.fixture
def fast_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots think 0–20 ms (read by ``Settings`` when the live server starts)."""
    monkeypatch.setenv("ARENA_BOT_DELAY_MIN", "0")
    monkeypatch.setenv("ARENA_BOT_DELAY_MAX", "0.02")


def create_room_against_bots(page: Page, base_url: str, game: str, level: str) -> None:
    """Create a room of ``game`` from the lobby with bots of ``level`` in the free seats."""
    def fill(form: Page) -> None:
        GAMES[game][0](form)
        form.get_by_test_id("bots-select").select_option(level)

    create_room(page, base_url, game, "Ann", fill)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_person_plays_bots_to_the_end(fast_bots, live_server, chromium_path, game):
    with chromium(chromium_path) as chrome:
        lang = LOCALES[game][:2]
        page = new_page(chrome, locale=LOCALES[game])
        page.goto(f"{live_server}/")
        expect(page.locator("label[for=bots-select]")).to_have_text(DICTS[lang]["bots.fill"])
        create_room_against_bots(page, live_server, game, "random")
        seats = page.locator("[data-testid=seats] .seat-name")
        expect(seats.first).to_have_text("Ann")
        expect(page.locator("[data-testid=seats]")).to_contain_text(
            DICTS[lang]["bots.name.random"])
        # A bot's seat says "computer", never "offline" (bots have no socket).
        bot_seat = page.locator("[data-testid=seats] .seat").nth(1)
        expect(bot_seat.locator(".bot-tag")).to_have_text(DICTS[lang]["bots.tag"])
        expect(bot_seat.locator(".presence-tag")).to_have_count(0)
        clicks = len(play_to_the_end([page], None, GAMES[game][1]))
        result = page.get_by_test_id("game-over").get_attribute("data-result")
        assert result in ("won", "lost", "draw")
        assert clicks > 0
        assert "⟦" not in page.locator("body").inner_text()
