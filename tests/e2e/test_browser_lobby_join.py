"""The lobby's "Join" seats the player (``/room/{code}?seat=any``), in Debian's Chromium.

An open room's "Join" opens its page with ``?seat=any``: the page asks a player without a name
for one (the "Take seat" dialog), takes the first free seat, and drops the parameter from the
address, so a reload only watches. A room whose match has started refuses the seat with the
"Take seat" refusal, without the name dialog, and the page stays a spectator's. A live room's
"Watch", and "Open" on an open room where the player holds a seat, are bare links to the room
page.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.browser import (
    chromium,
    create_room,
    give_name,
    new_page,
    rc_two_vs_two,
    take_seat,
)

pytestmark = pytest.mark.browser


def test_join_takes_the_first_free_seat_once_and_a_started_room_refuses_it(
        live_server, chromium_path):
    with chromium(chromium_path) as browser:
        ann, bob, cat, dan = (new_page(browser) for _ in range(4))
        link = create_room(ann, live_server, "reverse_curse", "Ann", rc_two_vs_two)
        code = link.rsplit("/", 1)[1]  # Ann holds seat 1 of 4

        bob.goto(f"{live_server}/")
        join = bob.locator(f"#open-rooms [data-code=\"{code}\"] a")
        expect(join).to_have_text("Join")
        assert join.get_attribute("href") == f"/room/{code}?seat=any"
        join.click()
        give_name(bob, "Bob")  # a page without a player is asked for a name first
        expect(bob.get_by_test_id("leave-seat-1")).to_be_visible()
        expect(bob.get_by_test_id("mode")).to_have_text("You are playing in seat 2.")
        assert bob.url == link  # the parameter is gone

        bob.get_by_test_id("leave-seat-1").click()
        expect(bob.get_by_test_id("take-seat-1")).to_be_visible()
        bob.reload()  # no parameter left: the reload only watches
        expect(bob.get_by_test_id("conn-status")).to_have_text("Connected")
        expect(bob.get_by_test_id("take-seat-1")).to_be_visible()
        expect(bob.get_by_test_id("mode")).to_have_text(
            "Take a free seat to play, or stay to watch.")
        assert bob.url == link
        take_seat(bob, 3)
        bob.goto(f"{live_server}/")  # a room where Bob holds a seat: "Open", not "Join"
        mine = bob.locator(f"#open-rooms [data-code=\"{code}\"] a")
        expect(mine).to_have_text("Open")
        assert mine.get_attribute("href") == f"/room/{code}"
        mine.click()  # back in the room, still in seat 4
        expect(bob.get_by_test_id("leave-seat-3")).to_be_visible()
        assert bob.url == link

        cat.goto(f"{live_server}/")  # the first free seat is seat 2 (index 1), not seat 3
        cat.locator(f"#open-rooms [data-code=\"{code}\"] a").click()
        give_name(cat, "Cat")
        expect(cat.get_by_test_id("leave-seat-1")).to_be_visible()
        expect(cat.get_by_test_id("mode")).to_have_text("You are playing in seat 2.")
        expect(cat.locator(".seat[data-seat='3'] .seat-name")).to_have_text("Bob")

        ann.get_by_test_id("room-fill-bots").click()  # the last seat: the match starts
        expect(bob.get_by_test_id("rc-status")).to_be_visible()
        dan.goto(f"{live_server}/")
        watch = dan.locator(f"#live-rooms [data-code=\"{code}\"] a")
        expect(watch).to_have_text("Watch")
        assert watch.get_attribute("href") == f"/room/{code}"

        dan.goto(f"{link}?seat=any")  # a Join link opened after the start: refused, no dialog
        expect(dan.get_by_test_id("toast")).to_have_text(
            "Error: The room is no longer open for seats.")
        expect(dan.get_by_test_id("mode")).to_have_text(
            "You are watching this match as a spectator.")
        assert dan.url == link
        expect(dan.get_by_test_id("name-input")).to_have_count(0)
        expect(dan.get_by_test_id("my-name")).to_have_count(0)
