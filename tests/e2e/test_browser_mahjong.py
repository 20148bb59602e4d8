"""Mahjong in real browsers (Debian's Chromium), in English, Chinese and Japanese.

- A Hebei match of four hands: one person creates the room from the lobby with "fill empty
  seats with bots" and plays the three bots to the final ranking on a 360 px wide page, a
  spectator watching.
- A competition-rules (MCR) hand: two people (one on a 360 px page) and two bots the room's
  creator seats with the room's button, a spectator watching from the start, until the first
  hand's score sheet. Its match is dealt from ``MCR_SEED`` (``seeded_live_server``): the hand
  opens with a bot's discard the person in seat 1 may pung (``tests/engine/mahjong/test_seeds.py``
  checks that on the engine, without a browser), so a claim window is offered every run.

Throughout, every action control the table shows — the 和 / 碰 / 吃 / 杠 / 过 / 报听 buttons and the
discardable tiles — is exactly the legal list of the page's latest frame (read from its
websocket); the spectator never sees a hand; no page scrolls sideways; no text is an untranslated
key. The score sheet shown is the one the view carries (fans or doublings, payments, totals).
The bots think 0–20 ms (``fast_bots``).

The pages ask for patched updates (docs/protocol.md "Patched updates"): the tests read them
rebuilt with ``jsonpatch`` (``Frames``), and in the competition hand the spectator's page also
runs a second ``RoomSocket`` (the production module, as the room page uses it) whose rebuilt
updates must equal, one by one, those a socket without patches opened from Python receives.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from typing import Any

import pytest
import websockets.sync.client
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    HAND,
    TEXTS,
    axe_problems,
    chromium,
    click_first,
    create_room,
    expect_game_over,
    join_seats,
    log_lines,
    new_page,
    reason_sentence,
    seeded_live_server,
    take_seat,
)
from tests.e2e.test_browser_vs_bot import fast_bots  # noqa: F401 (fixture)
from tests.engine.mahjong.seeds import MCR_FIRST_CLAIM, MCR_SEED
from tests.patching import Rebuilder, exact

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "zh": "zh-CN", "ja": "ja-JP"}
#: What a screen reader hears on the person's own seat when it is asked to discard.
YOUR_TURN = {"en": "your turn", "zh": "轮到你出牌", "ja": "あなたの手番"}
#: Keeps every text the person's own turn mark had (``window.myTurnTexts``, in order).
RECORD_MY_TURN = """window.myTurnTexts = [];
new MutationObserver(() => {
  const mark = document.querySelector("[data-testid=mj-my-turn]");
  if (mark && !window.myTurnTexts.includes(mark.textContent)) window.myTurnTexts.push(mark.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });"""
#: What a player clicks, first offered first: win, claim, kong, declare ready, pass, else discard
#: the last tile shown (the drawn one when there is one).
MJ_CLICKABLE = (
    "[data-testid=mj-action][data-action=win]:enabled",
    "[data-testid=mj-action][data-action=pung]:enabled",
    "[data-testid=mj-action][data-action=chow]:enabled",
    "[data-testid=mj-action][data-action=kong]:enabled",
    "[data-testid=mj-action][data-action=ready]:enabled",
    "[data-testid=mj-action][data-action=pass]:enabled",
    "[data-testid=hand-card][data-action=discard]:enabled >> nth=-1",
)
#: The actions a table offers, read from its controls (the same shapes as the legal list).
SHOWN_ACTIONS = """() => {
  const out = [];
  for (const b of document.querySelectorAll('[data-testid=mj-action]')) {
    const a = b.dataset.action;
    if (a === 'ready') out.push({type: 'discard', tile: b.dataset.tile, ready: true});
    else if (a === 'kong') out.push({type: 'kong', tile: b.dataset.tile});
    else if (a === 'chow') out.push({type: 'chow', tiles: b.dataset.tiles.split(',')});
    else out.push({type: a});
  }
  const tiles = new Set([...document.querySelectorAll('[data-testid=hand-card][data-action=discard]')]
    .map((b) => b.dataset.tile));
  for (const tile of tiles) out.push({type: 'discard', tile});
  return out;
}"""
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
#: The game term every claim button says in each language (碰 pung, 吃 chow, 和 a win on a discard).
CLAIM_WORDS = {"pung": "碰", "chow": "吃", "win": "和"}


class Frames:
    """The newest welcome/update frame a page's room socket received, rebuilt from its patches
    (``Rebuilder``, one per socket: a page opens a new one after taking a seat); ``problems``
    lists a frame that could not be rebuilt; ``first_claim`` is the first claim window the page's
    seat was asked in (``{"tile", "from", "legal"}``), ``None`` before one."""

    def __init__(self, page: Page) -> None:
        self.last: dict[str, Any] | None = None
        self.first_claim: dict[str, Any] | None = None
        self.problems: list[str] = []
        page.on("websocket", self._socket)

    def _socket(self, socket) -> None:
        rebuilt = Rebuilder()
        socket.on("framereceived", lambda payload: self._frame(rebuilt, payload))

    def _frame(self, rebuilt: Rebuilder, payload: str | bytes) -> None:
        try:
            frame = rebuilt.take(json.loads(payload))
        except Exception as exc:  # checked by check_controls (an event handler cannot fail)
            self.problems.append(repr(exc))
            return
        if frame.get("type") in ("welcome", "update") and frame.get("view") is not None:
            self.last = frame
            if frame["view"]["phase"] == "claim" and frame["legal"] and self.first_claim is None:
                claim = frame["view"]["claim"]
                self.first_claim = {"tile": claim["tile"], "from": claim["from"],
                                    "legal": frame["legal"]}


def canonical(actions: list[dict]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def check_controls(page: Page, frames: Frames) -> None:
    """The table's controls are exactly the newest frame's legal actions (the table may be one
    redraw behind the frame: it is given a few tries)."""
    assert frames.problems == []
    for _ in range(20):
        legal = frames.last["legal"] if frames.last else []
        if canonical(page.evaluate(SHOWN_ACTIONS)) == canonical(legal):
            break
        page.wait_for_timeout(100)
    assert canonical(page.evaluate(SHOWN_ACTIONS)) == canonical(frames.last["legal"])
    if frames.last and frames.last["view"]["phase"] == "claim":
        for kind, word in CLAIM_WORDS.items():
            for text in page.locator(f"[data-testid=mj-action][data-action={kind}]").all_inner_texts():
                assert word in text, text


#: Starts a second ``RoomSocket`` (the production module) in a page, as a spectator; its
#: rebuilt ``update`` frames are kept in ``window.rebuiltUpdates``.
SECOND_SOCKET = """async (path) => {
  const { RoomSocket } = await import("/static/js/socket.js");
  window.rebuiltUpdates = [];
  window.secondSocket = new RoomSocket(path, {
    getToken: () => null, onStatus: () => {},
    onFrame: (frame) => { if (frame.type === "update") window.rebuiltUpdates.push(frame); },
  });
  window.secondSocket.start();
}"""


class FullSocket:
    """A spectator's socket without patches, opened from Python: its ``update`` frames, read
    by a thread as they come (``updates``; ``arrived`` is set at each)."""

    def __init__(self, url: str) -> None:
        self.stack = contextlib.ExitStack()
        self.socket = self.stack.enter_context(
            websockets.sync.client.connect(url, max_size=1 << 22))
        self.socket.send(json.dumps({"type": "hello", "token": None}))
        self.updates: list[dict[str, Any]] = []
        self.arrived = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                frame = json.loads(text)
                if frame["type"] == "update":
                    with self.arrived:
                        self.updates.append(frame)
                        self.arrived.notify_all()
        except websockets.ConnectionClosed:
            pass

    def first(self, count: int, timeout: float) -> list[dict[str, Any]]:
        """Return the first ``count`` updates (waiting at most ``timeout`` seconds for them)."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.updates) >= count, timeout), \
                (len(self.updates), count)
            return self.updates[:count]

    def close(self) -> None:
        self.stack.close()
        self.reader.join(10)


def check_page(page: Page) -> None:
    """No sideways scroll and no untranslated key."""
    assert page.evaluate(SIDEWAYS) <= 0, "the page scrolls sideways"
    assert "⟦" not in page.locator("#table").inner_text()


def play(players: list[tuple[Page, Frames]], watch: Page, done, seconds: float) -> int:
    """Click through the players' tables until ``done()``; check every round what every page
    must show. Returns the number of clicks."""
    clicks = 0
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"not done after {clicks} clicks"
        assert watch.locator(HAND).count() == 0, "the spectator sees a hand"
        moved = 0
        for page, frames in players:
            check_controls(page, frames)
            if click_first(page, MJ_CLICKABLE):
                moved += 1
        clicks += moved
        if not moved:
            players[0][0].wait_for_timeout(100)
    return clicks


def signed(n: int) -> str:
    """``n`` as the tables show a score: "+3", "0", "−8" (a typographic minus)."""
    return f"+{n}" if n > 0 else minus(n)


def minus(n: int) -> str:
    """``n`` as the tables show a total: "3", "−8"."""
    return str(n).replace("-", "\u2212")


#: Reads one score sheet element in one go (a newer frame may redraw the table between two
#: separate reads): how it ended, its fans, doublings, total, scores, running totals and hands.
READ_SHEET = """(sheet) => {
  const all = (sel) => [...sheet.querySelectorAll(sel)];
  const total = sheet.querySelector('[data-testid=mj-sheet-total]');
  return {
    result: sheet.dataset.result,
    fans: all('[data-fan]').map((r) => [r.dataset.fan, Number(r.querySelector('.mj-num-cell').textContent)]),
    doublings: all('[data-doubling]').map((d) => d.dataset.doubling),
    total: total ? total.textContent : null,
    scores: all('[data-testid=mj-sheet-score]').map((c) => c.textContent),
    totals: all('[data-testid=mj-payments] tbody tr').map((r) => r.lastElementChild.textContent.trim()),
    hands: all('[data-testid=mj-hands] > li').length,
  };
}"""

#: The sheet of hand ``hand`` inside ``within``, read: null when there is none.
SHEET_SHOWN = f"""([within, hand]) => {{
  const sheet = document.querySelector(`${{within}} [data-testid=mj-sheet][data-hand='${{hand}}']`);
  return sheet ? ({READ_SHEET})(sheet) : null;
}}"""

#: Installed before the page loads: every sheet the table shows as the last hand's, read when it
#: first appears, by hand number (``window.lastSheets``). Polling from the test can miss a hand's
#: sheet while bots play on; an observer of the page's own redraws cannot.
RECORD_LAST_SHEETS = f"""(() => {{
  window.lastSheets = {{}};
  const read = {READ_SHEET};
  const look = () => {{
    const sheet = document.querySelector('[data-testid=mj-last-sheet] [data-testid=mj-sheet]');
    if (sheet && !(sheet.dataset.hand in window.lastSheets)) window.lastSheets[sheet.dataset.hand] = read(sheet);
  }};
  document.addEventListener('DOMContentLoaded', () =>
    new MutationObserver(look).observe(document.body, {{childList: true, subtree: true}}));
}})();"""


def check_shown(shown: dict | None, sheet: dict, where: str) -> None:
    """``shown`` (a ``READ_SHEET`` read) shows the view's ``sheet``: how the hand ended, each fan
    (its points) or the doublings, every seat's score and running total, the four hands."""
    assert shown is not None, f"no sheet of hand {sheet['hand']} in {where}"
    assert shown["result"] == sheet["result"]
    if sheet["fans"]:
        assert shown["fans"] == [[f, p] for f, p in sheet["fans"]]
    if sheet["doublings"]:
        assert shown["doublings"] == sheet["doublings"]
    if sheet["result"] == "win":
        assert str(sheet["total"]) in shown["total"]
    assert shown["scores"] == [signed(s) for s in sheet["scores"]]
    assert sum(sheet["scores"]) == 0
    assert shown["totals"] == [minus(t) for t in sheet["totals"]]
    assert shown["hands"] == 4


def check_sheet(page: Page, sheet: dict, within: str = "[data-testid=mj-last-sheet]") -> None:
    """The page's sheet of ``sheet["hand"]`` (inside ``within``, waited for) shows the view's
    sheet (``check_shown``)."""
    expect(page.locator(f"{within} [data-testid=mj-sheet][data-hand='{sheet['hand']}']")).to_be_visible()
    check_shown(page.evaluate(SHEET_SHOWN, [within, sheet["hand"]]), sheet, within)


def hand_no_text(lang: str, n: int, total: int) -> str:
    return TEXTS[lang]["mj.hand_no"].replace("{n}", str(n)).replace("{total}", str(total))


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_person_plays_a_hebei_match_against_three_bots(fast_bots, live_server, chromium_path, lang):  # noqa: F811
    with chromium(chromium_path) as browser:
        person = new_page(browser, width=360, height=780, locale=LOCALES[lang])
        person.add_init_script(RECORD_LAST_SHEETS)
        person.add_init_script(RECORD_MY_TURN)
        frames = Frames(person)

        def fill(form: Page) -> None:
            form.locator("[data-option=rules]").select_option(index=0)
            form.locator("[data-option=hands]").fill("4")
            form.get_by_test_id("bots-select").select_option("easy")

        create_room(person, live_server, "mahjong", "Ann", fill)
        expect(person.get_by_test_id("mj-status")).to_be_visible()
        link = person.get_by_test_id("share-link").input_value()
        watch = new_page(browser, locale=LOCALES[lang])
        watch.goto(link)
        expect(watch.get_by_test_id("mj-status")).to_be_visible()
        expect(person.get_by_test_id("hand")).to_have_count(1)
        expect(person.get_by_test_id("mj-hand-no")).to_have_text(hand_no_text(lang, 1, 4))
        # Four seats around the table with their winds; one of them deals.
        for seat in range(4):
            assert person.get_by_test_id(f"mj-wind-{seat}").get_attribute("data-wind") in "ESWN"
        expect(person.locator("[data-testid^=mj-dealer-]")).to_have_count(1)
        check_page(person)

        def done() -> bool:
            return person.get_by_test_id("game-over").is_visible()

        clicks = play([(person, frames)], watch, done, seconds=300)
        assert clicks > 0  # a hand can end on a bot's win before the person's turn comes
        expect_game_over([person, watch])
        # Whenever the person was asked to discard, a screen reader heard it was their turn.
        assert person.evaluate("() => window.myTurnTexts") == [YOUR_TURN[lang]]
        final = frames.last["view"]
        assert final["phase"] == "finished" and len(final["results"]) == 4
        # Each hand's sheet was shown as the last hand's while the next one was played.
        shown = person.evaluate("() => window.lastSheets")
        assert sorted(shown) == ["1", "2", "3", "4"]
        for sheet in final["results"]:
            check_shown(shown[str(sheet["hand"])], sheet, f"the last sheet of hand {sheet['hand']}")
        check_sheet(person, final["results"][-1])
        # Every hand's sheet, unfolded from the scores.
        for sheet, fold in zip(final["results"], person.get_by_test_id("mj-sheet-fold").all()):
            fold.locator("summary").click()
            check_sheet(person, sheet, "[data-testid=mj-sheet-fold][open]")
            fold.locator("summary").click()
        for page in (person, watch):
            ranking = page.get_by_test_id("mj-ranking")
            expect(ranking).to_be_visible()
            ranks = [int(r) for r in (ranking.locator("li").evaluate_all("els => els.map(e => e.dataset.rank)"))]
            assert ranks == sorted(final["outcome"]["ranks"])
            expect(page.get_by_test_id("mj-scores")).to_be_visible()
            for seat, total in enumerate(final["totals"]):
                expect(page.get_by_test_id(f"mj-total-{seat}")).to_have_text(minus(total))
        check_page(person)
        # The page draws its log once it has read its frames: wait for the match's last line
        # (the test's own frames had it already; once, in CI, the log was read without it).
        expect(person.get_by_test_id("log-line").filter(
            has_text=TEXTS[lang]["mj.log.match_over"])).to_have_count(1)
        lines = log_lines(person)
        assert lines and not any("⟦" in line for line in lines)
        reason = person.get_by_test_id("banner-reason")
        expect(reason).to_have_text(reason_sentence("mahjong", lang)(reason.get_attribute("data-reason")))
        found = {"player": axe_problems(person), "spectator": axe_problems(watch)}
        assert found == {"player": [], "spectator": []}, found
        check_after_the_match(person, live_server, frames.last["room"]["match_id"], lines, lang)


def told_in(replay: list[str], lines: list[str], gap: str) -> bool:
    """Whether the room's log ``lines`` is the replay's log but for what its gap lines stand
    for: each run of lines between gaps is a run of the replay's, in order, the last one its
    end (a gap: the page was not connected, at the start or after a dropped socket)."""
    runs: list[list[str]] = [[]]
    for line in lines:
        if line == gap:
            runs.append([])
        else:
            runs[-1].append(line)
    at = 0
    for run in (run for run in runs if run):
        while at + len(run) <= len(replay) and replay[at:at + len(run)] != run:
            at += 1
        if at + len(run) > len(replay):
            return False
        at += len(run)
    return at == len(replay) or not any(runs)


def check_after_the_match(page: Page, base: str, match_id: int, lines: list[str], lang: str) -> None:
    """The history lists the match; its page shows the ranking and every hand's score sheet;
    its replay at the last step shows the table's ranking and scores and tells the room's log
    (which may begin with a gap: bots played before the person's page connected)."""
    page.goto(f"{base}/history")
    expect(page.locator(f"[data-match='{match_id}']")).to_be_visible()
    page.goto(f"{base}/matches/{match_id}")
    expect(page.get_by_test_id("mj-match-sheets")).to_be_visible()
    expect(page.get_by_test_id("mj-sheet-fold")).to_have_count(4)
    expect(page.get_by_test_id("mj-ranking").locator("li")).to_have_count(4)
    assert axe_problems(page) == []
    page.goto(f"{base}/replay/{match_id}")
    page.locator("#table[data-game] > *").first.wait_for()
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("mj-ranking")).to_be_visible()
    expect(page.get_by_test_id("mj-sheet-fold")).to_have_count(4)
    told = [line for line in lines if line != TEXTS[lang]["log.gap"]]
    page.wait_for_function("(n) => document.querySelectorAll("
                           "'[data-testid=move-log] [data-testid=log-line]').length >= n", arg=len(told))
    replay = log_lines(page)
    if len(told) == len(lines):          # no gap: the same lines
        assert replay == told
    assert told_in(replay, lines, TEXTS[lang]["log.gap"])
    check_page(page)
    assert axe_problems(page) == []


@pytest.fixture
def seeded_server(fast_bots, monkeypatch, request) -> str:  # noqa: F811
    """The ``live_server`` (with ``fast_bots``) dealing every match from ``MCR_SEED``."""
    return seeded_live_server(monkeypatch, request, MCR_SEED)


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_two_people_and_two_bots_play_a_competition_hand(seeded_server, chromium_path, lang):
    live_server = seeded_server
    with chromium(chromium_path) as browser:
        alice = new_page(browser, locale=LOCALES[lang])
        bob = new_page(browser, width=360, height=780, locale=LOCALES[lang])
        watch = new_page(browser, locale=LOCALES[lang])
        frames = {alice: Frames(alice), bob: Frames(bob)}

        def fill(form: Page) -> None:
            form.locator("[data-option=rules]").select_option(index=1)

        link = create_room(alice, live_server, "mahjong", "Alice", fill)
        take_seat(alice, 0, ready="mj-status")
        watch.goto(link)
        join_seats(link, [bob], ["Bob"], ready="mj-status")
        path = "/ws/rooms/" + link.rstrip("/").split("/")[-1]
        full = FullSocket(live_server.replace("http://", "ws://") + path)
        patched = []
        watch.on("websocket", lambda socket: socket.on(
            "framereceived", lambda payload: patched.append('"patch":' in payload)))
        watch.evaluate(SECOND_SOCKET, path)
        watch.wait_for_function("() => window.secondSocket.status === 'connected'")
        alice.get_by_test_id("room-bots-level").select_option("normal")
        alice.get_by_test_id("room-fill-bots").click()
        for page in (alice, bob, watch):
            expect(page.get_by_test_id("mj-status")).to_be_visible()
            expect(page.get_by_test_id("mj-prevalent")).to_have_text(
                TEXTS[lang]["mj.prevalent"].replace("{wind}", TEXTS[lang]["mj.wind.E"]))
            expect(page.get_by_test_id("mj-hand-no")).to_have_text(hand_no_text(lang, 1, 4))
        for page in (alice, bob):
            expect(page.get_by_test_id("hand")).to_have_count(1)
        check_page(bob)

        def done() -> bool:
            view = frames[bob].last["view"] if frames[bob].last else None
            return bool(view and view["results"])

        play([(alice, frames[alice]), (bob, frames[bob])], watch, done, seconds=240)
        sheet = frames[bob].last["view"]["results"][0]
        for page in (alice, bob, watch):
            check_sheet(page, sheet)
        check_page(bob)
        # The seeded hand's first discard offered Bob a 碰 (MCR_SEED); every claim window was
        # shown exactly as legal (check_controls). Later ones follow the bots' random streams.
        assert frames[bob].first_claim == MCR_FIRST_CLAIM
        found = {"player": axe_problems(bob), "spectator": axe_problems(watch)}
        assert found == {"player": [], "spectator": []}, found
        assert not re.search("⟦", watch.locator("body").inner_text())
        # The page's own rebuilding of patched updates gives exactly the full frames.
        rebuilt = watch.evaluate("() => window.rebuiltUpdates")
        assert len(rebuilt) > 10 and any(patched)
        assert [exact(f) for f in rebuilt] == [exact(f) for f in full.first(len(rebuilt), 30)]
        full.close()


LOG = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const mj = await import("/static/games/mahjong.js");
  const { lastMove } = await import("/static/games/mj_log.js");
  const E = (kind, data) => ({ kind, data });
  const people = ["Alice", "Bob", "Carol", "Dee"].map((name, seat) => ({ seat, name }));
  const ctx = { t: i18n.t, players: people, seat: null, legal: [], events: [] };
  const events = [
    E("hand_started", { hand: 1, dealer: 2, order: [2, 3, 0, 1], prevalent_wind: null }),
    E("hand_started", { hand: 5, dealer: 0, order: [0, 1, 2, 3], prevalent_wind: "S" }),
    E("flower", { seat: 0, tile: "1f" }), E("drew", { seat: 0, from: "tail" }),
    E("discarded", { seat: 1, tile: "5p", ready: false, auto: false }),
    E("claims_pending", { tile: "5p", from: 1 }), E("claims_closed", { tile: "5p", from: 1 }),
    E("claimed", { seat: 2, kind: "pung", tile: "5p", from: 1, tiles: ["5p", "5p", "5p"] }),
    E("discarded", { seat: 2, tile: "9m", ready: true, auto: false }),
    E("kong_declared", { seat: 2, tile: "5p" }), E("kong", { seat: 2, kind: "added_kong", tile: "5p" }),
    E("kong", { seat: 3, kind: "concealed_kong", tile: null }),
    E("won", { seat: 0, tile: "7z", way: "discard" }),
    E("hand_over", { hand: 1, result: "win", winner: 0, total: 24 }),
    E("hand_over", { hand: 2, result: "draw", winner: null, total: 0 }),
    E("won", { seat: 3, tile: "1s", way: "self_drawn" }),
    E("match_over", { totals: [1, 2, 3, -6], ranks: [3, 2, 1, 4] }), E("resigned", { seat: 3 })];
  await i18n.loadLocale("en");
  const en = mj.logLines(events, ctx);
  const twins = mj.logLines([E("discarded", { seat: 1, tile: "3s", ready: false, auto: false })],
    { ...ctx, players: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Robo" }, { seat: 2, name: "Robo" }] });
  await i18n.loadLocale("zh");
  const zh = mj.logLines([events[4], events[7]], ctx);
  await i18n.loadLocale("ja");
  const ja = mj.logLines([events[4], events[7]], ctx);
  const marks = [[events[4], events[5]], [events[7]], [events[11]], [events[2], events[3]], [events[13]], [events[3]]]
    .map((batch) => lastMove(batch));
  return { en, twins, zh, ja, marks };
}"""


def test_the_log_words_every_public_event_and_marks_the_last_move(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(f"{live_server}/history")
        page.locator("#main").wait_for()
        got = page.evaluate(LOG)
    assert got["en"] == [
        "Hand 1: Carol deals.",
        "Hand 5: Alice deals; prevalent wind South.",
        "Alice shows a flower (Flower 春 Spring) and draws a replacement.",
        "Bob discards 5 Dots.",
        "Carol claims Bob's 5 Dots: 碰 Pung.",
        "Carol discards 9 Characters and declares ready (报听).",
        "Carol adds 5 Dots to a pung (加杠).",
        "Nobody robs it: Carol's kong of 5 Dots stands.",
        "Dee declares a concealed kong (暗杠).",        # which tile: nobody else may know
        "Alice wins on the discard Red dragon (和).",
        "Hand 1: Alice wins, worth 24.",
        "Hand 2 is a draw (荒庄).",
        "Dee wins by self-draw (自摸) with 1 Bamboo.",
        "The match is over.",
        "Dee resigned.",
    ]  # draws and the claim window's opening and closing give no line
    assert got["twins"] == ["Robo · Seat 2 discards 3 Bamboo."]
    assert got["zh"] == ["Bob打出5筒。", "Carol碰Bob的5筒。"]
    assert got["ja"] == ["Bobが5筒を捨てる。", "CarolがBobの5筒を碰（ポン）。"]
    assert got["marks"] == [{"kind": "discard", "seat": 1}, {"kind": "meld", "seat": 2},
                            {"kind": "meld", "seat": 3}, {"kind": "flower", "seat": 0},
                            {"kind": "sheet", "seat": None}, None]
