"""A whole Grid Reversal match in real browsers (Debian's Chromium under Playwright).

Alice creates a small-board room (3 x 4 grid) in the lobby, Bob joins through the share link, a
third context watches. They play by clicking only: choose mother cards and discards, play
Lightning (the other answers the Ban prompt), place number cards on highlighted cells, skip
chain playbacks, end stages, and in the standoff offer and accept a draw — until the game-over
banner shows on every page. The spectator never sees a hand.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.e2e.browser import give_name, launch, new_page

pytestmark = pytest.mark.browser

#: What a player clicks, in order of preference (see grid_reversal.js for the test ids).
CLICKABLE = (
    "[data-testid=gr-skip]",
    "[data-testid=gr-accept-draw]:enabled",
    "[data-testid=gr-decline]:enabled",
    "[data-testid=hand-card][data-action=choose_mother]:enabled",
    "[data-testid=hand-card][data-action=discard]:enabled",
    "[data-testid=gr-offer-draw]:enabled",
    "[data-testid=gr-cell][data-target=true]:enabled",
    "[data-testid=hand-card][data-card=LIGHTNING]:enabled",
    "[data-testid=hand-card].gr-card-number:enabled",
    "[data-testid=gr-end-stage]:enabled",
)


def create_room(page: Page, base_url: str, name: str) -> str:
    """Create a Grid Reversal room with a 3-wide, 2-deep board; return the share link."""
    page.goto(f"{base_url}/")
    page.get_by_test_id("game-select").select_option("grid_reversal")
    page.locator("[data-option=width]").select_option(label="3")
    page.locator("[data-option=depth]").fill("2")
    page.get_by_test_id("create-room").click()
    give_name(page, name)
    page.wait_for_url("**/room/*")
    share = page.get_by_test_id("share-link")
    expect(share).to_have_value(re.compile(r"/room/"))
    return share.input_value()


def sit(page: Page, seat: int, name: str | None = None) -> None:
    """Take ``seat`` (answering the name dialog when ``name`` is given)."""
    page.get_by_test_id(f"take-seat-{seat}").click()
    if name is not None:
        give_name(page, name)
    page.get_by_test_id(f"leave-seat-{seat}").or_(page.get_by_test_id("gr-status")).first.wait_for()


def click_next(page: Page) -> bool:
    """Click the first thing in ``CLICKABLE`` the page offers; return whether it clicked."""
    for selector in CLICKABLE:
        target = page.locator(selector).first
        if target.count() and target.is_visible():
            try:
                target.click(timeout=1_000)
            except Exception:  # redrawn under the pointer: try again on the next round
                return False
            return True
    return False


def play_to_the_end(players: list[Page], watch: Page, seconds: float = 240) -> int:
    """Click until every player page shows the game-over banner; return the clicks made."""
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


def test_two_players_play_grid_reversal_to_the_end(live_server, chromium_path):
    with sync_playwright() as playwright:
        browser = launch(playwright, chromium_path)
        try:
            alice, bob, watch = (new_page(browser) for _ in range(3))
            link = create_room(alice, live_server, "Alice")
            sit(alice, 0)
            bob.goto(link)
            sit(bob, 1, "Bob")
            watch.goto(link)
            for page in (alice, bob, watch):
                expect(page.get_by_test_id("gr-status")).to_be_visible()
                expect(page.get_by_test_id("gr-cell")).to_have_count(12)
                expect(page.locator(".gr-start")).to_have_count(2)
            expect(alice.get_by_test_id("hand")).to_have_count(1)
            expect(watch.get_by_test_id("hand")).to_have_count(0)
            # Both choose their mother cards at the same time; then both S squares hold one.
            for page in (alice, bob):
                page.locator("[data-action=choose_mother]:enabled").first.click()
            expect(watch.locator(".gr-mother")).to_have_count(2)

            clicks = play_to_the_end([alice, bob], watch)
            assert clicks >= 4

            for page in (alice, bob, watch):
                expect(page.get_by_test_id("game-over")).to_be_visible()
            results = {alice.get_by_test_id("game-over").get_attribute("data-result"),
                       bob.get_by_test_id("game-over").get_attribute("data-result")}
            assert results in ({"won", "lost"}, {"draw"})
            assert watch.get_by_test_id("hand").count() == 0
            expect(watch.get_by_test_id("gr-status")).to_have_attribute("data-phase", "over")
        finally:
            browser.close()
