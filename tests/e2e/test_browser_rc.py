"""A whole Reverse Curse match in real browsers (Debian's Chromium under Playwright).

Two players in their own browser contexts create their identities, one creates a half-regulation
room in the lobby, the other joins through the share link, a third context watches. They play to
the end by clicking the UI; the spectator never sees a hand; a set's step-by-step playback never
hides the next set's decision; the end banner shows on all three (the spectator's only once the
last set's playback is skipped: no spoiler); the match then appears on the history page with its
ladder.
"""

from __future__ import annotations

import hashlib
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.browser import (
    check_finished_table,
    chromium,
    click_next,
    create_rc_room,
    expect_game_over,
    join_seats,
    new_page,
    play_to_the_end,
    reason_sentence,
    resign,
    results,
    seeded_live_server,
    take_seat,
)

pytestmark = pytest.mark.browser

#: The match seed of the first test: with its clicks (go first, keep, the first hand card) the
#: match plays more than one set, so a set's playback meets the next set's decisions (a seed
#: whose first set ends in a K.O. would not show that).
SEED = hashlib.sha256(b"rc-browser/0").digest()
#: Milliseconds between two steps of a set's playback (frontend/games/rc_playback.js STEP_MS).
STEP_MS = 550
#: The next set's decision buttons (order, mulligan) while they can be clicked.
DECISION = "[data-testid=rc-order] button:enabled, [data-testid=rc-mulligan] button:enabled"
#: The decision's go-first and keep buttons (what ``click_next`` clicks in them).
GO_OR_KEEP = "[data-action=choose_order][data-first=true]:enabled, [data-action=mulligan-keep]:enabled"
#: In one look at a page: a set's playback and an order/mulligan button to click, both there.
PLAYBACK_AND_DECISION = f"""() => Boolean(document.querySelector("[data-testid=rc-playback]"))
  && Boolean(document.querySelector("{DECISION}"))"""
#: In one look: whether the playback still has a Skip button, whether the game-over banner is
#: hidden, and how many sets the history table lists.
DURING_PLAYBACK = """() => ({skip: Boolean(document.querySelector("[data-testid=rc-skip]")),
  banner_hidden: document.querySelector("[data-testid=game-over]").hidden,
  rows: document.querySelectorAll(".rc-history tbody tr").length})"""


def hold_then_release(page) -> str:
    """Press the decision's go-first or keep button, hold it across playback ticks (each
    redraws the table), release: the choice is sent (the page stops offering that action). A
    pointer held longer than a tick lost its click while every tick replaced the whole table."""
    button = page.locator(GO_OR_KEEP).first
    button.scroll_into_view_if_needed()
    action = button.get_attribute("data-action")
    box = button.bounding_box()
    assert box is not None and action in ("choose_order", "mulligan-keep")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(2 * STEP_MS)
    page.mouse.up()
    expect(page.locator(f"[data-action={action}]:enabled")).to_have_count(0, timeout=10_000)
    return action


@pytest.fixture
def seeded_server(monkeypatch, request) -> str:
    """The ``live_server`` with every match dealt from ``SEED``."""
    return seeded_live_server(monkeypatch, request, SEED)


def test_two_players_and_a_spectator_play_a_match_to_the_end(seeded_server, chromium_path):
    live_server = seeded_server
    with chromium(chromium_path) as browser:
        alice, bob, watch = (new_page(browser) for _ in range(3))
        link = create_rc_room(alice, live_server, "Alice")
        code = link.rsplit("/", 1)[1]
        assert re.fullmatch(rf"{re.escape(live_server)}/room/[A-Za-z0-9_-]+", link)
        expect(alice.get_by_test_id("my-name")).to_have_text("Alice")
        take_seat(alice, 0)

        join_seats(link, [bob], ["Bob"])
        watch.goto(link)
        for page in (alice, bob, watch):
            expect(page.get_by_test_id("conn-status")).to_have_text("Connected")
            expect(page.get_by_test_id("rc-status")).to_be_visible()
        expect(watch.get_by_test_id("mode")).to_have_attribute("data-mode", "spectator")
        expect(alice.get_by_test_id("hand")).to_have_count(1)
        expect(watch.get_by_test_id("hand")).to_have_count(0)

        # Chat text is shown as text, never as markup, to players and spectators alike.
        alice.locator("#chat-input").fill("<b>good luck</b> & have fun")
        alice.locator("#chat-input").press("Enter")
        for page in (bob, watch):
            line = page.get_by_test_id("chat-log").locator(".chat-message .chat-text")
            expect(line).to_have_text("<b>good luck</b> & have fun")
            assert page.get_by_test_id("chat-log").locator("b").count() == 0

        both = []  # clicks made while a set's playback and the next decision showed together

        def look_then_click(page):
            if page.evaluate(PLAYBACK_AND_DECISION):
                both.append(page)
                if len(both) == 1:  # the first set's playback
                    status = page.get_by_test_id("rc-status")
                    top = status.bounding_box()["y"]
                    action = hold_then_release(page)
                    expect(page.get_by_test_id("rc-skip")).to_be_hidden(timeout=15_000)
                    # its end drew the chart's first point and moved nothing above the status
                    # line (the chart appeared then: the table jumped under the pointer)
                    assert status.bounding_box()["y"] == top
                    return action
            return click_next(page)

        clicks = len(play_to_the_end([alice, bob], watch, look_then_click))
        # At least 2 mulligans and 12 cards per set were clicked (timeouts may add none).
        assert clicks >= 14
        # After a set, its playback shows under the next decision, never instead of it: the
        # decision comes first on the page, so it is clicked while the playback still runs.
        assert both

        expect_game_over((alice, bob))
        assert watch.get_by_test_id("hand").count() == 0

        # The spectator (who clicks nothing) sees the last set resolved step by step:
        # all 12 cards from T12 down to T1, then the result, as in the set history table.
        # The game-over banner and the last set's row wait until the playback is skipped or
        # done (no spoiler).
        playback = watch.get_by_test_id("rc-playback")
        expect(playback).to_be_visible()
        during = watch.evaluate(DURING_PLAYBACK)
        watch.get_by_test_id("rc-skip").click()
        expect_game_over((watch,))
        sets_played = watch.locator(".rc-history tbody tr").count()
        assert during == {"skip": True, "banner_hidden": True, "rows": sets_played - 1}
        assert sets_played >= 2  # the premise of the check on `both` above
        steps = playback.locator(".step-turn")
        expect(steps).to_have_count(12)
        assert steps.all_inner_texts() == [f"T{n}" for n in range(12, 0, -1)]
        result = watch.get_by_test_id("rc-result").inner_text()
        last_row = watch.locator(".rc-history tbody tr").last.locator("td").all_inner_texts()
        assert result.startswith(f"Result {last_row[2]}.")
        assert results((alice, bob)) in ({"won", "lost"}, {"draw"})
        assert watch.get_by_test_id("game-over").get_attribute("data-result") in ("over", "draw")
        check_finished_table([alice, bob], watch, reason_sentence("reverse_curse"))

        alice.goto(f"{live_server}/history")
        entry = alice.locator("[data-testid=match-link]", has_text=code)
        expect(entry).to_have_count(1)
        entry.click()
        alice.wait_for_url("**/matches/*")
        expect(alice.get_by_test_id("ladder")).to_be_visible()
        sets = alice.get_by_test_id("ladder-set")
        assert 1 <= sets.count() <= 3
        expect(alice.get_by_test_id("match-seed")).to_have_text(re.compile(r"^[0-9a-f]{16,}$"))


def test_a_seat_can_be_left_before_the_start_and_resigning_asks_first(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        alice, bob = new_page(browser), new_page(browser, 360, 800)
        link = create_rc_room(alice, live_server, "Alice")
        take_seat(alice, 0)
        alice.get_by_test_id("leave-seat-0").click()
        expect(alice.get_by_test_id("take-seat-0")).to_be_visible()
        take_seat(alice, 1)

        join_seats(link, [bob], ["Bob"], first_seat=0)
        expect(bob.get_by_test_id("resign")).to_be_visible()
        assert bob.evaluate("document.documentElement.scrollWidth") <= 360

        bob.get_by_test_id("resign").click()
        bob.get_by_role("button", name="Cancel", exact=True).click()
        expect(bob.get_by_test_id("game-over")).to_be_hidden()
        resign(bob)

        expect(bob.get_by_test_id("game-over")).to_have_attribute("data-result", "lost")
        expect(alice.get_by_test_id("game-over")).to_have_attribute("data-result", "won")
        expect(alice.get_by_test_id("game-over")).to_contain_text("You won!")
        expect(alice.get_by_test_id("game-over")).to_contain_text("Bob resigned.")
        expect(bob.get_by_test_id("resign")).to_be_hidden()
