"""A 2v2 Reverse Curse match with monsters in four browser pages plus a spectator.

Four players (each in their own browser context) fill a half-regulation 2v2 room made in the
lobby, a fifth page watches. They click through the match: keep the hand, go first when asked,
recruit in the shop (a cost-0 monster first), summon whenever the button is enabled, play the
first playable card. Checked: team seats in two sides, teammates see each other's hands and
nobody else's, the spectator sees none, the shop shows the offer / energies / who buys first,
at least one recruit and one summon are made, the match ends on every page, the stairs chart
shows the stored sets live and on the match page, and the leaderboard lists all four.

The match seed is fixed (the tests' seed) so that the set-1 shop offers a cost-0 monster:
SPY_EYE, SHARE_BEAR, VEIL_SNAIL, SWITCH_WITCH; the clicks still race inside each team.
"""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    check_finished_table,
    chromium,
    click_first,
    create_room,
    evaluate_on,
    expect_game_over,
    join_seats,
    new_page,
    play_to_the_end,
    rc_two_vs_two,
    reason_sentence,
    seeded_live_server,
    take_seat,
)

pytestmark = pytest.mark.browser

SEED = bytes(range(32))
#: What a player clicks, by priority (the first present and enabled one wins).
PRIORITY = (
    ("continue", "[data-testid=rc-continue]"),
    ("order", "[data-action=choose_order][data-first=true]:enabled"),
    ("keep", "[data-action=mulligan-keep]:enabled"),
    ("summon", "[data-testid=summon]:enabled"),
    ("recruit", "[data-monster=VEIL_SNAIL] [data-action=recruit]:enabled"),
    ("recruit", "[data-monster=SWITCH_WITCH] [data-action=recruit]:enabled"),
    ("recruit", "[data-action=recruit]:enabled"),
    ("play", "[data-testid=hand-card]:enabled"),
    ("pass", "[data-action=pass]:enabled"),
)
#: selector -> the kind of click it makes.
KIND = {selector: kind for kind, selector in PRIORITY}


@pytest.fixture
def seeded_server(monkeypatch, request) -> str:
    """The ``live_server`` with every match dealt from ``SEED``."""
    return seeded_live_server(monkeypatch, request, SEED)


def click_next(page: Page) -> str | None:
    """Click the highest-priority clickable thing; return its kind (or None)."""
    clicked = click_first(page, KIND, visible=False)
    return KIND.get(clicked)


def hand_seats(page: Page) -> set[int]:
    """The seats whose hands the page shows."""
    return {int(seat) for seat in page.locator("[data-testid=hand]").evaluate_all(
        "els => els.map(e => e.dataset.seat)")}


def check_round(players: list[Page], watch: Page, teams: list[set[int]]) -> None:
    """Each player's page shows hands of its own team only (seat n is in ``teams[n % 2]``),
    and an open shop shows the spectator 3 or 4 offers."""
    for seat, page in enumerate(players):
        assert hand_seats(page) <= teams[seat % 2], (seat, hand_seats(page))
    if watch.get_by_test_id("rc-shop").is_visible():
        assert watch.get_by_test_id("shop-offer").count() in (3, 4)


def test_a_2v2_match_with_monsters_in_four_pages_and_a_spectator(seeded_server, chromium_path):
    with chromium(chromium_path) as browser:
        pages = [new_page(browser, 1100, 900) for _ in range(5)]
        players, watch = pages[:4], pages[4]
        names = ["Ann", "Bob", "Cat", "Dan"]
        link = create_room(players[0], seeded_server, "reverse_curse", names[0], rc_two_vs_two)
        take_seat(players[0], 0)
        # Two teams of two seats before the start (seats 1+3 and 2+4, rulings "Formats"), from
        # the room's `teams` (the engine's sides).
        teams_shown = players[0].get_by_test_id("seat-team")
        expect(teams_shown).to_have_count(2)
        first_team = teams_shown.nth(0).locator("[data-seat]")
        expect(first_team).to_have_count(2)
        expect(first_team.nth(0)).to_have_attribute("data-seat", "0")
        expect(first_team.nth(1)).to_have_attribute("data-seat", "2")
        join_seats(link, players[1:], names[1:])
        watch.goto(link)
        for page in pages:
            expect(page.get_by_test_id("rc-status")).to_be_visible()
        # The seed's coin toss: DOWN = seats 0, 2 (Ann, Cat), UP = seats 1, 3 (Bob, Dan).
        expect(watch.get_by_test_id("seat-team")).to_have_count(2)
        down_team = watch.locator("[data-testid=seat-team][data-side=DOWN] [data-seat]")
        expect(down_team).to_have_count(2)
        expect(players[0].get_by_test_id("hand")).to_have_count(2)
        assert hand_seats(players[0]) == {0, 2} and hand_seats(players[1]) == {1, 3}
        expect(watch.get_by_test_id("hand")).to_have_count(0)

        # Keep the hands; the shop then opens for every viewer (DOWN buys first at 0:
        # UP goes first in set 1, so DOWN goes second and shops first).
        for seat in (0, 1):
            players[seat].locator("[data-action=mulligan-keep]").click()
        expect(watch.get_by_test_id("rc-shop")).to_be_visible()
        expect(watch.get_by_test_id("shop-offer")).to_have_count(4)
        expect(watch.get_by_test_id("rc-shop-first")).to_contain_text("DOWN")
        expect(watch.get_by_test_id("rc-energies")).to_contain_text("1/3")
        expect(players[0].locator("[data-action=recruit]")).to_have_count(4)
        expect(players[1].locator("[data-action=recruit]")).to_have_count(0)

        teams = [{0, 2}, {1, 3}]
        counts = Counter(play_to_the_end(players, watch, click_next, 180, "[data-testid=hand]",
                                         lambda: check_round(players, watch, teams)))
        assert counts["recruit"] >= 1 and counts["summon"] >= 1, counts
        expect_game_over(players)
        # The spectator clicks nothing: its banner waits for the last set's step-by-step
        # playback to show every step (12 steps of 0.55 s), so it may take up to ~7 s.
        expect(watch.get_by_test_id("game-over")).to_be_visible(timeout=15_000)

        # The live stairs chart has one point per resolved set, as the history table.
        rows = watch.locator(".rc-history tbody tr")
        points = watch.locator("[data-testid=stairs-point]")
        expect(points).to_have_count(rows.count())
        live = [(p.get_attribute("data-set"), p.get_attribute("data-position"))
                for p in points.all()]
        table = [(r.locator("td").nth(0).inner_text(),
                  r.locator("td").nth(3).inner_text().replace("−", "-").lstrip("+"))
                 for r in rows.all()]
        assert live == table

        # The match page draws the same chart from the stored ladder.
        watch.locator("[data-testid=game-over] a[href^='/matches/']").first.click()
        watch.wait_for_url("**/matches/*")
        stored = watch.locator("[data-testid=stairs-point]")
        expect(stored).to_have_count(len(live))
        assert [(p.get_attribute("data-set"), p.get_attribute("data-position"))
                for p in stored.all()] == live
        expect(watch.get_by_test_id("ladder-set")).to_have_count(len(live))

        # The leaderboard lists the four players, two winners first.
        watch.get_by_test_id("nav-ladders").click()
        watch.wait_for_url("**/ladders*")
        expect(watch.get_by_test_id("ladder-row")).to_have_count(4)
        wins = watch.locator("[data-testid=ladder-row] td[data-col=wins]").all_inner_texts()
        assert wins in (["1", "1", "0", "0"], ["0", "0", "0", "0"])

        # Back in the room (the tab keeps what it received): the same log as the players'.
        watch.goto(link)
        expect(watch.get_by_test_id("game-over")).to_be_visible()
        check_finished_table(players, watch, reason_sentence("reverse_curse"))


UNITS = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const t = i18n.t;
  const monsters = await import("/static/games/rc_monsters.js");
  const chart = await import("/static/games/rc_stairs_chart.js");
  const seats = await import("/static/js/teams.js");
  const view = (more) => ({ phase: "deployment", my_side: "DOWN", side_to_act: "DOWN", turn: 2,
    held: { UP: null, DOWN: "SPY_EYE" }, energy: { UP: 3, DOWN: 0 }, field: [], graveyard: [],
    deck_size: 12, sides: { UP: [1], DOWN: [0] }, hand_sizes: { 0: 5, 1: 6 }, hands: { 0: ["+1"] },
    ...more });
  const play = { seat: 0, legal: [{ type: "play", card: "+1" }] };
  const svg = chart.stairsChart([
    { set: 1, first_side: "UP", result: -6, position_after: -6 },
    { set: 2, first_side: "DOWN", result: 13, position_after: 7 }], { ko: 24, maxSets: 6, t });
  const room = { game: "reverse_curse", teams: [[0, 2, 4], [1, 3, 5]],
    seats: [0, 1, 2, 3, 4, 5].map((seat) => ({ seat, player_id: seat < 3 ? seat + 10 : null,
      name: seat < 3 ? `P${seat}` : null, side: null })) };
  // Once the match started the seats carry their side; the teams stay the room's `teams`.
  const sided = { game: "reverse_curse", teams: [[0, 2], [1, 3]], seats: [0, 1, 2, 3].map(
    (seat) => ({ seat, player_id: seat + 10, name: `P${seat}`, side: seat % 2 ? "UP" : "DOWN" })) };
  const unsided = { ...sided, seats: sided.seats.map((entry) => ({ ...entry, side: null })) };
  return {
    first: [monsters.firstShopper({ position: 5, first_side: "UP" }),
            monsters.firstShopper({ position: -3, first_side: "UP" }),
            monsters.firstShopper({ position: 0, first_side: "UP" }),
            monsters.firstShopper({ position: 0, first_side: "DOWN" })],
    blocks: [
      monsters.summonBlock(view({}), play),
      monsters.summonBlock(view({ energy: { UP: 0, DOWN: 1 } }), play),
      monsters.summonBlock(view({ energy: { UP: 0, DOWN: 1 }, field: [{ face_up: false }] }), play),
      monsters.summonBlock(view({ side_to_act: "UP" }), { seat: 0, legal: [] }),
      monsters.summonBlock(view({ held: { UP: null, DOWN: null } }), play),
      monsters.summonBlock(view({}), { seat: 0, legal: [{ type: "summon" }, ...play.legal] }),
      monsters.summonBlock(view({ held: { UP: null, DOWN: "ROLL_MOLE" }, energy: { UP: 0, DOWN: 3 },
        turn: 1 }), play),
    ],
    points: [...svg.querySelectorAll("[data-testid=stairs-point] circle")].map(
      (c) => [Number(c.getAttribute("cx")).toFixed(1), Number(c.getAttribute("cy")).toFixed(1)]),
    path: svg.querySelector(".stairs-line").getAttribute("d"),
    ko: [...svg.querySelectorAll("[data-testid=stairs-ko-line] line")].map(
      (l) => l.getAttribute("y1")),
    firsts: [...svg.querySelectorAll("[data-testid=stairs-first]")].map((e) => e.textContent),
    teams: seats.seatTeams(room).map((team) => team.seats.map((entry) => entry.seat)),
    teamText: seats.teamSeatsText(room, t),
    solo: seats.seatTeams({ game: "reverse_curse", teams: [[0], [1]], seats: [{ seat: 0 }, { seat: 1 }] }),
    bySide: seats.seatTeams(sided).map((team) => [team.side, team.seats.map((entry) => entry.seat)]),
    unsided: seats.seatTeams(unsided).map((team) => [team.side, team.seats.map((entry) => entry.seat)]),
  };
}"""


def test_shop_summon_chart_and_team_helpers(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/ladders", UNITS)
    # Rulings "Match flow" 5: the side behind shops first (position > 0 favours UP, so DOWN is
    # behind); at 0 the side going second.
    assert got["first"] == ["DOWN", "UP", "DOWN", "UP"]
    # SPY EYE costs 1; with 1 energy it still needs a face-down top card; ROLL MOLE never on T1.
    assert got["blocks"] == ["not_enough_energy", "rule.SPY_EYE", "not_allowed", "not_your_turn",
                         "no_monster", None, "rule.ROLL_MOLE"]
    # Plot 40..344 × 18..186 px: x = 40 + set/6 · 304; y = 18 + (24 − position)/48 · 168.
    assert got["points"] == [["90.7", "123.0"], ["141.3", "77.5"]]
    assert got["path"] == "M40.0,102.0 L90.7,123.0 L141.3,77.5"
    assert got["ko"] == ["18", "186"]
    assert got["firsts"] == ["▲", "▼"]
    assert got["teams"] == [[0, 2, 4], [1, 3, 5]]
    assert got["teamText"] == "Team 1: P0, P2 · Team 2: P1"
    assert got["solo"] is None
    assert got["bySide"] == [["DOWN", [0, 2]], ["UP", [1, 3]]]
    assert got["unsided"] == [[None, [0, 2]], [None, [1, 3]]]
