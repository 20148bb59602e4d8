"""The bot levels in real browsers: the lobby's bot choice and the room's fill-with-bots menu offer
easy, normal, hard and expert with their names in the page's language (English, 简体中文,
日本語), and picking ``hard`` seats a hard bot (the room JSON's ``bot_level``), shown by the
level's translated name."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import chromium, create_room, new_page
from tests.e2e.test_browser_numgr import one_hp

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LOCALES = {"en": "en-US", "zh": "zh-CN", "ja": "ja-JP"}
TEXTS = {lang: json.loads((ROOT / "frontend" / "i18n" / f"{lang}.json").read_text("utf-8"))
         for lang in LOCALES}
LEVELS = ["easy", "normal", "hard", "expert"]


@pytest.fixture
def fast_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots answer at once (read by ``Settings`` when the live server starts)."""
    monkeypatch.setenv("ARENA_BOT_DELAY_MIN", "0")
    monkeypatch.setenv("ARENA_BOT_DELAY_MAX", "0")


def options_of(page: Page, test_id: str, count: int) -> list[tuple[str, str]]:
    """Return ``[(value, text)]`` of the options of the select ``test_id``, once it shows
    ``count`` of them (the page renders them after its scripts load)."""
    options = page.get_by_test_id(test_id).locator("option")
    expect(options).to_have_count(count)
    pairs = options.evaluate_all(
        "(options) => options.map((o) => [o.value, o.textContent])")
    return [tuple(pair) for pair in pairs]


def room_json(base: str, link: str) -> dict:
    code = link.rstrip("/").rsplit("/", 1)[1]
    return httpx.get(f"{base}/api/rooms/{code}").json()


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_lobby_offers_the_levels_and_hard_seats_a_hard_bot(fast_bots, live_server,
                                                               chromium_path, lang):
    texts = TEXTS[lang]
    with chromium(chromium_path) as browser:
        page = new_page(browser, locale=LOCALES[lang])
        page.goto(f"{live_server}/")
        assert options_of(page, "bots-select", 5) == [
            ("none", texts["bots.level.none"])] + [(level, texts[f"bots.level.{level}"])
                                                   for level in LEVELS]

        def fill(form: Page) -> None:
            one_hp(form)
            form.get_by_test_id("bots-select").select_option("hard")

        link = create_room(page, live_server, "numgr", "Ann", fill)
        names = page.locator("[data-testid=seats] .seat-name")
        expect(names).to_have_text(["Ann", texts["bots.name.hard"]])
        expect(page.locator("[data-testid=seats] .seat").nth(1).locator(".bot-tag")).to_have_text(
            texts["bots.tag"])
        room = room_json(live_server, link)
        assert [(s["name"], s["bot_level"]) for s in room["seats"]] == [
            ("Ann", None), ("Hard bot", "hard")]
        assert "⟦" not in page.locator("body").inner_text()


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_room_menu_offers_the_levels_and_hard_seats_a_hard_bot(fast_bots, live_server,
                                                                   chromium_path, lang):
    texts = TEXTS[lang]
    with chromium(chromium_path) as browser:
        page = new_page(browser, locale=LOCALES[lang])
        link = create_room(page, live_server, "numgr", "Ann", one_hp)  # no bots: seat 1 free
        expect(page.get_by_test_id("room-fill-bots")).to_have_text(texts["bots.fill_button"])
        assert options_of(page, "room-bots-level", 4) == [
            (level, texts[f"bots.level.{level}"]) for level in LEVELS]
        page.get_by_test_id("room-bots-level").select_option("hard")
        page.get_by_test_id("room-fill-bots").click()
        expect(page.locator("[data-testid=seats] .seat-name")).to_have_text(
            ["Ann", texts["bots.name.hard"]])
        room = room_json(live_server, link)
        assert [s["bot_level"] for s in room["seats"]] == [None, "hard"]
        assert room["status"] == "playing"
        expect(page.get_by_test_id("room-fill-bots")).to_have_count(0)
