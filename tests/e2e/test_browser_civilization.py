"""A whole Reversed Civilizations match in real browsers (Debian's Chromium under Playwright).

Two players in their own browser contexts: one creates a room from the lobby, the other joins by
the share link, a third context watches. They play to the end by clicking the table: orient the
revealed card, take resources, use a slot ("Use") while they have workers, answer each slot's
dialog with its first answer, and pass. The end banner then shows on all three pages.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.e2e.browser import give_name, launch, new_page

pytestmark = pytest.mark.browser

#: What a player clicks, in the order tried: a slot dialog's first answer, "Use" on a slot
#: facing them (at most ``USES`` per page, so the match stays short), then "Pass".
ANSWER = "[data-testid=civ-answer]:enabled"
USE = "[data-action=place][data-resolve=true]:enabled"
PASS = "[data-action=pass]:enabled"
USES = 12


def create_civ_room(page: Page, base_url: str, name: str) -> str:
    """Create a Reversed Civilizations room from the lobby; return the share link."""
    page.goto(f"{base_url}/")
    page.get_by_test_id("game-select").select_option("civilization")
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
    page.get_by_test_id(f"leave-seat-{seat}").or_(page.get_by_test_id("civ-table")).first.wait_for()


def click_next(page: Page, used: dict) -> bool:
    """Click the next thing this player may click; return whether it clicked."""
    selectors = [ANSWER] + ([USE] if used[id(page)] < USES else []) + [PASS]
    for selector in selectors:
        target = page.locator(selector).first
        if target.count() and target.is_visible():
            try:
                target.click(timeout=1_000)
            except Exception:  # redrawn under the pointer: try again
                return False
            used[id(page)] += selector == USE
            return True
    return False


def test_two_players_play_reversed_civilizations_to_the_end(live_server, chromium_path):
    with sync_playwright() as playwright:
        browser = launch(playwright, chromium_path)
        try:
            alice, bob, watch = (new_page(browser) for _ in range(3))
            link = create_civ_room(alice, live_server, "Alice")
            take_seat(alice, 0)
            bob.goto(link)
            take_seat(bob, 1, "Bob")
            watch.goto(link)
            for page in (alice, bob, watch):
                expect(page.get_by_test_id("civ-table")).to_be_visible()
            # Setup: Bob (the non-start player) orients the first revealed card.
            expect(bob.get_by_test_id("civ-dialog")).to_have_attribute("data-kind", "orient")
            expect(alice.get_by_test_id("civ-waiting")).to_be_visible()
            assert watch.locator(ANSWER).count() == 0

            used = {id(alice): 0, id(bob): 0}
            clicks, deadline = 0, time.monotonic() + 240
            while not all(p.get_by_test_id("game-over").is_visible() for p in (alice, bob)):
                assert time.monotonic() < deadline, f"the match did not end after {clicks} clicks"
                assert watch.locator(f"{ANSWER}, {USE}, {PASS}").count() == 0
                moved = [click_next(page, used) for page in (alice, bob)]
                clicks += sum(moved)
                if not any(moved):
                    alice.wait_for_timeout(100)
            assert used[id(alice)] > 0 and used[id(bob)] > 0
            for page in (alice, bob, watch):
                expect(page.get_by_test_id("game-over")).to_be_visible()
                expect(page.get_by_test_id("civ-phase")).to_have_text("Game over")
                expect(page.get_by_test_id("civ-outcome")).to_contain_text("wins")
            results = {alice.get_by_test_id("game-over").get_attribute("data-result"),
                       bob.get_by_test_id("game-over").get_attribute("data-result")}
            assert results == {"won", "lost"}
        finally:
            browser.close()
