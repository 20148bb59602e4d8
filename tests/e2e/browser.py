"""Playwright helpers for the browser tests: launch Debian's Chromium, act through the UI.

Every helper drives the pages the way a player would (clicks and typing); none calls the API.
A typical match test::

    with chromium(chromium_path) as browser:
        alice, bob, watch = (new_page(browser) for _ in range(3))
        start_match(live_server, "numgr", [alice, bob], ["Alice", "Bob"], watch,
                    ready="ng-status")
        play_to_the_end([alice, bob], watch, click)

Every context these helpers open reports what the site's policies block (``POLICY_REPORTS``:
``securitypolicyviolation`` events and the console's Content-Security-Policy and
Permissions-Policy errors and warnings), and ``tests/e2e/conftest.py`` fails any test that
leaves a report there: each browser test also checks that its pages run under the server's
security headers.
Give ``page.wait_for_function`` a function (``"() => …"``), never a bare expression: Playwright
re-runs an expression through ``eval`` on every poll, which the site's CSP blocks (no
``'unsafe-eval'``); a function is evaluated once and then only called.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]

#: What a Reverse Curse player may click: close the set playback, choose the order (go first),
#: keep the hand, play a hand card, pass in the shop. The first match on the page is clicked
#: (the decision panel, then the playback under it, then the hand).
RC_CLICKABLE = ", ".join((
    "[data-testid=rc-continue]",
    "[data-action=choose_order][data-first=true]:enabled",
    "[data-action=mulligan-keep]:enabled",
    "[data-testid=hand-card]:enabled",
    "[data-action=pass]:enabled",
))
#: Half regulation in the Reverse Curse lobby form (rulings "Formats").
RC_HALF = "Half (3 sets, K.O. at 12)"
#: What a spectator must never see: a hand, or a card in one.
HAND = "[data-testid=hand], [data-testid=hand-card]"

#: A click on a page: returns what it clicked (truthy) or None when it clicked nothing.
Click = Callable[[Page], object]

#: One line per thing a page of a guarded context (``new_context``) reported against the
#: site's policies, in order: ``violation: <directive> blocked <what> at <document>`` for a
#: ``securitypolicyviolation`` event, ``console: <text>`` for a console error or warning naming
#: a policy.
POLICY_REPORTS: list[str] = []
#: Every console error and uncaught page error of a guarded context, ``"<url>: <text>"``.
CONSOLE_ERRORS: list[str] = []
#: Console texts that are policy reports (CSP violations, a policy header the browser refuses).
POLICY_TEXT = re.compile(r"Content[- ]Security[- ]Policy|Permissions[- ]Policy", re.IGNORECASE)
#: Runs in every document and frame of a guarded context before its own scripts.
VIOLATION_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.__arenaPolicyViolation(
    `${e.effectiveDirective} blocked ${e.blockedURI || "?"} at ${e.documentURI}`
    + (e.sourceFile ? ` (${e.sourceFile}:${e.lineNumber})` : ""));
}, true);
"""


def seeded_live_server(monkeypatch, request, seed: bytes) -> str:
    """Start the ``live_server`` fixture with every match dealt from ``seed``; return its URL.

    Call it from a fixture that has ``monkeypatch`` and ``request``: it patches
    ``app.main.create_app`` (``seed_source``) before the server starts.
    """
    import app.main

    monkeypatch.setattr(app.main, "create_app",
                        functools.partial(app.main.create_app, seed_source=lambda: seed))
    return request.getfixturevalue("live_server")


def launch(playwright: Playwright, chromium_path: str) -> Browser:
    """Return Debian's Chromium under Playwright (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)


@contextmanager
def chromium(chromium_path: str) -> Iterator[Browser]:
    """Run Playwright and Debian's Chromium for the ``with`` block; close both after it (after
    collecting the pages' last policy reports: ``flush_reports``)."""
    with sync_playwright() as playwright:
        browser = launch(playwright, chromium_path)
        try:
            yield browser
            flush_reports(browser)
        finally:
            browser.close()


def evaluate_on(chromium_path: str, url: str, script: str) -> Any:
    """Open ``url`` in a fresh Chromium page, run the JavaScript function ``script`` there
    (``page.evaluate``: a promise is awaited) and return its JSON-ready result."""
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(url)
        return page.evaluate(script)


def _console(message: ConsoleMessage) -> None:
    """Keep a console error in ``CONSOLE_ERRORS``, and an error or warning naming a policy in
    ``POLICY_REPORTS`` (Chromium warns of a Permissions-Policy feature it does not know)."""
    if message.type == "error":
        CONSOLE_ERRORS.append(f"{message.location.get('url', '')}: {message.text}")
    if message.type in ("error", "warning") and POLICY_TEXT.search(message.text):
        POLICY_REPORTS.append(f"console: {message.text}")


def new_context(browser: Browser, **options: Any) -> BrowserContext:
    """Return ``browser.new_context(**options)`` guarded: its pages' policy violations and
    console errors land in ``POLICY_REPORTS`` and ``CONSOLE_ERRORS``."""
    context = browser.new_context(**options)
    context.expose_binding("__arenaPolicyViolation",
                           lambda source, text: POLICY_REPORTS.append(f"violation: {text}"))
    context.add_init_script(VIOLATION_LISTENER)
    context.on("console", _console)
    context.on("weberror", lambda error: CONSOLE_ERRORS.append(f"page error: {error.error}"))
    return context


def flush_reports(browser: Browser) -> None:
    """Let every open page of ``browser`` deliver the reports still on their way (a round trip
    to each page dispatches the events that page sent before it); closed pages are skipped."""
    for context in browser.contexts:
        for page in context.pages:
            try:
                page.evaluate("0")
            except Exception:  # closing or crashed: nothing more will come from it
                pass


def new_page(browser: Browser, width: int = 1280, height: int = 900,
             locale: str | None = None) -> Page:
    """Return a page in a fresh guarded context (``new_context``: its own localStorage, its
    own player).

    ``width`` x ``height`` is the viewport in CSS pixels; ``locale`` (e.g. ``"zh-CN"``) is the
    browser's language, Playwright's default when None. Actions time out after 15 s.
    """
    extra = {} if locale is None else {"locale": locale}
    context = new_context(browser, viewport={"width": width, "height": height}, **extra)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def give_name(page: Page, name: str) -> None:
    """Answer the "choose a player name" dialog."""
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("name-ok").click()


def create_room(page: Page, base_url: str, game: str, name: str,
                fill: Callable[[Page], None] | None = None) -> str:
    """Create a room of ``game`` (a registry id) from the lobby form as player ``name``.

    ``fill`` sets the form's options before "Create" is clicked. Waits for the room page and
    returns its share link (the room page URL). Raises AssertionError when no link shows.
    """
    page.goto(f"{base_url}/")
    page.get_by_test_id("game-select").select_option(game)
    if fill is not None:
        fill(page)
    page.get_by_test_id("create-room").click()
    give_name(page, name)
    page.wait_for_url("**/room/*")
    share = page.get_by_test_id("share-link")
    expect(share).to_have_value(re.compile(r"/room/"))
    return share.input_value()


def rc_half_no_monsters(page: Page) -> None:
    """Lobby form: half regulation, monsters off (a short 1v1 Reverse Curse match)."""
    page.locator("[data-option=regulation]").select_option(label=RC_HALF)
    page.locator("[data-option=monsters]").uncheck()


def rc_two_vs_two(page: Page) -> None:
    """Lobby form: half regulation, 2 vs 2 (seats 1+3 against 2+4); monsters stay on (their
    default)."""
    page.locator("[data-option=regulation]").select_option(label=RC_HALF)
    page.locator("[data-option=format]").select_option(label="2 vs 2")
    expect(page.locator("[data-option=monsters]")).to_be_checked()


def create_rc_room(page: Page, base_url: str, name: str) -> str:
    """Create a half-regulation 1v1 Reverse Curse room without monsters from the lobby form;
    answer the name dialog; return the room page URL (the share link)."""
    return create_room(page, base_url, "reverse_curse", name, rc_half_no_monsters)


def take_seat(page: Page, seat: int, name: str | None = None, ready: str = "rc-status") -> None:
    """Click "Take seat" for ``seat`` (answering the name dialog when ``name`` is given).

    A room's creator already holds seat 0 (the lobby seats them): then nothing is clicked.
    Waits until the page offers "Leave seat" or shows the test id ``ready`` (the game's table,
    drawn once the match starts).
    """
    take = page.get_by_test_id(f"take-seat-{seat}")
    take.or_(page.get_by_test_id(f"leave-seat-{seat}")).first.wait_for()
    if take.count():
        take.click()
        if name is not None:
            give_name(page, name)
    page.get_by_test_id(f"leave-seat-{seat}").or_(page.get_by_test_id(ready)).first.wait_for()


def join_seats(link: str, pages: Sequence[Page], names: Sequence[str], first_seat: int = 1,
               ready: str = "rc-status") -> None:
    """Open ``link`` on each page in turn and take seats ``first_seat``, ``first_seat + 1``, …
    under the matching ``names``."""
    for seat, (page, name) in enumerate(zip(pages, names, strict=True), start=first_seat):
        page.goto(link)
        take_seat(page, seat, name, ready)


def start_match(base_url: str, game: str, players: Sequence[Page], names: Sequence[str],
                watch: Page | None = None, fill: Callable[[Page], None] | None = None,
                ready: str = "rc-status") -> str:
    """Seat ``players`` in a new room of ``game`` (seat n = players[n], named names[n]).

    players[0] creates the room from the lobby (``fill`` sets its options) and sits in seat 0;
    the others join through the share link; ``watch`` then opens the link as a spectator.
    Returns the share link.
    """
    link = create_room(players[0], base_url, game, names[0], fill)
    take_seat(players[0], 0, ready=ready)
    join_seats(link, players[1:], names[1:], ready=ready)
    if watch is not None:
        watch.goto(link)
    return link


def resign(page: Page) -> None:
    """Resign the page's seat: click "Resign", then confirm in the dialog."""
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-ok").click()


def click_first(page: Page, selectors: Iterable[str], visible: bool = True) -> str | None:
    """Click the first element of the first selector the page offers; return that selector.

    With ``visible`` an element must also be visible to count as offered. Returns None when
    nothing is offered, or when the click failed (the element was redrawn under the pointer,
    or a teammate was faster): the caller tries again on its next round.
    """
    for selector in selectors:
        target = page.locator(selector).first
        if target.count() and (not visible or target.is_visible()):
            try:
                target.click(timeout=1_000)
            except Exception:  # redrawn under the pointer: try again on the next round
                return None
            return selector
    return None


def click_next(page: Page) -> str | None:
    """Click the first thing ``RC_CLICKABLE`` finds on the page; return the selector or None."""
    return click_first(page, (RC_CLICKABLE,), visible=False)


def play_to_the_end(players: Sequence[Page], watch: Page | None, click: Click = click_next,
                    seconds: float = 240, hidden: str = HAND,
                    check: Callable[[], None] | None = None) -> list:
    """Call ``click`` on every player's page, round after round, until all show game-over.

    Before every round the spectator page ``watch`` (when given) must show nothing matching
    ``hidden``, and ``check`` (when given) runs its own assertions. Returns what each
    successful click returned, in order (so ``len`` is the number of clicks). Raises
    AssertionError on a failed check, or when the match has not ended within ``seconds``.
    """
    clicked: list = []
    deadline = time.monotonic() + seconds
    while not all(page.get_by_test_id("game-over").is_visible() for page in players):
        assert time.monotonic() < deadline, f"the match did not end after {len(clicked)} clicks"
        if watch is not None:
            assert watch.locator(hidden).count() == 0
        if check is not None:
            check()
        moved = [what for what in (click(page) for page in players) if what]
        clicked += moved
        if not moved:
            players[0].wait_for_timeout(100)
    return clicked


def results(players: Iterable[Page]) -> set[str]:
    """The set of game-over results (``won``, ``lost``, ``draw``…) the ``players`` pages show."""
    return {page.get_by_test_id("game-over").get_attribute("data-result") for page in players}


def expect_game_over(pages: Iterable[Page]) -> None:
    """Wait until every page shows the game-over banner (AssertionError after the timeout)."""
    for page in pages:
        expect(page.get_by_test_id("game-over")).to_be_visible()


# ----------------------------------------------------------------------------- tables

#: axe-core impacts a page must have none of.
BLOCKING_IMPACTS = ("serious", "critical")


def styles_loaded(page: Page) -> None:
    """Wait until every game stylesheet the table added (``link[data-table-css]``) has loaded."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('link[data-table-css]')].every((l) => l.sheet)")


def axe_problems(page: Page) -> list[tuple[str, str, int, str]]:
    """Run axe-core (``axe-playwright-python``) on ``page``; return its serious and critical
    violations as (rule id, impact, node count, first node's selector) — [] when there are none."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [(v["id"], v["impact"], len(v["nodes"]), str(v["nodes"][0]["target"]))
            for v in found if v["impact"] in BLOCKING_IMPACTS]


def log_lines(page: Page) -> list[str]:
    """The move log's lines as the page shows them (oldest first)."""
    return page.get_by_test_id("move-log").locator("[data-testid=log-line]").all_inner_texts()


def check_finished_table(pages: Sequence[Page], watch: Page, reason_text: Callable[[str], str]) -> None:
    """After a match every viewer watched from its start, check what every table must show.

    - every page (players and the spectator ``watch``) has the same non-empty move log, without
      an untranslated key: the log is built from public events only;
    - the game-over banner says why in words (``reason_text(code)``, the expected sentence);
    - the replay (opened from the spectator's banner) tells the same lines: its log at the last
      step equals the room's, its step text is the last step's lines;
    - axe-core finds no serious or critical problem on a player's page, the spectator's and the
      replay.
    """
    # A page opened after the end draws its log once its frames are read: wait for a line.
    expect(watch.get_by_test_id("move-log").locator("[data-testid=log-line]")).not_to_have_count(0)
    lines = log_lines(watch)
    assert lines and not any("⟦" in line for line in lines), lines
    for page in pages:
        assert log_lines(page) == lines, "a player's log differs from the spectator's"
    reason = watch.get_by_test_id("banner-reason")
    expect(reason).to_have_text(reason_text(reason.get_attribute("data-reason")))
    found = {"player": axe_problems(pages[0]), "spectator": axe_problems(watch)}
    assert found == {"player": [], "spectator": []}, found
    watch.get_by_test_id("replay-link").click()
    watch.wait_for_url("**/replay/*")
    watch.locator("#table[data-game] > *").first.wait_for()  # the replay is loaded
    watch.get_by_test_id("replay-last").click()
    expect(watch.get_by_test_id("move-log").locator("[data-testid=log-line]")).to_have_count(len(lines),
                                                                                          timeout=15_000)
    assert log_lines(watch) == lines, "the replay tells other lines than the room"
    current = watch.locator("[data-testid=log-line][aria-current=step]").all_inner_texts()
    expect(watch.get_by_test_id("replay-action")).to_have_text(" ".join(current) if current else re.compile(".+"))
    replay = axe_problems(watch)
    assert replay == [], replay


#: The frontend's texts, by language.
TEXTS = {lang: json.loads((Path(__file__).resolve().parents[2] / "frontend" / "i18n" / f"{lang}.json")
                          .read_text("utf-8")) for lang in ("en", "zh", "ja")}


def reason_sentence(game: str, lang: str = "en", loser: str | None = None) -> Callable[[str], str]:
    """The outcome sentence the pages show for a reason code of ``game`` (js/outcome.js: the
    game's own ``outcome.reason.<game>.<code>``, else ``outcome.reason.<code>``; with the name
    of the one seat that lost, ``loser``, the reason's ``….loser`` sentence where it has one)."""
    def sentence(code: str) -> str:
        table = TEXTS[lang]
        named = table.get(f"outcome.reason.{game}.{code}.loser")
        if loser is not None and named is not None:
            return named.replace("{name}", loser)
        return table.get(f"outcome.reason.{game}.{code}", table.get(f"outcome.reason.{code}", code))
    return sentence
