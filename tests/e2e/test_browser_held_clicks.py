"""A press held while something else on the page changes still clicks.

Chromium drops a click whose element left the document between mouse press and release (even
to come back redrawn). The room page's table stays while a frame that leaves the match as it
was arrives (someone starts watching, a chat line); every other redraw of the room page (an
update, a room frame) waits while a press is held on it and comes right after the press's
click (js/press_gate.js), so the press sends exactly the action it was on, answering the
decision its table was drawn for; and the lobby's room lists wait likewise, so a room opened
while a Join is held does not push the pressed row from under the pointer.

The table tests relay the page's room socket through Playwright (``RoomRelay``): the page
asks for whole frames (no patches), every frame it sends is kept, and the test hands the page
frames of its own — the server's last update again (what the server itself sends after a
``stale_prompt`` when nothing changed for the seat), the room frame again — while a press is
held.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.browser import (
    TEXTS,
    axe_problems,
    chromium,
    create_rc_room,
    create_room,
    new_page,
    rc_half_no_monsters,
)
from tests.e2e.test_browser_vs_bot import create_room_against_bots, fast_bots  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

#: Ann's decisions at the start of a Reverse Curse match (who goes first, the mulligan, a card).
DECISION = ("[data-action=choose_order]:enabled, [data-action=mulligan-keep]:enabled, "
            "[data-testid=hand-card]:enabled")

#: Count the clicks that reach an element matching the selector (capture phase, so a table
#: redrawn by the click's own action is counted too) by ``window.nameOf`` (a link's href, else
#: its test id or action); links are not followed.
COUNT_CLICKS = """(selector) => {
  window.nameOf = (el) => el.getAttribute("href") || el.dataset.testid || el.dataset.action;
  window.clicks = [];
  document.addEventListener("click", (event) => {
    const el = event.target.closest(selector);
    if (!el) return;
    window.clicks.push(window.nameOf(el));
    if (el.tagName === "A") event.preventDefault();
  }, true);
}"""


def press(page: Page, selector: str) -> str:
    """Move the mouse to the middle of the first ``selector`` and press (not release) it;
    keep the element as ``window.held``; return its name (``COUNT_CLICKS`` runs first)."""
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    name = target.evaluate("(el) => { window.held = el; return window.nameOf(el); }")
    box = target.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    return name


def test_a_table_button_pressed_while_a_watcher_comes_and_chats_still_clicks(
        fast_bots, live_server, chromium_path):  # noqa: F811
    with chromium(chromium_path) as browser:
        ann, watcher = new_page(browser), new_page(browser)
        create_room_against_bots(ann, live_server, "reverse_curse", "easy")
        link = ann.get_by_test_id("share-link").input_value()
        ann.locator(DECISION).first.wait_for()
        ann.wait_for_timeout(500)  # the bot has answered what it had to: the table stays
        ann.evaluate(COUNT_CLICKS, DECISION)
        ann.evaluate("() => { window.seatRows = [...document.querySelectorAll('#seats .seat')]; }")
        held = press(ann, DECISION)
        watcher.goto(link)  # a presence frame: one more watching
        expect(ann.get_by_test_id("presence")).to_have_text("Watching: 1")
        watcher.locator("#chat-input").fill("hello")
        watcher.locator("#chat-input").press("Enter")  # a chat frame
        expect(ann.get_by_test_id("chat-log").locator(".chat-message .chat-text")).to_have_text(
            ["hello"])
        assert ann.evaluate("() => window.held.isConnected") is True
        # The seats panel, which presence redraws, is patched in place too.
        assert ann.evaluate("() => window.seatRows.map((row) => row.isConnected)") == [True, True]
        ann.mouse.up()
        assert ann.evaluate("() => window.clicks") == [held]


class RoomRelay:
    """The room socket of ``page`` relayed through Playwright (``page.route_web_socket``).

    The page's ``hello`` is sent on without ``patches`` (the server then sends whole updates);
    ``sent`` keeps every frame the page sent (parsed), ``last`` the last welcome/update the
    server sent, ``room`` the last Room JSON it sent, ``errors`` the codes of its error frames;
    ``deliver`` hands the page a frame of the test's own. A socket the page opens again (a restart) replaces the relayed one.
    """

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}
        self.room: dict[str, Any] = {}
        self.errors: list[str] = []
        self.route: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r"/ws/rooms/"), self._open)

    def _open(self, route: WebSocketRoute) -> None:
        server = route.connect_to_server()
        self.route = route

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "hello":
                frame["patches"] = False
            self.sent.append(frame)
            server.send(json.dumps(frame))

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") in ("welcome", "update"):
                self.last = frame
            if frame.get("room"):
                self.room = frame["room"]
            if frame.get("type") == "error":
                self.errors.append(frame["code"])
            route.send(message)

        route.on_message(from_page)
        server.on_message(from_server)

    def deliver(self, frame: dict[str, Any]) -> None:
        """Hand the page ``frame`` as if the server had sent it."""
        assert self.route is not None, "the page opened no room socket"
        self.route.send(json.dumps(frame))

    def acts(self) -> list[dict[str, Any]]:
        """The ``act`` frames the page sent, oldest first."""
        return [frame for frame in self.sent if frame.get("type") == "act"]


def wait_until(page: Page, done: Callable[[], bool], seconds: float = 10) -> None:
    """Let ``page`` run (its relayed frames included) until ``done()``; AssertionError after
    ``seconds``."""
    limit = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < limit, "timed out"
        page.wait_for_timeout(50)


def settle(page: Page, relay: RoomRelay, marker: str) -> None:
    """Hand the page a chat line ``marker`` and wait until it shows: every frame delivered
    before it has been handled (chat frames redraw only the chat, at once)."""
    relay.deliver({"type": "chat", "seat": None, "name": "", "text": marker, "team": False,
                   "at": time.time()})
    expect(page.get_by_test_id("chat-log").locator(".chat-text").last).to_have_text(marker)


def hold_at(page: Page, selector: str) -> None:
    """Press (and hold) the mouse on the middle of the first ``selector``; keep it as
    ``window.held``."""
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    target.evaluate("(el) => { window.held = el; }")
    box = target.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def rc_keep(page: Page) -> dict[str, Any]:
    """Reverse Curse: the page's first decision is the mulligan; return "keep" as an action."""
    page.locator("[data-action=mulligan-keep]:enabled").wait_for()
    return {"type": "mulligan", "card": None}


def discard_turn(page: Page, actions: str) -> None:
    """Answer every other decision the page is asked until it is its turn to discard: "pass"
    where it may pass, else the first of ``actions`` offered (a Zipai seat that can win on a
    discard must: 放炮必胡, and a forced 开舵 has no pass either; the match goes on to the next
    hand)."""
    discard = page.locator("[data-testid=hand-card][data-action=discard]:enabled")
    passing = page.locator(f"{actions}[data-action=pass]:enabled")
    answering = page.locator(f"{actions}:enabled")
    limit = time.monotonic() + 120  # easy bots on a loaded machine
    while not discard.count():
        assert time.monotonic() < limit, "never asked to discard"
        if passing.count():
            passing.first.click()
        elif answering.count():
            answering.first.click()
        page.wait_for_timeout(100)


def zipai_discard(page: Page) -> dict[str, Any]:
    """Zipai: wait for a discard turn; return the discard of the last discardable card."""
    discard_turn(page, "[data-testid=zp-action]")
    card = page.locator("[data-testid=hand-card][data-action=discard]:enabled").last
    return {"type": "discard", "card": card.get_attribute("data-card")}


def mahjong_discard(page: Page) -> dict[str, Any]:
    """Mahjong: wait for a discard turn; return the discard of the last discardable tile."""
    discard_turn(page, "[data-testid=mj-action]")
    tile = page.locator("[data-testid=hand-card][data-action=discard]:enabled").last
    return {"type": "discard", "tile": tile.get_attribute("data-tile")}


#: game -> (the lobby form's options, the control to press, what its action is once asked).
TABLES: dict[str, tuple[Callable[[Page], None], str, Callable[[Page], dict[str, Any]]]] = {
    "reverse_curse": (rc_half_no_monsters, "[data-action=mulligan-keep]:enabled", rc_keep),
    "zipai": (lambda form: None, "[data-testid=hand-card][data-action=discard]:enabled >> nth=-1",
              zipai_discard),
    "mahjong": (lambda form: None, "[data-testid=hand-card][data-action=discard]:enabled >> nth=-1",
                mahjong_discard),
}


def open_against_bots(page: Page, base: str, game: str) -> RoomRelay:
    """Create a room of ``game`` as Ann with easy bots in the other seats, her page's socket
    relayed (``RoomRelay``); return the relay."""
    relay = RoomRelay(page)

    def fill(form: Page) -> None:
        TABLES[game][0](form)
        form.get_by_test_id("bots-select").select_option("easy")

    create_room(page, base, game, "Ann", fill)
    return relay


@contextlib.contextmanager
def rc_mulligan(chromium_path: str, base: str
                ) -> Iterator[tuple[Page, RoomRelay, dict[str, Any], dict[str, Any]]]:
    """Open a Reverse Curse room as Ann against easy bots up to her mulligan; yield her page,
    its relay, the keep action and the update that asked it (a copy)."""
    with chromium(chromium_path) as browser:
        ann = new_page(browser)
        relay = open_against_bots(ann, base, "reverse_curse")
        action = rc_keep(ann)
        ann.wait_for_timeout(300)
        yield ann, relay, action, dict(relay.last)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_press_held_across_an_update_and_a_room_frame_sends_exactly_its_action(
        fast_bots, live_server, chromium_path, game):  # noqa: F811
    with chromium(chromium_path) as browser:
        ann = new_page(browser)
        relay = open_against_bots(ann, live_server, game)
        _, control, asked = TABLES[game]
        action = asked(ann)
        ann.wait_for_timeout(300)  # the bots have answered what they had to: the table stays
        asked_in = dict(relay.last)
        assert action in asked_in["legal"]
        before = len(relay.acts())  # the claims passed on the way
        hold_at(ann, control)
        # What redraws the page: the server's update again (the seat's decision as it was) and
        # its room frame again.
        relay.deliver({**asked_in, "events": []})
        relay.deliver({"type": "room", "room": relay.room})
        settle(ann, relay, "held")
        assert ann.evaluate("() => [window.held.isConnected, document.getElementById('main')"
                            ".dataset.redraw]") == [True, "waiting"]
        ann.mouse.up()
        wait_until(ann, lambda: len(relay.acts()) > before)
        ann.wait_for_timeout(200)  # no second action follows
        assert relay.acts()[before:] == [
            {"type": "act", "prompt": asked_in["prompt"], "action": action}]
        # The page drew the held redraws right after the click.
        expect(ann.locator("#main")).not_to_have_attribute("data-redraw", "waiting")
        assert ann.evaluate("() => window.held.isConnected") is False


def test_space_held_across_an_update_plays_the_focused_control_and_the_focus_stays(
        fast_bots, live_server, chromium_path):  # noqa: F811
    with rc_mulligan(chromium_path, live_server) as (ann, relay, action, asked_in):
        keep = ann.locator("[data-action=mulligan-keep]")
        keep.focus()
        ann.keyboard.down(" ")  # Space clicks a button on its release
        relay.deliver({**asked_in, "events": []})
        settle(ann, relay, "held")
        assert keep.evaluate("(el) => el === document.activeElement") is True
        ann.keyboard.up(" ")
        wait_until(ann, lambda: bool(relay.acts()))
        assert relay.acts() == [{"type": "act", "prompt": asked_in["prompt"], "action": action}]
        # The kept answer is on its way (every control disabled) and then answered (no mulligan
        # any more): the focus stays on the table, and Tab goes on from there, not from the top
        # of the page.
        expect(ann.locator("[data-action=mulligan-keep]")).to_have_count(0)
        assert ann.evaluate("() => document.activeElement.id") == "table"
        ann.keyboard.press("Tab")
        assert ann.evaluate("""() => {
          const table = document.getElementById('table');
          const now = document.activeElement;
          return table.contains(now) || Boolean(table.compareDocumentPosition(now)
                                                & Node.DOCUMENT_POSITION_FOLLOWING);
        }""") is True
        assert axe_problems(ann) == []


def test_a_press_on_a_table_a_newer_decision_replaced_is_refused_and_the_table_is_fresh(
        fast_bots, live_server, chromium_path):  # noqa: F811
    with rc_mulligan(chromium_path, live_server) as (ann, relay, action, current):
        # The page is shown an older decision of the seat, then pressed; the current one comes
        # while the press is held.
        older = current["prompt"].rsplit(".", 1)[0] + ".0123456789abcdef"
        relay.deliver({**current, "prompt": older, "events": []})
        settle(ann, relay, "older")
        hold_at(ann, "[data-action=mulligan-keep]:enabled")
        relay.deliver({**current, "events": []})
        settle(ann, relay, "current")
        ann.mouse.up()
        # The held table answers its own decision: the server refuses it, the page says so
        # and shows the current table, whose keep answers the current decision.
        expect(ann.get_by_test_id("toast").filter(has_text=TEXTS["en"]["error.stale_prompt"])) \
            .to_have_count(1)
        ann.locator("[data-action=mulligan-keep]:enabled").click()
        expect(ann.locator("[data-action=mulligan-keep]")).to_have_count(0)
        assert relay.acts() == [{"type": "act", "prompt": older, "action": action},
                                {"type": "act", "prompt": current["prompt"], "action": action}]
        assert relay.errors == ["stale_prompt"]


def new_room(base: str, name: str, game: str) -> str:
    """Create a room of ``game`` for a new player ``name`` through the API; return its code."""
    player = httpx.post(f"{base}/api/players", json={"name": name}).json()
    room = httpx.post(f"{base}/api/rooms", json={"game": game, "options": {}},
                      headers={"Authorization": f"Bearer {player['token']}"})
    assert room.status_code == 201, room.text
    return str(room.json()["code"])


def test_a_lobby_row_pressed_while_a_newer_room_opens_stays_under_the_pointer_and_clicks(
        live_server, chromium_path):
    with chromium(chromium_path) as browser:
        ann, bob = new_page(browser), new_page(browser)
        older = create_rc_room(ann, live_server, "Ann").rsplit("/", 1)[1]
        bob.goto(f"{live_server}/")
        rows = bob.locator("#open-rooms .room-item")
        expect(rows).to_have_count(1)
        row = f"#open-rooms [data-code=\"{older}\"] a"  # quoted: a code may start with a digit
        bob.evaluate(COUNT_CLICKS, "#open-rooms a")
        press(bob, row)
        where = bob.locator(row).bounding_box()
        newer = new_room(live_server, "Cat", "numgr")  # newest first: it would come above
        while True:  # a refresh (every 4 s) that lists the newer room
            with bob.expect_response(lambda r: "/api/rooms?status=open" in r.url,
                                     timeout=10_000) as listing:
                pass
            if newer in listing.value.text():
                break
        expect(bob.locator("#room-lists")).to_have_attribute("data-redraw", "waiting")
        assert bob.evaluate("() => window.held.isConnected") is True
        assert bob.locator(row).bounding_box() == where
        expect(rows).to_have_count(1)
        bob.mouse.up()
        assert bob.evaluate("() => window.clicks") == [f"/room/{older}?seat=any"]
        # Right after the click, the held refresh shows.
        expect(rows).to_have_count(2)
        assert [rows.nth(i).get_attribute("data-code") for i in range(2)] == [newer, older]
