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

from tests.e2e.browser import chromium, new_page

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
