"""The frontend's pure helpers, run in Chromium as the pages load them (ES modules from /static).

Expected strings are written from en.json and the rulings' card list, not read from the code.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page

from app.realtime.fanout import Fanout, Stream
from tests.e2e.browser import chromium, evaluate_on, new_page

pytestmark = pytest.mark.browser

SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const cards = await import("/static/games/rc_cards.js");
  const t = i18n.t;
  return {
    missing: t("no.such_key"),
    one: t("rc.cards_in_hand", { n: 1 }),
    many: t("rc.cards_in_hand", { n: 3 }),
    params: t("rc.leads", { side: "▲ UP", n: 2 }),
    unfilled: t("rc.leads", {}),
    labels: ["+1", "-3", "DOUBLE_BUBBLE", "FLIP_TRAP", "SILENCE_SIREN", "MIRROR_PILLAR",
             "ECHO_FLOW", "REVERSE_CURSE"].map((code) => cards.cardLabel(code, t)),
    signed: [3, 0, -2].map(cards.signed),
    steps: [
      { index: 4, card: "SILENCE_SIREN", identity: "SILENCE_SIREN", silenced: false, effect: "silence", total: 0 },
      { index: 3, card: "DOUBLE_BUBBLE", identity: "DOUBLE_BUBBLE", silenced: true, effect: "silenced", total: 0 },
      { index: 2, card: "MIRROR_PILLAR", identity: "DOUBLE_BUBBLE", silenced: false, effect: "x2", total: 0 },
      { index: 1, card: "+2", identity: "+2", silenced: false, effect: "+2", total: 2 },
      { index: 12, card: "MIRROR_PILLAR", identity: null, silenced: false, effect: "nothing", total: 0 },
      { index: 5, card: "-1", identity: "-1", silenced: false, effect: "-4", total: -4 },
    ].map((step) => [cards.stepCardText(step, t), cards.stepText(step, t)]),
  };
}"""


def test_translations_card_labels_and_step_sentences(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", SCRIPT)
    assert got["missing"] == "⟦no.such_key⟧"
    assert (got["one"], got["many"]) == ("1 card", "3 cards")
    assert got["params"] == "▲ UP leads by 2"
    assert got["unfilled"] == "{side} leads by {n}"
    assert got["labels"] == ["+1", "−3", "×2 Double Bubble", "×−1 Flip Trap", "⊘ Silence Siren",
                             "≡ Mirror Pillar", "↑↑ Echo Flow", "⇄ Reverse Curse"]
    assert got["signed"] == ["+3", "0", "−2"]
    # Rulings example [+2, MIRROR_PILLAR, DOUBLE_BUBBLE, SILENCE_SIREN] → 2, top card first,
    # then a MIRROR on top (copies nothing) and a −1 under ECHO → MIRROR (×4) adding −4.
    assert got["steps"] == [
        ["⊘ Silence Siren", "silences the next card"],
        ["×2 Double Bubble", "silenced: no effect"],
        ["≡ Mirror Pillar (as ×2 Double Bubble)", "doubles the total"],
        ["+2", "adds +2"],
        ["≡ Mirror Pillar (as nothing)", "no effect"],
        ["−1", "adds −4"],
    ]


PATCH_SCRIPT = """async () => {
  const { applyPatch, Templates } = await import("/static/js/socket.js");
  const view = { "a/b": [1, 2, 3], "m~n": { x: 1 }, keep: { deep: [4] }, field: [], n: 0 };
  const legal = [{ type: "play", card: "+1" }, { type: "pass" }];
  const before = JSON.stringify([view, legal]);
  const events = [{ seat: 1 }, { turn: 2, card: null }];
  const templates = new Templates();
  const ops = [{ n: 1, "m~0n/x": 2 }, ["-", "a~1b/0"], ["+", "a~1b/2", 9], ["+", "a~1b/3", 10],
    ["-", "keep"], ["+", "", "empty key"], ["&", "field/0", 1], ["-", "~l/1"],
    ["+", "~l/1", { type: "play", card: "-2" }], ["+", "s", { seat: 3, hp: 4 }], [0, 5, 6],
    ["=", "s", 2, 7, 8], ["+", "t", { 0: "digits" }]];
  const after = applyPatch(view, legal, ops, events, templates);
  after.view.field[0].card = "+3";  // the copy is the view's own: the event is untouched
  const made = JSON.parse(JSON.stringify(templates.made));
  const bad = [[["-", "none"]], [["=", "field/0", 1]], [["+", "field/1", 1]], [["move", "a~1b"]],
    [["+", "a~1b/01", 1]], [["&", "field/0", 2]], [{ op: "add", path: "/x", value: 1 }],
    [["-", "keep", 1]], [["=", "m~0n/x/y", 1]], [[3, 1, 2]], [[0, 1]], [["+", "u", 1, 1]],
    [["-", "~l/2"]]];
  const fails = bad.map((ops) => { try { applyPatch(view, legal, ops, events, templates); return "applied"; } catch { return "refused"; } });
  return { after, events, templates: made, unchanged: JSON.stringify([view, legal]) === before,
           kept: applyPatch(view, legal, [["=", "a~1b/0", 5]]).view.keep === view.keep, fails };
}"""


def test_apply_patch_applies_compact_ops_and_templates_to_a_copy(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", PATCH_SCRIPT)
    assert got["after"] == {
        "view": {"a/b": [2, 3, 9, 10], "m~n": {"x": 6}, "": "empty key", "n": 5,
                 "field": [{"turn": 2, "card": "+3"}], "s": {"seat": 7, "hp": 8},
                 "t": {"0": "digits"}},
        "legal": [{"type": "play", "card": "+1"}, {"type": "play", "card": "-2"}]}
    assert got["events"][1] == {"turn": 2, "card": None}
    # made in order: the replace map, the added legal entry, the added dict (never one with a
    # key of digits only)
    assert got["templates"] == [{"kind": None, "keys": ["n", "m~0n/x"]},
                                {"kind": None, "keys": ["type", "card"]},
                                {"kind": None, "keys": ["seat", "hp"]}]
    assert got["unchanged"] and got["kept"]  # the old view intact, untouched parts shared
    assert got["fails"] == ["refused"] * 13


#: A ``RoomSocket`` on a stand-in websocket that sends nothing, its frames collected in
#: ``frames`` (the start of a page script's body).
SOCKET_STAND_IN = """  const { RoomSocket } = await import("/static/js/socket.js");
  const frames = [];
  const socket = new RoomSocket("/ws/rooms/T", { getToken: () => null, onStatus: () => {},
                                                  onFrame: (frame) => frames.push(frame) });
  const ws = { readyState: WebSocket.OPEN, send: () => {} };
  socket.ws = ws;
"""

REBUILD_SCRIPT = """async () => {
""" + SOCKET_STAND_IN + """  const deliver = (frame) => socket.receive(ws, { data: JSON.stringify(frame) });
  const legal = [{ type: "play", card: "+1" }, { type: "play", card: "-2" }];
  deliver({ type: "welcome", seq: 0, seat: 0, room: { code: "T" }, version: 3,
            view: { turn: 1, field: [] }, prompt: "p1", legal, deadline: 10.5, clocks: { 0: 10.5 } });
  // seat 0 played: no version (3 + 1), prompt null (legal kept), the other seat's clock (ms
  // after the last deadline); the event and the replace map make templates 0 and 1
  deliver({ type: "update", seq: 1, prompt: null, clocks: { 1: 9750 },
            patch: [{ turn: 2 }, ["&", "field/0", 0]], events: [["played", { seat: 0, card: "-2" }]] });
  // seat 0 asked again: the kept legal list patched; version jumps; two clocks, own deadline
  deliver({ type: "update", seq: 2, version: 9, prompt: "p2", deadline: 9750,
            clocks: { 0: 9750, 1: 10750 }, patch: [[1, 3], ["-", "~l/1"]], events: [[0, 1, "+1"]] });
  // two clocks and no deadline: null; a whole legal list (its entry makes template 2, then used)
  deliver({ type: "update", seq: 3, legal: [{ type: "pass" }, [2, "draw"]], events: [] });
  clearInterval(socket.pinger);
  return frames.slice(1);
}"""


def test_room_socket_rebuilds_version_legal_clocks_events_and_templates(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", REBUILD_SCRIPT)
    room = {"code": "T"}
    played = {"seat": 0, "card": "-2"}
    assert got == [
        {"type": "update", "version": 4, "view": {"turn": 2, "field": [played]},
         "prompt": None, "legal": [], "deadline": 20.25, "clocks": {"1": 20.25},
         "events": [{"kind": "played", "data": played}], "room": room},
        {"type": "update", "version": 9, "view": {"turn": 3, "field": [played]},
         "prompt": "p2", "legal": [{"type": "play", "card": "+1"}], "deadline": 30,
         "clocks": {"0": 30, "1": 31},
         "events": [{"kind": "played", "data": {"seat": 1, "card": "+1"}}], "room": room},
        {"type": "update", "version": 10, "view": {"turn": 3, "field": [played]},
         "prompt": "p2", "legal": [{"type": "pass"}, {"type": "draw"}], "deadline": None,
         "clocks": {"0": 30, "1": 31}, "events": [], "room": room}]


SYNC_SCRIPT = """async () => {
  const { RoomSocket } = await import("/static/js/socket.js");
  const frames = [];
  const sent = [];
  const socket = new RoomSocket("/ws/rooms/T", { getToken: () => null, onStatus: () => {},
                                                  onFrame: (frame) => frames.push(frame) });
  const ws = { readyState: WebSocket.OPEN, send: (text) => sent.push(JSON.parse(text).type) };
  socket.ws = ws;
  const deliver = (frame) => socket.receive(ws, { data: JSON.stringify(frame) });
  const doc = { view: { n: 1 }, prompt: null, legal: [], deadline: null, clocks: {} };
  const room = { code: "T" };
  const patch = (seq, n) => ({ type: "update", seq, version: seq, events: [],
                               patch: [["=", "n", n]] });
  deliver({ type: "welcome", seq: 0, seat: null, room, version: 0, ...doc });
  deliver(patch(1, 2));
  deliver(patch(3, 3));     // a gap: dropped, sync sent
  deliver(patch(4, 4));     // still waiting for the full update: dropped, no second sync
  deliver({ type: "update", seq: 5, version: 5, ...doc, view: { n: 5 }, events: [], room });
  deliver(patch(6, 6));
  deliver({ ...patch(7, 7), patch: [["-", "gone"]] });  // does not apply
  clearInterval(socket.pinger);
  return { frames, sent };
}"""


def test_room_socket_rebuilds_updates_and_syncs_after_a_gap(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", SYNC_SCRIPT)
    whole = {"type": "update", "prompt": None, "legal": [], "deadline": None, "clocks": {},
             "events": [], "room": {"code": "T"}}
    assert got["frames"] == [
        {"type": "welcome", "seat": None, "room": {"code": "T"}, "version": 0, "view": {"n": 1},
         "prompt": None, "legal": [], "deadline": None, "clocks": {}},
        {**whole, "version": 1, "view": {"n": 2}},
        {**whole, "version": 5, "view": {"n": 5}},
        {**whole, "version": 6, "view": {"n": 6}}]
    assert got["sent"] == ["sync", "sync"]


KEPT_SCRIPT = """async () => {
  const { keptDetails } = await import("/static/games/kit.js");
  const { h } = await import("/static/js/dom.js");
  const kept = new Map();
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  const draw = (finished) => [keptDetails(kept, "pile", false, { "data-testid": "pile" }, h("summary", { text: "Pile" })),
                              keptDetails(kept, "scores", finished, {}, h("summary", { text: "Scores" }))];
  const first = draw(false);
  document.body.append(...first);
  first[0].open = true;                 // the reader unfolds the pile
  await tick();
  const second = draw(false);           // a redraw: the pile stays open, the scores closed
  first.forEach((el) => el.remove());
  document.body.append(...second);
  second[1].open = true;                // the reader opens the scores, then folds them again
  await tick();
  second[1].open = false;
  await tick();
  const third = draw(true);             // finished: the scores' default is open, the reader's choice wins
  const once = keptDetails(null, "x", true, { class: "c" });
  return { second: second.map((el) => el.open), third: third.map((el) => el.open),
           testid: third[0].dataset.testid, once: [once.open, once.className], kept: [...kept.entries()],
           summaries: third.map((el) => el.querySelector("summary").dataset.key) };
}"""


def test_kept_details_keep_the_readers_choice_across_redraws(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", KEPT_SCRIPT)
    assert got["second"] == [True, False]
    assert got["third"] == [True, False]
    assert got["testid"] == "pile"
    assert got["once"] == [True, "c"]
    assert got["kept"] == [["pile", True], ["scores", False]]
    assert got["summaries"] == ["fold-pile", "fold-scores"]  # a redraw gives them the focus back


#: Two redraws of one tree patched in with ``morph``: which nodes stay (by identity).
MORPH_SCRIPT = """async () => {
  const { h, morph } = await import("/static/js/dom.js");
  const draw = (n, extra) => h("div", { class: "t" },
    h("p", { "data-testid": "count", text: `step ${n}` }),
    h("ol", {}, Array.from({ length: n }, (_, i) => h("li", { text: `T${i + 1}` }))),
    h("div", { class: "actions" }, h("button", { type: "button", text: "Continue" })),
    extra ? h("p", { text: "done" }) : null);
  const root = h("div", {}, draw(1, false));
  document.body.append(root);
  const table = root.firstElementChild;
  const [count, list, actions] = table.children;
  const button = actions.firstElementChild;
  morph(table, draw(2, false));
  const kept = { table: root.firstElementChild === table, actions: table.children[2] === actions,
                 button: table.querySelector("button") === button,
                 count: table.children[0] === count, list: table.children[1] === list };
  const shown = [table.children[0].textContent, [...table.querySelectorAll("li")].map((li) => li.textContent)];
  morph(table, draw(2, true));  // one more child: replaced whole
  return { kept, shown, replaced: root.firstElementChild !== table,
           last: root.firstElementChild.lastElementChild.textContent };
}"""

#: A page redrawing a table every 30 ms, by ``replace`` or by ``morph``; clicks counted.
REDRAWN_PAGE = """(how) => {
  const dom = window.__dom;
  window.clicks = 0;
  let n = 0;
  const draw = () => dom.h("div", {},
    dom.h("p", { text: `tick ${n++}` }),
    dom.h("button", { type: "button", id: "go", text: "Go", onclick: () => { window.clicks += 1; } }));
  const root = dom.h("div", { id: "redrawn" }, draw());
  document.body.prepend(root);
  window.redrawing = setInterval(() => how === "morph" ? dom.morph(root.firstElementChild, draw())
                                                       : dom.replace(root, draw()), 30);
}"""


def test_morph_keeps_equal_nodes_and_patches_the_others(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", MORPH_SCRIPT)
    assert got["kept"] == {"table": True, "actions": True, "button": True, "count": True,
                           "list": False}
    assert got["shown"] == ["step 2", ["T1", "T2"]]
    assert got["replaced"] is True and got["last"] == "done"


@pytest.mark.parametrize(("how", "clicks"), [("replace", 0), ("morph", 1)])
def test_a_press_held_across_redraws_clicks_only_when_the_button_stays(
        live_server, chromium_path, how, clicks):
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(f"{live_server}/history")
        page.evaluate("async () => { window.__dom = await import('/static/js/dom.js'); }")
        page.evaluate(REDRAWN_PAGE, how)
        box = page.evaluate("() => { const r = document.getElementById('go')"
                            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }")
        page.mouse.move(*box)
        page.mouse.down()
        page.wait_for_timeout(150)  # about five redraws between press and release
        page.mouse.up()
        page.wait_for_timeout(50)
        assert page.evaluate("() => { clearInterval(window.redrawing); return window.clicks; }") \
            == clicks


#: A table redrawn by ``replaceKeepingFocus`` while its controls have the focus: where the focus
#: is after each redraw (a control's key, "root" for the table itself, else the tag).
FOCUS_SCRIPT = """async () => {
  const { h, replaceKeepingFocus } = await import("/static/js/dom.js");
  const { keptDetails } = await import("/static/games/kit.js");
  const kept = new Map();
  const root = h("div", { id: "root" });
  const outside = h("button", { type: "button", "data-key": "a", text: "outside" });
  document.body.append(root, outside);
  const draw = (keys, disabled = []) => replaceKeepingFocus(root,
    keys.map((key) => h("button", { type: "button", "data-key": key, disabled: disabled.includes(key), text: key })),
    keptDetails(kept, "pile", false, {}, h("summary", { text: "Pile" })), h("button", { type: "button", text: "plain" }));
  const where = () => {
    const el = document.activeElement;
    return el === root ? `root:${root.dataset.focusKey || ""}` : el.dataset.key || el.tagName;
  };
  const seen = [];
  draw(["a", "b"]);
  root.querySelector("[data-key=b]").focus();
  draw(["a", "b"]);                 // b is drawn again: it has the focus
  seen.push(where());
  draw(["a", "b"], ["b"]);          // b disabled (its action on its way): the table keeps it
  seen.push(where());
  draw(["a"]);                      // still no b
  seen.push(where());
  draw(["a", "b"]);                 // b back and enabled: the focus goes back to it
  seen.push(where());
  root.querySelector("summary").focus();
  draw(["a"]);                      // a fold's summary keeps it too
  seen.push(where());
  [...root.querySelectorAll("button")].at(-1).focus();
  draw(["a"]);                      // a control without a key: the table keeps it
  seen.push(where());
  outside.focus();
  draw(["a"]);                      // the focus outside the table stays where it is
  seen.push(outside === document.activeElement ? "outside" : where());
  return { seen, tabIndex: root.tabIndex };
}"""


def test_a_redraw_gives_the_focus_back_or_keeps_it_on_the_table(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", FOCUS_SCRIPT)
    assert got == {"seen": ["b", "root:b", "root:b", "b", "fold-pile", "root:", "outside"],
                   "tabIndex": -1}


#: A page whose ``#area`` holds a button (counting its clicks in ``log``) redrawn through a
#: ``PressGate`` (``window.gate``; hold at most ``holdMs``) with a text field beside it:
#: ``redraw(name, key)`` asks for a redraw that logs ``name`` and draws a new button.
GATE_PAGE = """async (holdMs) => {
  const { h, replace } = await import("/static/js/dom.js");
  const { PressGate } = await import("/static/js/press_gate.js");
  document.body.replaceChildren();
  const slot = h("div");
  const area = h("div", { id: "area" }, slot, h("input", { id: "field", "aria-label": "field" }));
  document.body.append(area);
  window.log = [];
  const button = (n) => h("button", { type: "button", id: "go", "data-n": n, text: `Go ${n}`,
    onclick: () => window.log.push(`click ${n}`) });
  let n = 0;
  replace(slot, button(n));
  window.gate = new PressGate(area, holdMs);
  window.redraw = (name, key) => window.gate.run(() => {
    window.log.push(name);
    n += 1;
    replace(slot, button(n));
  }, key);
}"""


def gate_page(page: Page, base: str, hold_ms: int = 10_000) -> None:
    """Open ``GATE_PAGE`` on ``page`` (a gate holding redraws ``hold_ms`` at most)."""
    page.goto(f"{base}/history")
    page.locator("#main").wait_for()
    page.evaluate(GATE_PAGE, hold_ms)


def log(page: Page) -> list[Any]:
    """The gate page's log and whether redraws are waiting now."""
    return page.evaluate("() => [window.log.splice(0), document.getElementById('area')"
                         ".dataset.redraw || null]")


def test_a_press_gate_runs_the_redraws_asked_during_a_press_after_its_click(live_server,
                                                                          chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        gate_page(page, live_server)
        page.evaluate("() => window.redraw('free')")  # no press: at once
        assert log(page) == [["free"], None]
        box = page.locator("#go").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.evaluate("() => { window.redraw('list 1', 'list'); window.redraw('table');"
                      " window.redraw('list 2', 'list'); }")
        assert log(page) == [[], "waiting"]
        page.mouse.up()  # the click reaches the pressed button; then each key's newest redraw
        page.wait_for_timeout(50)
        assert log(page) == [["click 1", "list 2", "table"], None]
        # A click asking for a redraw (an action sent): it comes in the next task.
        page.evaluate("() => document.getElementById('go').addEventListener('click',"
                      " () => window.redraw('sent'))")
        page.locator("#go").click()
        page.wait_for_timeout(50)
        assert log(page) == [["click 3", "sent"], None]
        # Space on the focused button clicks on its release: held until then.
        page.locator("#go").focus()
        page.keyboard.down(" ")
        page.evaluate("() => window.redraw('key')")
        assert log(page) == [[], "waiting"]
        page.keyboard.up(" ")
        page.wait_for_timeout(50)
        assert log(page) == [["click 4", "key"], None]
        # Neither a right-button press nor a press in a form field holds.
        page.mouse.move(box["x"] + 5, box["y"] + 5)
        page.mouse.down(button="right")
        page.evaluate("() => window.redraw('right')")
        page.mouse.up(button="right")
        field = page.locator("#field").bounding_box()
        page.mouse.move(field["x"] + 5, field["y"] + 5)
        page.mouse.down()
        page.evaluate("() => window.redraw('field')")
        page.mouse.up()
        assert log(page) == [["right", "field"], None]
        # A cancelled press (a scroll, a drag) lets the redraws go too.
        page.locator("#go").dispatch_event("pointerdown", {"isPrimary": True, "button": 0,
                                                           "bubbles": True})
        page.evaluate("() => window.redraw('cancelled')")
        assert log(page) == [[], "waiting"]
        page.locator("#go").dispatch_event("pointercancel", {"isPrimary": True, "bubbles": True})
        page.wait_for_timeout(50)
        assert log(page) == [["cancelled"], None]


def test_a_press_gate_lets_the_redraws_go_after_its_longest_hold(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        gate_page(page, live_server, hold_ms=300)
        box = page.locator("#go").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.evaluate("() => window.redraw('late')")
        assert log(page) == [[], "waiting"]
        page.wait_for_timeout(500)  # a release the page never saw: the redraw runs anyway
        assert log(page) == [["late"], None]
        page.evaluate("() => window.redraw('after')")  # and the rest of that press holds nothing
        assert log(page) == [["after"], None]
        page.mouse.up()


#: A list patched with ``patchChildren``, by room code and by place: which rows stay (by
#: identity) and what the list shows.
PATCH_CHILDREN_SCRIPT = """async () => {
  const { dataKey, h, patchChildren } = await import("/static/js/dom.js");
  const row = (code, seats) => h("li", { "data-code": code }, h("span", { text: seats }),
                                 h("a", { href: `/room/${code}`, text: "Join" }));
  const list = h("ul", {}, row("A", "1/2"), row("B", "1/2"), row("C", "1/2"));
  document.body.append(list);
  const [a, b, c] = list.children;
  const links = [a, b, c].map((li) => li.querySelector("a"));
  const shown = () => [...list.children].map((li) => `${li.dataset.code}:${li.textContent}`);
  patchChildren(list, [row("N", "0/2"), row("A", "1/2"), row("C", "2/2")], dataKey("code"));
  const inserted = { shown: shown(), a: list.children[1] === a, c: list.children[2] === c,
                     cLink: list.children[2].querySelector("a") === links[2], b: b.isConnected };
  patchChildren(list, [row("C", "2/2"), row("A", "1/2")], dataKey("code"));
  const moved = { shown: shown(), kept: [list.children[0] === c, list.children[1] === a] };
  patchChildren(list, h("li", { class: "empty", text: "none" }), dataKey("code"));
  const emptied = { shown: [...list.children].map((li) => li.textContent), a: a.isConnected };
  const seats = h("ol", {}, row("S", "free"), row("S", "free"));
  const [first, second] = seats.children;
  patchChildren(seats, [row("S", "free"), row("S", "Ann"), row("S", "free")]);
  const placed = { count: seats.children.length, first: seats.children[0] === first,
                   second: seats.children[1] === second,
                   secondLink: seats.children[1].querySelector("a") === second.querySelector("a"),
                   text: seats.children[1].textContent };
  return { inserted, moved, emptied, placed };
}"""


def test_patch_children_keeps_rows_by_key_or_place(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", PATCH_CHILDREN_SCRIPT)
    assert got["inserted"] == {"shown": ["N:0/2Join", "A:1/2Join", "C:2/2Join"], "a": True,
                               "c": True, "cLink": True, "b": False}
    assert got["moved"] == {"shown": ["C:2/2Join", "A:1/2Join"], "kept": [True, True]}
    assert got["emptied"] == {"shown": ["none"], "a": False}
    assert got["placed"] == {"count": 3, "first": True, "second": True, "secondLink": True,
                             "text": "AnnJoin"}


#: A log kept under English: a person's move, a bot's, and a move of a person's seat that a bot
#: later took over (the line keeps the person's name); drawn again after the page went Chinese.
LOG_NAMES_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const log = await import("/static/js/move_log.js");
  const kit = await import("/static/games/kit.js");
  const module = { logLines: (events, ctx) => events.map((e) => `${kit.seatName(ctx, e.data.seat)}:${e.kind}`) };
  await i18n.loadLocale("en");
  const received = new log.ReceivedEvents();
  const seats = [{ seat: 0, name: "Ann", bot_level: null }, { seat: 1, name: "Bo", bot_level: "easy" }];
  const named = (entries) => entries.map((entry) => ({ ...entry, name: entry.bot_level ? i18n.t(`bots.name.${entry.bot_level}`) : entry.name }));
  received.add([{ kind: "moved", data: { seat: 0 } }], 1, null, named(seats));
  received.add([{ kind: "moved", data: { seat: 1 } }], 2, null, named(seats));
  const takenOver = [{ seat: 0, name: "Ann", bot_level: "normal" }, seats[1]];
  const ctx = () => ({ players: named(takenOver) });
  const en = log.logEntries(received, module, ctx()).map((entry) => entry.text);
  await i18n.loadLocale("zh");
  const zh = log.logEntries(received, module, ctx()).map((entry) => entry.text);
  return { en, zh, kept: JSON.parse(JSON.stringify(received.batches.map((b) => b.names))) };
}"""


def test_log_lines_name_bots_in_the_pages_language(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", LOG_NAMES_SCRIPT)
    assert got["en"] == ["Ann:moved", "Easy bot:moved"]
    assert got["zh"] == ["Ann:moved", "简单电脑:moved"]
    assert got["kept"][1] == [{"seat": 0, "name": "Ann", "bot_level": None},
                              {"seat": 1, "name": "Easy bot", "bot_level": "easy"}]


TAKEOVER_NAMES_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const bots = await import("/static/js/bots.js");
  const bob = { player_id: 2, name: "Bob", bot_level: null };
  const bot = { player_id: 3, name: "Normal bot", bot_level: "normal" };
  const finished = { seat: 1, ...bob, occupants: [{ ...bob, from_step: 1 }, { ...bot, from_step: 6 }] };
  const playing = { ...finished, occupants: [finished.occupants[0], { ...bot, from_step: null }] };
  const alone = { seat: 0, player_id: 1, name: "Ann", bot_level: null,
                  occupants: [{ player_id: 1, name: "Ann", bot_level: null, from_step: 1 }] };
  const names = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    names[lang] = [bots.matchSeatName(finished), bots.matchSeatName(playing),
                   bots.matchSeatName(alone), bots.seatNames(finished)];
  }
  return { names, at: [0, 1, 5, 6, 40].map((step) => bots.occupantAt(finished, step).player_id),
           playingAt: [0, 6, 40].map((step) => bots.occupantAt(playing, step).player_id) };
}"""


def test_a_seat_taken_over_names_the_replaced_player_and_the_bot(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", TAKEOVER_NAMES_SCRIPT)
    assert got["names"] == {
        "en": ["Bob (replaced by Normal bot from step 6)", "Bob (replaced by Normal bot)", "Ann",
               "Bob → Normal bot"],
        "zh": ["Bob（第 6 步起由 普通电脑 接替）", "Bob（由 普通电脑 接替）", "Ann", "Bob → 普通电脑"],
        "ja": ["Bob（6 手目から ふつうCPU に交代）", "Bob（ふつうCPU に交代）", "Ann",
               "Bob → ふつうCPU"]}
    # Who played a step: Bob up to step 5, the bot from step 6 (the deal counts as Bob's seat);
    # while the match is played (no step told yet) the seat is Bob's.
    assert got["at"] == [2, 2, 2, 3, 3]
    assert got["playingAt"] == [2, 2, 2]


REFUSED_SYNC_SCRIPT = """async () => {
  const { RoomSocket } = await import("/static/js/socket.js");
  const frames = [];
  const sent = [];
  const socket = new RoomSocket("/ws/rooms/T", { getToken: () => null, onStatus: () => {},
                                                  onFrame: (frame) => frames.push(frame.type) });
  const ws = { readyState: WebSocket.OPEN, send: (text) => sent.push(JSON.parse(text).type) };
  socket.ws = ws;
  const deliver = (frame) => socket.receive(ws, { data: JSON.stringify(frame) });
  const doc = { view: { n: 1 }, prompt: null, legal: [], deadline: null, clocks: {} };
  const patch = (seq) => ({ type: "update", seq, version: seq, events: [],
                            patch: [["=", "n", seq]] });
  deliver({ type: "welcome", seq: 0, seat: null, room: { code: "T" }, version: 0, ...doc });
  deliver(patch(2));                                   // a gap: sync sent
  deliver(patch(3));                                   // waiting: dropped, no second sync
  deliver({ type: "error", code: "rate_limited", message: "Too many frames." });  // the sync refused
  deliver(patch(4));                                   // dropped, sync sent again
  deliver({ type: "update", seq: 5, version: 5, ...doc, events: [], room: { code: "T" } });
  deliver(patch(6));
  clearInterval(socket.pinger);
  return { frames, sent };
}"""


def test_room_socket_syncs_again_after_an_error_while_waiting_for_its_sync(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", REFUSED_SYNC_SCRIPT)
    assert got["sent"] == ["sync", "sync"]
    assert got["frames"] == ["welcome", "error", "update", "update"]


#: A welcome's deadline whose milliseconds are a tie: 1765000070.9665 * 1000 is exactly
#: 1765000070966.5 in binary floating point (Python's ``round`` and the server: ...966).
TIED_DEADLINE = 1765000070.9665

TIE_SCRIPT = """async ([welcome, patched]) => {
""" + SOCKET_STAND_IN + """  socket.receive(ws, { data: welcome });
  socket.receive(ws, { data: patched });
  clearInterval(socket.pinger);
  return frames[1];
}"""


def test_room_socket_counts_times_from_the_servers_milliseconds_of_a_tied_deadline(
        live_server, chromium_path):
    # The server's patch counts the next clock from round(deadline * 1000) (a tie goes to the
    # even millisecond); the client must take the same base, else every later time is 1 ms off.
    room = {"code": "T"}
    welcome = {"version": 3, "view": {"turn": 1}, "prompt": None, "legal": [],
               "deadline": TIED_DEADLINE, "clocks": {"0": TIED_DEADLINE}}
    data = {"version": 4, "view": {"turn": 2}, "prompt": None, "legal": [],
            "deadline": 1765000080.25, "clocks": {"1": 1765000080.25}, "events": []}
    patched = Fanout(room).patched(Stream(welcome), data)
    assert json.loads(patched)["clocks"] == {"1": 1765000080250 - 1765000070966}
    first = json.dumps({"type": "welcome", "seq": 0, "seat": None, "room": room, **welcome})
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(f"{live_server}/history")
        got = page.evaluate(TIE_SCRIPT, [first, patched])
    assert got == {"type": "update", "version": 4, "view": {"turn": 2}, "prompt": None,
                   "legal": [], "deadline": 1765000080.25, "clocks": {"1": 1765000080.25},
                   "events": [], "room": room}


OLDER_ROOM_SCRIPT = """async () => {
  const { olderRoom } = await import("/static/js/room_manage.js");
  const room = (match_id) => ({ code: "ABCDEFGH", match_id });
  return [
    olderRoom(room(7), room(6)),     // a rematch answer from before the socket's new match
    olderRoom(room(7), room(7)),     // the same match: taken
    olderRoom(room(7), room(8)),     // a newer match: taken
    olderRoom(room(7), room(null)),  // no match at all, while one is held: older
    olderRoom(room(null), room(3)),  // nothing held yet: taken
    olderRoom(null, room(3)),
  ];
}"""


def test_a_rest_room_naming_an_older_match_than_the_held_one_is_not_taken(live_server,
                                                                          chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", OLDER_ROOM_SCRIPT)
    assert got == [True, False, False, True, False, False]


RC_TITLES_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const { summonPanel } = await import("/static/games/rc_monsters.js");
  const { playbackPanel } = await import("/static/games/rc_playback.js");
  const view = { monsters: true, phase: "deployment", my_side: "UP", side_to_act: "UP",
    held: { UP: "SPY_EYE", DOWN: null }, energy: { UP: 0, DOWN: 0 }, field: [], turn: 1 };
  const playback = { set: 1, result: 2, position_after: 2, shown: 0, steps: [] };
  const titles = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    const ctx = { t: i18n.t, act: () => true, legal: [], seat: 0, pending: false };
    titles[lang] = [
      summonPanel(view, ctx).querySelector("[data-testid=summon]").title,
      playbackPanel(playback, ctx, { onSkip() {}, onClose() {} })
        .querySelector("[data-testid=rc-continue]").title,
    ];
  }
  return titles;
}"""


def test_reverse_curse_summon_and_continue_say_what_they_do(live_server, chromium_path):
    # Rulings "Match flow" 6: a summon costs energy, comes before the turn's card, uses the
    # monster once and refills the turn's clock; a set's playback does not hold the match up.
    got = evaluate_on(chromium_path, f"{live_server}/history", RC_TITLES_SCRIPT)
    assert got == {
        "en": ["Pay 1 energy to use Spy Eye now (once), then play this turn's card; your turn's "
               "time starts again.",
               "Close this set's resolution and show the table now; the match does not wait for it."],
        "zh": ["支付 1 点能量立即使用 透视之眼（仅一次），然后打出本回合的牌；本回合的时间重新计算。",
               "关闭本局的结算过程，立即显示牌桌；对局不会等它放完。"],
        "ja": ["エネルギーを 1 払って おみとおしアイ を今すぐ使い（1回限り）、そのあとこのターンのカードを"
               "出します。手番の持ち時間は最初からになります。",
               "このセットの計算の表示を閉じて、すぐに卓に戻ります。対局はこの表示を待ちません。"],
    }


#: Which field turn the Reverse Curse table marks as the last move, for a page with events
#: and for one opened mid-match (no event of the match received yet).
RC_MARKED_SCRIPT = """async () => {
  const { markedTurn } = await import("/static/games/rc_log.js");
  const played = (turn) => ({ kind: "card_played", data: { seat: 0, turn, face_up: true, card: "C" } });
  const field = [{ turn: 1, seat: 0 }, { turn: 3, seat: 0 }, { turn: 2, seat: 1 }];
  return [
    markedTurn([played(2)], [played(1), played(2)], field),
    markedTurn([{ kind: "bought", data: {} }], [played(2), { kind: "bought", data: {} }], field),
    markedTurn([], [], field),
    markedTurn([], [], []),
  ];
}"""


def test_a_reverse_curse_page_opened_mid_match_marks_the_newest_card(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", RC_MARKED_SCRIPT)
    # the last batch's card; none after a batch without one; a fresh page: the field's newest
    assert got == [2, None, 3, None]


#: The mahjong catalog's options in the lobby form and in a room's one-line summary: each rule
#: set's match length (`hands` Hebei, `rounds` competition) only with its own rules.
RULE_SET_OPTIONS_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const options = await import("/static/js/options.js");
  const games = await (await fetch("/api/games")).json();
  const schema = games.find((game) => game.id === "mahjong").options;
  const room = (rules) => ({ rules, hands: 8, rounds: 1, turn_seconds: 15 });
  const form = document.createElement("fieldset");
  form.append(...options.optionFields(schema, "mahjong"));
  document.body.append(form);
  const shown = () => [...form.querySelectorAll(".option-row")].filter((row) => !row.hidden)
    .map((row) => row.querySelector("[data-option]").dataset.option);
  options.showApplicable(form, schema);
  const hebei = { shown: shown(), read: options.readOptions(form, schema) };
  form.querySelector("[data-option=rules]").value = "1";
  options.showApplicable(form, schema);
  const mcr = { shown: shown(), read: options.readOptions(form, schema) };
  return {
    when: schema.map((option) => [option.name, option.when || null]),
    hebei, mcr,
    summaries: ["hebei", "mcr"].map((rules) => options.optionsSummary(room(rules), schema, { game: "mahjong" })),
    clocks: options.optionsSummary(room("mcr"), schema, { clocks: true, game: "mahjong" }),
  };
}"""


def test_a_mahjong_room_shows_only_its_rule_sets_options(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", RULE_SET_OPTIONS_SCRIPT)
    assert got["when"] == [["rules", None], ["hands", {"rules": "hebei"}],
                           ["rounds", {"rules": "mcr"}], ["turn_seconds", None]]
    assert got["hebei"] == {"shown": ["rules", "hands", "turn_seconds"],
                            "read": {"rules": "hebei", "hands": 8, "turn_seconds": 15}}
    assert got["mcr"] == {"shown": ["rules", "rounds", "turn_seconds"],
                          "read": {"rules": "mcr", "rounds": 1, "turn_seconds": 15}}
    assert got["summaries"] == [
        "Rules: Hebei (河北麻将) · Hands in the match (Hebei rules): 8",
        "Rules: Competition rules (MCR, 国标) · Rounds of four hands (Competition rules): 1",
    ]
    assert got["clocks"] == ("Rules: Competition rules (MCR, 国标) · Rounds of four hands "
                             "(Competition rules): 1 · Seconds per decision: 15")


#: Four tiles' faces as the table draws them and their names in a discard's log line, per language.
TILE_FACES_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const tiles = await import("/static/games/mj_tiles.js");
  const mjLog = await import("/static/games/mj_log.js");
  const codes = ["3m", "1z", "6z", "6f"];
  const got = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    const ctx = { t: i18n.t, seat: null, players: [{ seat: 0, name: "Ann" }] };
    got[lang] = {
      faces: codes.map((code) => tiles.tileEl(code).querySelector(".mj-face").textContent),
      log: mjLog.logLines(codes.map((tile) => ({ kind: "discarded", data: { seat: 0, tile } })), ctx),
    };
  }
  return got;
}"""


def test_mahjong_tiles_read_the_same_on_the_table_and_in_the_log(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", TILE_FACES_SCRIPT)
    assert got["en"] == {"faces": ["三万", "东", "发", "兰2"],
                         "log": ["Ann discards 3 Characters.", "Ann discards East wind.",
                                 "Ann discards Green dragon.", "Ann discards Flower 兰 Orchid."]}
    assert got["zh"] == {"faces": ["三万", "东", "发", "兰2"],
                         "log": ["Ann打出3万。", "Ann打出东风。", "Ann打出发财。", "Ann打出花牌 兰。"]}
    assert got["ja"] == {"faces": ["三萬", "東", "發", "蘭2"],
                         "log": ["Annが3萬を捨てる。", "Annが東を捨てる。", "Annが發を捨てる。",
                                 "Annが花牌 蘭を捨てる。"]}


#: A seat's log, then the same page watching the match after its seat was taken over, then the
#: next match seen from that seat (a page of its own log, not the earlier one's).
SEAT_LOST_LOG_SCRIPT = """async () => {
  sessionStorage.clear();
  const log = await import("/static/js/move_log.js");
  const received = new log.ReceivedEvents();
  received.open(7, 1);
  received.greet(0);
  received.add([{ kind: "moved", data: { seat: 1 } }], 1);
  received.add([{ kind: "timeout", data: { seat: 1 } }], 2);
  received.open(7, null);
  received.greet(2);
  received.add([{ kind: "moved", data: { seat: 0 } }], 3);
  const watching = received.all().map((event) => event.kind);
  const reloaded = new log.ReceivedEvents();
  reloaded.open(7, null);
  const kept = reloaded.all().map((event) => event.kind);
  received.open(8, 1);
  return { watching, kept, gaps: received.batches.length, next: received.all().length };
}"""


def test_a_page_whose_seat_was_taken_over_keeps_its_move_log(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", SEAT_LOST_LOG_SCRIPT)
    assert got == {"watching": ["moved", "timeout", "moved"], "kept": ["moved", "timeout", "moved"],
                   "gaps": 0, "next": 0}


#: Logs that keep at most 4 batches: one that saw every move (the oldest dropped once a 5th
#: came), one that was away at first (its gap goes with the oldest), one away in the middle.
DROPPED_LOG_SCRIPT = """async () => {
  sessionStorage.clear();
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const log = await import("/static/js/move_log.js");
  const module = { logLines: (events) => events.map((event) => `move ${event.data.n}`) };
  const lines = (received) => log.logEntries(received, module, { players: [] }).map((entry) => entry.text);
  const page = (match, version, moves) => {
    const received = new log.ReceivedEvents(4);
    received.open(match, 0);
    received.greet(version);
    for (const n of moves) {
      if (n === "away") received.greet(received.version + 2);
      else received.add([{ kind: "moved", data: { n } }], n);
    }
    return received;
  };
  const whole = page(5, 0, [1, 2, 3, 4]);
  const before = { lines: lines(whole), gap: whole.hasGap() };
  whole.add([{ kind: "moved", data: { n: 5 } }], 5);
  const after = { lines: lines(whole), gap: whole.hasGap() };
  const reloaded = new log.ReceivedEvents(4);
  reloaded.open(5, 0);
  const late = page(6, 3, [4, 5, 6]);
  const lateBefore = lines(late);
  late.add([{ kind: "moved", data: { n: 7 } }], 7);
  const away = page(7, 0, [1, 2, "away", 5, 6]);
  return { before, after, reloaded: { lines: lines(reloaded), gap: reloaded.hasGap() },
    lateBefore, late: lines(late), away: lines(away), keep: new log.ReceivedEvents().keep };
}"""


def test_a_log_that_dropped_its_oldest_batches_has_a_gap(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", DROPPED_LOG_SCRIPT)
    dropped = ("(earlier moves are no longer kept on this page: the whole match is listed once it "
               "is over)")
    gap = "(moves made while this page was not connected are listed once the match is over)"
    assert got["before"] == {"lines": ["move 1", "move 2", "move 3", "move 4"], "gap": False}
    # 4 batches at most: the gap of the dropped ones, then the newest 3; a reload keeps it so
    # (the room page then reads the whole match from its replay once it is over).
    assert got["after"] == {"lines": [dropped, "move 3", "move 4", "move 5"], "gap": True}
    assert got["reloaded"] == got["after"]
    assert got["lateBefore"] == [gap, "move 4", "move 5", "move 6"]
    assert got["late"] == [dropped, "move 5", "move 6", "move 7"]
    # a gap right after the dropped batches says nothing more: one line for both
    assert got["away"] == [dropped, "move 5", "move 6"]
    assert got["keep"] == 1500


#: `withRetries` over calls that answer in turn from a script: an ApiError of that status (0:
#: the network failed), a TypeError, or "ok"; the waits it asked for are recorded, not waited.
RETRIES_SCRIPT = """async () => {
  const { ApiError, RETRY_DELAYS_MS, withRetries } = await import("/static/js/api.js");
  const run = async (answers, delays) => {
    const waits = [];
    let calls = 0;
    const call = async () => {
      const answer = answers[calls++];
      if (answer === "ok") return `ok after ${calls}`;
      if (answer === "type") throw new TypeError("not an api error");
      throw new ApiError(answer, answer ? `http_${answer}` : "network_error", "");
    };
    const sleep = async (ms) => { waits.push(ms); };
    const options = delays ? { delays, sleep } : { sleep };
    const result = await withRetries(call, options).catch((error) => `threw ${error.code || error.name}`);
    return { result, calls, waits };
  };
  return {
    delays: RETRY_DELAYS_MS,
    recovered: await run([0, 503, "ok"]),
    first: await run(["ok"]),
    given_up: await run([500, 502, 504, "ok"]),
    refused: await run([404, "ok"]),
    not_finished: await run([409, "ok"]),
    other: await run(["type", "ok"]),
    one_wait: await run([0, 0, "ok"], [5]),
  };
}"""


def test_a_request_the_server_could_not_answer_is_tried_again_after_1_s_then_3_s(live_server,
                                                                               chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", RETRIES_SCRIPT)
    assert got["delays"] == [1000, 3000]
    assert got["recovered"] == {"result": "ok after 3", "calls": 3, "waits": [1000, 3000]}
    assert got["first"] == {"result": "ok after 1", "calls": 1, "waits": []}
    assert got["given_up"] == {"result": "threw http_504", "calls": 3, "waits": [1000, 3000]}
    # A 4xx is the server's answer (asking again changes nothing); any other error is a bug.
    assert got["refused"] == {"result": "threw http_404", "calls": 1, "waits": []}
    assert got["not_finished"] == {"result": "threw http_409", "calls": 1, "waits": []}
    assert got["other"] == {"result": "threw TypeError", "calls": 1, "waits": []}
    assert got["one_wait"] == {"result": "threw network_error", "calls": 2, "waits": [5]}


TEAM_BANNER_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const { renderBanner } = await import("/static/js/banner.js");
  const seats = ["Ann", "Bob", "Cat", "Dan"].map((name, seat) => ({ seat, player_id: seat + 1, name }));
  const banner = (game, outcome, seat) => {
    const el = document.createElement("div");
    renderBanner(el, { view: { outcome }, room: { game, seats, status: "finished", match_id: 5 }, seat });
    return [el.querySelector("[data-testid=banner-title]").textContent, el.dataset.result];
  };
  // Reverse Curse 2v2: seats 0 and 2 on one side, 1 and 3 on the other; side 1 resigned.
  const teams = { ranks: [1, 2, 1, 2], reason: "resign", winners: [0, 2], draw: false, detail: {} };
  const ranking = { ranks: [2, 1, 4, 3], reason: "decision", winners: [1], draw: false, detail: {} };
  return { teams: [0, 1, 2, 3].map((seat) => banner("reverse_curse", teams, seat)),
           ranking: [0, 1, 2].map((seat) => banner("mahjong", ranking, seat)) };
}"""


def test_a_team_game_reads_as_won_or_lost_and_a_ranking_as_places(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", TEAM_BANNER_SCRIPT)
    # Four seats but two ranks (two sides): each seat won or lost with its side.
    assert got["teams"] == [["You won!", "won"], ["You lost.", "lost"],
                            ["You won!", "won"], ["You lost.", "lost"]]
    # Four distinct ranks: the seat's place.
    assert got["ranking"] == [["2nd of 4", "placed"], ["1st of 4", "won"], ["4th of 4", "lost"]]


ZH_SET_WORDS_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("zh");
  const rc = await import("/static/games/reverse_curse.js");
  const { reasonText } = await import("/static/js/outcome.js");
  const ctx = { t: i18n.t, players: [], seat: null, legal: [], events: [] };
  return {
    log: rc.logLines([{ kind: "set_started", data: { set: 2 } },
      { kind: "set_resolved", data: { set: 2, result: -5, position_after: -3, steps: [] } }], ctx),
    reasons: ["decision", "draw"].map((code) => reasonText("reverse_curse", code)),
    setOf: i18n.t("rc.set_of", { set: 2, max: 3 }),
    replay: i18n.t("replay.title", { id: 42 }),
    match: i18n.t("match.title", { id: 42 }),
  };
}"""


def test_chinese_calls_a_reverse_curse_set_ju_and_the_replay_after_the_match(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", ZH_SET_WORDS_SCRIPT)
    assert got["log"] == ["第 2 局开始。", "第 2 局结算：−5，位置 −3。"]
    assert got["reasons"] == ["最后一局结束后，阶梯上领先的一方获胜。", "最后一局结束后，阶梯停在 0，双方持平。"]
    assert got["setOf"] == "第 2 局 / 共 3 局"
    # The replay is named like the match page (对局 #N), not like a set (第 N 局).
    assert (got["replay"], got["match"]) == ("对局 #42 的回放", "对局 #42")


FIELD_OWNERS_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const { h } = await import("/static/js/dom.js");
  const { fieldPanel } = await import("/static/games/rc_board.js");
  const players = [{ seat: 0, name: "Ann" }, { seat: 1, name: "Normal bot", bot_level: "normal" }];
  const entries = [{ turn: 1, seat: 0, side: "UP", card: "+2", face_up: true },
                   { turn: 2, seat: 1, side: "DOWN", card: "-1", face_up: true },
                   { turn: 3, seat: 1, side: "DOWN", card: null, face_up: false },
                   { turn: 7, seat: 1, side: "DOWN", card: "DOUBLE_BUBBLE", face_up: true }];
  const field = fieldPanel(entries, { t: i18n.t, players, seat: 0, events: [] });
  // Where the room page draws its table (room.html: room-grid > table-area > table).
  document.querySelector("main").append(h("div", { class: "room-grid" },
    h("section", { class: "table-area" }, h("div", { class: "table" }, field))));
  const list = field.querySelector("[data-testid=rc-field]");
  const style = getComputedStyle(list);
  const widths = style.gridTemplateColumns.split(" ").map(parseFloat);
  const gap = parseFloat(style.columnGap);
  const box = (el) => { const { left, right, top, bottom } = el.getBoundingClientRect();
                        return { left, right, top, bottom }; };
  const start = list.getBoundingClientRect().left + parseFloat(style.paddingLeft);
  const columns = widths.map((width, n) => {
    const left = start + widths.slice(0, n).reduce((sum, w) => sum + w, 0) + n * gap;
    return { left, right: left + width };
  });
  const slots = [...list.children].map((slot, n) => ({
    turn: slot.dataset.turn, column: columns[n % columns.length], slot: box(slot),
    card: box(slot.querySelector(".card")) }));
  // the label's lines: the distinct tops of its text's boxes (a grid item's box is stretched)
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  };
  const owners = [...field.querySelectorAll(".slot-who")].map((who) => {
    const slot = who.closest(".slot").getBoundingClientRect();
    const at = who.getBoundingClientRect();
    return { text: who.textContent, cut: who.scrollWidth > who.clientWidth,
             inside: at.left >= slot.left && at.right <= slot.right, slot: Math.round(slot.width),
             lines: lines(who) };
  });
  return { owners, slots, field: box(list), columns: widths.length };
}"""


def test_reverse_curse_field_owners_wrap_inside_their_slots_on_a_phone(live_server, chromium_path):
    with chromium(chromium_path) as browser:
        page = new_page(browser, 360, 740)
        page.goto(f"{live_server}/history")
        page.locator("#main").wait_for()
        got = page.evaluate(FIELD_OWNERS_SCRIPT)
    owners = got["owners"]
    assert [(who["text"], who["cut"], who["inside"]) for who in owners] == [
        ("▲ Ann", False, True), ("▼ Normal bot", False, True), ("▼ Normal bot", False, True),
        ("▼ Normal bot", False, True)]
    assert owners[0]["slot"] < 60  # a phone's slot: too narrow for "▼ Normal bot" on one line
    assert owners[0]["lines"] == 1
    assert all(who["lines"] >= 2 for who in owners[1:])  # wrapped, not cut
    # The wrapped labels make the rows taller; the slots and their cards keep their columns
    # (the cards were stretched to 53-62 px in 46 px columns, T4-T6 past the field's edge).
    slots = got["slots"]
    assert got["columns"] == 6 and [slot["turn"] for slot in slots] == [str(n) for n in range(1, 13)]
    eps = 0.5  # sub-pixel rounding
    for slot in slots:
        column = slot["column"]
        for part in ("slot", "card"):
            assert column["left"] - eps <= slot[part]["left"] < slot[part]["right"] <= column["right"] + eps, (slot["turn"], part, slot)
    cards = [slot["card"] for slot in slots]
    for n, one in enumerate(cards):
        for other in cards[n + 1:]:
            apart = (one["right"] <= other["left"] + eps or other["right"] <= one["left"] + eps
                     or one["bottom"] <= other["top"] + eps or other["bottom"] <= one["top"] + eps)
            assert apart, (one, other)
    assert max(slot["slot"]["right"] for slot in slots) <= got["field"]["right"] + eps
    assert max(card["right"] for card in cards) <= got["field"]["right"] + eps


CHAT_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const { addChatHistory, addChatMessage, renderChat } = await import("/static/js/chat.js");
  const line = (id, text, extra = {}) => ({ type: "chat", id, seat: 0, name: "Ann", text,
                                            team: false, at: 1800000000, ...extra });
  // A page that showed b, a system line and d reconnects: the history repeats b and d.
  const log = [];
  addChatMessage(log, line("b", "b"));
  addChatMessage(log, { system: true, text: "Bob is back.", at: 1800000001 });
  addChatMessage(log, line("d", "d"));
  addChatHistory(log, [line("a", "a"), line("b", "b"), line("c", "c", { team: true }),
                       line("d", "d"), line("e", "e", { seat: null, name: "spectator" })]);
  addChatMessage(log, line("e", "e", { seat: null, name: "spectator" }));
  const drawn = (lines) => {
    const list = document.createElement("ul");
    renderChat(list, lines);
    return [...list.children].map((li) => [li.className,
      [...li.querySelectorAll(".team-tag, .chat-name, .chat-text")].map((el) => el.textContent)]);
  };
  const full = [];
  addChatHistory(full, Array.from({ length: 205 }, (_, n) => line(`n${n}`, `line ${n}`)));
  return {
    order: log.map((entry) => entry.text),
    drawn: drawn(log),
    live: drawn([line("c", "c", { team: true })]),
    full: [full.length, full[0].text, full.at(-1).text],
  };
}"""


FIELD_HOLDERS_SCRIPT = """async () => {
  const { followField, withHolders } = await import("/static/games/rc_owners.js");
  const E = (kind, data) => ({ kind, data });
  const before = [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }];
  const after = [{ seat: 0, name: "Ann" }, { seat: 1, name: "Normal bot" }];
  const played = (seat) => E("card_played", { seat });
  // Set 1 (it starts with the match): Bob's two cards, then the bot's; resolved, set 2 starts.
  const set1 = [{ events: [played(1)], players: before }, { events: [played(0)], players: before },
    { events: [played(1)], players: before }, { events: [played(1)], players: after },
    { events: [E("set_resolved", { set: 1 }), E("set_started", { set: 2 })], players: after }];
  // Set 2 with monsters: ROLL_MOLE moves the top card (Ann's) to T1; then Ann's seat is an easy
  // bot's, whose REBORN_UNICORN replaces the top card (the normal bot's) with one of its own.
  const late = [{ seat: 0, name: "Easy bot" }, after[1]];
  const set2 = [...set1, { events: [played(0)], players: after }, { events: [played(1)], players: after },
    { events: [played(0)], players: after },
    { events: [E("summoned", { seat: 1 }), E("monster_effect", { monster: "ROLL_MOLE" })], players: after },
    { events: [E("summoned", { seat: 0 }), E("monster_effect", { monster: "REBORN_UNICORN" })], players: late }];
  const field = (seats) => seats.map((seat, index) => ({ turn: index + 1, seat }));
  const names = (entries) => entries.map((entry) => entry.holder || null);
  const one = followField(set1);
  const two = followField(set2);
  const gap = followField([{ gap: true, events: [] }, ...set1.slice(1, 4)]);
  return {
    set1: names(withHolders(field([1, 0, 1, 1]), followField(set1.slice(0, 4)).field)),
    resolved: names(withHolders(field([1, 0, 1, 1]), one.resolved.get(1))),
    set2: names(withHolders(field([0, 0, 0]), two.field)),
    gap: [gap.field, names(withHolders(field([0, 1, 1]), gap.field))],
    other: names(withHolders(field([0, 0, 1, 1]), followField(set1.slice(0, 4)).field)),
  };
}"""


def test_chat_history_lines_merge_once_in_order_and_draw_like_live_ones(live_server,
                                                                         chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", CHAT_SCRIPT)
    # New history lines go before the next line the page already showed; none twice.
    assert got["order"] == ["a", "b", "Bob is back.", "c", "d", "e"]
    assert got["drawn"] == [
        ["chat-message", ["Ann", "a"]],
        ["chat-message", ["Ann", "b"]],
        ["chat-system", ["Bob is back."]],
        ["chat-message chat-team", ["team", "Ann", "c"]],
        ["chat-message", ["Ann", "d"]],
        ["chat-message", ["Spectator", "e"]],
    ]
    assert got["live"] == [got["drawn"][3]]  # a history line is drawn as its live frame
    assert got["full"] == [200, "line 5", "line 204"]


#: A seat the room resigned (it kept timing out) and a player's own resign, in the three
#: languages: the move log (mahjong's lines, the shell's forfeit line), the room's banner, a
#: match summary's result (history, match page, replay) and a table's outcome reason (kit).
FORFEIT_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const log = await import("/static/js/move_log.js");
  const mahjong = await import("/static/games/mahjong.js");
  const { renderBanner } = await import("/static/js/banner.js");
  const { resultText } = await import("/static/js/outcome.js");
  const { endReasonOf } = await import("/static/games/kit.js");
  const seats = [{ seat: 0, player_id: 1, name: "Ann", bot_level: null },
                 { seat: 1, player_id: 2, name: "Bob", bot_level: null }];
  const forfeit = { seat: 1, reason: "timeouts", timeouts: 3 };
  const outcome = { ranks: [1, 2], reason: "resign", winners: [0], draw: false, detail: {} };
  const over = { kind: "match_over", data: { totals: [0, 0], ranks: [1, 2] } };
  const resigned = { kind: "resigned", data: { seat: 1 } };
  const told = { kind: "forfeit", data: forfeit };
  const read = (forfeited) => {
    const room = { game: "grid_reversal", seats, status: "finished", match_id: 5,
                   forfeit: forfeited ? forfeit : null };
    const ctx = { t: i18n.t, players: seats, room, memo: null };
    const el = document.createElement("div");
    renderBanner(el, { view: { outcome }, room, seat: null });
    const reason = el.querySelector("[data-testid=banner-reason]");
    return {
      log: log.batchLines(mahjong, forfeited ? [told, resigned, over] : [resigned, over], ctx),
      banner: [reason.textContent, reason.dataset.reason, reason.dataset.forfeit || null],
      result: resultText({ game: "grid_reversal", status: "finished", outcome, seats,
                           forfeit: forfeited ? { ...forfeit, step: 9 } : null }),
      table: endReasonOf(ctx, outcome),
    };
  };
  const got = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    got[lang] = { forfeit: read(true), resign: read(false) };
  }
  return got;
}"""


def test_a_forfeit_on_timeouts_reads_as_a_forfeit_and_a_resign_as_a_resign(live_server,
                                                                           chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", FORFEIT_SCRIPT)
    sentence = {"en": "Bob forfeited: 3 turns timed out in a row.",
                "zh": "Bob 判负：连续 3 次超时。",
                "ja": "Bob の棄権負け：3 回続けて持ち時間が切れました。"}
    # a player's own resign: mahjong's `resigned` line (no shell line beside it), the others name Bob
    resigned = {"en": ("Bob resigned.", "Bob resigned.", "The match is over."),
                "zh": ("Bob认输。", "Bob 认输。", "比赛结束。"),
                "ja": ("Bobが投了。", "Bob が投了しました。", "対局終了。")}
    won = {"en": "Ann won. {}", "zh": "Ann 获胜。{}", "ja": "Ann の勝ち。{}"}
    for lang in ("en", "zh", "ja"):
        line, reason, match_over = resigned[lang]
        assert got[lang]["forfeit"] == {
            "log": [sentence[lang], match_over],  # no "Bob resigned." beside it
            "banner": [sentence[lang], "resign", "timeouts"],
            "result": won[lang].format(sentence[lang]),
            "table": sentence[lang]}, lang
        assert got[lang]["resign"] == {
            "log": [line, match_over],
            "banner": [reason, "resign", None],
            "result": won[lang].format(reason),
            "table": reason}, lang


#: A player's own resign in the games whose engine tells it only by `match_over` (NumGR, Reverse
#: Curse 1v1 and 2v2, Reversed Civilizations) and in one that sends `resigned` (Grid Reversal):
#: the live log's lines, a replay step's (ctx.actor: the step's seat), a forfeit's, the banner,
#: the match summary's result, in the three languages.
RESIGN_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const log = await import("/static/js/move_log.js");
  const { renderBanner } = await import("/static/js/banner.js");
  const { resultText } = await import("/static/js/outcome.js");
  const modules = {};
  for (const game of ["numgr", "reverse_curse", "civilization", "grid_reversal"]) {
    modules[game] = await import(`/static/games/${game}.js`);
  }
  const names = ["Ann", "Bob", "Cat", "Dan"];
  const seatsOf = (n) => names.slice(0, n).map((name, seat) => ({ seat, player_id: seat + 1, name,
    bot_level: null }));
  const outcomeOf = (ranks) => ({ ranks, reason: "resign", draw: false, detail: {},
    winners: ranks.flatMap((rank, seat) => (rank === 1 ? [seat] : [])) });
  const cases = {
    numgr: { n: 2, ranks: [2, 1], actor: 0,
             events: [{ kind: "match_over", data: { ranks: [2, 1], reason: "resign", detail: {} } }] },
    civilization: { n: 2, ranks: [2, 1], actor: 0,
                    events: [{ kind: "match_over", data: { winner: 1, reason: "resign" } }] },
    reverse_curse: { n: 2, ranks: [2, 1], actor: 0, events: [{ kind: "match_over",
      data: { reason: "resign", winner: "DOWN", position: 0, ranks: [2, 1] } }] },
    reverse_curse_2v2: { game: "reverse_curse", n: 4, ranks: [1, 2, 1, 2], actor: 3, teams: [[0, 2], [1, 3]],
      events: [{ kind: "match_over", data: { reason: "resign", winner: "UP", position: 0, ranks: [1, 2, 1, 2] } }] },
    grid_reversal: { n: 2, ranks: [2, 1], actor: 0, events: [{ kind: "resigned", data: { seat: 0 } },
      { kind: "game_over", data: { winner: 1, reason: "resign" } }] },
  };
  const read = (key) => {
    const c = cases[key];
    const game = c.game || key;
    const seats = seatsOf(c.n);
    const outcome = outcomeOf(c.ranks);
    const room = { game, seats, status: "finished", match_id: 5, forfeit: null };
    const ctx = { t: i18n.t, players: seats, room, memo: null, view: { outcome } };
    const lines = (events, extra = {}) => log.batchLines(modules[game], events, { ...ctx, ...extra });
    const banner = (seat) => {
      const el = document.createElement("div");
      renderBanner(el, { view: { outcome }, room, seat });
      return [el.querySelector("[data-testid=banner-title]").textContent,
              el.querySelector("[data-testid=banner-reason]").textContent];
    };
    const forfeit = { seat: c.actor, reason: "timeouts", timeouts: 3 };
    return {
      live: lines(c.events),
      replay: lines(c.events, { actor: c.actor }),
      forfeit: lines([{ kind: "forfeit", data: forfeit }, ...c.events], { actor: c.actor }),
      banner: banner(null),
      result: resultText({ game, status: "finished", outcome, seats, teams: c.teams, forfeit: null }),
    };
  };
  const got = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    got[lang] = Object.fromEntries(Object.keys(cases).map((key) => [key, read(key)]));
  }
  return got;
}"""


def test_a_players_own_resign_is_logged_and_named_once_in_every_game(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", RESIGN_SCRIPT)
    said = {  # (who resigned, the forfeit, "… won", the live 2v2 side, the winning 2v2 side)
        "en": ("{} resigned.", "{} forfeited: 3 turns timed out in a row.", "{} won",
               "Bob & Dan's side resigned.", "Ann & Cat won"),
        "zh": ("{} 认输。", "{} 判负：连续 3 次超时。", "{} 获胜", "Bob、Dan 一方认输。", "Ann、Cat 获胜"),
        "ja": ("{} が投了しました。", "{} の棄権負け：3 回続けて持ち時間が切れました。", "{} の勝ち",
               "Bob・Dan の陣営が投了しました。", "Ann・Cat の勝ち"),
    }
    for lang, (resigned, forfeited, won, side, winners) in said.items():
        ann = resigned.format("Ann")
        for game in ("numgr", "civilization", "reverse_curse", "grid_reversal"):
            # one line (grid_reversal's own `resigned` line, not doubled), the replay's alike
            assert got[lang][game] == {
                "live": [ann], "replay": [ann], "forfeit": [forfeited.format("Ann")],
                "banner": [won.format("Bob"), ann],
                "result": f"{won.format('Bob')}{'. ' if lang == 'en' else '。'}{ann}"}, (lang, game)
        # 2v2: live only the side is known; the replay step names the seat that resigned
        assert got[lang]["reverse_curse_2v2"] == {
            "live": [side], "replay": [resigned.format("Dan")], "forfeit": [forfeited.format("Dan")],
            "banner": [winners, side],
            "result": f"{winners}{'. ' if lang == 'en' else '。'}{side}"}, lang


def test_reverse_curse_field_cards_are_named_by_who_played_them(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", FIELD_HOLDERS_SCRIPT)
    assert got["set1"] == ["Bob", "Ann", "Bob", "Normal bot"]
    assert got["resolved"] == ["Bob", "Ann", "Bob", "Normal bot"]  # the playback of set 1
    # [Ann, bot, Ann] → ROLL_MOLE → [Ann, Ann, bot] → REBORN_UNICORN → [Ann, Ann, easy bot]
    assert got["set2"] == ["Ann", "Ann", "Easy bot"]
    # A page that missed the set's start knows nothing: the table names the seats' holders now.
    assert got["gap"] == [None, [None, None, None]]
    # What was followed is not the view's field (other seats): nothing is named from it.
    assert got["other"] == [None, None, None, None]


MATCH_NAMES_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const { matchPlayersText } = await import("/static/js/teams.js");
  const person = (seat, name) => ({ seat, player_id: seat + 1, name, bot_level: null,
    occupants: [{ player_id: seat + 1, name, bot_level: null, from_step: 1 }] });
  const names = ["Alice", "Bob", "Carol", "Dave", "Eve", "Fay"];
  const seats = names.map((name, seat) => person(seat, name));
  const bot = { player_id: 9, name: "Normal bot", bot_level: "normal", from_step: 6 };
  const taken = { ...seats[2], occupants: [...seats[2].occupants, bot] };
  const matches = [
    { seats: seats.slice(0, 4), teams: [[0, 2], [1, 3]] },
    { seats: seats, teams: [[0, 2, 4], [1, 3, 5]] },
    { seats: [seats[0], seats[1], taken, seats[3]], teams: [[0, 2], [1, 3]] },
    { seats: seats.slice(0, 2), teams: [[0], [1]] },
    { seats: seats.slice(0, 3), teams: [[0], [1], [2]] },
    { seats: seats.slice(0, 3) },
  ];
  const out = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    out[lang] = matches.map(matchPlayersText);
  }
  return out;
}"""


def test_a_match_lists_its_players_side_against_side(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", MATCH_NAMES_SCRIPT)
    assert got["en"] == [
        "Alice & Carol vs Bob & Dave",
        "Alice & Carol & Eve vs Bob & Dave & Fay",
        "Alice & Carol (replaced by Normal bot from step 6) vs Bob & Dave",
        "Alice vs Bob",
        "Alice vs Bob vs Carol",
        "Alice vs Bob vs Carol",  # a match stored without teams: every seat for itself
    ]
    assert got["zh"][:3] == ["Alice、Carol vs Bob、Dave", "Alice、Carol、Eve vs Bob、Dave、Fay",
                             "Alice、Carol（第 6 步起由 普通电脑 接替） vs Bob、Dave"]
    assert got["ja"][:3] == ["Alice・Carol vs Bob・Dave", "Alice・Carol・Eve vs Bob・Dave・Fay",
                             "Alice・Carol（6 手目から ふつうCPU に交代） vs Bob・Dave"]
    assert got["zh"][3:] == got["ja"][3:] == ["Alice vs Bob", "Alice vs Bob vs Carol", "Alice vs Bob vs Carol"]


TEAMMATES_SCRIPT = """async () => {
  const { teammatesOf } = await import("/static/js/teams.js");
  const { teamLineHasReader } = await import("/static/js/chat.js");
  const seat = (n, holder) => ({ seat: n, player_id: holder ? n + 1 : null, name: holder,
    bot_level: holder === "bot" ? "normal" : null });
  const room = (holders) => ({ teams: [[0, 2], [1, 3]], seats: holders.map((h, n) => seat(n, h)) });
  const twoVsTwo = { teams: [[0, 2], [1, 3]] };
  const threeVsThree = { teams: [[0, 2, 4], [1, 3, 5]] };
  return {
    two: [0, 1, 2, 3].map((seat) => teammatesOf(twoVsTwo, seat)),
    three: [4, 1].map((seat) => teammatesOf(threeVsThree, seat)),
    alone: [teammatesOf({ teams: [[0], [1]] }, 0), teammatesOf({ teams: [[0], [1], [2]] }, 2)],
    none: [teammatesOf(twoVsTwo, null), teammatesOf(twoVsTwo, undefined), teammatesOf(twoVsTwo, 7),
           teammatesOf({}, 0), teammatesOf(null, 0)],
    readers: [
      [0, 1, null].map((n) => teamLineHasReader(room(["Ann", "Bob", "Cat", null]), n)),
      [0, 1].map((n) => teamLineHasReader(room(["Ann", "bot", "bot", "bot"]), n)),
      [0].map((n) => teamLineHasReader({ teams: [[0], [1]], seats: [seat(0, "Ann"), seat(1, "B")] }, n)),
    ],
  };
}"""


def test_teammates_of_a_seat_come_from_the_rooms_teams(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", TEAMMATES_SCRIPT)
    # Reverse Curse 2v2: seats 1+3 against 2+4 (0-based [0, 2] and [1, 3]), before the start too
    assert got["two"] == [[2], [3], [0], [1]]
    assert got["three"] == [[0, 2], [3, 5]]
    assert got["alone"] == [[], []]  # 1v1, free-for-all: no team line to send
    assert got["none"] == [[], [], [], [], []]  # a spectator, no such seat, no teams
    # The "team only" checkbox: a teammate who is a person, or an empty seat (whoever sits
    # there reads the line in the chat history); not a bot, not for a spectator or in 1v1.
    assert got["readers"] == [[True, True, False], [False, False], [False]]


REFUSALS_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const { api, ApiError, createPlayer } = await import("/static/js/api.js");
  const { refusalText } = await import("/static/js/identity.js");
  const me = await createPlayer("Refused");
  const refused = (path, body) => api(path, { method: "POST", body, auth: true }).then(() => null, (e) => e);
  const claim = (body) => refused(`/api/players/${me.id}/claim`, body);
  const errors = [
    await claim({ password: "\\u{1F600}".repeat(4) }),  // 8 UTF-16 units the input lets by, 4 characters
    await claim({ password: "x".repeat(129) }),
    await claim({ password: "long enough", name: "Normal bot" }),
    await claim({ password: "long enough", name: "A\\u200bnn" }),
    await claim({ password: "long enough", name: "\\uFDFA\\uFDFA" }),  // 36 characters in NFKC
    await claim({ password: "long enough", name: "\\u0007" }),
    await claim({ password: "long enough", name: "   " }),
    await refused("/api/login", { name: "x".repeat(33), password: "whatever" }),
    await refused("/api/login", { name: "Nobody", password: "whatever" }),
    new ApiError(422, "bad_password", "A password has 8 to 128 characters."),
    new ApiError(0, "network_error", "TypeError: Failed to fetch"),
  ];
  const limited = new ApiError(429, "rate_limited", "Too many log-in attempts; try again in 37 s.");
  const out = { got: errors.map((e) => [e.status, e.code, e.field, e.reason]) };
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    out[lang] = errors.map((e) => refusalText(e));
    out[`${lang}_limited`] = [refusalText(limited), refusalText(limited, { rate_limited: "account.too_many_logins" })];
  }
  return out;
}"""


def test_the_account_forms_refusals_read_in_the_pages_language(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", REFUSALS_SCRIPT)
    # What the server answered: a 422 validation_error names its field (the loc) and the
    # refused rule (the name rule's own codes: the page words those by the code)
    assert got["got"] == [
        [422, "validation_error", "body.password", "string_too_short"],
        [422, "validation_error", "body.password", "string_too_long"],
        *([422, "validation_error", "body.name", reason] for reason in (
            "bot_name", "invisible_character", "name_normal_form", "control_character",
            "blank_name", "string_too_long")),
        [401, "bad_login", "", ""], [422, "bad_password", "", ""], [0, "network_error", "", ""]]
    server_sentence = "String should have at most 32 characters"  # unknown: shown as sent
    assert got["en"] == [
        "A password has 8 to 128 characters.", "A password has 8 to 128 characters.",
        "That name belongs to the computer players.",
        "A name may not contain invisible or format characters.",
        "This name changes into an invalid one when normalised (NFKC).",
        "A name may not contain control characters.",
        "Type at least one visible character (a name of only spaces is not a name).",
        server_sentence, "Wrong name or password.", "A password has 8 to 128 characters.",
        "The server cannot be reached. Check your connection."]
    assert got["zh"] == [
        "密码为 8 到 128 个字符。", "密码为 8 到 128 个字符。", "这个名字属于电脑玩家。",
        "名字不能包含不可见字符或格式字符。", "这个名字经过 NFKC 规范化后会变成无效的名字。",
        "名字不能包含控制字符。", "请至少输入一个可见字符（只有空格不能作为名字）。",
        server_sentence, "名字或密码错误。", "密码为 8 到 128 个字符。", "无法连接服务器。请检查网络。"]
    assert got["ja"] == [
        "パスワードは8〜128文字です。", "パスワードは8〜128文字です。", "その名前はCPUプレイヤーの名前です。",
        "名前に見えない文字や書式制御文字は使えません。",
        "この名前は NFKC 正規化すると無効な名前になります。", "名前に制御文字は使えません。",
        "表示される文字を1文字以上入力してください（空白だけの名前は使えません）。",
        server_sentence, "名前またはパスワードが違います。", "パスワードは8〜128文字です。",
        "サーバーに接続できません。通信状態を確認してください。"]
    # The log-in form words the 429 its own way (the general text is about chat messages).
    assert got["en_limited"] == ["Too many messages. Slow down a little.",
                                 "Too many log-in attempts from here; wait a minute and try again."]
    assert got["zh_limited"] == ["消息太多了。请慢一点。", "登录尝试次数过多，请等一分钟再试。"]
    assert got["ja_limited"] == ["メッセージが多すぎます。少しゆっくりどうぞ。",
                                 "ログインの試行が多すぎます。1分ほど待ってからもう一度お試しください。"]


MATCH_TIMES_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const { matchItem } = await import("/static/js/match_list.js");
  const at = (hour, minute) => new Date(2026, 11, 7, hour, minute).toISOString();  // local time
  const seats = [{ seat: 0, player_id: 1, name: "Ann", bot_level: null, occupants: [] },
                 { seat: 1, player_id: 2, name: "Bob", bot_level: null, occupants: [] }];
  const match = (id, started, finished) => ({ id, game: "numgr", room_code: "ROOM01", seats,
    teams: [[0], [1]], status: finished ? "finished" : "playing", outcome: null, forfeit: null,
    started_at: started, finished_at: finished });
  // as GET /api/players/{id} lists them: newest first by id (given at the start)
  const matches = [match(9, at(10, 0), at(10, 20)), match(8, at(9, 0), at(11, 30)),
                   match(7, at(8, 5), null)];
  const times = () => matches.map((m) => matchItem(m, []).querySelector(".match-time"));
  const out = { datetimes: times().map((el) => el.getAttribute("datetime")),
                started: matches.map((m) => m.started_at) };
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    out[lang] = times().map((el) => el.textContent);
  }
  return out;
}"""


def test_a_match_list_shows_when_each_match_started_the_order_it_is_in(live_server,
                                                                      chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", MATCH_TIMES_SCRIPT)
    # match 8 finished after match 9 (11:30 vs 10:20) but started before it: the list is in
    # order of the start, so the start is the time shown, and the times go down the list
    assert got["en"] == ["Started Dec 7, 2026, 10:00 AM", "Started Dec 7, 2026, 9:00 AM",
                         "Started Dec 7, 2026, 8:05 AM"]
    assert got["zh"] == ["开始于 2026年12月7日 10:00", "开始于 2026年12月7日 09:00",
                         "开始于 2026年12月7日 08:05"]
    assert got["ja"] == ["2026/12/07 10:00 開始", "2026/12/07 9:00 開始", "2026/12/07 8:05 開始"]
    assert got["datetimes"] == got["started"]


#: A finished NumGR match's replay as a room page that did not see it whole reads it: Bob's HP
#: check and Alice's turn (step 1), Bob's clock playing his move once a bot took his seat (step
#: 2: the bot plays from step 2), then a step this viewer is told nothing of (step 3).
REPLAY_PAST_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const { replayPast } = await import("/static/js/replay_steps.js");
  const ng = await import("/static/games/numgr.js");
  const E = (kind, data) => ({ kind, data });
  const person = (seat, name) => ({ player_id: seat + 1, name, bot_level: null, from_step: 1 });
  const seats = [{ seat: 0, ...person(0, "Alice"), occupants: [person(0, "Alice")] },
    { seat: 1, ...person(1, "Bob"), occupants: [person(1, "Bob"),
      { player_id: 9, name: "bot", bot_level: "normal", from_step: 2 }] }];
  const check = E("hp_check", { seat: 1, attack: 2, unstoppable: 1, defense: 1, defense_circle: 0, lost: true, hp: 3 });
  const step = (n, seat, events) => ({ step: n, seat, player_id: null, action: null, timeout: false, forfeit: null,
    events, view: null });
  const data = { id: 3, game: "numgr", room_code: "R", options: {}, forfeit: null, viewer: null, seats,
    steps: [step(0, null, []), step(1, 1, [check, E("turn_started", { seat: 0, turn: 2 })]),
      step(2, 1, [E("timeout", { seat: 1 }), E("cards_drawn", { seat: 1, count: 2 })]), step(3, 0, [])] };
  const past = replayPast(ng, data);
  return { entries: past.entries, history: past.history.map((event) => event.kind),
    last: past.lastEvents.map((event) => event.kind),
    batches: past.batches.map((batch) => [batch.events.length, batch.players.map((p) => p.name)]) };
}"""


def test_a_finished_matchs_past_is_read_from_its_replay(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", REPLAY_PAST_SCRIPT)
    assert got["entries"] == [{"text": "Turn 1: Bob."}, {"text": "HP check: Bob faced 3 against 1 — lost 1 HP."},
                              {"text": "Turn 2: Alice."},
                              {"text": "Normal bot's time ran out: the server played for them."},
                              {"text": "Normal bot drew 2 cards."}]
    assert got["history"] == ["hp_check", "turn_started", "timeout", "cards_drawn"]
    # The last step told nothing: the last events are those of the step before.
    assert got["last"] == ["timeout", "cards_drawn"]
    assert got["batches"] == [[0, ["Alice", "Bob"]], [2, ["Alice", "Bob"]], [2, ["Alice", "Normal bot"]],
                              [0, ["Alice", "Normal bot"]]]


#: Text the code builds from pieces, per language: a room's options line, a NumGR clean-up, a
#: Reverse Curse shop and a room's teams.
SEPARATORS_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const options = await import("/static/js/options.js");
  const ngLog = await import("/static/games/ng_log.js");
  const rcLog = await import("/static/games/rc_log.js");
  const teams = await import("/static/js/teams.js");
  const games = await (await fetch("/api/games")).json();
  const schema = games.find((game) => game.id === "mahjong").options;
  const room = { code: "T", teams: [[0, 2], [1, 3]], seats: [
    { seat: 0, player_id: "a", name: "Ann" }, { seat: 1, player_id: "b", name: "Bob" },
    { seat: 2, player_id: "c", name: "Cat" }, { seat: 3, player_id: "d", name: "Dan" }] };
  const got = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    const ctx = { t: i18n.t, seat: null, players: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }] };
    got[lang] = {
      options: options.optionsSummary({ rules: "hebei", hands: 8 }, schema, { game: "mahjong" }),
      cleanup: ngLog.logLines([1, 2].map((id) => ({ kind: "stack_discarded", data: { id } })), ctx),
      shop: rcLog.logLines([{ kind: "shop_opened", data: { offer: ["SHARE_BEAR", "SPY_EYE"] } }], ctx),
      teams: teams.teamSeatsText(room, i18n.t),
      prefix: i18n.labelPrefix(i18n.t("identity.playing_as")),
    };
  }
  return got;
}"""


def test_built_labels_and_lists_use_the_pages_own_separators(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", SEPARATORS_SCRIPT)
    # "label: value" and "a, b" in English; "label：value" and "a、b" in Chinese and Japanese
    assert got == {
        "en": {"options": "Rules: Hebei (河北麻将) · Hands in the match (Hebei rules): 8",
               "cleanup": ["Clean-up: #1, #2 left the table."],
               "shop": ["The shop opens: Share Bear, Spy Eye."],
               "teams": "Team 1: Ann, Cat · Team 2: Bob, Dan", "prefix": "Player: "},
        "zh": {"options": "规则：河北麻将 · 盘数（河北麻将）：8",
               "cleanup": ["清场：#1、#2 离场。"],
               "shop": ["商店开张：交换熊、透视之眼。"],
               "teams": "第 1 队：Ann、Cat · 第 2 队：Bob、Dan", "prefix": "当前玩家："},
        "ja": {"options": "ルール：河北麻将 · 局数（河北麻将）：8",
               "cleanup": ["片付け：#1、#2 が場を離れました。"],
               "shop": ["ショップ開店：とりかえベア、おみとおしアイ。"],
               "teams": "チーム 1：Ann、Cat · チーム 2：Bob、Dan", "prefix": "プレイヤー："},
    }


#: A NumGR match won by taking the other player's last HP: the banner, the match's result and the
#: move log's last lines (the HP check, then who fell), per language.
NUMGR_KO_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const log = await import("/static/js/move_log.js");
  const { renderBanner } = await import("/static/js/banner.js");
  const { resultText } = await import("/static/js/outcome.js");
  const numgr = await import("/static/games/numgr.js");
  const seats = ["Ann", "Bob"].map((name, seat) => ({ seat, player_id: seat + 1, name, bot_level: null }));
  const outcome = { ranks: [1, 2], reason: "ko", draw: false, winners: [0], detail: { hp: [2, 0], turn: 9 } };
  const room = { game: "numgr", seats, status: "finished", match_id: 5, forfeit: null };
  const events = [
    { kind: "hp_check", data: { seat: 1, attack: 3, unstoppable: 0, defense: 1, defense_circle: 0, lost: true, hp: 0 } },
    { kind: "match_over", data: { ranks: [1, 2], reason: "ko", detail: { hp: [2, 0], turn: 9 } } }];
  const got = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    const ctx = { t: i18n.t, players: seats, room, memo: null, view: { outcome } };
    const el = document.createElement("div");
    renderBanner(el, { view: { outcome }, room, seat: null });
    got[lang] = {
      banner: el.querySelector("[data-testid=banner-reason]").textContent,
      result: resultText({ game: "numgr", status: "finished", outcome, seats, forfeit: null }),
      log: log.batchLines(numgr, events, ctx),
    };
  }
  return got;
}"""


def test_a_numgr_knockout_names_whose_hp_fell_in_the_banner_and_the_log(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", NUMGR_KO_SCRIPT)
    # the loser is the seat ranked last: Bob; zh says 生命 as the table's HP does
    assert got == {
        "en": {"banner": "Bob's HP fell to 0.", "result": "Ann won. Bob's HP fell to 0.",
               "log": ["HP check: Bob faced 3 against 1 — lost 1 HP.", "Bob's HP fell to 0."]},
        "zh": {"banner": "Bob 的生命降到了 0。", "result": "Ann 获胜。Bob 的生命降到了 0。",
               "log": ["生命检定：Bob 以防御 1 面对攻击 3——失去 1 点生命。", "Bob 的生命降到了 0。"]},
        "ja": {"banner": "Bob の HP が 0 になりました。", "result": "Ann の勝ち。Bob の HP が 0 になりました。",
               "log": ["HP チェック：Bob は攻撃 3 を防御 1 で受けました——HP を 1 失いました。",
                       "Bob の HP が 0 になりました。"]},
    }


#: A NumGR match's first two moves (Bob starts: the engine deals and starts turn 1 without an
#: event), as the room's log and the replay's steps word them, per language.
NUMGR_FIRST_TURN_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const log = await import("/static/js/move_log.js");
  const { stepBatches, stepLines } = await import("/static/js/replay_steps.js");
  const numgr = await import("/static/games/numgr.js");
  const seats = ["Ann", "Bob"].map((name, seat) => ({ seat, player_id: seat + 1, name, bot_level: null }));
  const check = { kind: "hp_check", data: { seat: 1, attack: 0, unstoppable: 0, defense: 0, defense_circle: 0,
    lost: false, hp: 2 } };
  const drew = { kind: "cards_drawn", data: { seat: 1, count: 2 } };
  const turn2 = { kind: "turn_started", data: { seat: 0, turn: 2 } };
  const replay = { id: 5, room_code: "T", game: "numgr", options: {}, forfeit: null, viewer: null, seats,
    steps: [{ step: 0, seat: null, events: [], view: {} }, { step: 1, seat: 1, events: [check], view: {} },
            { step: 2, seat: 1, events: [drew, turn2], view: {} }] };
  const got = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    const ctx = { t: i18n.t, players: seats, room: { game: "numgr", seats }, view: {} };
    const received = new log.ReceivedEvents();
    received.greet(0);
    received.add([check], 1, null, seats);
    received.add([drew, turn2], 2, null, seats);
    const late = new log.ReceivedEvents();  // a page that came after the first move: a gap first
    late.greet(1);
    late.add([drew, turn2], 2, null, seats);
    got[lang] = {
      room: log.logEntries(received, numgr, ctx).map((entry) => entry.text),
      late: log.logEntries(late, numgr, ctx).map((entry) => entry.text),
      replay: stepLines(numgr, replay, stepBatches(replay)),
    };
  }
  return got;
}"""


def test_numgr_logs_the_first_turn_like_every_other_in_the_room_and_the_replay(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", NUMGR_FIRST_TURN_SCRIPT)
    said = {  # (turn 1, the HP check, the draw, turn 2, the gap line of a page that came late)
        "en": ("Turn 1: Bob.", "HP check: Bob faced 0 against 0 — no damage.", "Bob drew 2 cards.",
               "Turn 2: Ann.", "(moves made while this page was not connected are listed once the match is over)"),
        "zh": ("第 1 回合：Bob。", "生命检定：Bob 以防御 0 面对攻击 0——没有受伤。", "Bob 摸了 2 张牌。",
               "第 2 回合：Ann。", "（本页未连接期间的行动将在对局结束后列出）"),
        "ja": ("ターン 1：Bob。", "HP チェック：Bob は攻撃 0 を防御 0 で受けました——ダメージなし。",
               "Bob が 2 枚引きました。", "ターン 2：Ann。",
               "（このページが接続していなかった間の手は、対局が終わると載ります）"),
    }
    for lang, (turn1, check, drew, turn2, gap) in said.items():
        assert got[lang] == {"room": [turn1, check, drew, turn2], "late": [gap, drew, turn2],
                             "replay": [[], [turn1, check], [drew, turn2]]}, lang


#: NumGR's log lines with a number or a verb of their own (the HP checks, a bomb, a 333) and the
#: last HP check under the table, per language.
NUMGR_LOG_WORDS_SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const ngLog = await import("/static/games/ng_log.js");
  const check = (lost) => ({ seat: 0, attack: 2, unstoppable: 1, defense: 1, defense_circle: 0, lost, hp: 1 });
  const events = [{ kind: "hp_check", data: check(true) }, { kind: "hp_check", data: check(false) },
    { kind: "variant", data: { kind: "bomb", seat: 1, face: "2" } },
    { kind: "variant", data: { kind: "333", seat: 1, face: "3" } }];
  const got = {};
  for (const lang of ["en", "zh", "ja"]) {
    await i18n.loadLocale(lang);
    const ctx = { t: i18n.t, seat: null, players: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }] };
    got[lang] = [...ngLog.logLines(events, ctx), ngLog.checkLine(check(true), ctx, "ng.last_check")];
  }
  return got;
}"""


def test_numgr_log_lines_keep_one_style_per_language(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", NUMGR_LOG_WORDS_SCRIPT)
    # Japanese: polite endings (〜ました) as the other log lines, a space either side of a number
    assert got == {
        "en": ["HP check: Ann faced 3 against 1 — lost 1 HP.", "HP check: Ann faced 3 against 1 — no damage.",
               "Bomb! The fourth 2 arrived for Bob.", "333! The third 3 arrived for Bob.",
               "Last HP check: Ann faced 3 against 1 — lost 1 HP."],
        "zh": ["生命检定：Ann 以防御 1 面对攻击 3——失去 1 点生命。", "生命检定：Ann 以防御 1 面对攻击 3——没有受伤。",
               "炸弹！Bob 的第四张 2 到了。", "333！Bob 的第三张 3 到了。",
               "上次生命检定：Ann 以防御 1 面对攻击 3——失去 1 点生命。"],
        "ja": ["HP チェック：Ann は攻撃 3 を防御 1 で受けました——HP を 1 失いました。",
               "HP チェック：Ann は攻撃 3 を防御 1 で受けました——ダメージなし。",
               "ボム！Bob に 4 枚目の 2 が届きました。", "333！Bob に 3 枚目の 3 が届きました。",
               "前回の HP チェック：Ann は攻撃 3 を防御 1 で受けました——HP を 1 失いました。"],
    }
