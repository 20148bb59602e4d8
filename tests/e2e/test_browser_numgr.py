"""A whole NumGR match in real browsers (Debian's Chromium under Playwright).

Alice creates a NumGR room (1 HP, so the match is short) in the lobby, Bob joins through the share
link, a third context watches. Both play to the end by clicking the table: pick a hand card, pick
what goes under it, pick how to play it, end the steps, discard nothing. The spectator never sees a
hand or a face-down held card; the end banner shows on all three pages.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.e2e.browser import give_name, launch, new_page

pytestmark = pytest.mark.browser

#: What a NumGR player clicks, in the order tried: finish a started stack, start one, end the
#: step, discard nothing.
NG_CLICKABLE = (
    "[data-testid=ng-play-option]:enabled",
    "[data-testid=ng-base-option]:enabled",
    "[data-testid=hand-card][data-action=select]:enabled",
    "[data-testid=ng-end-step]:enabled",
    "[data-testid=ng-keep]:enabled",
)


def create_numgr_room(page: Page, base_url: str, name: str) -> str:
    """Create a 1-HP NumGR room from the lobby form; return the share link."""
    page.goto(f"{base_url}/")
    page.get_by_test_id("game-select").select_option("numgr")
    page.locator("[data-option=hp]").fill("1")
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
    page.get_by_test_id(f"leave-seat-{seat}").or_(page.get_by_test_id("ng-status")).first.wait_for()


def click_next(page: Page) -> str | None:
    """Click the first offered control of ``NG_CLICKABLE``; return its selector, or None."""
    for selector in NG_CLICKABLE:
        target = page.locator(selector).first
        if target.count() and target.is_visible():
            try:
                target.click(timeout=1_000)
            except Exception:  # redrawn under the pointer: try again next round
                return None
            return selector
    return None


def play_to_the_end(players: list[Page], watch: Page, seconds: float = 240) -> list[str]:
    """Click on both players' pages until both show the game-over banner; return the selectors
    clicked, in order."""
    clicked: list[str] = []
    deadline = time.monotonic() + seconds
    while not all(page.get_by_test_id("game-over").is_visible() for page in players):
        assert time.monotonic() < deadline, f"the match did not end after {len(clicked)} clicks"
        assert watch.locator("[data-testid=hand], [data-testid=hand-card]").count() == 0
        moved = [s for s in (click_next(page) for page in players) if s]
        clicked += moved
        if not moved:
            players[0].wait_for_timeout(100)
    return clicked


def test_two_players_and_a_spectator_play_numgr_to_the_end(live_server, chromium_path):
    with sync_playwright() as playwright:
        browser = launch(playwright, chromium_path)
        try:
            alice, bob, watch = (new_page(browser) for _ in range(3))
            link = create_numgr_room(alice, live_server, "Alice")
            take_seat(alice, 0)
            bob.goto(link)
            take_seat(bob, 1, "Bob")
            watch.goto(link)
            for page in (alice, bob, watch):
                expect(page.get_by_test_id("ng-status")).to_be_visible()
                expect(page.get_by_test_id("ng-area-0")).to_be_visible()
            expect(alice.get_by_test_id("hand")).to_have_count(1)
            expect(watch.get_by_test_id("hand")).to_have_count(0)
            expect(alice.get_by_test_id("ng-hp-0")).to_have_attribute("data-hp", "1")

            clicked = play_to_the_end([alice, bob], watch)
            # Stacks were built through the builder, and every turn's steps were ended.
            assert NG_CLICKABLE[0] in clicked and NG_CLICKABLE[3] in clicked

            for page in (alice, bob, watch):
                expect(page.get_by_test_id("game-over")).to_be_visible()
            results = {alice.get_by_test_id("game-over").get_attribute("data-result"),
                       bob.get_by_test_id("game-over").get_attribute("data-result")}
            assert results in ({"won", "lost"}, {"draw"})
            for page in (alice, bob, watch):   # every text of the table is translated
                assert "⟦" not in page.get_by_test_id("table").inner_text()
            hp = [watch.get_by_test_id(f"ng-hp-{seat}").get_attribute("data-hp") for seat in (0, 1)]
            assert results == {"draw"} or "0" in hp
        finally:
            browser.close()
