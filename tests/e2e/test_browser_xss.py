"""Names and chat are text, never markup, and the match page's verify button
works, in real browsers (Debian's Chromium under Playwright).

A player named ``<img src=x onerror=alert(1)>`` creates a room, sits, chats and resigns; another
player sees that name as literal text in the lobby, the room's seats, the chat, the history and
the match page. No dialog ever opens and no ``<img src=x>`` element ever exists. The room shows
the seed commitment once the match starts; the match page shows the same one, and its verify
button replays the match and confirms it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import chromium, create_rc_room, join_seats, new_page, resign, take_seat

pytestmark = pytest.mark.browser

EVIL = "<img src=x onerror=alert(1)>"
EVIL_CHAT = "<img src=x onerror=alert(2)><script>alert(3)</script>"


def watch_dialogs(page: Page, fired: list[str]) -> None:
    """Record (and dismiss) every dialog ``page`` opens."""
    page.on("dialog", lambda dialog: (fired.append(dialog.message), dialog.dismiss()))


def assert_no_markup(page: Page) -> None:
    """The hostile name and chat never became elements."""
    assert page.locator("img[src='x'], script:text('alert')").count() == 0


def test_hostile_names_and_chat_render_as_text(live_server, chromium_path):
    fired: list[str] = []
    with chromium(chromium_path) as browser:
        evil, bob = new_page(browser), new_page(browser)
        for page in (evil, bob):
            watch_dialogs(page, fired)
        link = create_rc_room(evil, live_server, EVIL)
        expect(evil.get_by_test_id("my-name")).to_have_text(EVIL)
        take_seat(evil, 0)

        bob.goto(f"{live_server}/")  # the lobby lists the open room with the name
        room_item = bob.locator(".room-item").filter(has_text=EVIL)
        expect(room_item).to_have_count(1)
        assert_no_markup(bob)

        join_seats(link, [bob], ["Bob"])
        for page in (evil, bob):
            expect(page.locator(".seat[data-seat='0'] .seat-name")).to_have_text(EVIL)
            expect(page.get_by_test_id("conn-status")).to_have_text("Connected")
        # The seed commitment is shown in the room as soon as the match starts.
        shown = bob.get_by_test_id("room-commitment").locator("code")
        expect(shown).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
        commitment = shown.text_content()
        expect(evil.get_by_test_id("room-commitment").locator("code")).to_have_text(commitment)

        evil.locator("#chat-input").fill(EVIL_CHAT)
        evil.locator("#chat-input").press("Enter")
        line = bob.get_by_test_id("chat-log").locator(".chat-message").last
        expect(line.locator(".chat-name")).to_have_text(EVIL)
        expect(line.locator(".chat-text")).to_have_text(EVIL_CHAT)

        resign(evil)
        for page in (evil, bob):
            expect(page.get_by_test_id("game-over")).to_be_visible()
            assert_no_markup(page)

        bob.goto(f"{live_server}/history")
        entry = bob.locator(".match-item").first
        expect(entry.locator(".match-names")).to_contain_text(EVIL)
        entry.get_by_test_id("match-link").click()
        bob.wait_for_url("**/matches/*")
        expect(bob.locator("table td").filter(has_text=EVIL)).to_have_count(1)
        expect(bob.locator("dd code.hex").first).to_have_text(commitment)

        bob.get_by_test_id("verify-button").click()
        verdict = bob.get_by_test_id("verify-verdict")
        expect(verdict).to_have_text(
            "Verified: the seed fits its fingerprint, and replaying the 1 recorded move from it "
            "gives the recorded result.")
        checks = bob.get_by_test_id("verify-checks").locator("li")
        expect(checks).to_have_count(5)
        expect(checks.nth(1)).to_have_text(f"sha256(seed) = seed_commitment = {commitment}")
        assert_no_markup(bob)
    assert fired == []
