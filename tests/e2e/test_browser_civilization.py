"""A whole Reversed Civilizations match in real browsers (Debian's Chromium under Playwright).

Two players in their own browser contexts: one creates a room from the lobby, the other joins by
the share link, a third context watches. They play to the end by clicking the table: orient the
revealed card, take resources, use a slot ("Use") while they have workers, answer each slot's
dialog with its first answer, and pass. The end banner then shows on all three pages.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    check_finished_table,
    chromium,
    click_first,
    expect_game_over,
    new_page,
    play_to_the_end,
    reason_sentence,
    results,
    start_match,
)

pytestmark = pytest.mark.browser

#: What a player clicks, in the order tried: a slot dialog's first answer, "Use" on a slot
#: facing them (at most ``USES`` per page, so the match stays short), then "Pass".
ANSWER = "[data-testid=civ-answer]:enabled"
USE = "[data-action=place][data-resolve=true]:enabled"
PASS = "[data-action=pass]:enabled"
USES = 12


def click_next(page: Page, used: dict) -> bool:
    """Click the next thing this player may click; return whether it clicked.

    ``used`` counts each page's "Use" clicks (by ``id(page)``); at ``USES`` "Use" is no
    longer tried."""
    selectors = [ANSWER] + ([USE] if used[id(page)] < USES else []) + [PASS]
    clicked = click_first(page, selectors)
    used[id(page)] += clicked == USE
    return clicked is not None


def test_two_players_play_reversed_civilizations_to_the_end(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        alice, bob, watch = (new_page(browser) for _ in range(3))
        start_match(live_server, "civilization", [alice, bob], ["Alice", "Bob"], watch,
                    ready="civ-table")
        for page in (alice, bob, watch):
            expect(page.get_by_test_id("civ-table")).to_be_visible()
        # Setup: Bob (the non-start player) orients the first revealed card.
        expect(bob.get_by_test_id("civ-dialog")).to_have_attribute("data-kind", "orient")
        expect(alice.get_by_test_id("civ-waiting")).to_be_visible()
        assert watch.locator(ANSWER).count() == 0

        used = {id(alice): 0, id(bob): 0}
        play_to_the_end([alice, bob], watch, lambda page: click_next(page, used),
                        hidden=f"{ANSWER}, {USE}, {PASS}")
        assert used[id(alice)] > 0 and used[id(bob)] > 0
        expect_game_over((alice, bob, watch))
        for page in (alice, bob, watch):
            expect(page.get_by_test_id("civ-phase")).to_have_text("Game over")
            expect(page.get_by_test_id("civ-outcome")).to_contain_text("wins")
        assert results((alice, bob)) == {"won", "lost"}
        check_finished_table([alice, bob], watch, reason_sentence("civilization"))
        # The match page names every option set, the clock too (civilization has no other).
        watch.goto(watch.url.replace("/replay/", "/matches/").split("?")[0])
        expect(watch.get_by_test_id("match-options")).to_have_text("Seconds per decision: 60")
