"""What a new user met on a first visit (the tester's report), fixed and pinned in Chromium.

* the stairs track keeps its marker on the goal cell for a K.O. past the goal, with the real
  number (rulings "Match flow" 8: the match ends once |position| reaches the K.O. value);
* the stairs chart labels each point with the position after the set (its title), the result
  only in the tooltip;
* times follow the page's language, not the browser's;
* the name dialog says why a blank name or one with a control character is refused, and stays;
* the creator of a room is seated in the first seat at once and may leave it to watch;
* a wrong room code shows only the message and a link back to the lobby;
* the name dialog and the Account form say why the server refused a name or a password in the
  page's language (they showed pydantic's English sentence);
* the replay of a match that does not exist shows only the message and a link to the match
  history: no step buttons, slider, table or log;
* a rate limit on new players or rooms reads as such, not as the chat's "Too many messages";
* a mahjong score table wider than a phone shows that it scrolls (a shadow at the hidden edge);
* a NumGR stack on a 0 keeps its caption clear of the 0.

Expected strings are written from en.json and the rulings, not read from the code.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.browser import chromium, give_name, new_page

pytestmark = pytest.mark.browser

UNITS = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const board = await import("/static/games/rc_board.js");
  const chart = await import("/static/games/rc_stairs_chart.js");
  const identity = await import("/static/js/identity.js");
  await i18n.loadLocale("en");
  const t = i18n.t;
  const marker = (position, ko) => {
    const track = board.stairs({ ko, position, my_side: "UP" }, { t });
    const here = track.querySelectorAll(".stair-here");
    return [here.length, here[0].dataset.step, here[0].textContent];
  };
  const svg = chart.stairsChart([
    { set: 1, first_side: "UP", result: -10, position_after: -10 },
    { set: 2, first_side: "DOWN", result: -5, position_after: -15 },
  ], { ko: 12, maxSets: 3, t });
  const points = [...svg.querySelectorAll("[data-testid=stairs-point]")];
  const at = new Date(2026, 10, 30, 6, 33, 40);
  const clocks = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    clocks[lang] = i18n.formatClock(at, true);
  }
  return {
    markers: [marker(-15, 12), marker(26, 24), marker(3, 12), marker(-12, 12)],
    labels: points.map((p) => p.querySelector("[data-testid=stairs-label]").textContent),
    tips: points.map((p) => p.querySelector("title").textContent),
    clocks,
    names: ["   ", "\\u0000bad", "\\t", "\\u3000", " Ann ", "é"].map(identity.nameProblem),
  };
}"""


def test_stairs_marker_chart_labels_clock_language_and_name_rule(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(f"{live_server}/history")
        got = page.evaluate(UNITS)
    # K.O. past the goal: the marker sits on the goal cell (−12 / +24) and shows the position.
    assert got["markers"] == [[1, "-12", "−15"], [1, "24", "+26"], [1, "3", "+3"],
                              [1, "-12", "−12"]]
    # Set 1 −10 → −10; set 2 −5 → −15 (drawn on the K.O. line, labelled with the real −15).
    assert got["labels"] == ["−10", "−15"]
    assert got["tips"] == ["Set 1: ▲ UP went first, result −10, position −10",
                           "Set 2: ▼ DOWN went first, result −5, position −15"]
    assert got["clocks"] == {"en": "06:33:40 AM", "zh": "06:33:40", "ja": "06:33:40"}
    assert got["names"] == ["identity.name_blank", "identity.name_control",
                            "identity.name_control", "identity.name_blank", None, None]


def test_a_new_user_names_themself_creates_a_room_and_is_seated(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(f"{live_server}/room/WRONG1")
        expect(page.get_by_test_id("room-missing")).to_have_text("This room does not exist.")
        expect(page).to_have_title("This room does not exist. · Reversal Arena")
        back = page.get_by_test_id("back-to-lobby")
        expect(back).to_have_text("Back to the lobby")
        assert back.get_attribute("href") == "/"
        for gone in ("#share-link", "#copy-link", "#chat-form", "#seats", "#table"):
            assert page.locator(gone).count() == 0, gone

        back.click()
        page.wait_for_url(f"{live_server}/")
        page.get_by_test_id("game-select").select_option("reverse_curse")
        page.get_by_test_id("create-room").click()
        page.get_by_test_id("name-input").fill("   ")
        page.get_by_test_id("name-ok").click()
        expect(page.get_by_test_id("name-error")).to_have_text(
            "Type at least one visible character (a name of only spaces is not a name).")
        expect(page.get_by_test_id("name-input")).to_be_visible()  # the dialog stays open
        # A name only the server refuses: its sentence, not the code "validation_error".
        page.get_by_test_id("name-input").fill("Normal bot")
        page.get_by_test_id("name-ok").click()
        expect(page.get_by_test_id("name-error")).to_have_text(
            "That name belongs to the computer players.")
        page.get_by_test_id("name-input").fill("  Ann  ")
        page.get_by_test_id("name-input").press("Enter")  # Enter means "Continue"
        page.wait_for_url("**/room/*")

        # The creator holds seat 1 at once and may leave it to watch.
        expect(page.get_by_test_id("my-name")).to_have_text("Ann")
        expect(page.get_by_test_id("mode")).to_have_text("You are playing in seat 1.")
        page.get_by_test_id("leave-seat-0").click()
        expect(page.get_by_test_id("mode")).to_have_attribute("data-mode", "spectator")
        expect(page.get_by_test_id("take-seat-0")).to_be_visible()


def test_the_replay_of_a_match_that_does_not_exist_shows_only_the_message(live_server,
                                                                         chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(f"{live_server}/replay/99999?step=3")
        expect(page.get_by_test_id("replay-missing")).to_have_text("This match does not exist.")
        expect(page).to_have_title("This match does not exist. · Reversal Arena")
        back = page.locator("#match-link")
        expect(back).to_have_text("← Match history")
        assert back.get_attribute("href") == "/history"
        expect(page.locator("[data-site-header] [data-testid=lang-select]")).to_be_visible()
        assert page.locator("#main > *").evaluate_all(
            "els => els.map((el) => el.tagName)") == ["P", "H1"]
        for gone in ("replay-controls", "replay-first", "replay-prev", "replay-play",
                     "replay-next", "replay-last", "replay-slider", "replay-step",
                     "replay-viewer", "replay-share", "table", "move-log", "toast"):
            expect(page.get_by_test_id(gone)).to_have_count(0)


def test_the_account_form_says_why_in_the_pages_language(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser, locale="zh-CN")
        page.goto(f"{live_server}/")
        # The form answers once the lobby has listed the games (a click before is lost).
        page.get_by_test_id("game-select").select_option("numgr")
        page.get_by_test_id("create-room").click()
        page.get_by_test_id("name-input").fill("Normal bot")
        page.get_by_test_id("name-ok").click()
        expect(page.get_by_test_id("name-error")).to_have_text("这个名字属于电脑玩家。")
        give_name(page, "Ann")
        page.wait_for_url("**/room/*")

        page.get_by_test_id("account-button").click()
        claim_error = page.get_by_test_id("claim-form").get_by_test_id("account-error")
        # 4 emoji: 8 UTF-16 units pass the input's minlength, 4 characters fail the server's
        page.get_by_test_id("claim-password").fill("\U0001F600" * 4)
        page.get_by_test_id("claim-submit").click()
        expect(claim_error).to_have_text("密码为 8 到 128 个字符。")
        page.get_by_test_id("claim-password").fill("long enough")
        page.get_by_test_id("claim-name").fill("A\u200bnn")
        page.get_by_test_id("claim-submit").click()
        expect(claim_error).to_have_text("名字不能包含不可见字符或格式字符。")
        # The forms are novalidate: a short or empty password is refused in the page's
        # language (the input's own minlength spoke the browser's), the last refusal replaced.
        page.get_by_test_id("claim-name").fill("Ann")
        for short in ("short", ""):
            page.get_by_test_id("claim-password").fill(short)
            page.get_by_test_id("claim-submit").click()
            expect(claim_error).to_have_text("密码为 8 到 128 个字符。")

        login_error = page.get_by_test_id("login-form").get_by_test_id("account-error")
        page.get_by_test_id("login-name").fill("   ")  # was the server's "String should have…"
        page.get_by_test_id("login-password").fill("whatever")
        page.get_by_test_id("login-submit").click()
        expect(login_error).to_have_text("请至少输入一个可见字符（只有空格不能作为名字）。")
        page.get_by_test_id("login-name").fill("Nobody")
        page.get_by_test_id("login-submit").click()
        expect(login_error).to_have_text("名字或密码错误。")


def test_a_rate_limit_on_new_players_and_rooms_is_worded_for_what_was_refused(
        live_server, chromium_path):
    """The server's 429 ``rate_limited`` on ``POST /api/players`` and ``POST /api/rooms`` (30
    a minute per address; the answer's shape as tests/app/test_rest.py pins it, given here by
    the browser's route so that the shared test server keeps its limits) reads as a limit on
    new players or rooms, not the chat's "Too many messages"."""
    limited = {"detail": {"code": "rate_limited", "message": "Too many requests; try again in "
                                                             "37 s."}}

    def refuse_posts(route):
        if route.request.method == "POST":
            route.fulfill(status=429, json=limited)
        else:
            route.continue_()

    with chromium(chromium_path) as browser:
        page = new_page(browser, locale="ja-JP")
        page.route("**/api/players", refuse_posts)
        page.goto(f"{live_server}/")
        page.get_by_test_id("game-select").select_option("numgr")
        page.get_by_test_id("create-room").click()
        page.get_by_test_id("name-input").fill("Ann")
        page.get_by_test_id("name-ok").click()
        expect(page.get_by_test_id("name-error")).to_have_text(
            "ここから作成された新しいプレイヤーが多すぎます。1分ほど待ってからもう一度お試しください。")
        page.unroute("**/api/players")
        page.route("**/api/rooms", refuse_posts)
        page.get_by_test_id("name-ok").click()
        expect(page.get_by_test_id("toast")).to_have_text(  # no space after a full-width colon
            "エラー：ここから作成されたルームが多すぎます。1分ほど待ってからもう一度お試しください。")
        expect(page.get_by_test_id("my-name")).to_have_text("Ann")  # the player was made
        assert page.url == f"{live_server}/"


SCROLL_HINT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const { scoresEl } = await import("/static/games/mj_sheet.js");
  const names = ["Annabelle Lee", "Bartholomew", "Cassiopeia", "Dorothea Brooke"];
  const el = scoresEl([], [120, -40, -50, -30], { t: i18n.t, name: (s) => names[s] }, true);
  const panel = document.createElement("section");  // as the room and match pages hold it
  panel.className = "panel";
  panel.append(el);
  document.querySelector("#main").replaceChildren(panel);
  (await import("/static/games/kit.js")).ensureStyles("mahjong.css");
  const cream = "rgb(255, 250, 240)";  // the scores panel's own colour (mahjong.css)
  for (let i = 0; i < 100 && getComputedStyle(el).backgroundColor !== cream; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const box = el.querySelector(".scroll-x");
  const style = getComputedStyle(box);
  return [box.scrollWidth > box.clientWidth, style.overflowX,
    (style.backgroundImage.match(/radial-gradient/g) || []).length,
    document.documentElement.scrollWidth <= window.innerWidth,
    getComputedStyle(el).backgroundColor, style.backgroundColor];
}"""


def test_a_mahjong_score_table_wider_than_a_phone_shows_it_scrolls(live_server, chromium_path):
    """At 360 px the four names do not fit: the table scrolls inside its box, never the page,
    and the box shows a shadow at each edge where more is hidden (two radial gradients)."""
    with chromium(chromium_path) as browser:
        page = new_page(browser, width=360, height=780)
        page.goto(f"{live_server}/history")
        page.locator("#main").wait_for()
        # ... in the colour of the panel that holds it (no white box on the cream panel)
        cream = "rgb(255, 250, 240)"
        assert page.evaluate(SCROLL_HINT) == [True, "auto", 2, True, cream, cream]


def test_a_page_naming_nothing_names_its_tab_by_its_message(live_server, chromium_path):
    """The tab of a match, player or rules page naming nothing says so (it read "Match",
    "Player", "Rules" as for one that exists)."""
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        for path, message in (("/matches/999999", "This match does not exist."),
                              ("/players/999999", "No such player."),
                              ("/rules/chess", "This game is not available.")):
            page.goto(f"{live_server}{path}")
            expect(page.locator("h1")).to_have_text(message)
            expect(page).to_have_title(f"{message} · Reversal Arena")


NUMGR_STACKS = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  (await import("/static/games/kit.js")).ensureStyles("numgr.css");
  const { stackEl } = await import("/static/games/ng_cards.js");
  const ctx = { t: i18n.t, players: [], seat: 0, events: [] };
  const list = document.createElement("ul");
  list.className = "ng-stacks";
  document.querySelector("#main").replaceChildren(list);
  for (const role of ["zero", "synergy", null]) {
    list.append(stackEl({ id: 52, kind: "card", main: "2", base: role ? "0" : null, base_role: role,
      locked_by: null, lock: null, reflected: false, owner: 0, held_hidden: false, attack: 0,
      defense: 2 }, { areas: [[], []] }, ctx));
  }
  while (![...document.querySelectorAll("link[data-table-css]")].every((link) => link.sheet)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [...list.children].map((stack) => [stack.className,
    Math.max(...[...stack.querySelectorAll(".ng-pile .card")].map((card) => card.getBoundingClientRect().bottom))
      <= stack.querySelector(".ng-notes").getBoundingClientRect().top]);
}"""


def test_a_numgr_stack_on_a_zero_keeps_its_caption_clear(live_server, chromium_path):
    """The 0 under a stack shows below its card: the caption under the stack starts below the
    lowest card of every stack (the 0 covered "#52 2 defense")."""
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(f"{live_server}/history")
        page.locator("#main").wait_for()
        assert page.evaluate(NUMGR_STACKS) == [["ng-stack ng-has-zero", True],
                                               ["ng-stack ng-has-synergy", True], ["ng-stack", True]]
