"""The room's options line on a phone, in Debian's Chromium.

At 360 px the line under the room's title is cut to one line; a "More" button (a disclosure:
``aria-expanded``, ``aria-controls``) unfolds the whole line and "Less" folds it again, by
pointer and by keyboard. The button shows only while the line is cut: not at a desktop's width,
not when the line fits; it follows a resize of the window, and an unfolded line stays whole when
its text changes (the match ends: "Playing" becomes "Finished"). axe-core finds no serious or
critical problem with the line folded or unfolded.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.browser import axe_problems, chromium, new_page, resign
from tests.e2e.test_browser_i18n import open_room, started_room

pytestmark = pytest.mark.browser

#: The options line of a started half-regulation Reverse Curse room (``started_room``).
OPTIONS = "Regulation: Half (3 sets, K.O. at 12) · Format: 1 vs 1 · Monsters and shop: On"


def cut(line: Locator) -> bool:
    """Whether the browser shows less than the whole of ``line`` (its text overflows its box)."""
    return line.evaluate("el => el.scrollHeight > el.clientHeight + 1")


def line_and_button(page: Page) -> tuple[Locator, Locator]:
    """The room's options line and its "More" / "Less" button."""
    return page.locator("#room-sub"), page.get_by_test_id("room-sub-toggle")


def expect_folded(page: Page) -> None:
    """The line is cut to one line and the button offers "More"."""
    line, button = line_and_button(page)
    expect(button).to_be_visible()
    expect(button).to_have_text("More")
    expect(button).to_have_attribute("aria-expanded", "false")
    assert cut(line)


def expect_unfolded(page: Page) -> None:
    """The whole line shows (on more than one line) and the button offers "Less"."""
    line, button = line_and_button(page)
    expect(button).to_have_text("Less")
    expect(button).to_have_attribute("aria-expanded", "true")
    assert not cut(line)
    assert line.evaluate("el => el.clientHeight > 1.5 * parseFloat(getComputedStyle(el).lineHeight)")


def test_the_options_line_unfolds_on_a_phone(live_server, chromium_path):
    code, player = started_room(live_server, "reverse_curse")
    short_code, short_player = started_room(live_server, "civilization")  # "Playing" alone
    with chromium(chromium_path) as browser:
        phone = new_page(browser, width=360, height=740)
        phone.goto(f"{live_server}/")  # the site's localStorage, for open_room
        open_room(phone, live_server, code, player)
        line, button = line_and_button(phone)
        expect(line).to_have_text(f"Playing · {OPTIONS}")
        expect(button).to_have_attribute("aria-controls", "room-sub")
        expect_folded(phone)
        assert axe_problems(phone) == []

        button.click()
        expect_unfolded(phone)
        assert axe_problems(phone) == []
        button.click()
        expect_folded(phone)
        # By keyboard: the button takes the focus (with the ring of every control), Enter and
        # Space unfold and fold.
        button.focus()
        phone.keyboard.press("Enter")
        expect_unfolded(phone)
        assert button.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
        phone.keyboard.press("Space")
        expect_folded(phone)

        # The window grows to a desktop's width: the whole line shows, no button; a phone's
        # width again: folded, with its button.
        phone.set_viewport_size({"width": 1280, "height": 900})
        expect(button).to_be_hidden()
        assert not cut(line)
        phone.set_viewport_size({"width": 360, "height": 740})
        expect_folded(phone)

        # The match ends while the line is unfolded: the new text shows whole, still unfolded.
        button.click()
        resign(phone)
        expect(line).to_have_text(f"Finished · {OPTIONS}")
        expect_unfolded(phone)

        # A line that fits a phone has no button.
        open_room(phone, live_server, short_code, short_player)
        expect(line).to_have_text("Playing")
        expect(button).to_be_hidden()
        assert not cut(line)

        desktop = new_page(browser, width=1280, height=900)
        desktop.goto(f"{live_server}/")
        open_room(desktop, live_server, code, player)
        line, button = line_and_button(desktop)
        expect(line).to_have_text(f"Finished · {OPTIONS}")
        expect(button).to_be_hidden()
        assert not cut(line)
