"""Three languages, rules in the app and phones in Debian's Chromium.

One browser. For 简体中文 and 日本語 (browser locale zh-CN / ja-JP, nothing remembered) and English,
at 360 px wide: the lobby, a started room of every game and the rules pages (each game's in one of
the languages, in turn) show
no untranslated key (``⟦key⟧``), no horizontal overflow (scrollWidth ≤ clientWidth), and in zh/ja
a few known texts in that language and not in English. The language switcher's choice is
remembered across reloads. Screenshots of every page land in ``$I18N_SHOTS`` when it is set.

The rooms are set up through the REST API (players, room, seats) so that the match has started
before the page opens; everything checked is what the browser shows.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser import chromium, new_context, new_page, styles_loaded

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
DICTS = {lang: json.loads((ROOT / "frontend" / "i18n" / f"{lang}.json").read_text("utf-8"))
         for lang in ("en", "zh", "ja")}
LOCALES = {"en": "en-US", "zh": "zh-CN", "ja": "ja-JP"}
#: The page's lang attribute per language (Simplified Chinese glyphs for zh).
HTML_LANG = {"en": "en", "zh": "zh-Hans", "ja": "ja"}
#: game id -> (room options, seats)
GAMES = {"reverse_curse": ({"regulation": "half"}, 2), "zipai": ({}, 3), "grid_reversal": ({}, 2),
         "numgr": ({}, 2), "civilization": ({}, 2)}
#: A text (by key, without placeholders) each page must show in the page's language.
SHOWN = {"lobby": ("lobby.create_title", "nav.rules"), "rules": ("rules.games", "nav.lobby"),
         "reverse_curse": ("rc.field_help", "room.rules"), "zipai": ("zp.your_hand", "room.resign"),
         "grid_reversal": ("gr.your_hand", "room.rules"), "numgr": ("ng.your_hand", "room.rules"),
         "civilization": ("civ.row", "room.rules")}


def started_room(base: str, game: str) -> tuple[str, dict]:
    """Create players and a room of ``game``, fill every seat; return (code, seat 0's player)."""
    options, seats = GAMES[game]
    players = [httpx.post(f"{base}/api/players", json={"name": f"玩家{i}"}).json() for i in range(seats)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    room = httpx.post(f"{base}/api/rooms", json={"game": game, "options": options}, headers=auth[0])
    code = room.json()["code"]
    for seat in range(seats):
        assert httpx.post(f"{base}/api/rooms/{code}/seats/{seat}", headers=auth[seat]).status_code == 200
    return code, players[0]


def check_page(page: Page, lang: str, what: str) -> None:
    """No ⟦key⟧, no horizontal overflow, and the page's known texts in ``lang`` (not English)."""
    text = page.locator("body").inner_text()
    assert "⟦" not in text, f"{lang} {what}: untranslated key"
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"{lang} {what}: {width}px wide in a {client}px viewport"
    for key in SHOWN[what]:
        assert DICTS[lang][key] in text, f"{lang} {what}: {key} not shown"
        if lang != "en":
            assert DICTS["en"][key] not in text, f"{lang} {what}: English {key} left"
    if os.environ.get("I18N_SHOTS"):
        page.screenshot(path=str(Path(os.environ["I18N_SHOTS"]) / f"{lang}_{what}.png"), full_page=True)


def open_room(page: Page, base: str, code: str, player: dict) -> None:
    """Open the room as ``player`` and wait until the game's table is drawn."""
    page.evaluate("p => localStorage.setItem('arena.player', JSON.stringify(p))", player)
    page.goto(f"{base}/room/{code}")
    page.locator("#table[data-game]:not([data-game=''])").wait_for()
    styles_loaded(page)  # the game's own stylesheet


def check_rules(page: Page, base: str, lang: str, game: str) -> None:
    """The rules page of ``game``: rendered Markdown in ``lang`` (English with a note if missing)."""
    page.goto(f"{base}/rules/{game}")
    body = page.get_by_test_id("rules-body")
    body.locator("h1").first.wait_for()
    expected = lang if (RULES / f"{game}.{lang}.md").is_file() else "en"
    assert body.get_attribute("lang") == HTML_LANG[expected]
    assert page.get_by_test_id("rules-fallback").is_visible() is (expected != lang)
    assert body.locator("script").count() == 0
    check_page(page, lang, "rules")


@pytest.fixture(scope="module")
def browser(chromium_path) -> Browser:
    """One Chromium for the whole module (each test opens its own contexts)."""
    with chromium(chromium_path) as shared:
        yield shared


def test_every_page_in_every_language_at_360px(live_server, browser):
    rooms = {game: started_room(live_server, game) for game in GAMES}
    for index, (lang, locale) in enumerate(LOCALES.items()):
        page = new_page(browser, 360, 740, locale)
        page.goto(f"{live_server}/")
        page.get_by_test_id("rules-zipai").wait_for()
        assert page.evaluate("document.documentElement.lang") == HTML_LANG[lang]
        check_page(page, lang, "lobby")
        for game in list(GAMES)[index::len(LOCALES)]:  # every game's rules, in one language or another
            check_rules(page, live_server, lang, game)
        for game, (code, player) in rooms.items():
            open_room(page, live_server, code, player)
            assert page.get_by_test_id("room-rules").get_attribute("href") == f"/rules/{game}"
            check_page(page, lang, game)
        page.context.close()


def test_legal_actions_explain_themselves(live_server, browser):
    code, player = started_room(live_server, "grid_reversal")
    context = new_context(browser, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server}/")
    open_room(page, live_server, code, player)
    card = page.locator("[data-testid=hand-card][data-action=choose_mother]:enabled").first
    value = card.get_attribute("data-card")
    # "Make {card} your mother card (on your S square)." in Japanese, for that very card.
    assert card.get_attribute("title") == DICTS["ja"]["gr.explain.mother"].replace("{card}", value)
    # Reverse Curse: a hand card says where it goes and face-up or down (rulings "Deployment").
    said = page.evaluate("""async () => {
        const { t } = await import("/static/js/i18n.js");
        const { playExplanation } = await import("/static/games/reverse_curse.js");
        const field = [{}, {}, {}, {}];
        return [playExplanation("+2", { field, veiled: false }, t),
                playExplanation("+2", { field, veiled: true }, t),
                playExplanation("ECHO_FLOW", { field: [], veiled: false }, t)];
    }""")
    assert said == ["+2 を表向きで場の一番上（T5）に出します。",
                    "+2 を裏向きで場の一番上（T5）に出します：あなたの陣営だけが見えます。",
                    "↑↑ こだまする波 を裏向きで場の一番上（T1）に出します：あなたの陣営だけが見えます。"]
    # Long-press on a touch screen shows that text, and the click it ends with plays nothing.
    page.evaluate("""() => {  // every frame the page sends from now on
        window.sentFrames = [];
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) { window.sentFrames.push(data); return send.call(this, data); };
    }""")
    card.dispatch_event("pointerdown", {"pointerType": "touch", "bubbles": True})
    page.get_by_test_id("toast").filter(has_text=card.get_attribute("title")).wait_for()
    card.dispatch_event("pointerup", {"pointerType": "touch", "bubbles": True})
    card.dispatch_event("click")  # what the browser fires when the finger lifts
    sent = page.evaluate("() => window.sentFrames.map((d) => JSON.parse(d).type)")
    assert "act" not in sent  # the click played nothing: no action left the page
    assert page.get_by_text(f"✓ {value}").count() == 0 and card.is_enabled()
    # Keyboard play: Tab reaches the card (with a visible focus ring), Enter plays it.
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action") == "choose_mother":
            break
    focused = page.locator(":focus")
    assert focused.get_attribute("data-testid") == "hand-card"
    assert focused.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    chosen = focused.get_attribute("data-card")
    page.keyboard.press("Enter")
    page.get_by_text(f"✓ {chosen}").wait_for()
    sent = page.evaluate("() => window.sentFrames.map((d) => JSON.parse(d))")
    assert [(f["type"], f["action"]["card"]) for f in sent if f["type"] == "act"] == \
        [("act", chosen)]  # the one action played, seen by the frame watch
    context.close()


def test_the_language_switcher_is_remembered(live_server, browser):
    context = new_context(browser, locale="en-US")
    page = context.new_page()
    page.goto(f"{live_server}/rules")
    nav = page.locator(".site-nav a").first
    expect(nav).to_have_text("Lobby")  # the header is translated once the dictionary loaded
    with page.expect_navigation():
        page.get_by_test_id("lang-select").select_option("zh")
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    expect(nav).to_have_text("大厅")
    page.goto(f"{live_server}/")
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    assert page.evaluate("localStorage.getItem('arena.lang')") == "zh"
    expect(page.locator(".site-nav a").first).to_have_text("大厅")
    assert page.get_by_test_id("lang-select").input_value() == "zh"
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    page.get_by_test_id("rules-zipai").wait_for()
    assert page.get_by_test_id("rules-zipai").inner_text() == "规则"
    context.close()
