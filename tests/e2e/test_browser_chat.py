"""The room's chat is there for whoever comes later: a reloaded page and a spectator opening the
link show the lines said before (the server's ``chat_history``), each once, drawn as live
lines."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import chromium, create_rc_room, new_page

pytestmark = pytest.mark.browser


def chat(page: Page, text: str) -> None:
    """Send ``text`` from the room page's chat box (once its socket is connected)."""
    expect(page.get_by_test_id("conn-status")).to_have_text("Connected")
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")


def test_a_reloaded_page_and_a_late_spectator_show_the_earlier_lines(live_server,
                                                                     chromium_path):
    with chromium(chromium_path) as browser:
        ann = new_page(browser)
        link = create_rc_room(ann, live_server, "Ann")
        texts = ann.get_by_test_id("chat-log").locator(".chat-message .chat-text")
        chat(ann, "hello")
        expect(texts).to_have_text(["hello"])
        ann.reload()
        expect(texts).to_have_text(["hello"])
        expect(ann.get_by_test_id("chat-log").locator(".chat-message .chat-name")).to_have_text(
            ["Ann"])
        watcher = new_page(browser)
        watcher.goto(link)
        watched = watcher.get_by_test_id("chat-log").locator(".chat-message .chat-text")
        expect(watched).to_have_text(["hello"])
        chat(watcher, "good luck")
        for lines in (texts, watched):
            expect(lines).to_have_text(["hello", "good luck"])
        ann.reload()
        expect(texts).to_have_text(["hello", "good luck"])
