"""Playwright helpers for the browser tests: launch Debian's Chromium, act through the UI.

Every helper drives the pages the way a player would (clicks and typing); none calls the API.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page, Playwright, expect

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]

#: What a Reverse Curse player may click: close the set playback, choose the order (go first),
#: keep the hand, play a hand card, pass in the shop. On the page they come in this order
#: (playback, then the decision panel, then the hand), so the first match is the one to click.
RC_CLICKABLE = ", ".join((
    "[data-testid=rc-continue]",
    "[data-action=choose_order][data-first=true]:enabled",
    "[data-action=mulligan-keep]:enabled",
    "[data-testid=hand-card]:enabled",
    "[data-action=pass]:enabled",
))


def launch(playwright: Playwright, chromium_path: str) -> Browser:
    """Return Debian's Chromium under Playwright (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)


def new_page(browser: Browser, width: int = 1280, height: int = 900) -> Page:
    """Return a page in a fresh context (its own localStorage: its own player)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def give_name(page: Page, name: str) -> None:
    """Answer the "choose a player name" dialog."""
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("name-ok").click()


def create_rc_room(page: Page, base_url: str, name: str) -> str:
    """Create a half-regulation 1v1 Reverse Curse room without monsters from the lobby form;
    answer the name dialog; return the room page URL (the share link)."""
    page.goto(f"{base_url}/")
    page.get_by_test_id("game-select").select_option("reverse_curse")
    page.locator("[data-option=regulation]").select_option(label="Half (3 sets, K.O. at 12)")
    page.locator("[data-option=monsters]").uncheck()
    page.get_by_test_id("create-room").click()
    give_name(page, name)
    page.wait_for_url("**/room/*")
    share = page.get_by_test_id("share-link")
    expect(share).to_have_value(re.compile(r"/room/"))
    return share.input_value()


def take_seat(page: Page, seat: int, name: str | None = None) -> None:
    """Click "Take seat" for ``seat`` (answering the name dialog when ``name`` is given)."""
    page.get_by_test_id(f"take-seat-{seat}").click()
    if name is not None:
        give_name(page, name)
    page.get_by_test_id(f"leave-seat-{seat}").or_(page.get_by_test_id("rc-status")).first.wait_for()


def click_next(page: Page) -> bool:
    """Click the first thing ``RC_CLICKABLE`` finds on the page; return whether it clicked."""
    target = page.locator(RC_CLICKABLE).first
    if not target.count():
        return False
    try:
        target.click(timeout=1_000)
    except Exception:  # redrawn under the pointer: try again on the next round
        return False
    return True


def play_to_the_end(players: list[Page], watch: Page, seconds: float = 240) -> int:
    """Click through the match on both players' pages until both show the game-over banner.

    After every round it checks that the spectator page never shows a hand.
    Returns how many clicks were made. Raises AssertionError on a hand shown to the
    spectator, or when the match has not ended within ``seconds``.
    """
    clicks = 0
    deadline = time.monotonic() + seconds
    while not all(page.get_by_test_id("game-over").is_visible() for page in players):
        assert time.monotonic() < deadline, f"the match did not end after {clicks} clicks"
        assert watch.locator("[data-testid=hand], [data-testid=hand-card]").count() == 0
        moved = [click_next(page) for page in players]
        clicks += sum(moved)
        if not any(moved):
            players[0].wait_for_timeout(100)
    return clicks
