"""The room's chat is there for whoever comes later: a reloaded page and a spectator opening the
link show the lines said before (the server's ``chat_history``), each once, drawn as live
lines. In a 2v2 room a seated player may talk to their own team only, before the start too;
the choice stays until unchecked and the form says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.browser import (
    chromium,
    create_rc_room,
    create_room,
    join_seats,
    new_page,
    rc_two_vs_two,
)

pytestmark = pytest.mark.browser


def chat(page: Page, text: str) -> None:
    """Send ``text`` from the room page's chat box (once its socket is connected)."""
    expect(page.get_by_test_id("conn-status")).to_have_text("Connected")
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")


def texts_of(page: Page) -> Locator:
    """The room page's chat lines' texts (not the system lines), as a locator."""
    return page.get_by_test_id("chat-log").locator(".chat-message .chat-text")


def test_a_reloaded_page_and_a_late_spectator_show_the_earlier_lines(live_server,
                                                                     chromium_path):
    with chromium(chromium_path) as browser:
        ann = new_page(browser)
        link = create_rc_room(ann, live_server, "Ann")
        texts = texts_of(ann)
        chat(ann, "hello")
        expect(ann.locator("#team-label")).to_be_hidden()  # 1v1: nobody to talk to apart
        expect(texts).to_have_text(["hello"])
        ann.reload()
        expect(texts).to_have_text(["hello"])
        expect(ann.get_by_test_id("chat-log").locator(".chat-message .chat-name")).to_have_text(
            ["Ann"])
        watcher = new_page(browser)
        watcher.goto(link)
        watched = texts_of(watcher)
        expect(watched).to_have_text(["hello"])
        chat(watcher, "good luck")
        for lines in (texts, watched):
            expect(lines).to_have_text(["hello", "good luck"])
        ann.reload()
        expect(texts).to_have_text(["hello", "good luck"])


def said(page: Page) -> list[list[str]]:
    """The chat lines a room page shows: [team tag?, name, text] each, oldest first."""
    return page.get_by_test_id("chat-log").locator(".chat-message").evaluate_all(
        "items => items.map((li) => [...li.querySelectorAll('.team-tag, .chat-name, .chat-text')]"
        ".map((el) => el.textContent))")


def expect_audience(page: Page, team: bool) -> None:
    """The chat form says who reads the next line: the own team (checked) or everyone."""
    expect(page.locator("#chat-team")).to_be_checked(checked=team)
    expect(page.get_by_test_id("chat-send")).to_have_text("Send to team" if team else "Send")
    expect(page.locator("#chat-input")).to_have_attribute(
        "placeholder", "Message your team…" if team else "Say something…")


def test_team_chat_before_the_start_stays_chosen_and_says_so(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        ann, bob, cat, watch = (new_page(browser) for _ in range(4))
        link = create_room(ann, live_server, "reverse_curse", "Ann", rc_two_vs_two)
        join_seats(link, [bob, cat], ["Bob", "Cat"])  # seats 2 and 3; seat 4 (Bob's mate) empty
        watch.goto(link)
        expect(watch.get_by_test_id("conn-status")).to_have_text("Connected")
        # Seats 1+3 (Ann, Cat) against 2+4 (Bob, an empty seat): every seated player may
        # talk to their team before the start; a spectator has no team.
        for page in (ann, bob, cat):
            expect(page.locator("#team-label")).to_be_visible()
            expect_audience(page, team=False)
        expect(watch.locator("#team-label")).to_be_hidden()

        ann.locator("#chat-team").check()
        expect_audience(ann, team=True)
        chat(ann, "psst")
        expect(ann.locator("#chat-input")).to_have_value("")
        expect_audience(ann, team=True)  # still to the team, and the form says so
        chat(ann, "go second")
        for page in (ann, cat):
            expect(texts_of(page)).to_have_text(["psst", "go second"])
        assert said(cat) == [["team", "Ann", "psst"], ["team", "Ann", "go second"]]

        ann.locator("#chat-team").uncheck()
        expect_audience(ann, team=False)
        chat(ann, "hello all")
        for page in (ann, bob, cat, watch):
            expect(texts_of(page).last).to_have_text("hello all")
        assert said(cat) == [["team", "Ann", "psst"], ["team", "Ann", "go second"],
                             ["Ann", "hello all"]]
        assert said(bob) == said(watch) == [["Ann", "hello all"]]
