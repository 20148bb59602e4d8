"""A whole NumGR match in real browsers (Debian's Chromium under Playwright).

Alice creates a NumGR room (1 HP, so the match is short) in the lobby, Bob joins through the share
link, a third context watches. Both play to the end by clicking the table: pick a hand card, pick
what goes under it, pick how to play it, end the steps, discard nothing. The spectator never sees a
hand or a face-down held card; the end banner shows on all three pages.
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

#: What a NumGR player clicks, in the order tried: finish a started stack, start one, end the
#: step, discard nothing.
NG_CLICKABLE = (
    "[data-testid=ng-play-option]:enabled",
    "[data-testid=ng-base-option]:enabled",
    "[data-testid=hand-card][data-action=select]:enabled",
    "[data-testid=ng-end-step]:enabled",
    "[data-testid=ng-keep]:enabled",
)


def one_hp(page: Page) -> None:
    """Lobby form: players start with 1 HP, so the match is short."""
    page.locator("[data-option=hp]").fill("1")


def click_next(page: Page) -> str | None:
    """Click the first offered control of ``NG_CLICKABLE``; return its selector, or None."""
    return click_first(page, NG_CLICKABLE)


def test_two_players_and_a_spectator_play_numgr_to_the_end(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        alice, bob, watch = (new_page(browser) for _ in range(3))
        start_match(live_server, "numgr", [alice, bob], ["Alice", "Bob"], watch, one_hp,
                    ready="ng-status")
        for page in (alice, bob, watch):
            expect(page.get_by_test_id("ng-status")).to_be_visible()
            expect(page.get_by_test_id("ng-area-0")).to_be_visible()
        expect(alice.get_by_test_id("hand")).to_have_count(1)
        expect(watch.get_by_test_id("hand")).to_have_count(0)
        expect(alice.get_by_test_id("ng-hp-0")).to_have_attribute("data-hp", "1")

        clicked = play_to_the_end([alice, bob], watch, click_next)
        # Stacks were built through the builder, and every turn's steps were ended.
        assert NG_CLICKABLE[0] in clicked and NG_CLICKABLE[3] in clicked

        expect_game_over((alice, bob, watch))
        ended = results((alice, bob))
        assert ended in ({"won", "lost"}, {"draw"})
        for page in (alice, bob, watch):   # every text of the table is translated
            assert "⟦" not in page.get_by_test_id("table").inner_text()
        hp = [watch.get_by_test_id(f"ng-hp-{seat}").get_attribute("data-hp") for seat in (0, 1)]
        assert ended == {"draw"} or "0" in hp
        loser = None if ended == {"draw"} else ("Alice", "Bob")[hp.index("0")]  # seat n = names[n]
        check_finished_table([alice, bob], watch, reason_sentence("numgr", loser=loser))
