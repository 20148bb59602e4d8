// Reverse Curse table (game id "reverse_curse"); interface: frontend/games/README.md.
// Draws the view of docs/protocol.md "Reverse Curse view": sides, stairs, status and clock,
// the decision of the moment (order choice, mulligan, shop, summon), the field T1..T12, the
// hand(s) this viewer may see, graveyard, deck size, set history, and after each set the LIFO
// resolution played back step by step (rulings "Match flow" and "LIFO resolution"). The playback
// is shown under the decision panel, never instead of it: the next set's order choice, mulligan
// and shop stay usable while their clock runs. While the playback of the set that ended the match
// still has steps to show, the table keeps the result to itself (`holdsOutcome`): the shell
// shows the game-over banner once the playback is done, skipped or closed. Likewise the stairs,
// the chart and the set history show the position before a set until its playback is done.

import { h, patchInto, replaceKeepingFocus } from "/static/js/dom.js";
import { fieldPanel, historyPanel, pilesPanel, sideText, sidesPanel, stairs } from "./rc_board.js";
import { busy, currentClock, endReasonOf, legalOf, memoryOf, seatName } from "./kit.js";
import { cardFace, cardLabel, isNumber, signed } from "./rc_cards.js";
import { activeTurn, playbackPanel, startPlayback, stopPlayback } from "./rc_playback.js";
import { shopPanel, summonPanel } from "./rc_monsters.js";
import { regulationLimits, stairsChart } from "./rc_stairs_chart.js";
import { markedTurn } from "./rc_log.js";
import { followField, withHolders } from "./rc_owners.js";

export { logLines } from "./rc_log.js";

const memories = new WeakMap();

function memoryFor(root) {
  return memoryOf(memories, root, () => ({ playback: null, timer: null, ctx: null }));
}

function sideOfSeat(view, seat) {
  return ["UP", "DOWN"].find((side) => (view.sides[side] || []).includes(seat)) || null;
}

/** The match result as a sentence from view.outcome {winners, draw, reason, detail}; a side
 * whose seat the room resigned (ctx.room.forfeit) lost by that forfeit, not by resigning. */
function outcomeText(view, ctx) {
  const { t } = ctx;
  const outcome = view.outcome;
  if (!outcome) return t("rc.status.finished");
  if (outcome.draw) return t("rc.outcome.draw", { n: signed(view.position) });
  const side = sideText(sideOfSeat(view, outcome.winners[0]), t);
  if (ctx.room && ctx.room.forfeit) return t("rc.outcome.forfeit", { side, reason: endReasonOf(ctx, outcome) });
  const key = ["ko", "decision", "resign"].includes(outcome.reason) ? outcome.reason : "other";
  return t(`rc.outcome.${key}`, { side, n: signed(view.position) });
}

function phaseText(view, ctx, holding) {
  const { t } = ctx;
  if (view.phase === "finished") return holding ? t("rc.status.resolving") : outcomeText(view, ctx);
  if (view.phase === "order") {
    if (legalOf(ctx, "choose_order").length) return t("rc.status.order_mine");
    return t("rc.status.order_wait", { side: sideText(view.position > 0 ? "DOWN" : "UP", t) });
  }
  if (view.phase === "deployment") {
    const mine = view.my_side && view.my_side === view.side_to_act;
    return t(mine ? "rc.status.your_turn" : "rc.status.turn",
      { turn: view.turn, side: sideText(view.side_to_act, t) });
  }
  return t(`rc.status.${view.phase}`);
}

function statusLine(view, ctx, holding) {
  const clock = view.phase === "finished" ? null : currentClock(ctx);
  return h("div", { class: "rc-status", "data-testid": "rc-status" },
    h("span", { class: "rc-set", text: ctx.t("rc.set_of", { set: view.set, max: view.max_sets }) }),
    h("strong", { class: "rc-phase", text: phaseText(view, ctx, holding) }),
    clock ? ctx.countdown(clock) : null);
}

function orderPanel(ctx) {
  const { t, act } = ctx;
  return h("section", { class: "decision", "data-testid": "rc-order" },
    h("h3", { text: t("rc.order_title") }),
    h("p", { text: t("rc.order_help") }),
    h("div", { class: "dialog-actions" }, [true, false].map((first) => h("button", {
      type: "button", class: ["button", first && "button-primary"], "data-action": "choose_order",
      "data-first": String(first), "data-key": `order-${first}`, disabled: busy(ctx),
      title: t(first ? "rc.explain.go_first" : "rc.explain.go_second"),
      text: t(first ? "rc.go_first" : "rc.go_second"), onclick: () => act({ type: "choose_order", first }),
    }))));
}

function mulliganPanel(view, ctx) {
  const { t, act } = ctx;
  const options = legalOf(ctx, "mulligan");
  if (!options.length) {
    const mine = view.mulligan && view.mulligan.mine;
    const sent = mine && mine !== "pending" && mine !== "kept";
    const key = mine === "kept" ? "rc.mulligan_kept" : sent ? "rc.mulligan_sent" : "rc.mulligan_wait";
    return h("section", { class: "decision", "data-testid": "rc-mulligan-wait" },
      h("p", { text: t(key, { card: sent ? cardLabel(mine, t) : "" }) }));
  }
  const cards = [...new Set(options.map((o) => o.card).filter((card) => card !== null))];
  return h("section", { class: "decision", "data-testid": "rc-mulligan" },
    h("h3", { text: t("rc.mulligan_title") }),
    h("p", { text: t("rc.mulligan_help") }),
    h("div", { class: "card-row" }, cards.map((card) => cardFace(card, t, {
      tag: "button", key: `mull-${card}`, disabled: busy(ctx), testid: "mulligan-card",
      explain: t("rc.explain.mulligan", { card: cardLabel(card, t) }),
      onclick: () => act({ type: "mulligan", card }) }))),
    h("div", { class: "dialog-actions" }, h("button", {
      type: "button", class: "button button-primary", "data-action": "mulligan-keep",
      "data-key": "mull-keep", disabled: busy(ctx), text: t("rc.keep"), title: t("rc.explain.keep"),
      onclick: () => act({ type: "mulligan", card: null }) })));
}

function deploymentPanel(view, ctx) {
  const { t } = ctx;
  if (!legalOf(ctx, "play").length) return summonPanel(view, ctx);
  return h("section", { class: ["decision", "decision-turn"], "data-testid": "rc-your-turn" },
    h("p", { text: t("rc.play_help") }),
    summonPanel(view, ctx));
}

function decisionPanel(view, ctx) {
  if (legalOf(ctx, "choose_order").length) return orderPanel(ctx);
  if (view.phase === "mulligan" && view.my_side) return mulliganPanel(view, ctx);
  if (view.phase === "shop") return shopPanel(view, ctx, currentClock(ctx));
  if (view.phase === "deployment") return deploymentPanel(view, ctx);
  return summonPanel(view, ctx);
}

/** What playing `code` now does, e.g. "Play +2 face-up on top of the field (T5)" (rulings
 * "Deployment": numbers face-up, specials — and every card under Veil Snail — face-down). */
export function playExplanation(code, view, t) {
  const faceUp = isNumber(code) && !view.veiled;
  return t(faceUp ? "rc.explain.play_up" : "rc.explain.play_down",
    { card: cardLabel(code, t), turn: (view.field || []).length + 1 });
}

function handPanel(seat, cards, view, ctx) {
  const { t, act } = ctx;
  const mine = Number(seat) === ctx.seat;
  const playable = new Set(mine ? legalOf(ctx, "play").map((action) => action.card) : []);
  return h("section", { class: ["rc-hand", mine && "rc-hand-mine"], "data-testid": "hand", "data-seat": seat },
    h("h3", { text: mine ? t("rc.your_hand", { n: cards.length })
      : t("rc.mate_hand", { name: seatName(ctx, Number(seat)), n: cards.length }) }),
    h("ul", { class: "card-row hand-row" }, cards.map((code, index) => h("li", {}, mine
      ? cardFace(code, t, { tag: "button", key: `hand-${seat}-${index}`, testid: "hand-card",
        disabled: !playable.has(code) || busy(ctx), onclick: () => act({ type: "play", card: code }),
        explain: playable.has(code) ? playExplanation(code, view, t) : null })
      : cardFace(code, t)))));
}

function handsPanel(view, ctx) {
  const hands = Object.entries(view.hands || {})
    .filter(([, cards]) => cards.length || view.phase !== "finished");
  if (!hands.length) return null;
  hands.sort(([a], [b]) => (Number(b) === ctx.seat) - (Number(a) === ctx.seat));
  return h("div", { class: "rc-hands" }, hands.map(([seat, cards]) => handPanel(seat, cards, view, ctx)));
}

/** The live stairs chart of the sets the `board` view shows resolved (rc_stairs_chart.js),
 * once a set of the match is (`view.history`): during the first set's playback it is drawn
 * without that set, so its point comes at the playback's end without the chart appearing then
 * and pushing the table down under the pointer (a button pressed then would be released elsewhere). */
function chartPanel(view, board, ctx) {
  if (!(view.history || []).length) return null;
  const { ko, maxSets } = regulationLimits({ regulation: board.regulation });
  return h("section", { class: "rc-chart" },
    h("h3", { text: ctx.t("rc.chart_title") }),
    stairsChart(board.history || [], { ko: board.ko || ko, maxSets: board.max_sets || maxSets, t: ctx.t }));
}

/** The field to draw (the view's, or the resolved set's during its playback), each card with
 * who played it when the page's events tell (rc_owners.js). */
function fieldEntries(view, playback, ctx) {
  const followed = followField(ctx.batches || []);
  if (!playback) return withHolders(view.field || [], followed.field);
  return withHolders(playback.field.map((entry, index) => ({ ...entry, turn: index + 1, face_up: true })),
    followed.resolved.get(playback.set));
}

/** The view the stairs, chart and set history draw: while a set's playback has steps to show,
 * the position before that set and the sets before it (the result shows when the playback
 * reaches it, not before). */
function boardView(view, playback) {
  if (!playback || playback.shown >= playback.steps.length) return view;
  return { ...view, position: playback.position_after - playback.result,
    history: (view.history || []).filter((entry) => entry.set < playback.set) };
}

/** Whether the playback of the set that ended the match still has steps to show. */
function holding(memory) {
  const playback = memory.playback;
  return Boolean(playback && memory.ctx && memory.ctx.view.outcome
    && playback.shown < playback.steps.length);
}

/** Redraw after a playback button, or (`tick`) a playback tick: then the table is patched into
 * the one shown (`patchInto`), so what the tick did not change stays — a button pressed across
 * a tick (the playback's own, the next set's decision, a hand card) keeps its click. Tell the
 * shell (ctx.refresh) once the outcome is no longer held, so it shows the game-over banner. */
function redrawTable(root, memory, tick = false) {
  const held = memory.held;
  if (tick) patchInto(root, buildTable(root, memory));
  else draw(root, memory);
  if (held && !memory.held && memory.ctx.refresh) memory.ctx.refresh();
}

function draw(root, memory) {
  replaceKeepingFocus(root, buildTable(root, memory));
}

function buildTable(root, memory) {
  const ctx = memory.ctx;
  const view = ctx.view;
  const playback = memory.playback;
  const redraw = () => redrawTable(root, memory);
  memory.held = holding(memory);
  const board = boardView(view, playback);
  return h("div", { class: "rc", "data-phase": view.phase },
    sidesPanel(view, ctx),
    stairs(board, ctx),
    chartPanel(view, board, ctx),
    statusLine(view, ctx, memory.held),
    decisionPanel(view, ctx),
    playback
      ? playbackPanel(playback, ctx, {
        onSkip: () => { playback.shown = playback.steps.length; redraw(); },
        onClose: () => { stopPlayback(memory); redraw(); } })
      : null,
    fieldPanel(fieldEntries(view, playback, ctx), ctx, activeTurn(playback),
      playback ? ctx.t("rc.field_of_set", { n: playback.set }) : null,
      playback ? null : markedTurn(ctx.lastEvents || [], ctx.history || [], view.field)),
    handsPanel(view, ctx),
    pilesPanel(view, ctx),
    historyPanel(board, ctx));
}

function resolvedSet(ctx) {
  const event = ctx.events.find((e) => e.kind === "set_resolved");
  if (!event) return null;
  const record = (ctx.view.history || []).find((entry) => entry.set === event.data.set);
  const steps = event.data.steps || (record ? record.steps : []);
  return { data: { ...event.data, steps }, field: record ? record.field : [] };
}

/**
 * Draw the table into `root` for ctx = {view, legal, seat, prompt, deadline, clocks, events,
 * room, players, connected, pending, act, t, countdown, refresh} (see README.md). A `set_resolved`
 * event starts the step-by-step playback of that set's resolution.
 */
export function render(root, ctx) {
  const memory = memoryFor(root);
  memory.ctx = ctx;
  const resolved = resolvedSet(ctx);
  if (resolved) startPlayback(memory, resolved.data, resolved.field, () => redrawTable(root, memory, true));
  draw(root, memory);
}

/** Whether the table keeps the match result to itself for now: the playback of the set that
 * ended the match is still showing its steps (the shell then holds the game-over banner). */
export function holdsOutcome(root) {
  const memory = memories.get(root);
  return Boolean(memory && memory.held);
}

/** Stop timers when the shell drops the table. */
export function dispose(root) {
  stopPlayback(memoryFor(root));
  memories.delete(root);
}
