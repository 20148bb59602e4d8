"""Zipai end to end: a whole match in real browsers, and a seeded hand over real websockets.

Browser (Debian's Chromium under Playwright): Alice creates a one-hand Zipai room in the lobby,
Bob and Carol join through the share link, a fourth context watches. The three play to the end by
clicking the table: win when offered, pass a claim, otherwise discard their rightmost card. The
spectator never sees a hand; after the hand the breakdown shows and the end banner appears on
every page.

Websockets: three clients and a spectator play the server's fixed-seed hand with a fixed policy;
every frame equals the engine's own view for that viewer, no frame shows another seat's hand or
face-down cards, and the hand ends with the result worked out by hand below.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from engine.zipai import GAME
from tests.app.conftest import SEED, arena, db_path, template_db  # noqa: F401 (fixtures)
from tests.app.expect import play_seeded
from tests.e2e.browser import (
    check_finished_table,
    chromium,
    click_first,
    expect_game_over,
    new_page,
    play_to_the_end,
    reason_sentence,
    start_match,
)

#: What a Zipai player clicks, in the order tried: win, pass a claim, discard the rightmost card.
ZP_CLICKABLE = (
    "[data-testid=zp-action][data-action=hu]:enabled",
    "[data-testid=zp-action][data-action=pass]:enabled",
    "[data-testid=hand-card][data-action=discard]:enabled >> nth=-1",
)


def one_hand(page: Page) -> None:
    """Lobby form: the match is a single hand."""
    page.locator("[data-option=hands]").fill("1")


def click_next(page: Page) -> str | None:
    """Click the first offered control of ``ZP_CLICKABLE``; return its selector, or None."""
    return click_first(page, ZP_CLICKABLE)


def dealt(page: Page, seat: int) -> int:
    """The cards ``seat`` was dealt, read from the table before anyone acts: its hand size and
    the cards of its laid groups, less the one card drawn for each laid 扫穿 past the first."""
    size = int(re.search(r"\d+", page.get_by_test_id(f"zp-hand-size-{seat}").inner_text()).group())
    panel = page.get_by_test_id(f"zp-seat-{seat}")
    groups = panel.locator(".zp-group").count()
    laid = panel.locator(".zp-group .zp-card").count()
    return size + laid - max(0, groups - 1)


@pytest.mark.browser
def test_three_players_and_a_spectator_play_zipai_to_the_end(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        alice, bob, carol, watch = (new_page(browser) for _ in range(4))
        start_match(live_server, "zipai", [alice, bob, carol], ["Alice", "Bob", "Carol"], watch,
                    one_hand, ready="zp-status")
        for page in (alice, bob, carol, watch):
            expect(page.get_by_test_id("zp-status")).to_be_visible()
            expect(page.get_by_test_id("zp-stock")).to_be_visible()
            expect(page.get_by_test_id("zp-liang")).to_be_visible()
        for page in (alice, bob, carol):
            expect(page.get_by_test_id("hand")).to_have_count(1)
        expect(watch.get_by_test_id("hand")).to_have_count(0)
        # 61 cards dealt: the dealer holds 21, the others 20. Two or more opening 扫穿 are laid
        # face-down (shown to a spectator as groups of four) and each one past the first drew
        # one more card from the stock; a single one stays in the hand, counted in its size.
        assert sorted(dealt(watch, seat) for seat in range(3)) == [20, 20, 21]

        clicks = len(play_to_the_end([alice, bob, carol], watch, click_next))
        assert clicks >= 1

        expect_game_over((alice, bob, carol, watch))
        for page in (alice, bob, carol, watch):
            expect(page.get_by_test_id("zp-result")).to_be_visible()
            expect(page.get_by_test_id("zp-outcome")).to_be_visible()
        assert watch.get_by_test_id("hand").count() == 0
        totals = [int(re.search(r"\u2212?\d+$", watch.get_by_test_id(f"zp-total-{s}").inner_text())
                      .group().replace("\u2212", "-")) for s in range(3)]
        assert sum(totals) == 0
        # The last hand's payments: "Alice: +2", "Bob: −2", "Carol: 0" (a typographic minus)
        payments = watch.get_by_test_id("zp-result").locator("td").all_inner_texts()
        signed = [re.fullmatch(r".+: ([+\u2212]\d+|0)", cell) for cell in payments]
        assert len(payments) == 3 and all(signed), payments
        assert sum(int(m.group(1).replace("\u2212", "-")) for m in signed if m) == 0
        # A ranking headline for each player: "1st of 3, +2" (place, then the points).
        ranks = {page: page.get_by_test_id("banner-title").inner_text() for page in (alice, bob, carol)}
        for seat, page in enumerate((alice, bob, carol)):
            if totals == [0, 0, 0]:  # a 荒庄 hand: all rank first, a draw
                assert ranks[page] == "Draw"
            else:
                assert re.fullmatch(r"(1st|2nd|3rd) of 3, ([+\u2212]\d+|0)", ranks[page]), ranks[page]
                points = totals[seat]  # a typographic minus, "+" before a gain, none before 0
                shown = f"{points:+d}" if points > 0 else str(points).replace("-", "\u2212")
                assert ranks[page].endswith(f", {shown}")
        check_finished_table([alice, bob, carol], watch, reason_sentence("zipai"))


# ----------------------------------------------------------------------------- websockets

PREFERENCE = ("hu", "kaiduo", "peng", "chi")

# The fixed seed deals seat 1 as dealer. With the policy below the hand takes 34 actions and
# ends when seat 0 discards 五 and seat 1 (who must win: 放炮必胡) wins with
#   吃 陆柒捌 0 + 碰 十十十 (small) 1 + 碰 叁叁叁 (big) 3 + 吃 贰叁肆 0 + 坎 九九九 3 + 一二三 3
#   + 五五 completed by another's 五 (counts as 碰, small) 1 = 11 胡息 → 1 舵 (10–12).
# 点炮, no multiplier. 翻醒: 一 is turned, so 二 is the 醒; seat 1 holds one 二 (in 一二三) → 1.
# Win points (1 × 1 + 1) × stake 1 = 2, paid by seat 0 alone.
SEEDED_ACTIONS = 34
#: The public version at the end: 2 of the 34 answers were hidden (a claim window left open).
SEEDED_PUBLIC = 32
SEEDED_RESULT = {"hand": 1, "dealer": 1, "winner": 1, "huxi": 11, "duo": 1, "factor": 1,
                 "multipliers": [], "xing_count": 1, "points": 2, "payer": 0,
                 "payments": [-2, 2, 0], "win_card": "x5"}


def _policy(state) -> tuple[int, dict]:
    """The lowest seat to act: win, else 开舵/碰/吃 (first listed), else its clock's choice."""
    seat = min(GAME.to_act(state))
    legal = GAME.legal_actions(state, seat)
    for kind in PREFERENCE:
        for action in legal:
            if action["type"] == kind:
                return seat, action
    return seat, GAME.deadline_action(state, seat)


def _assert_private(view: dict, viewer: int | None) -> None:
    """No hand but the viewer's own; another seat's 扫/扫穿 face-down; spectators see no hand."""
    assert (view["me"] is None) == (viewer is None)
    for player in view["players"]:
        assert "hand" not in player
        if player["seat"] == viewer:
            continue
        for group in player["groups"]:
            assert not group["in_hand"]
            if group["kind"] in ("sao", "saochuan"):
                assert group["cards"] == [None] * len(group["cards"])


async def test_three_websocket_clients_play_a_seeded_hand(arena):  # noqa: F811
    people = [await arena.player(name) for name in ("Ann", "Bob", "Cid")]
    room = await arena.room(people[0], {"hands": 1}, game="zipai")
    code = room["code"]
    clients, viewers = await arena.seat_table(code, people)
    watch = viewers[None]
    await watch.until_version(0)

    options = GAME.validate_options({"hands": 1})
    state = GAME.new_game(options, 3, SEED)
    for viewer, client in viewers.items():
        await client.until_version(0)
        assert client.last["view"] == GAME.view(state, viewer)
    state, expect = await play_seeded(GAME, state, clients, viewers, _policy, _assert_private)

    assert (expect.version, expect.public) == (SEEDED_ACTIONS, SEEDED_PUBLIC)
    assert watch.last["version"] == SEEDED_PUBLIC
    result = watch.last["view"]["results"][0]
    assert {key: result[key] for key in SEEDED_RESULT} == SEEDED_RESULT
    assert watch.last["view"]["outcome"]["ranks"] == [3, 1, 2]
