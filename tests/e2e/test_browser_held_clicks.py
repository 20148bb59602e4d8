"""A press held while something else on the page changes still clicks.

Chromium drops a click whose element left the document between mouse press and release (even
to come back redrawn). The room page's table stays while a frame that leaves the match as it
was arrives (someone starts watching, a chat line), and the lobby's room rows stay while its
periodic refresh changes the list around them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import chromium, create_rc_room, create_room, join_seats, new_page
from tests.e2e.test_browser_vs_bot import create_room_against_bots, fast_bots  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

#: Ann's decisions at the start of a Reverse Curse match (who goes first, the mulligan, a card).
DECISION = ("[data-action=choose_order]:enabled, [data-action=mulligan-keep]:enabled, "
            "[data-testid=hand-card]:enabled")

#: Count the clicks that reach an element matching the selector (capture phase, so a table
#: redrawn by the click's own action is counted too) by ``window.nameOf`` (a link's href, else
#: its test id or action); links are not followed.
COUNT_CLICKS = """(selector) => {
  window.nameOf = (el) => el.getAttribute("href") || el.dataset.testid || el.dataset.action;
  window.clicks = [];
  document.addEventListener("click", (event) => {
    const el = event.target.closest(selector);
    if (!el) return;
    window.clicks.push(window.nameOf(el));
    if (el.tagName === "A") event.preventDefault();
  }, true);
}"""


def press(page: Page, selector: str) -> str:
    """Move the mouse to the middle of the first ``selector`` and press (not release) it;
    keep the element as ``window.held``; return its name (``COUNT_CLICKS`` runs first)."""
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    name = target.evaluate("(el) => { window.held = el; return window.nameOf(el); }")
    box = target.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    return name


def test_a_table_button_pressed_while_a_watcher_comes_and_chats_still_clicks(
        fast_bots, live_server, chromium_path):  # noqa: F811
    with chromium(chromium_path) as browser:
        ann, watcher = new_page(browser), new_page(browser)
        create_room_against_bots(ann, live_server, "reverse_curse", "easy")
        link = ann.get_by_test_id("share-link").input_value()
        ann.locator(DECISION).first.wait_for()
        ann.wait_for_timeout(500)  # the bot has answered what it had to: the table stays
        ann.evaluate(COUNT_CLICKS, DECISION)
        ann.evaluate("() => { window.seatRows = [...document.querySelectorAll('#seats .seat')]; }")
        held = press(ann, DECISION)
        watcher.goto(link)  # a presence frame: one more watching
        expect(ann.get_by_test_id("presence")).to_have_text("Watching: 1")
        watcher.locator("#chat-input").fill("hello")
        watcher.locator("#chat-input").press("Enter")  # a chat frame
        expect(ann.get_by_test_id("chat-log").locator(".chat-message .chat-text")).to_have_text(
            ["hello"])
        assert ann.evaluate("() => window.held.isConnected") is True
        # The seats panel, which presence redraws, is patched in place too.
        assert ann.evaluate("() => window.seatRows.map((row) => row.isConnected)") == [True, True]
        ann.mouse.up()
        assert ann.evaluate("() => window.clicks") == [held]


def test_a_lobby_row_pressed_across_a_refresh_that_changes_the_list_still_clicks(
        live_server, chromium_path):
    with chromium(chromium_path) as browser:
        ann, bob, cat, dan = (new_page(browser) for _ in range(4))
        older = create_rc_room(ann, live_server, "Ann")
        newer = create_room(cat, live_server, "numgr", "Cat").rsplit("/", 1)[1]
        bob.goto(f"{live_server}/")
        rows = bob.locator("#open-rooms .room-item")
        expect(rows).to_have_count(2)
        # The newest room comes first: a change below it does not move it under the pointer.
        row = f"#open-rooms [data-code=\"{newer}\"] a"  # quoted: a code may start with a digit
        bob.evaluate(COUNT_CLICKS, "#open-rooms a")
        press(bob, row)
        join_seats(older, [dan], ["Dan"])  # the older room starts: it leaves the open list
        expect(rows).to_have_count(1, timeout=10_000)  # a refresh (every 4 s)
        expect(bob.locator("#live-rooms .room-item")).to_have_count(1)
        assert bob.evaluate("() => window.held.isConnected") is True
        bob.mouse.up()
        assert bob.evaluate("() => window.clicks") == [f"/room/{newer}"]
