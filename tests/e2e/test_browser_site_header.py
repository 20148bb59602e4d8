"""The shared site header (frontend/js/header.js) and the not-found page, in Debian's Chromium.

Every page holds only a ``[data-site-header]`` placeholder; the header filled in must carry the
skip link (first focusable element, pointing at ``#main``), the four navigation links with their
test ids, the identity slot and the language switcher. ``/room/`` (no code) and an unknown
address answer 404 with the not-found page in the browser's language (zh-CN here).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.browser import axe_problems, chromium, new_page

pytestmark = pytest.mark.browser

ZH = json.loads((Path(__file__).resolve().parents[2] / "frontend/i18n/zh.json").read_text("utf-8"))
HEADER = """() => ({
  skip: [document.querySelector("a, button, select").className,
         document.querySelector("a").getAttribute("href")],
  nav: [...document.querySelectorAll("[data-site-header] nav a")].map((a) => a.getAttribute("href")),
  testids: [...document.querySelectorAll("[data-site-header] [data-testid^=nav-]")].map((a) => a.dataset.testid),
  identity: Boolean(document.querySelector("[data-site-header] #identity")),
  headers: document.querySelectorAll("header").length,
})"""


def test_header_on_every_page_and_the_translated_not_found_page(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser, locale="zh-CN")
        for path in ("/", "/history", "/ladders", "/rules", "/players/1", "/room/nope12"):
            page.goto(live_server + path)
            page.get_by_test_id("lang-select").wait_for()
            assert page.evaluate(HEADER) == {
                "skip": ["skip-link", "#main"], "nav": ["/", "/history", "/ladders", "/rules"],
                "testids": ["nav-ladders", "nav-rules"], "identity": True, "headers": 1}, path
        page.goto(live_server + "/history")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip-link"
        for path in ("/room/", "/no/such/page"):
            answer = page.goto(live_server + path)
            assert answer.status == 404, path
            page.get_by_test_id("lang-select").wait_for()
            assert page.locator("h1").inner_text() == ZH["notfound.title"] == "页面不存在"
            assert page.locator("main a").get_attribute("href") == "/"


#: The header on a phone: its direct children's distinct top offsets (rows), its height, the
#: document's widths, the smallest control of the header ([width, height]), and whether the
#: room page's tools (Rules, sound, connection badge) share one line.
PHONE = """() => {
  const header = document.querySelector(".site-header");
  const box = (el) => el.getBoundingClientRect();
  const controls = [...header.querySelectorAll("a, button, select")].map(box);
  const tools = [...document.querySelectorAll(".room-tools > *")].map(box);
  return {
    rows: new Set([...header.children].map((el) => Math.round(box(el).top))).size,
    height: Math.round(box(header).height),
    scroll: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    targets40: controls.every((r) => Math.round(r.width) >= 40 && Math.round(r.height) >= 40),
    toolsOneLine: tools.length ? Math.max(...tools.map((r) => r.top)) < Math.min(...tools.map((r) => r.bottom))
                               : null,
  };
}"""


#: Whether the room page's tools stay on one line with the connection badge's every label (the
#: longest is not the "Connected" a loaded page shows): ``{status: bool}``.
TOOLS_WITH_EVERY_STATUS = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const label = document.getElementById("conn-status").lastChild;
  const shown = label.textContent;
  const oneLine = {};
  for (const status of ["connecting", "connected", "reconnecting", "closed"]) {
    label.textContent = i18n.t(`conn.${status}`);
    const tools = [...document.querySelectorAll(".room-tools > *")].map((el) => el.getBoundingClientRect());
    oneLine[status] = Math.max(...tools.map((r) => r.top)) < Math.min(...tools.map((r) => r.bottom));
  }
  label.textContent = shown;
  return oneLine;
}"""


def test_the_phone_header_fits_three_rows_in_every_language_signed_in_or_not(
        live_server, chromium_path):
    """At 360 px the header takes three rows of 40 px (brand and language menu, navigation,
    identity and Account; 4 px padding above and below, a 1 px border: 129 px) on every page, in
    English, Chinese and Japanese, for a guest and for a named player, with no sideways scroll;
    the room page's Rules, sound and connection badge stay on one line; axe finds nothing."""
    import httpx

    # the longest name (32 characters) wraps beside the Account button, in its own row
    player = httpx.post(f"{live_server}/api/players",
                        json={"name": "Maximilian Alexander Wolfgang Xy"}).json()
    room = httpx.post(f"{live_server}/api/rooms", json={"game": "numgr", "options": {}},
                      headers={"Authorization": f"Bearer {player['token']}"}).json()
    paths = ("/", f"/room/{room['code']}", "/history", "/matches/1", "/replay/1", "/ladders",
             "/rules", f"/players/{player['id']}", "/no/such/page")
    saved = json.dumps(json.dumps({key: player[key] for key in ("id", "name", "token")}))
    with chromium(chromium_path) as browser:
        for lang in ("en", "zh", "ja"):
            for signed_in in (False, True):
                page = new_page(browser, width=360, height=740)
                page.context.add_init_script(
                    f"localStorage.setItem('arena.lang', '{lang}');"
                    + (f"localStorage.setItem('arena.player', {saved});" if signed_in else ""))
                for path in paths:
                    page.goto(live_server + path)
                    page.get_by_test_id("lang-select").wait_for()
                    page.locator("#identity .account-button").wait_for()
                    if path.startswith("/room/"):
                        expect(page.locator("#conn-status[data-status=connected]")).to_be_visible()
                    where = (lang, signed_in, path)
                    assert page.evaluate(PHONE) == {
                        "rows": 3, "height": 129, "scroll": [360, 360], "targets40": True,
                        "toolsOneLine": True if path.startswith("/room/") else None}, where
                    if path.startswith("/room/"):
                        assert page.evaluate(TOOLS_WITH_EVERY_STATUS) == dict.fromkeys(
                            ("connecting", "connected", "reconnecting", "closed"), True), where
                    if path in ("/", f"/room/{room['code']}") and (lang == "en" or not signed_in):
                        assert axe_problems(page) == [], where
                page.context.close()
