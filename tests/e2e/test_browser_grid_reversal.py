"""A whole Grid Reversal match in real browsers (Debian's Chromium under Playwright).

Alice creates a small-board room (3 x 4 grid) in the lobby, Bob joins through the share link, a
third context watches. They play by clicking only: choose mother cards and discards, play
Lightning (the other answers the Ban prompt), place number cards on highlighted cells, skip
chain playbacks, end stages, and in the standoff offer and accept a draw — until the game-over
banner shows on every page. The spectator never sees a hand.
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


def small_board(page: Page) -> None:
    """Lobby form: a board 3 cells wide and 2 deep (the page draws 12 cells)."""
    page.locator("[data-option=width]").select_option(label="3")
    page.locator("[data-option=depth]").fill("2")


def click_next(page: Page) -> str | None:
    """Click the first thing in ``CLICKABLE`` the page offers; return its selector or None."""
    return click_first(page, CLICKABLE)


def test_two_players_play_grid_reversal_to_the_end(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        alice, bob, watch = (new_page(browser) for _ in range(3))
        start_match(live_server, "grid_reversal", [alice, bob], ["Alice", "Bob"], watch,
                    small_board, ready="gr-status")
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

        clicks = len(play_to_the_end([alice, bob], watch, click_next))
        assert clicks >= 4

        expect_game_over((alice, bob, watch))
        assert results((alice, bob)) in ({"won", "lost"}, {"draw"})
        assert watch.get_by_test_id("hand").count() == 0
        expect(watch.get_by_test_id("gr-status")).to_have_attribute("data-phase", "over")
        check_finished_table([alice, bob], watch, reason_sentence("grid_reversal"))
