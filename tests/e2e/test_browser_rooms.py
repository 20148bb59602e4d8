"""Rooms that manage themselves, lasting identity and replays in real browsers: a private room refused to a stranger without the link, "play again", a replay
stepped to the end that matches the recorded outcome, and a saved profile logging in from a
second browser context.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    chromium,
    click_next,
    create_rc_room,
    create_room,
    join_seats,
    new_page,
    rc_half_no_monsters,
    resign,
    take_seat,
)

pytestmark = pytest.mark.browser


def private_rc_room(page: Page) -> None:
    """Lobby form: a short Reverse Curse room (``rc_half_no_monsters``), marked private."""
    rc_half_no_monsters(page)
    page.get_by_test_id("private-room").check()


def test_private_room_rematch_and_replay(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        alice, bob, carol = (new_page(browser) for _ in range(3))
        link = create_room(alice, live_server, "reverse_curse", "Alice", private_rc_room)
        code = link.rsplit("/", 1)[1]
        assert len(code) == 16  # 96 random bits
        expect(alice.get_by_test_id("private-note")).to_be_visible()
        take_seat(alice, 0)

        # A stranger without the link: not in the lobby, and a guessed code finds nothing.
        carol.goto(f"{live_server}/")
        expect(carol.get_by_test_id("open-rooms")).to_contain_text("No open rooms")
        expect(carol.locator(f"[data-code='{code}']")).to_have_count(0)
        carol.goto(f"{live_server}/room/{code[:8]}")
        expect(carol.locator("#room-title")).to_have_text("This room does not exist.")

        join_seats(link, [bob], ["Bob"])
        for page in (alice, bob):
            expect(page.get_by_test_id("rc-status")).to_be_visible()
        # A seat asked a decision sees "your turn" in its tab title (someone is asked now).
        assert any(page.title().startswith("▶ Your turn") for page in (alice, bob))

        clicks = 0
        for _ in range(100):  # a few real actions (order, mulligans, first cards)
            if clicks >= 4:
                break
            clicks += sum(click_next(page) is not None for page in (alice, bob))
            alice.wait_for_timeout(50)
        assert clicks >= 4
        resign(alice)
        for page in (alice, bob):
            expect(page.get_by_test_id("game-over")).to_be_visible()
            expect(page).not_to_have_title(re.compile("^▶"))  # nobody's turn any more
        replay_href = alice.get_by_test_id("replay-link").get_attribute("href")
        first_match = int(replay_href.rsplit("/", 1)[1])

        # Play again: the rematch starts once both seated players asked.
        alice.get_by_test_id("rematch").click()
        expect(alice.get_by_test_id("rematch-waiting")).to_be_visible()
        expect(bob.get_by_test_id("manage")).to_contain_text("1 of 2 players")
        bob.get_by_test_id("rematch").click()
        for page in (alice, bob):
            expect(page.get_by_test_id("game-over")).to_be_hidden()
            expect(page.get_by_test_id("rc-status")).to_be_visible()
            expect(page.get_by_test_id("resign")).to_be_visible()
        room = alice.request.get(f"{live_server}/api/rooms/{code}").json()
        assert (room["status"], room["match_id"]) == ("playing", first_match + 1)

        # The replay of the first match, stepped to its end, shows the recorded outcome.
        recorded = alice.request.get(f"{live_server}/api/matches/{first_match}").json()
        steps = len(recorded["actions"])
        carol.goto(f"{live_server}{replay_href}")
        expect(carol.get_by_test_id("replay-step")).to_have_text(f"Step 0 of {steps}")
        expect(carol.get_by_test_id("replay-prev")).to_be_disabled()
        for number in range(1, steps + 1):
            carol.get_by_test_id("replay-next").click()
            expect(carol.get_by_test_id("replay-step")).to_have_text(
                f"Step {number} of {steps}")
        expect(carol.get_by_test_id("replay-next")).to_be_disabled()
        outcome = carol.get_by_test_id("replay-outcome")
        expect(outcome).to_be_visible()
        winners = ",".join(str(s) for s in recorded["outcome"]["winners"])
        expect(outcome).to_have_attribute("data-winners", winners)
        expect(outcome).to_have_attribute("data-reason", recorded["outcome"]["reason"])
        assert (winners, recorded["outcome"]["reason"]) == ("1", "resign")
        expect(outcome).to_contain_text("Bob")
        assert carol.url.endswith(f"/replay/{first_match}?step={steps}")
        expect(carol.get_by_test_id("hand")).to_have_count(0)  # the spectator's view

        # A shared link opens that step; a seat's view shows that player's hand.
        carol.goto(f"{live_server}/replay/{first_match}?step=2&viewer=0")
        expect(carol.get_by_test_id("replay-step")).to_have_text(f"Step 2 of {steps}")
        expect(carol.get_by_test_id("hand")).to_have_count(1)
        carol.get_by_test_id("replay-first").click()
        expect(carol.get_by_test_id("replay-step")).to_have_text(f"Step 0 of {steps}")
        carol.get_by_test_id("replay-play").click()  # autoplay: one step a second
        expect(carol.get_by_test_id("replay-step")).to_have_text(f"Step 2 of {steps}")
        carol.get_by_test_id("replay-play").click()
        expect(carol.get_by_test_id("replay-play")).to_have_attribute("aria-pressed", "false")
        carol.get_by_test_id("replay-first").click()

        # On a 360 px phone neither the replay nor the private room (16-character code)
        # scrolls sideways.
        phone = new_page(browser, width=360, height=740)
        for url in (f"{live_server}/replay/{first_match}?step={steps}&viewer=1", link):
            phone.goto(url)
            expect(phone.get_by_test_id("table").locator("*").first).to_be_visible()
            width = phone.evaluate("[document.documentElement.scrollWidth, "
                                   "document.documentElement.clientWidth]")
            assert width[0] <= width[1], (url, width)

        # The replay page and the room in Chinese and Japanese: no untranslated key.
        wanted = {"zh": f"第 0 步，共 {steps} 步", "ja": f"{steps} 手中 0 手目"}
        for lang, step_text in wanted.items():
            for page in (carol, bob):
                page.evaluate("lang => localStorage.setItem('arena.lang', lang)", lang)
                page.reload()
                expect(page.locator("html")).to_have_attribute("lang", re.compile(f"^{lang}"))
            expect(carol.get_by_test_id("replay-step")).to_have_text(step_text)
            expect(bob.get_by_test_id("rc-status")).to_be_visible()
            for page in (carol, bob):
                assert "⟦" not in page.locator("body").inner_text()


def test_a_saved_profile_logs_in_from_a_second_browser(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        first, second = new_page(browser), new_page(browser)
        link = create_rc_room(first, live_server, "Ann")
        code = link.rsplit("/", 1)[1]
        take_seat(first, 0)

        first.get_by_test_id("account-button").click()
        first.get_by_test_id("claim-name").fill("Normal bot")  # the server's own sentence
        first.get_by_test_id("claim-password").fill("correct horse")
        first.get_by_test_id("claim-submit").click()
        expect(first.get_by_test_id("account-error").first).to_have_text(
            "That name belongs to the computer players.")
        first.get_by_test_id("claim-name").fill("Ann")
        with first.expect_navigation():  # a saved profile reloads the page
            first.get_by_test_id("claim-submit").click()
        expect(first.get_by_test_id("my-name")).to_have_text("Ann")
        first.get_by_test_id("account-button").click()
        expect(first.get_by_test_id("account-saved")).to_contain_text("Ann")

        second.goto(f"{live_server}/")
        second.get_by_test_id("account-button").click()
        second.get_by_test_id("login-name").fill("ann")
        second.get_by_test_id("login-password").fill("wrong horse")
        second.get_by_test_id("login-submit").click()
        expect(second.get_by_test_id("account-error").last).to_have_text(
            "Wrong name or password.")
        second.get_by_test_id("login-password").fill("correct horse")
        second.get_by_test_id("login-submit").click()
        expect(second.get_by_test_id("my-name")).to_have_text("Ann")
        mine = second.get_by_test_id("my-rooms")
        expect(mine.locator(f"[data-code='{code}']")).to_have_count(1)
        mine.locator(f"[data-code='{code}'] a").click()
        second.wait_for_url(f"**/room/{code}")
        expect(second.get_by_test_id("mode")).to_have_attribute("data-mode", "player")
        expect(second.get_by_test_id("leave-seat-0")).to_be_visible()
        # The first browser is still logged in as Ann too.
        first.reload()
        expect(first.get_by_test_id("leave-seat-0")).to_be_visible()
        # The "your turn" sound is off by default; switched on, it stays on after a reload.
        toggle = first.get_by_test_id("sound-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        first.reload()
        expect(first.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
