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
    axe_problems,
    check_finished_table,
    chromium,
    click_first,
    expect_game_over,
    new_page,
    play_to_the_end,
    reason_sentence,
    results,
    start_match,
    styles_loaded,
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


#: Every hand card as [opacity along its ancestors, text colour, face colour, border style,
#: contrast of its text on its face as shown] — a translucent text colour blended over the face,
#: then group opacity over the hand panel.
HAND_FACES = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => v / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const panel = rgb(getComputedStyle(document.querySelector(".gr-hand")).backgroundColor);
  return [...document.querySelectorAll("[data-testid=hand-card]")].map((card) => {
    let alpha = 1;
    for (let el = card; el; el = el.parentElement) alpha *= Number(getComputedStyle(el).opacity);
    const style = getComputedStyle(card);
    const over = (c) => c.slice(0, 3).map((v, i) => v * alpha + panel[i] * (1 - alpha));
    const face = rgb(style.backgroundColor);
    const [ink, inkAlpha] = [rgb(style.color), rgb(style.color)[3] ?? 1];  // a disabled button's
    const text = ink.slice(0, 3).map((v, i) => v * inkAlpha + face[i] * (1 - inkAlpha));  // is translucent
    const [a, b] = [lum(over(text)), lum(over(face))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    return [alpha, style.color, style.backgroundColor, style.borderTopStyle,
            Math.round(ratio * 100) / 100];
  });
}"""


def test_a_hand_waiting_for_the_other_player_stays_readable(live_server, chromium_path):
    """A hand that cannot play now (Alice chose her mother card, Bob has not) is greyed with a
    dashed edge, not faded: its text keeps a 6.92:1 contrast (WCAG AA asks 4.5:1; the old
    opacity .55 over the browser's translucent disabled text gave 1.44:1), and axe finds
    nothing."""
    with chromium(chromium_path) as browser:
        alice, bob = new_page(browser), new_page(browser)
        start_match(live_server, "grid_reversal", [alice, bob], ["Alice", "Bob"], None,
                    small_board, ready="gr-status")
        cards = alice.get_by_test_id("hand-card")
        expect(cards.first).to_be_enabled()
        styles_loaded(alice)
        enabled = alice.evaluate(HAND_FACES)[0]
        assert enabled == [1, "rgb(0, 0, 0)", "rgb(255, 255, 255)", "solid", 21]
        alice.locator("[data-action=choose_mother]:enabled").first.click()
        expect(alice.locator("[data-testid=hand-card]:enabled")).to_have_count(0)
        faces = alice.evaluate(HAND_FACES)
        assert len(faces) == cards.count() >= 1
        assert {tuple(face) for face in faces} == {
            (1, "rgb(74, 82, 88)", "rgb(241, 239, 233)", "dashed", 6.92)}
        assert axe_problems(alice) == []
