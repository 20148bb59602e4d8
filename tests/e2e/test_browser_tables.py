"""Tables players can follow, in Debian's Chromium: the move log, the last move, outcomes in words,
who left, seat colours, the ladder, the small things, fonts and accessibility.

One server for the module (fixed seed; a ``ManualClock``, so no clock runs out unless a test moves
it) and one browser. Rooms are set up through the REST API; everything checked is what a page
shows. The games' own end-to-end tests (``test_browser_<game>.py``) add, for every table, the
checks of ``browser.check_finished_table`` (the same log for every viewer, the replay telling the
same lines, the reason in words, axe).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from engine.registry import GAMES
from tests.conftest import threaded_server
from tests.e2e.browser import (
    TEXTS,
    axe_problems,
    chromium,
    click_first,
    log_lines,
    new_page,
    resign,
    styles_loaded,
)
from tests.e2e.engine_reasons import outcome_reasons

pytestmark = pytest.mark.browser

SEED = bytes(range(100, 132))
LOCALES = {"en": "en-US", "zh": "zh-CN", "ja": "ja-JP"}
SEATS = {"reverse_curse": 2, "zipai": 3, "grid_reversal": 2, "numgr": 2, "civilization": 2}


class Site:
    """The module's server: its URL, its clock, and REST helpers that act as a player."""

    def __init__(self, base: str, clock) -> None:
        self.base, self.clock = base, clock

    def player(self, name: str) -> dict:
        return httpx.post(f"{self.base}/api/players", json={"name": name}).json()

    def room(self, creator: dict, game: str, options: dict | None = None, seated: list | None = None,
             **settings) -> str:
        """A room of ``game`` made by ``creator``; ``seated[n]`` takes seat n. Returns the code."""
        room = httpx.post(f"{self.base}/api/rooms", headers=auth(creator),
                          json={"game": game, "options": options or {}, **settings})
        code = room.json()["code"]
        for seat, person in enumerate(seated or []):
            answer = httpx.post(f"{self.base}/api/rooms/{code}/seats/{seat}", headers=auth(person))
            assert answer.status_code == 200, answer.text
        return code

    def bots(self, creator: dict, code: str, level: str = "easy") -> None:
        answer = httpx.post(f"{self.base}/api/rooms/{code}/bots", json={"level": level}, headers=auth(creator))
        assert answer.status_code == 200, answer.text

    def open(self, browser: Browser, path: str, player: dict | None = None, width: int = 1280,
             height: int = 900, lang: str = "en") -> Page:
        """A new page (its own context) of ``path``, as ``player`` (or a guest), in ``lang``."""
        page = new_page(browser, width, height, LOCALES[lang])
        page.goto(f"{self.base}/healthz")
        if player:
            page.evaluate("p => localStorage.setItem('arena.player', JSON.stringify(p))", player)
        page.goto(f"{self.base}{path}")
        return page


def auth(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['token']}"}


def table_ready(page: Page) -> None:
    page.locator("#table[data-game]:not([data-game=''])").wait_for()


def hand_numgr_turn_over(page: Page, to: int = 1) -> None:
    """On a NumGR room page of the seat other than ``to``, end that seat's steps until the turn
    is seat ``to``'s (its clock then runs)."""
    status = page.get_by_test_id("ng-status")
    for _ in range(6):
        if status.get_attribute("data-current") == str(to):
            break
        click_first(page, ("[data-testid=ng-end-step]:enabled", "[data-testid=ng-keep]:enabled"))
        page.wait_for_timeout(200)
    expect(status).to_have_attribute("data-current", str(to))


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    import tempfile
    from pathlib import Path

    from app.main import create_app
    from app.rooms.clocks import ManualClock
    from app.settings import Settings

    folder = Path(tempfile.mkdtemp(prefix="tables-"))
    clock = ManualClock(start=time.time())
    settings = Settings(database_url=f"sqlite+aiosqlite:///{folder / 'arena.db'}", redis_url=None,
                        players_per_minute=0, rooms_per_minute=0)
    with threaded_server(create_app(settings, clock=clock, seed_source=lambda: SEED)) as base:
        yield Site(base, clock)


@pytest.fixture(scope="module")
def browser(chromium_path) -> Iterator[Browser]:
    with chromium(chromium_path) as shared:
        yield shared


# ----------------------------------------------------------------------------- pure texts

LOG_LINES = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const t = i18n.t;
  const players = [{ seat: 0, name: "Alice" }, { seat: 1, name: "Bob" }, { seat: 2, name: "Carol" }];
  const ctx = { t, players, seat: null, legal: [], events: [] };
  const mod = (game) => import(`/static/games/${game}.js`);
  const E = (kind, data) => ({ kind, data });
  const [rc, zp, gr, ng, civ] = await Promise.all(
    ["reverse_curse", "zipai", "grid_reversal", "numgr", "civilization"].map(mod));
  const row = { row: [{ card: 0, slots: [{ slot: "hunting", faces: 0 }, { slot: "weaving", faces: 1 }] },
    { card: 7, slots: [{ slot: "kingship", faces: 1 }, { slot: "learning", faces: 0 }] }] };
  const log = await import("/static/js/move_log.js");
  const locked = E("stack_played", { seat: 0, id: 4, main: "2atk", base: "0atk", mode: null, base_mode: null,
    copy: null, lock: 3 });
  return {
    rc: rc.logLines([
      E("order_chosen", { side: "UP", first: true, first_side: "UP" }),
      E("mulligan_chosen", { side: "UP", seat: 0, card: "+2" }),
      E("mulligan_done", { sent: [{ side: "DOWN", card: "DOUBLE_BUBBLE" }] }),
      E("card_played", { turn: 1, seat: 0, side: "UP", face_up: true, card: "-2" }),
      E("card_played", { turn: 2, seat: 1, side: "DOWN", face_up: false, card: null }),
      E("summoned", { side: "UP", seat: 0, monster: "SPY_EYE" }),
      E("monster_effect", { monster: "SPY_EYE", turn: 2, card: "ECHO_FLOW" }),
      E("card_drawn", { seat: 0, card: "+3" }),
      E("set_resolved", { set: 1, result: -5, position_after: -5, steps: [] })], ctx),
    zp: zp.logLines([
      E("hand_started", { hand: 1, dealer: 2, liangzhang: "x6" }),
      E("drawn", { seat: 0, card: "d3" }), E("drawn_own", { seat: 1, card: "x1", forced: "sao" }),
      E("drawn", { seat: 1, card: null, forced: "sao" }),
      E("claimed", { seat: 1, kind: "chi", cards: ["x2", "x3", "x4"], bi: [] }),
      E("discarded", { seat: 1, card: "x10" }), E("to_pile", { seat: 1, card: "x10" }),
      E("hand_over", { hand: 1, winner: 2, huxi: 24, points: 14 }),
      E("hand_over", { hand: 2, winner: 0, huxi: 10, points: 1 })], ctx),
    gr: gr.logLines([
      E("mother_chosen", { seat: 0, card: "3" }),
      E("mothers_revealed", { mothers: [{ seat: 0, cell: [5, 2], value: 3 }, { seat: 1, cell: [0, 2], value: 2 }] }),
      E("drew", { seat: 0, count: 2 }), E("drew_cards", { seat: 0, cards: ["4", "BAN"] }),
      E("placed", { seat: 0, card: "4", cell: [2, 2] }),
      E("fired", { wave: 1, seat: 0, cells: [[2, 2], [3, 2]], hot: null, spent: true, mother_flipped: false,
        flips: [{ cell: [1, 2], value: 1, from: 1 }, { cell: [1, 1], value: 2, from: 1 }] }),
      E("effect_played", { seat: 1, card: "BOMB", action: { type: "bomb", cell: [0, 1] } }),
      E("window_closed", { card: "BOMB", bans: 0, cancelled: false }),
      E("bombed", { seat: 1, cell: [0, 1], owner: 1, value: 3 }),
      E("stage_ended", { seat: 1 })], ctx),
    ng: ng.logLines([
      E("turn_started", { seat: 0, turn: 3 }),
      E("stack_discarded", { id: 1, area: 0, cards: ["1def"] }), E("stack_discarded", { id: 2, area: 0, cards: ["3any"] }),
      E("stack_played", { seat: 0, id: 4, main: "2atk", base: "0atk", mode: null, base_mode: null, copy: null, lock: null }),
      E("stack_played", { seat: 0, id: 5, main: "Tdef", base: null, mode: null, base_mode: null, copy: null, lock: null }),
      E("card_held", { id: 5, card: "3rem" }),
      E("hp_check", { seat: 1, attack: 3, unstoppable: 1, defense: 2, defense_circle: 0, lost: true, hp: 1 }),
      E("cards_drawn", { seat: 0, count: 1 }), E("cards_drawn_private", { seat: 0, cards: ["Aatk"] })], ctx),
    civ: civ.logLines([
      E("main_action", { seat: 0, action: { type: "place", card: 0, resolve: true } }),
      E("forced", { seat: 0, step: "pay", action: { type: "pay", resource: "meat" } }),
      E("main_action", { seat: 1, action: { type: "place", card: 1, resolve: false } }),
      E("decision", { seat: 1, step: "rotate", action: { type: "rotate", card: 1 } }),
      E("main_action", { seat: 0, action: { type: "leader", card: 1 } }),
      E("cleanup", { round: 1, rotated: [1] }), E("round_started", { round: 2, start_player: 1 })],
      { ...ctx, memo: civ.logMemo(row) }),
    timeout: log.batchLines(gr, [E("timeout", { seat: 1 }), E("stage_ended", { seat: 1 })], ctx),
    zh: (await i18n.loadLocale("zh"), gr.logLines([E("placed", { seat: 0, card: "4", cell: [2, 2] }),
      E("fired", { wave: 1, seat: 0, cells: [], hot: null, spent: false, mother_flipped: true,
        flips: [{ cell: [1, 2], value: 1, from: 1 }] })], ctx)),
    zh_ng: ng.logLines([locked], ctx),
    ja: (await i18n.loadLocale("ja"), rc.logLines([E("card_played", { turn: 5, seat: 1, side: "DOWN", face_up: true, card: "+3" })], ctx)),
    ja_ng: ng.logLines([locked], ctx),
  };
}"""


def test_every_table_words_its_events_and_logs_no_hidden_answer(site, browser):
    page = site.open(browser, "/history")
    page.locator("#main").wait_for()
    got = page.evaluate(LOG_LINES)
    assert got["rc"] == [
        "▲ UP chose to go first.",
        "Mulligan: ▲ UP kept its hand.",  # UP's own answer (+2) stays hidden: only that UP kept
        "Mulligan: ▼ DOWN sent ×2 Double Bubble to the graveyard.",
        "Alice played −2 face-up (T1).",
        "Bob played a card face-down (T2).",
        "Alice summoned Spy Eye.",
        "Spy Eye turned T2 face-up: ↑↑ Echo Flow.",
        "Set 1 resolved: −5, position −5.",
    ]
    assert got["zp"] == [
        "Hand 1: Carol deals; 亮张 六 (small 6).",
        "Alice turned up 叁 (big 3) from the stock.",
        "Bob drew a card and laid it face-down: 扫 sao.",  # the drawer's own card: not named
        "Bob claimed 二三四 (吃 eaten).",
        "Bob discarded 十 (small 10).",
        "Nobody took 十 (small 10): it goes to Bob's pile.",
        "Hand 1: Carol won with 24 胡息 (14 points).",
        "Hand 2: Alice won with 10 胡息 (1 point).",  # one point, not "1 points"
    ]
    assert got["gr"] == [
        "Mother cards: Alice 3 on C6, Bob 2 on C1.",
        "Alice drew 2 cards.",  # not which: drew_cards is Alice's alone
        "Alice placed 4 on C3 — flipped 2 cards.",
        "Bob played Bomb 炸弹 on B1.",
        "The bomb removed Bob's 3 from B1.",
        "Bob ended the stage.",
    ]
    assert got["ng"] == [
        "Turn 3: Alice.",
        "Clean-up: #1, #2 left the table.",
        "Alice played △2 #4 (on △0).",
        "Alice played ○θ #5 (holding a face-down card).",  # the held card (3rem) stays hidden
        "HP check: Bob faced 4 against 2 — lost 1 HP.",
        "Alice drew 1 card.",
    ]
    assert got["civ"] == [
        "Alice used 狩猎 Hunting.",
        "Alice paid 1 meat.",
        "Bob put a worker on 王权 Kingship without using it.",
        "Bob turned #7 round.",
        "Alice placed a leader on #7.",
        "Clean-up: 1 card turned round.",
        "Round 2: Bob starts.",
    ]
    assert got["timeout"] == ["Bob's time ran out: the server played for them.", "Bob ended the stage."]
    assert got["zh"] == ["Alice 把 4 放在 C3——逆转了 1 张牌——母牌被逆转。"]
    # The details of a NumGR play in the page's own brackets and separators.
    assert got["zh_ng"] == ["Alice 打出 △2 #4（压在 △0 上，封锁 #3）。"]
    assert got["ja_ng"] == ["Alice が △2 #4 を出しました（△0 の上、#3 を封鎖）。"]
    assert got["ja"] == ["Bob が +3 を表向きで出しました（T5）。"]


OUTCOMES = """async (reasons) => {
  const i18n = await import("/static/js/i18n.js");
  const { renderBanner } = await import("/static/js/banner.js");
  const { resultText, rankHeadline } = await import("/static/js/outcome.js");
  const seats = [{ seat: 0, player_id: 1, name: "Alice" }, { seat: 1, player_id: 2, name: "Easy bot", bot_level: "easy" }];
  const out = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    out[lang] = reasons.map(([game, reason]) => {
      const outcome = { ranks: [1, 2], reason, winners: [0], draw: false, detail: {} };
      const el = document.createElement("div");
      renderBanner(el, { view: { outcome }, room: { game, seats, status: "finished", match_id: 5 }, seat: null });
      return [el.querySelector("[data-testid=banner-reason]").textContent,
        resultText({ game, status: "finished", outcome, seats })];
    });
    const ranking = { ranks: [2, 1, 3], reason: "decision", winners: [1], draw: false, detail: { totals: [0, 12, -12] } };
    const el = document.createElement("div");
    renderBanner(el, { view: { outcome: ranking }, room: { game: "zipai", seats, status: "finished", match_id: 5 }, seat: 0 });
    out[`${lang}_rank`] = [el.querySelector("[data-testid=banner-title]").textContent, el.dataset.result,
      rankHeadline(ranking, 2, -12)];
    out[`${lang}_bot`] = resultText({ game: "zipai", status: "finished", seats,
      outcome: { ranks: [2, 1], reason: "resign", winners: [1], draw: false, detail: {} } });
  }
  await i18n.loadLocale("en");
  const { nameOfSeat } = await import("/static/js/bots.js");
  const kit = await import("/static/games/kit.js");
  const bots = [0, 1].map((seat) => ({ seat, player_id: 7 + seat, name: "Normal bot", bot_level: "normal" }));
  const three = [...bots, { seat: 2, player_id: 1, name: "Ann" }];
  out.twins = [nameOfSeat(three, 1), nameOfSeat(three, 2),
    kit.seatName({ t: i18n.t, players: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Ann" }, { seat: 2, name: "Bo" }] }, 0),
    kit.seatLabel({ t: i18n.t, seat: 2, players: [{ seat: 0, name: "Bo" }, { seat: 2, name: "Bo" }] }, 2)];
  const { minus, signed } = await import("/static/js/numbers.js");
  const { ratingText } = await import("/static/js/rating.js");
  out.numbers = [signed(3), signed(0), signed(-2), minus(7), minus(-2), ratingText(-3.24),
    ratingText(21.36), ratingText(0)];
  return out;
}"""


def test_every_outcome_reason_reads_as_a_sentence_in_three_languages(site, browser):
    reasons = sorted((game, reason) for game in GAMES for reason in outcome_reasons(GAMES[game])[0])
    page = site.open(browser, "/history")
    page.locator("#main").wait_for()
    got = page.evaluate(OUTCOMES, [list(pair) for pair in reasons])
    for lang in ("en", "zh", "ja"):
        table = TEXTS[lang]
        for (game, reason), (banner, result) in zip(reasons, got[lang], strict=True):
            sentence = table.get(f"outcome.reason.{game}.{reason}", table.get(f"outcome.reason.{reason}"))
            if reason == "resign":  # a player's own resign names who resigned (the last-ranked seat)
                sentence = table["outcome.resigned"].replace("{name}", table["bots.name.easy"])
            elif f"outcome.reason.{game}.{reason}.loser" in table:  # names the loser (NumGR ko)
                sentence = table[f"outcome.reason.{game}.{reason}.loser"].replace("{name}", table["bots.name.easy"])
            assert banner == sentence, (lang, game, reason)
            assert result == table["outcome.won_by"].replace("{names}", "Alice").replace("{reason}", sentence)
    # Points as every table writes them (frontend/js/numbers.js): "+12", "0", "−12" (U+2212).
    assert got["en_rank"] == ["2nd of 3, 0", "placed", "3rd of 3, \u221212"]
    assert got["zh_rank"] == ["3 人中第 2 名，0 分", "placed", "3 人中第 3 名，\u221212 分"]
    assert got["ja_rank"] == ["3 人中 2 位、0 点", "placed", "3 人中 3 位、\u221212 点"]
    # Namesakes read apart by their seat (three "Normal bot"s, two Anns), a single name as is.
    assert got["twins"] == ["Normal bot · Seat 2", "Ann", "Ann · Seat 1", "Bo · Seat 3 (you)"]
    assert got["numbers"] == ["+3", "0", "\u22122", "7", "\u22122", "\u22123.2", "21.4", "0.0"]
    # Bot names in the page's language (the history and match pages use the same helper).
    assert got["en_bot"] == "Easy bot won. Alice resigned."
    assert got["zh_bot"].startswith(TEXTS["zh"]["bots.name.easy"])
    assert got["ja_bot"].startswith(TEXTS["ja"]["bots.name.easy"])


SYSTEM_LINES = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const { PresenceWatch, seatLines } = await import("/static/js/presence_lines.js");
  const ids = { Alice: 1, Bob: 2, Cat: 3, "Normal bot": 9 };
  const room = (status, names) => ({ code: "r", status, seats: names.map((name, seat) => ({
    seat, player_id: name ? ids[name] : null, name, side: null,
    bot_level: name === "Normal bot" ? "normal" : null })) });
  const lines = [];
  const watch = new PresenceWatch((more) => lines.push(...more), 0);
  const playing = room("playing", ["Alice", "Bob"]);
  watch.change(playing, [0, 1]);
  watch.change(playing, [0]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const away = watch.away(1);
  watch.change(playing, [0, 1]);
  watch.change(playing, [0]);      // gone and back within the grace: nothing said
  watch.change(playing, [0, 1]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const over = room("finished", ["Alice", "Bob"]);
  watch.change(over, [0]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { lines, away, back: watch.away(1),
    seats: [...seatLines(room("playing", ["Alice", "Bob"]), room("playing", ["Alice", "Normal bot"])),
      ...seatLines(room("open", ["Alice", "Bob"]), room("open", ["Alice", null])),
      ...seatLines(room("open", ["Alice", null]), room("open", ["Alice", "Cat"]))],
    // Standing up before the start frees the seat; the player may still be watching.
    stood: await (async () => {
      const stood = [];
      for (const lang of ["en", "zh", "ja"]) {
        await i18n.loadLocale(lang);
        stood.push(seatLines(room("open", ["Alice", "Bob"]), room("open", ["Alice", null])));
      }
      return stood;
    })() };
}"""


def test_system_lines_say_who_left_who_is_back_and_who_took_over(site, browser):
    page = site.open(browser, "/history")
    page.locator("#main").wait_for()
    got = page.evaluate(SYSTEM_LINES)
    assert got["lines"] == ["Bob disconnected.", "Bob is back.", "Bob left the room."]
    assert (got["away"], got["back"]) == (True, False)
    assert got["seats"] == ["Bob's seat is now played by the computer.", "Bob left seat 2.",
                            "Cat took seat 2."]
    assert got["stood"] == [["Bob left seat 2."], ["Bob 离开了 2 号座。"], ["Bob が 2 番席を離れました。"]]


STEP_ROWS = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const { playbackPanel } = await import("/static/games/rc_playback.js");
  const step = (index, card, effect, total) => ({ index, card, identity: card, silenced: false, effect, total });
  const panel = playbackPanel({ set: 1, result: -3, position_after: -3, shown: 3,
    steps: [step(12, "+2", "+2", 12), step(11, "-2", "-2", 0), step(10, "-3", "-3", -3)] },
  { t: i18n.t }, { onSkip() {}, onClose() {} });
  document.querySelector("main").append(panel);
  const x = (sel) => [...panel.querySelectorAll(sel)].map((el) => Math.round(el.getBoundingClientRect().left));
  const right = (sel) => [...panel.querySelectorAll(sel)].map((el) => Math.round(el.getBoundingClientRect().right));
  return { card: x(".step-card"), effect: x(".step-effect"), total: x(".step-total"), end: right(".step-total") };
}"""


@pytest.mark.parametrize("width", [1280, 360])
def test_resolution_rows_line_up_whatever_the_total(site, browser, width):
    page = site.open(browser, "/history", width=width)
    page.locator("#main").wait_for()
    got = page.evaluate(STEP_ROWS)
    for column in ("card", "effect", "total", "end"):
        assert len(set(got[column])) == 1, (column, got[column])  # "total 0" sits under "total +12"


# ----------------------------------------------------------------------------- live tables

def test_presence_lines_the_away_clock_and_the_computer_taking_over(site, browser):
    alice, bob, cat = site.player("Alice"), site.player("Bob"), site.player("Cat")
    # Before the start: a seat taken, then left.
    lobby_code = site.room(alice, "zipai", seated=[alice])  # three seats: it stays open
    waiting = site.open(browser, f"/room/{lobby_code}", alice)
    expect(waiting.get_by_test_id("leave-seat-0")).to_be_visible()
    # The socket's welcome came: a seat taken before it would be in the welcome's room, not a
    # change the page saw (the REST room renders first).
    expect(waiting.locator("#conn-status[data-status=connected]")).to_have_count(1)
    system = waiting.get_by_test_id("system-line")
    httpx.post(f"{site.base}/api/rooms/{lobby_code}/seats/1", headers=auth(cat))
    expect(system.filter(has_text="Cat took seat 2.")).to_have_count(1)
    httpx.delete(f"{site.base}/api/rooms/{lobby_code}/seats/1", headers=auth(cat))
    expect(system.filter(has_text="Cat left seat 2.")).to_have_count(1)
    waiting.context.close()

    code = site.room(alice, "numgr", {"turn_seconds": 10}, seated=[alice, bob], on_timeouts="bot")
    mine = site.open(browser, f"/room/{code}", alice)
    table_ready(mine)
    theirs = site.open(browser, f"/room/{code}", bob)
    table_ready(theirs)
    # Bob's turn, so that his clock runs: Alice ends her steps when the turn is hers.
    hand_numgr_turn_over(mine)
    theirs.context.close()
    lines = mine.get_by_test_id("system-line")
    expect(lines.filter(has_text="Bob disconnected.")).to_have_count(1)
    expect(mine.locator(".seat[data-seat='1'] [data-testid=clock-away]")).to_contain_text("(disconnected)")
    assert mine.locator(".seat[data-seat='0'] [data-testid=clock-away]").count() == 0

    back = site.open(browser, f"/room/{code}", bob)
    table_ready(back)
    expect(lines.filter(has_text="Bob is back.")).to_have_count(1)
    expect(mine.locator("[data-testid=clock-away]")).to_have_count(0)
    back.context.close()

    # Bob's clock runs out on three decisions in a row: the computer takes his seat.
    for timeouts in range(1, 4):
        site.clock.advance(11)
        expect(mine.get_by_test_id("log-line").filter(has_text="Bob's time ran out")).to_have_count(timeouts)
    expect(lines.filter(has_text="Bob's seat is now played by the computer.")).to_have_count(1)
    # The log keeps who made each move: Bob's timeouts stay his after the computer took over.
    expect(mine.get_by_test_id("log-line").filter(has_text="Bob's time ran out")).to_have_count(3)
    assert axe_problems(mine) == []
    mine.context.close()


def test_a_replay_and_a_player_page_with_a_taken_over_seat_fit_a_phone(site, browser):
    ann, dave = site.player("Ann"), site.player("Dave")
    rated = site.room(ann, "reverse_curse", {"regulation": "half", "monsters": False}, seated=[ann, dave])
    mine = site.open(browser, f"/room/{rated}", ann)  # a rated match: Dave's page has a ratings table
    table_ready(mine)
    resign(mine)
    expect(mine.get_by_test_id("game-over")).to_be_visible()
    mine.context.close()
    code = site.room(ann, "numgr", {"turn_seconds": 10}, seated=[ann, dave], on_timeouts="bot")
    mine = site.open(browser, f"/room/{code}", ann)
    table_ready(mine)
    hand_numgr_turn_over(mine)  # Ann ends her steps until the turn is Dave's
    for timeouts in range(1, 4):  # Dave's clock runs out three times: the computer takes over
        site.clock.advance(11)
        expect(mine.get_by_test_id("log-line").filter(has_text="Dave's time ran out")).to_have_count(timeouts)
    expect(mine.get_by_test_id("system-line").filter(has_text="now played by the computer")).to_have_count(1)
    resign(mine)
    expect(mine.get_by_test_id("game-over")).to_be_visible()
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    mine.context.close()
    for path, shown in ((f"/replay/{match}", "#replay-viewer option:nth-child(3)"),
                        (f"/players/{dave['id']}", "[data-testid=player-ratings] td")):
        page = site.open(browser, path, width=360, height=740)
        page.locator(shown).first.wait_for(state="attached")
        if path.startswith("/replay/"):
            seat = httpx.get(f"{site.base}/api/matches/{match}").json()["seats"][1]
            step = seat["occupants"][1]["from_step"]
            assert page.locator("#replay-viewer option").nth(2).inner_text() == \
                f"Seat 2 — Dave (replaced by Normal bot from step {step})"
        size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert size[0] <= size[1], (path, size)
        page.context.close()


def test_a_seat_forfeited_on_timeouts_reads_as_a_forfeit_everywhere(site, browser):
    """Gil's clock runs out on three decisions in a row in a room that forfeits such a seat:
    the room, a spectator who comes later, the history, the match page and the replay all say
    he forfeited on time, none that he resigned."""
    fay, gil = site.player("Fay"), site.player("Gil")
    code = site.room(fay, "numgr", {"turn_seconds": 10}, seated=[fay, gil], on_timeouts="forfeit")
    mine = site.open(browser, f"/room/{code}", fay)
    table_ready(mine)
    hand_numgr_turn_over(mine)  # Fay ends her steps until the turn is Gil's
    for timeouts in range(1, 4):
        site.clock.advance(11)
        expect(mine.get_by_test_id("log-line").filter(has_text="Gil's time ran out")).to_have_count(timeouts)
    sentence = "Gil forfeited: 3 turns timed out in a row."
    expect(mine.get_by_test_id("banner-reason")).to_have_text(sentence)
    expect(mine.get_by_test_id("game-over")).to_have_attribute("data-result", "won")
    expect(mine.get_by_test_id("log-line").filter(has_text=sentence)).to_have_count(1)
    expect(mine.get_by_test_id("ng-status")).to_contain_text(f"Fay (you) wins. {sentence}")
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    mine.context.close()
    late = site.open(browser, f"/room/{code}")  # no log kept: the room's JSON tells it
    expect(late.get_by_test_id("banner-reason")).to_have_text(sentence)
    late.context.close()
    result = f"Fay won. {sentence}"
    history = site.open(browser, "/history")
    expect(history.locator(f".match-item[data-match='{match}'] .match-result")).to_have_text(result)
    history.context.close()
    record = site.open(browser, f"/matches/{match}")
    expect(record.get_by_test_id("match-result")).to_have_text(result)
    record.context.close()
    steps = len(httpx.get(f"{site.base}/api/matches/{match}/replay").json()["steps"]) - 1
    replay = site.open(browser, f"/replay/{match}?step={steps}")
    expect(replay.get_by_test_id("replay-action")).to_have_text(sentence)
    expect(replay.get_by_test_id("replay-outcome")).to_have_text(f"{TEXTS['en']['replay.final']}: {result}")
    expect(replay.get_by_test_id("ng-status")).to_contain_text(f"Fay wins. {sentence}")
    assert "resigned" not in replay.locator("body").inner_text()
    replay.context.close()


#: Ann's decisions in a Reverse Curse match: go first, keep her hand, play a card.
ANN_DECIDES = ("[data-action=choose_order][data-first=true]:enabled", "[data-action=mulligan-keep]:enabled",
               "[data-testid=hand-card]:enabled")
#: The field's owner labels, T1 first.
FIELD_OWNERS = """() => [...document.querySelectorAll("[data-testid=rc-field] .slot-who")].map((who) => who.textContent)"""


def test_reverse_curse_field_cards_stay_the_replaced_players_after_a_takeover(site, browser):
    # Ann plays; Dave's clock runs out on three decisions in a row (the mulligan, then a card
    # twice), so the computer plays his seat from then on. His two cards on the field stay his,
    # live and in the replay; the bot's card reads "Normal bot".
    ann, dave = site.player("Ann"), site.player("Dave")
    code = site.room(ann, "reverse_curse", {"regulation": "half", "monsters": False, "turn_seconds": 10},
                     seated=[ann, dave], on_timeouts="bot")
    mine = site.open(browser, f"/room/{code}", ann)
    table_ready(mine)
    lines = mine.get_by_test_id("log-line")
    ran_out = lines.filter(has_text="Dave's time ran out")
    for _ in range(20):
        if ran_out.count() == 3:
            break
        before = lines.count()
        if click_first(mine, ANN_DECIDES):  # wait for her decision before any clock moves
            mine.wait_for_function("""(n) => document.querySelectorAll("[data-testid=log-line]").length > n
              || document.querySelector("[data-testid=rc-mulligan-wait]")""", arg=before)
            continue
        timeouts = ran_out.count()
        site.clock.advance(11)
        expect(ran_out).to_have_count(timeouts + 1)
    expect(mine.get_by_test_id("system-line").filter(has_text="now played by the computer")).to_have_count(1)
    mine.locator("[data-testid=hand-card]:enabled").first.click()  # Ann's card; then the bot's
    expect(mine.locator("[data-testid=rc-field] .slot-who").filter(has_text="Normal bot")).to_have_count(1)
    live = mine.evaluate(FIELD_OWNERS)
    assert live == ["▼ Dave", "▲ Ann", "▼ Dave", "▲ Ann", "▼ Normal bot"]
    # The seats panel names the seat's holder now.
    assert mine.locator(".side-members [data-seat='1']").inner_text().startswith("Normal bot")
    resign(mine)
    expect(mine.get_by_test_id("game-over")).to_be_visible()
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    mine.context.close()
    actions = httpx.get(f"{site.base}/api/matches/{match}").json()["actions"]
    watch = site.open(browser, f"/replay/{match}?step={len(actions) - 1}")  # before the resign
    watch.locator("[data-testid=rc-field] .slot-who").first.wait_for()
    assert watch.evaluate(FIELD_OWNERS) == live
    watch.context.close()


STEP_LINES = """() => [...document.querySelectorAll("[data-testid=move-log] [data-testid=log-line]")]
  .map((line) => [Number(line.dataset.step), line.textContent])"""


def test_the_replay_says_whose_time_ran_out_even_where_the_room_told_only_that_seat(site, browser):
    # The module's seed (zipai, one hand): Cat's clock discards (a public timeout), then Alice's
    # clock passes in the claim window (told only to Alice in play: docs/security.md); she resigns.
    alice, bob, cat = site.player("Alice"), site.player("Bob"), site.player("Cat")
    code = site.room(alice, "zipai", {"hands": 1}, seated=[alice, bob, cat])
    mine = site.open(browser, f"/room/{code}", alice)
    table_ready(mine)
    for name in ("Cat", "Alice"):
        site.clock.advance(20)  # the default turn_seconds: the clock plays the seat's decision
        expect(mine.get_by_test_id("log-line").filter(has_text=f"{name}'s time ran out")).to_have_count(1)
    resign(mine)
    expect(mine.get_by_test_id("game-over")).to_be_visible()
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    mine.context.close()
    watch = site.open(browser, f"/replay/{match}?step=2")  # a guest: the spectator's replay
    expect(watch.get_by_test_id("replay-action")).to_contain_text("Alice's time ran out")
    steps = watch.evaluate(STEP_LINES)
    ran_out = ["Cat's time ran out: the server played for them.",
               "Alice's time ran out: the server played for them."]
    assert [line for line in steps if "time ran out" in line[1]] == [[1, ran_out[0]], [2, ran_out[1]]]
    firsts: dict[int, str] = {}
    for step, text in steps:
        firsts.setdefault(step, text)
    assert [firsts[1], firsts[2]] == ran_out  # each before the lines of what the clock played
    assert watch.get_by_test_id("replay-action").inner_text().startswith(ran_out[1])
    # Its landmarks have names of their own (the controls and the table were both named by
    # the page's title: axe's landmark-unique).
    from axe_playwright_python.sync_playwright import Axe
    assert [v["id"] for v in Axe().run(watch).response["violations"]] == []
    expect(watch.get_by_role("region", name="Replay controls")).to_have_count(1)
    # Another viewer that cannot be loaded (here: the network is gone) says so and keeps the
    # replay and its viewer as they were.
    watch.route("**/replay?viewer=*", lambda route: route.abort())
    watch.get_by_test_id("replay-viewer").select_option("0")
    expect(watch.get_by_test_id("toast")).to_contain_text(
        "The server cannot be reached. Check your connection.")
    expect(watch.get_by_test_id("replay-viewer")).to_have_value("")
    assert watch.evaluate(STEP_LINES) == steps
    watch.context.close()


def test_a_seat_keeps_its_colour_for_every_viewer_and_the_last_move_is_marked(site, browser):
    alice, bob = site.player("Alice"), site.player("Bob")
    code = site.room(alice, "grid_reversal", {"width": 3, "depth": 2}, seated=[alice, bob])
    pages = [site.open(browser, f"/room/{code}", person) for person in (alice, bob)]
    watch = site.open(browser, f"/room/{code}")
    watch.emulate_media(reduced_motion="reduce")
    for page in (*pages, watch):
        table_ready(page)
    for page in pages:
        page.locator("[data-action=choose_mother]:enabled").first.click()
    colours = {}
    for page in (*pages, watch):
        mothers = page.locator(".gr-mother")
        expect(mothers).to_have_count(2)
        colours[page] = {cell.get_attribute("data-owner"): (
            cell.evaluate("el => getComputedStyle(el).backgroundColor"),
            cell.evaluate("el => el.classList.contains('gr-mine')")) for cell in mothers.all()}
        # The reveal is the last move: both mother cards are marked.
        expect(page.locator(".gr-cell[data-last-move=true]")).to_have_count(2)
    background = {owner: colours[watch][owner][0] for owner in ("0", "1")}
    assert background["0"] != background["1"]
    for page in (*pages, watch):
        assert {owner: bg for owner, (bg, _) in colours[page].items()} == background
    # "You" is marked otherwise (underlined value, "(you)" in the seat line), never by colour.
    assert {o: mine for o, (_, mine) in colours[pages[0]].items()} == {"0": True, "1": False}
    assert {o: mine for o, (_, mine) in colours[pages[1]].items()} == {"0": False, "1": True}
    assert {o: mine for o, (_, mine) in colours[watch].items()} == {"0": False, "1": False}
    expect(pages[0].get_by_test_id("gr-seat-0")).to_contain_text("Alice (you)")
    # The seed's fingerprint sits folded under "Fair deal", with a word on what it is for.
    fair = watch.get_by_test_id("room-commitment")
    expect(fair.get_by_test_id("fair-deal")).to_have_text("Fair deal")
    assert fair.evaluate("el => el.tagName === 'DETAILS' && !el.open")
    expect(fair.locator("code.hex")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    # The mark animates once when the move arrives — not for a reader who asked for less motion.
    animation = """() => { const el = document.createElement("div"); el.className = "last-move last-move-fresh";
        document.body.append(el); const name = getComputedStyle(el).animationName; el.remove(); return name; }"""
    assert pages[0].evaluate(animation) == "last-move-in"
    assert watch.evaluate(animation) == "none"
    # A reload keeps the log and the mark (not animated again).
    lines = log_lines(pages[0])
    assert lines == ["Mother cards: Bob 1 on B4, Alice 3 on B1."]  # the fixed seed's deal
    pages[0].reload()
    table_ready(pages[0])
    expect(pages[0].locator(".gr-cell[data-last-move=true]")).to_have_count(2)
    assert pages[0].locator(".last-move-fresh").count() == 0
    assert log_lines(pages[0]) == lines == log_lines(watch)
    for page in (*pages, watch):
        page.context.close()


def test_numgr_keeps_the_last_hp_check_and_a_half_built_stack_across_a_reload(site, browser):
    alice = site.player("Alice")
    code = site.room(alice, "numgr", seated=[alice])
    site.bots(alice, code)
    page = site.open(browser, f"/room/{code}", alice)
    table_ready(page)
    status = page.get_by_test_id("ng-status")
    expect(status).to_have_attribute("data-current", "0", timeout=20_000)
    expect(status).to_have_attribute("data-step", "defense")
    page.get_by_test_id("ng-end-step").click()
    check = page.get_by_test_id("ng-last-check")
    expect(check).to_contain_text("Last HP check: Alice faced")
    said = check.inner_text()
    page.reload()
    table_ready(page)
    expect(page.get_by_test_id("ng-last-check")).to_have_text(said)
    expect(page.get_by_test_id("ng-status")).to_have_attribute("data-step", "attack")
    card = page.locator("[data-testid=hand-card][data-action=select]:enabled").first
    main = card.get_attribute("data-card")
    card.click()
    expect(page.get_by_test_id("ng-builder")).to_be_visible()
    page.reload()
    table_ready(page)
    builder = page.get_by_test_id("ng-builder")
    expect(builder).to_be_visible()
    expect(builder.locator(".ng-builder-head [data-card]")).to_have_attribute("data-card", main)
    page.context.close()


def test_a_room_opened_after_its_match_ended_logs_the_whole_match_as_its_replay_does(site, browser):
    alice, bob = site.player("Alice"), site.player("Bob")
    code = site.room(alice, "numgr", seated=[alice, bob])
    live = site.open(browser, f"/room/{code}", bob)  # Bob's page sees the whole match
    table_ready(live)
    hand_numgr_turn_over(live, to=0)  # Bob (first to play) ends his steps
    resign(site.open(browser, f"/room/{code}", alice))
    expect(live.get_by_test_id("game-over")).to_be_visible()
    lines = ["Turn 1: Bob.", "HP check: Bob faced 0 against 0 — no damage.", "Bob drew 0 cards.",
             "Turn 2: Alice.", "Alice resigned."]
    expect(live.get_by_test_id("log-line")).to_have_text(lines)
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    for context in browser.contexts:
        context.close()
    # Opened anew (no log kept): a player's page and a spectator's tell the match from its
    # replay, not a lone gap line; so does the replay page itself.
    for person in (alice, None):
        late = site.open(browser, f"/room/{code}", person)
        table_ready(late)
        expect(late.get_by_test_id("log-line")).to_have_text(lines)
        late.context.close()
    replay = site.open(browser, f"/replay/{match}")
    table_ready(replay)
    replay.get_by_test_id("replay-last").click()
    expect(replay.get_by_test_id("log-line")).to_have_text(lines)
    replay.context.close()


def test_a_late_page_asks_for_the_replay_again_only_when_the_server_could_not_answer(site, browser):
    alice, bob = site.player("Alice"), site.player("Bob")
    code = site.room(alice, "numgr", seated=[alice, bob])
    live = site.open(browser, f"/room/{code}", bob)
    table_ready(live)
    hand_numgr_turn_over(live, to=0)  # Bob (first to play) ends his steps
    resign(live)
    expect(live.get_by_test_id("game-over")).to_be_visible()
    lines = ["Turn 1: Bob.", "HP check: Bob faced 0 against 0 — no damage.", "Bob drew 0 cards.",
             "Turn 2: Alice.", "Bob resigned."]
    expect(live.get_by_test_id("log-line")).to_have_text(lines)
    live.context.close()
    gap = "(moves made while this page was not connected are listed once the match is over)"
    # Pages opened after the end (each kept nothing: its past comes from the replay). The first
    # answers each page gets, in order, then the real ones: no network, 503, 500 or 404.
    failures = {"network": ["abort", 503], "500": [500, 500, 500], "404": [404]}
    asked = dict.fromkeys(failures, 0)

    def answering(name: str):
        def answer(route):
            asked[name] += 1
            failure = failures[name][asked[name] - 1] if asked[name] <= len(failures[name]) else None
            if failure == "abort":
                route.abort()
            elif failure:
                route.fulfill(status=failure, json={"detail": {"code": "broken", "message": "no"}})
            else:
                route.continue_()
        return answer

    pages = {}
    for name in failures:
        page = new_page(browser, 1280, 900, "en-US")
        page.route("**/api/matches/*/replay*", answering(name))
        page.goto(f"{site.base}/room/{code}")
        pages[name] = page
    # No network, then a 503: asked again after 1 s and 3 s, the third answer is the replay.
    expect(pages["network"].get_by_test_id("log-line")).to_have_text(lines, timeout=20_000)
    # 500 three times: it gives up after the third and keeps the gap line; a 404 is not asked
    # again (by now the first try again, 1 s after a failure, would have come).
    deadline = time.monotonic() + 20
    while asked["500"] < 3 and time.monotonic() < deadline:
        pages["500"].wait_for_timeout(100)  # the route answers while Playwright waits
    for name in ("500", "404"):
        expect(pages[name].get_by_test_id("log-line")).to_have_text([gap])
    assert asked == {"network": 3, "500": 3, "404": 1}
    for page in pages.values():
        page.context.close()


#: A NumGR match of the module's seed as its log tells it: Bob's first turn
#: (`bob_plays_his_first_numgr_turn`), Alice's HP check, then Bob resigns.
NUMGR_LINES = ["Turn 1: Bob.", "HP check: Bob faced 0 against 0 — no damage.",
               "Bob played △1 #1.", "Bob played □1 #2.",
               "Bob drew 2 cards.", "Turn 2: Alice.", "HP check: Alice faced 1 against 0 — lost 1 HP.",
               "Bob resigned."]


def bob_plays_his_first_numgr_turn(bob: Page) -> None:
    """On Bob's page of a NumGR room of the module's seed (Bob plays first): his HP check, two
    stacks (△1, □1: the first hand cards offered), then his steps end and Alice's turn begins
    (`NUMGR_LINES` up to "Turn 2: Alice.")."""
    table_ready(bob)
    bob.get_by_test_id("ng-end-step").click()
    expect(bob.get_by_test_id("ng-status")).to_have_attribute("data-step", "attack")
    for played in (1, 2):
        bob.locator("[data-testid=hand-card][data-action=select]:enabled").first.click()
        bob.get_by_test_id("ng-play-option").first.click()
        expect(bob.get_by_test_id("log-line").filter(has_text="Bob played")).to_have_count(played)
    hand_numgr_turn_over(bob, to=0)
    expect(bob.get_by_test_id("log-line")).to_have_text(NUMGR_LINES[:6])


def test_a_page_that_joined_mid_match_logs_the_whole_match_once_it_is_over(site, browser):
    alice, bob = site.player("Alice"), site.player("Bob")
    code = site.room(alice, "numgr", seated=[alice, bob])
    mine = site.open(browser, f"/room/{code}", bob)  # Bob's page sees the whole match
    bob_plays_his_first_numgr_turn(mine)
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    # Alice's page and a spectator's open mid-match: they missed Bob's turn. While the match is
    # played its replay is not served (for no viewer: the seed is secret until the end), so the
    # gap line says the missed moves come once it is over.
    late = {0: site.open(browser, f"/room/{code}", alice), None: site.open(browser, f"/room/{code}")}
    gap = "(moves made while this page was not connected are listed once the match is over)"
    for page in late.values():
        table_ready(page)
        expect(page.get_by_test_id("log-line")).to_have_text([gap])
    for query in ("?viewer=0", ""):
        answer = httpx.get(f"{site.base}/api/matches/{match}/replay{query}")
        assert (answer.status_code, answer.json()["detail"]["code"]) == (409, "match_not_finished")
    late[0].get_by_test_id("ng-end-step").click()  # Alice's HP check, seen live
    for page in late.values():
        expect(page.get_by_test_id("log-line")).to_have_text([gap, NUMGR_LINES[6]])
    resign(mine)
    expect(mine.get_by_test_id("log-line")).to_have_text(NUMGR_LINES)
    # Once it is over, each late page tells the whole match from its viewer's replay: the moves
    # it missed first, each line once, no gap line.
    for viewer, page in late.items():
        expect(page.get_by_test_id("game-over")).to_be_visible()
        expect(page.get_by_test_id("log-line")).to_have_text(NUMGR_LINES)
        replay = site.open(browser, f"/replay/{match}" + ("" if viewer is None else f"?viewer={viewer}"))
        table_ready(replay)
        replay.get_by_test_id("replay-last").click()
        expect(replay.get_by_test_id("log-line")).to_have_text(NUMGR_LINES)
        assert log_lines(replay) == log_lines(page)
        replay.context.close()
    # A reload (the kept log still has its gap) tells it so again.
    late[0].reload()
    table_ready(late[0])
    expect(late[0].get_by_test_id("log-line")).to_have_text(NUMGR_LINES)
    for context in browser.contexts:
        context.close()


def test_a_numgr_room_opened_after_its_match_ended_shows_the_last_hp_check(site, browser):
    alice, bob = site.player("Alice"), site.player("Bob")
    code = site.room(alice, "numgr", seated=[alice, bob])
    live = site.open(browser, f"/room/{code}", bob)
    bob_plays_his_first_numgr_turn(live)
    mine = site.open(browser, f"/room/{code}", alice)
    table_ready(mine)
    mine.get_by_test_id("ng-end-step").click()  # Alice's HP check
    last = "Last HP check: Alice faced 1 against 0 — lost 1 HP."
    expect(live.get_by_test_id("ng-last-check")).to_have_text(last)
    resign(live)
    expect(live.get_by_test_id("game-over")).to_be_visible()
    expect(live.get_by_test_id("ng-last-check")).to_have_text(last)
    for context in browser.contexts:
        context.close()
    # Opened anew (no event kept): the table reads the match's past from the replay, as the
    # live page had it from its updates (the players' pages and a spectator's).
    for person in (alice, bob, None):
        page = site.open(browser, f"/room/{code}", person)
        table_ready(page)
        expect(page.get_by_test_id("ng-last-check")).to_have_text(last)
        expect(page.get_by_test_id("log-line")).to_have_text(NUMGR_LINES)
        page.context.close()


def test_numgr_marks_the_area_whose_turn_it_is_and_none_once_the_match_is_over(site, browser):
    alice, bob = site.player("Alice"), site.player("Bob")
    code = site.room(alice, "numgr", seated=[alice, bob])
    mine = site.open(browser, f"/room/{code}", alice)
    table_ready(mine)
    current = mine.locator(".ng-area-current")
    expect(mine.get_by_test_id("ng-status")).to_have_attribute("data-current", "1")  # Bob's turn
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-seat", "1")
    resign(mine)
    expect(mine.get_by_test_id("game-over")).to_be_visible()
    expect(mine.get_by_test_id("ng-status")).to_have_attribute("data-step", "over")
    expect(current).to_have_count(0)
    assert mine.get_by_test_id("ng-status").get_attribute("data-current") is None
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    mine.context.close()
    late = site.open(browser, f"/room/{code}")  # a page opened after the end
    table_ready(late)
    expect(late.get_by_test_id("ng-status")).to_have_attribute("data-step", "over")
    expect(late.locator(".ng-area-current")).to_have_count(0)
    late.context.close()
    replay = site.open(browser, f"/replay/{match}?step=0")
    table_ready(replay)
    expect(replay.locator(".ng-area-current")).to_have_attribute("data-seat", "1")
    replay.get_by_test_id("replay-last").click()
    expect(replay.get_by_test_id("ng-status")).to_have_attribute("data-step", "over")
    expect(replay.locator(".ng-area-current")).to_have_count(0)
    replay.context.close()


def test_grid_reversal_marks_the_seat_in_turn_and_none_once_the_match_is_over(site, browser):
    alice, bob = site.player("Alice"), site.player("Bob")
    code = site.room(alice, "grid_reversal", seated=[alice, bob])
    pages = [site.open(browser, f"/room/{code}", person) for person in (alice, bob)]
    mine = pages[0]
    status, current = mine.get_by_test_id("gr-status"), mine.locator(".gr-seat-current")
    for page in pages:
        table_ready(page)
    expect(status).to_have_attribute("data-turn", "")  # both choose at once: nobody's turn
    expect(current).to_have_count(0)
    for phase, action in (("mother", "choose_mother"), ("setup_discard", "discard")):
        expect(status).to_have_attribute("data-phase", phase)
        for page in pages:
            page.locator(f"[data-testid=hand-card][data-action={action}]:enabled").first.click()
    expect(status).to_have_attribute("data-phase", "discard")
    expect(status).to_have_attribute("data-turn", "1")  # Bob, first to play, discards down to 4
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-testid", "gr-seat-1")
    resign(mine)
    expect(mine.get_by_test_id("game-over")).to_be_visible()
    expect(status).to_have_attribute("data-phase", "over")
    expect(status).to_have_attribute("data-turn", "")
    expect(current).to_have_count(0)
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    for page in pages:
        page.context.close()
    late = site.open(browser, f"/room/{code}")  # a page opened after the end
    table_ready(late)
    expect(late.get_by_test_id("gr-status")).to_have_attribute("data-phase", "over")
    expect(late.get_by_test_id("gr-status")).to_have_attribute("data-turn", "")
    expect(late.locator(".gr-seat-current")).to_have_count(0)
    late.context.close()
    replay = site.open(browser, f"/replay/{match}")
    table_ready(replay)
    replay.get_by_test_id("replay-last").click()
    expect(replay.get_by_test_id("gr-status")).to_have_attribute("data-phase", "over")
    expect(replay.get_by_test_id("gr-status")).to_have_attribute("data-turn", "")
    expect(replay.locator(".gr-seat-current")).to_have_count(0)
    replay.context.close()


def test_a_reverse_curse_spectator_sees_which_teammates_may_play(site, browser):
    alice = site.player("Alice")
    code = site.room(alice, "reverse_curse", {"format": "2v2", "regulation": "half", "monsters": False},
                     seated=[alice])
    site.bots(alice, code)
    mine = site.open(browser, f"/room/{code}", alice)
    watch = site.open(browser, f"/room/{code}")
    table_ready(mine)
    table_ready(watch)
    deployment = watch.locator(".rc[data-phase=deployment]")
    for _ in range(100):
        if deployment.count():
            break
        click_first(mine, ("[data-action=choose_order][data-first=true]:enabled",
                           "[data-action=mulligan-keep]:enabled"))
        mine.wait_for_timeout(100)
    # Both members of the side to play hold cards early in the set: both may play, on one side.
    expect(watch.get_by_test_id("member-to-play")).to_have_count(2)
    expect(watch.locator(".side-card").filter(has=watch.get_by_test_id("member-to-play"))).to_have_count(1)
    for page in (mine, watch):
        page.context.close()


def test_the_ladder_tells_players_of_one_name_apart_and_fits_a_phone(site, browser):
    first, second = site.player("Sam"), site.player("Sam")
    code = site.room(first, "reverse_curse", {"regulation": "half", "monsters": False}, seated=[first, second])
    page = site.open(browser, f"/room/{code}", first)
    table_ready(page)
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.context.close()
    for lang in ("en", "zh", "ja"):
        ladder = site.open(browser, "/ladders?game=reverse_curse", width=360, height=740, lang=lang)
        rows = ladder.locator("[data-testid=ladder-row]:has-text('Sam')")
        expect(rows).to_have_count(2)
        tags = rows.locator("[data-testid=player-id]").all_inner_texts()
        assert sorted(tags) == sorted([f"#{first['id']}", f"#{second['id']}"])
        headers = ladder.locator("#leaderboard-head th").all_inner_texts()
        assert headers == [TEXTS[lang][f"ladders.col_{c}"] for c in ("rank", "player", "rating", "matches", "wins", "kos")]
        # Numbers and their headers on the right, the player's name and its header on the left.
        align = ladder.evaluate("""() => [document.querySelectorAll('#leaderboard-head th'),
            document.querySelector('[data-testid=ladder-row]').children].map((cells) =>
            [...cells].map((cell) => getComputedStyle(cell).textAlign))""")
        assert align == [["right", "left", "right", "right", "right", "right"]] * 2, lang
        detail = rows.first.locator("td[data-col=rating]").get_attribute("title")
        assert detail.startswith(TEXTS[lang]["ladders.rating_detail"].split("{")[0])
        width = ladder.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1], (lang, width)
        assert "⟦" not in ladder.locator("body").inner_text()
        ladder.context.close()


#: A player's page: the ratings' alignment (headers, then the first row), the space between its
#: two panels, the matches' names, and the headers with a word cut over two lines.
PLAYER_LAYOUT = """() => {
  const table = document.querySelector("[data-testid=player-ratings]");
  const align = [table.querySelectorAll("th"), table.querySelector("tbody tr").children]
    .map((cells) => [...cells].map((cell) => getComputedStyle(cell).textAlign));
  const [first, second] = document.querySelectorAll("#player-body > .panel");
  const cut = [...table.querySelectorAll("th")].filter((th) => {
    const text = th.firstChild;
    let at = 0;
    return th.textContent.split(" ").some((word) => {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      at += word.length + 1;
      return range.getClientRects().length > 1;
    });
  }).map((th) => th.textContent);
  return { align, cut, gap: second.getBoundingClientRect().top - first.getBoundingClientRect().bottom,
           names: [...document.querySelectorAll("[data-testid=player-matches] .match-names")].map((el) => el.textContent) };
}"""


def resigned_match(site, browser, options: dict, seated: list) -> int:
    """Seat ``seated`` in a new Reverse Curse room of ``options`` (the first player creates it),
    let the first resign from the room page; return the finished match's id."""
    code = site.room(seated[0], "reverse_curse", options, seated=seated)
    room = site.open(browser, f"/room/{code}", seated[0])
    table_ready(room)
    resign(room)
    expect(room.get_by_test_id("game-over")).to_be_visible()
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    room.context.close()
    return match


def test_a_replay_link_to_a_seat_the_match_lacks_shows_the_spectators_replay_and_says_so(site, browser):
    ann, bob = site.player("Ann"), site.player("Bob")
    match = resigned_match(site, browser, {"regulation": "half", "monsters": False}, [ann, bob])
    last = len(httpx.get(f"{site.base}/api/matches/{match}/replay").json()["steps"]) - 1
    # 99: no match has so many seats; any other text is no seat number and is not repeated.
    asked = {"7": "8", "99": "100", "-1": None, "x": None, "%20": None, "%201": None,
             "99999999999999999999999": None}
    unnamed = ("The seat in this link is not one of this match's: the replay is shown as a "
               "spectator sees it. Choose a seat under “Seen by” to see a player's hand.")
    for lang, sentence in (("en", "This match has no seat {n}: the replay is shown as a spectator sees "
                                  "it. Choose a seat under “Seen by” to see a player's hand."),
                           ("zh", "本对局没有 {n} 号座：回放以观众视角显示。在“视角”中选择座位，可看到该玩家的手牌。"),
                           ("ja", "この対局に{n}番席はありません。観戦者の視点でリプレイを表示しています。"
                                  "「視点」で席を選ぶと、そのプレイヤーの手札が見られます。")):
        for viewer, seat in asked.items() if lang == "en" else [("7", "8")]:
            page = site.open(browser, f"/replay/{match}?step={last}&viewer={viewer}", lang=lang)
            table_ready(page)
            expect(page.get_by_test_id("replay-notice")).to_have_text(
                unnamed if seat is None else sentence.format(n=seat))
            expect(page.get_by_test_id("replay-missing")).to_have_count(0)
            expect(page.get_by_test_id("replay-viewer")).to_have_value("")
            expect(page.get_by_test_id("replay-step")).to_have_text(
                TEXTS[lang]["replay.step"].format(n=last, total=last))
            assert page.url == f"{site.base}/replay/{match}?step={last}"  # the link of what is shown
            page.context.close()
    # The seats to choose from: choosing one shows its replay and the notice goes.
    page = site.open(browser, f"/replay/{match}?step={last}&viewer=7")
    table_ready(page)
    expect(page.get_by_test_id("replay-notice")).to_be_visible()
    assert page.locator("#replay-viewer option").all_inner_texts() == ["Spectator", "Seat 1 — Ann",
                                                                       "Seat 2 — Bob"]
    page.get_by_test_id("replay-viewer").select_option("1")
    expect(page.get_by_test_id("replay-notice")).to_be_hidden()
    page.wait_for_url(f"{site.base}/replay/{match}?step={last}&viewer=1")
    page.context.close()


def test_a_players_page_lines_up_its_numbers_and_lists_a_team_match_side_against_side(site, browser):
    ann, bob, cat, dan = (site.player(name) for name in ("Ann", "Bob", "Cat", "Dan"))
    match = resigned_match(site, browser, {"format": "2v2", "regulation": "half"}, [ann, bob, cat, dan])
    sides = {"en": "Ann & Cat vs Bob & Dan", "zh": "Ann、Cat vs Bob、Dan", "ja": "Ann・Cat vs Bob・Dan"}
    for lang in ("en", "zh", "ja"):
        for width in (1280, 360):
            page = site.open(browser, f"/players/{ann['id']}", width=width, lang=lang)
            page.locator("[data-testid=player-ratings] td").first.wait_for()
            got = page.evaluate(PLAYER_LAYOUT)
            # The game's name on the left, the numbers and their headers on the right (as /ladders).
            assert got["align"] == [["left", "right", "right", "right", "right"]] * 2, (lang, width)
            assert got["gap"] == 16, (lang, width)  # the pages' 1rem between panels
            assert got["names"] == [sides[lang]]
            if lang == "en":  # "Matches" stays whole (Chinese and Japanese break between characters)
                assert got["cut"] == [], width
            size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert size[0] <= size[1], (lang, width, size)
            if (lang, width) == ("en", 1280):
                assert axe_problems(page) == []
            page.context.close()
    history = site.open(browser, "/history", width=360)
    expect(history.locator(f".match-item[data-match='{match}'] .match-names")).to_have_text(sides["en"])
    history.context.close()


#: The lobby's game list: how far each Rules button's right edge is from its row's.
RULES_BUTTONS = """() => [...document.querySelectorAll(".game-item")].map((item) =>
  Math.round(item.getBoundingClientRect().right - item.querySelector(".button").getBoundingClientRect().right))"""
#: The match page: the lines of each seat cell ("Seat 1"), and the Verify row's text and the
#: space between its items that share a line.
MATCH_SMALL_THINGS = """() => {
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  };
  const row = document.querySelector("[data-testid=verify-button]").parentElement;
  const boxes = [...row.children].map((el) => el.getBoundingClientRect());
  const middle = (box) => Math.round(box.top + box.height / 2);
  const gaps = [];
  for (let i = 1; i < boxes.length; i += 1) {
    if (middle(boxes[i]) === middle(boxes[i - 1])) gaps.push(Math.round(boxes[i].left - boxes[i - 1].right));
  }
  return { seats: [...document.querySelectorAll("[data-testid=match-seats] tbody td:first-child")].map(lines),
           verify: row.textContent, gaps };
}"""


@pytest.mark.parametrize("width", [1280, 360])
def test_the_lobby_and_match_pages_keep_their_small_things_in_line(site, browser, width):
    ann, bob = site.player("Ann"), site.player("Bob")
    match = resigned_match(site, browser, {"regulation": "half", "monsters": False}, [ann, bob])
    lobby = site.open(browser, "/", width=width)
    lobby.locator("[data-testid=rules-zipai]").wait_for()
    # Every game's Rules button on the right, also where the game's name wraps (it wrapped
    # under "Reverse Curse Dungeons 2–6 players" and sat on the left on a phone).
    assert lobby.evaluate(RULES_BUTTONS) == [0] * len(GAMES)
    lobby.context.close()
    page = site.open(browser, f"/matches/{match}", width=width)
    page.get_by_test_id("verify-button").wait_for()
    got = page.evaluate(MATCH_SMALL_THINGS)
    assert got["seats"] == [1, 1]  # "Seat 1" was "Seat / 1" on a phone
    # No "·" left to start a line when the row wraps; 1rem between items on one line.
    assert got["verify"] == "VerifyDownload the match (JSON)How to check it yourself"
    assert set(got["gaps"]) <= {16} and (width == 360 or len(got["gaps"]) == 2)
    page.context.close()


def test_a_phone_shows_the_table_in_the_first_screen(site, browser):
    people = [site.player(f"P{n}") for n in range(3)]
    for game, seats in SEATS.items():
        code = site.room(people[0], game, seated=people[:seats])
        page = site.open(browser, f"/room/{code}", people[0], width=360, height=740)
        table_ready(page)
        expect(page.get_by_test_id("share")).not_to_have_attribute("open", "")
        top = page.get_by_test_id("table").evaluate("el => el.firstElementChild.firstElementChild.getBoundingClientRect().bottom")
        assert top <= 740, (game, top)  # the table's first part (status, sides) is in the first screen
        page.context.close()
    # Before the seats are full the invite link is open.
    code = site.room(people[0], "numgr", seated=[people[0]])
    page = site.open(browser, f"/room/{code}", people[0], width=360, height=740)
    expect(page.get_by_test_id("share")).to_have_attribute("open", "")
    # The sound button says whether the sound is on.
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_text("Sound: off")
    toggle.click()
    expect(toggle).to_have_text("Sound: on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert toggle.locator("svg.icon-speaker").count() == 1
    page.context.close()


def test_the_desktop_lobby_stacks_its_panels_without_gaps(site, browser):
    page = site.open(browser, "/")
    page.get_by_test_id("rules-zipai").wait_for()
    gaps = page.evaluate("""() => [...document.querySelectorAll('.lobby-col')].map((col) => {
        const boxes = [...col.children].map((el) => el.getBoundingClientRect());
        return boxes.slice(1).map((box, i) => Math.round(box.top - boxes[i].bottom));
      })""")
    assert gaps == [[], [16, 16, 16]]
    page.context.close()


def test_card_faces_use_the_self_hosted_font(site, browser):
    people = [site.player(f"Z{n}") for n in range(3)]
    code = site.room(people[0], "zipai", seated=people)
    page = site.open(browser, f"/room/{code}", people[0])
    table_ready(page)
    font = httpx.get(f"{site.base}/static/fonts/arena-faces.woff2")
    assert (font.status_code, font.headers["content-type"]) == (200, "font/woff2")
    face = page.locator(".zp-char").first
    assert face.evaluate("el => getComputedStyle(el).fontFamily").startswith('"Arena Faces"')
    loaded = page.evaluate("""async () => { await document.fonts.ready;
        return [...document.fonts].filter((f) => f.family.replace(/"/g, "") === "Arena Faces").map((f) => f.status); }""")
    assert loaded == ["loaded"]
    assert page.evaluate("document.fonts.check('700 20px \"Arena Faces\"', '壹贰叁')")
    page.context.close()


def test_no_page_has_serious_or_critical_accessibility_problems(site, browser):
    people = [site.player(f"A{n}") for n in range(3)]
    problems = {}
    rooms = {game: site.room(people[0], game, seated=people[:seats]) for game, seats in SEATS.items()}
    for game, code in rooms.items():
        for who in (people[0], None):
            page = site.open(browser, f"/room/{code}", who)
            table_ready(page)
            styles_loaded(page)
            problems[f"{game} {'player' if who else 'spectator'}"] = axe_problems(page)
            page.context.close()
    page = site.open(browser, f"/room/{rooms['grid_reversal']}", people[0])
    table_ready(page)
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    match = httpx.get(f"{site.base}/api/rooms/{rooms['grid_reversal']}").json()["match_id"]
    problems["room, game over"] = axe_problems(page)
    pages = {"lobby": ("/", "[data-testid=rules-zipai]"), "history": ("/history", ".match-item"),
             "match": (f"/matches/{match}", "[data-testid=match-result]"),
             "replay": (f"/replay/{match}", "#table[data-game]"), "ladders": ("/ladders", "#leaderboard-head th"),
             "player": (f"/players/{people[0]['id']}", "[data-testid=player-ratings], .muted"),
             "rules": ("/rules", "#rules-games li"), "rules of a game": ("/rules/zipai", "#rules-body h1"),
             "fair play": ("/rules/fair_play", "#rules-body h1"), "not found": ("/nowhere", "main")}
    for name, (path, ready) in pages.items():
        page.goto(f"{site.base}{path}")
        page.locator(ready).first.wait_for()
        problems[name] = axe_problems(page)
    page.goto(f"{site.base}/")
    page.locator(".identity button").first.click()
    page.locator("dialog[open]").wait_for()
    problems["account"] = axe_problems(page)
    page.context.close()
    assert problems == {name: [] for name in problems}


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_finished_match_pages_in_every_language_at_both_widths(site, browser, lang):
    people = [site.player(f"L{n}") for n in range(2)]
    code = site.room(people[0], "grid_reversal", {"width": 3, "depth": 2}, seated=people)
    room = site.open(browser, f"/room/{code}", people[0], lang=lang)
    table_ready(room)
    room.locator("[data-action=choose_mother]:enabled").first.click()
    room.get_by_test_id("resign").click()
    room.get_by_test_id("confirm-ok").click()
    reason = room.get_by_test_id("banner-reason")
    resigned = TEXTS[lang]["outcome.resigned"].replace("{name}", "L0")  # who resigned, named
    expect(reason).to_have_text(resigned)
    match = httpx.get(f"{site.base}/api/rooms/{code}").json()["match_id"]
    room.context.close()
    ready = {f"/room/{code}": "[data-testid=banner-reason]", f"/matches/{match}": "[data-testid=verify-button]",
             f"/replay/{match}": "#table[data-game] > *", "/rules/fair_play": "#rules-body h1",
             "/ladders": "#leaderboard-head th", f"/players/{people[1]['id']}": "[data-testid=player-ratings] td"}
    for width in (1280, 360):
        for path, shown in ready.items():
            page = site.open(browser, path, people[1], width=width, lang=lang)
            page.locator(shown).first.wait_for()
            body = page.locator("body").inner_text()
            assert "⟦" not in body, (path, width)
            if path != "/rules/fair_play":
                assert "python -m" not in body, (path, width)
            size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert size[0] <= size[1], (lang, width, path, size)
            if path.startswith("/matches/"):
                assert TEXTS[lang]["verify.how"] in body and resigned in body
            if path.startswith("/replay/"):
                page.get_by_test_id("replay-last").click()
                expect(page.get_by_test_id("replay-action")).not_to_be_empty()
                assert log_lines(page)
            page.context.close()
