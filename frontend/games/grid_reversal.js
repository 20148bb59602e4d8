// Grid Reversal table (game id "grid_reversal"); interface: frontend/games/README.md; view:
// docs/protocol.md "Grid Reversal view"; rules for players: docs/rules/grid_reversal.md.
// Draws the status (with the standoff announced), the grid (grid_reversal_board.js), the chain
// playback (grid_reversal_playback.js), the Ban and draw prompts, and the viewer's hand with
// the target selection of each card. Only actions listed in ctx.legal are ever sent.
// Test hooks: [data-testid=gr-status][data-phase], [data-testid=gr-standoff],
// [data-testid=gr-cell][data-row][data-col][data-owner][data-target=true] (a clickable target),
// [data-testid=hand] / [data-testid=hand-card][data-card][data-action=choose_mother|discard|select]
// (never for spectators), [data-testid=gr-end-stage|gr-ban|gr-decline|gr-offer-draw|
// gr-accept-draw|gr-decline-draw|gr-swap-cells|gr-swap-in|gr-super-add|gr-cancel|gr-skip],
// [data-testid=gr-playback] (a chain being played back).

import { h, patchInto, replaceKeepingFocus } from "/static/js/dom.js";
import { listText } from "/static/js/i18n.js";
import { boardEl, key, spentKeys } from "./grid_reversal_board.js";
import { playbackMarks, playbackPanel, startPlayback, stepsOf, stopPlayback } from "./grid_reversal_playback.js";
import { cardName, cellName, isNumber, targetText } from "./grid_reversal_text.js";
import { busy, endReasonOf, ensureStyles, keptDetails, legalOf, memoryOf, seatLabel, tr } from "./kit.js";
import { lastCells } from "./grid_reversal_log.js";

export { logLines } from "./grid_reversal_log.js";

const memories = new WeakMap();

function memoryFor(root) {
  return memoryOf(memories, root, () => ({ sel: {}, prompt: null, playback: null, timer: null, kept: new Map() }));
}

function sameCell(a, b) {
  return a[0] === b[0] && a[1] === b[1];
}

// ------------------------------------------------------------------ status

function outcomeText(view, ctx) {
  const outcome = view.outcome;
  const reason = endReasonOf(ctx, outcome);
  if (outcome.draw) return tr(ctx, "gr.outcome.draw", { reason });
  return tr(ctx, "gr.outcome.win", { name: seatLabel(ctx, outcome.winners[0]), reason });
}

function effectCard(view, ctx) {
  const first = view.stack[0];
  return first ? cardName(ctx, EFFECT_OF[first.action.type]) : "";
}

const EFFECT_OF = { lightning: "LIGHTNING", bomb: "BOMB", super_add_pair: "SUPER_ADD",
  super_add_line: "SUPER_ADD", swap_cells: "SWAP", swap_in: "SWAP", ban: "BAN" };

function statusText(view, ctx) {
  const mine = ctx.legal.length > 0;
  const other = seatLabel(ctx, view.turn);
  switch (view.phase) {
    case "over": return outcomeText(view, ctx);
    case "mother": return tr(ctx, mine ? "gr.status.mother" : "gr.status.mother_wait");
    case "setup_discard": return tr(ctx, mine ? "gr.status.setup_discard" : "gr.status.setup_discard_wait");
    case "discard": return mine ? tr(ctx, "gr.status.discard") : tr(ctx, "gr.status.discard_other", { name: other });
    case "response": {
      const last = view.stack[view.stack.length - 1];
      const card = last.action.type === "ban" ? cardName(ctx, "BAN") : effectCard(view, ctx);
      return mine ? tr(ctx, "gr.status.response", { name: seatLabel(ctx, last.seat), card })
        : tr(ctx, "gr.status.response_wait", { card });
    }
    case "draw_offer":
      return mine ? tr(ctx, "gr.status.draw_offer", { name: other }) : tr(ctx, "gr.status.draw_offer_wait");
    default:
      if (!mine) return tr(ctx, "gr.status.stage_other", { name: other });
      return tr(ctx, view.standoff ? "gr.status.stage_standoff" : "gr.status.stage");
  }
}

function statusBar(view, ctx) {
  const clock = ctx.deadline && ctx.legal.length ? ctx.deadline
    : Math.min(...Object.values(ctx.clocks || {}), Infinity);
  return h("div", { class: ["gr-status", view.standoff && "gr-status-standoff"], "data-testid": "gr-status",
    "data-phase": view.phase, "data-turn": view.turn === null ? "" : view.turn },
  h("span", { class: "gr-round", text: view.round ? tr(ctx, "gr.round", { n: view.round }) : tr(ctx, "gr.setup") }),
  h("strong", { class: "gr-phase", text: statusText(view, ctx) }),
  Number.isFinite(clock) && view.phase !== "over" ? ctx.countdown(clock) : null,
  view.standoff ? h("p", { class: "gr-standoff", "data-testid": "gr-standoff", role: "status",
    text: tr(ctx, "gr.standoff") }) : null);
}

function counters(view, ctx) {
  const parts = [];
  if (view.phase === "stage" && !view.standoff) parts.push(tr(ctx, "gr.placements", { n: view.placements_left }));
  if (view.standoff) parts.push(tr(ctx, "gr.flipless", { n: view.flipless_stages, max: view.limits.flipless_stages }));
  else if (view.round) parts.push(tr(ctx, "gr.idle", { n: view.idle_stages, max: view.limits.idle_stages }));
  return h("p", { class: "gr-counters muted", "data-testid": "gr-counters", text: parts.join(" · ") });
}

function seatLine(view, ctx, seat) {
  const info = view.seats[seat];
  return h("div", { class: ["gr-seat", `gr-seat${seat}`, seat === ctx.seat && "gr-mine",
    view.turn === seat && "gr-seat-current"], "data-testid": `gr-seat-${seat}` },
  h("strong", { text: seatLabel(ctx, seat) }),
  h("span", { class: "muted", text: tr(ctx, info.first ? "gr.first" : "gr.second") }),
  h("span", { class: "muted", text: tr(ctx, "gr.hand_size", { n: info.hand_size }) }));
}

// ------------------------------------------------------------------ selection and targets

function pairTargets(actions, sel, onPick, onPair) {
  const targets = new Map();
  if (!sel.first) {
    for (const action of actions) for (const cell of action.cells) targets.set(key(cell), () => onPick(cell));
    return targets;
  }
  for (const action of actions) {
    const [a, b] = action.cells;
    const other = sameCell(a, sel.first) ? b : sameCell(b, sel.first) ? a : null;
    if (other) targets.set(key(other), () => onPair(action));
  }
  return targets;
}

function targetsFor(view, ctx, memory, redraw) {
  const sel = memory.sel;
  const act = (action) => { memory.sel = {}; ctx.act(action); };
  const pick = (cell) => { memory.sel = { ...sel, first: cell }; redraw(); };
  const byCell = (actions) => new Map(actions.map((a) => [key(a.cell), () => act(a)]));
  if (legalOf(ctx, "standoff_swap").length) return pairTargets(legalOf(ctx, "standoff_swap"), sel, pick, act);
  switch (sel.mode) {
    case "place": return byCell(legalOf(ctx, "place").filter((a) => a.card === sel.card));
    case "bomb": return byCell(legalOf(ctx, "bomb"));
    case "swap_cells": return pairTargets(legalOf(ctx, "swap_cells"), sel, pick, act);
    case "swap_in": return sel.card ? byCell(legalOf(ctx, "swap_in").filter((a) => a.card === sel.card)) : new Map();
    default: return new Map();
  }
}

/**
 * What clicking each highlighted cell does, by "r,c" key: the text shown on hover/long-press
 * (the view does not say which cards a placement would flip, so it says what the action is).
 */
function targetExplanations(view, ctx, memory, targets) {
  const sel = memory.sel;
  const explain = new Map();
  for (const k of targets.keys()) {
    const cell = cellName(k.split(",").map(Number));
    const first = sel.first ? cellName(sel.first) : null;
    let text;
    if (legalOf(ctx, "standoff_swap").length || sel.mode === "swap_cells") {
      text = first ? tr(ctx, "gr.explain.swap_with", { a: first, b: cell }) : tr(ctx, "gr.explain.swap_first", { cell });
    } else if (sel.mode === "place") text = tr(ctx, "gr.explain.place", { card: sel.card, cell });
    else if (sel.mode === "bomb") text = tr(ctx, "gr.explain.bomb", { cell });
    else if (sel.mode === "swap_in") text = tr(ctx, "gr.explain.swap_in", { card: sel.card, cell });
    if (text) explain.set(k, text);
  }
  return explain;
}

/** What clicking a hand card does in this phase ("Make 3 your mother card", the card's effect…). */
function handCardExplanation(code, view, ctx) {
  if (view.phase === "mother") return tr(ctx, "gr.explain.mother", { card: cardName(ctx, code) });
  if (view.phase === "setup_discard" || view.phase === "discard") {
    return tr(ctx, "gr.explain.discard", { card: cardName(ctx, code) });
  }
  return isNumber(code) ? tr(ctx, "gr.explain.card.number", { card: code }) : tr(ctx, `gr.explain.card.${code}`);
}

function handCardClick(code, view, ctx, memory, redraw) {
  const sel = memory.sel;
  const choose = (next) => () => { memory.sel = next; redraw(); };
  if (view.phase === "mother") {
    return legalOf(ctx, "choose_mother").some((a) => a.card === code)
      ? () => ctx.act({ type: "choose_mother", card: code }) : null;
  }
  if (view.phase === "setup_discard" || view.phase === "discard") {
    return legalOf(ctx, "discard").some((a) => a.card === code) ? () => ctx.act({ type: "discard", card: code }) : null;
  }
  if (view.phase !== "stage") return null;
  if (isNumber(code)) {
    if (sel.mode === "swap_in") {
      return legalOf(ctx, "swap_in").some((a) => a.card === code) ? choose({ mode: "swap_in", card: code }) : null;
    }
    return legalOf(ctx, "place").some((a) => a.card === code)
      ? choose(sel.mode === "place" && sel.card === code ? {} : { mode: "place", card: code }) : null;
  }
  if (code === "LIGHTNING") return legalOf(ctx, "lightning").length ? () => ctx.act({ type: "lightning" }) : null;
  if (code === "BOMB") return legalOf(ctx, "bomb").length ? choose({ mode: "bomb" }) : null;
  if (code === "SWAP") {
    return legalOf(ctx, "swap_cells").length || legalOf(ctx, "swap_in").length ? choose({ mode: "swap" }) : null;
  }
  if (code === "SUPER_ADD") {
    return legalOf(ctx, "super_add_pair").length || legalOf(ctx, "super_add_line").length
      ? choose({ mode: "super_add" }) : null;
  }
  return null;
}

function handPanel(view, ctx, memory, redraw) {
  if (ctx.seat === null || ctx.seat === undefined) return null;
  const hand = view.hands[String(ctx.seat)] || [];
  const action = view.phase === "mother" ? "choose_mother"
    : view.phase === "discard" || view.phase === "setup_discard" ? "discard" : "select";
  return h("section", { class: "gr-hand", "data-testid": "hand" },
    h("h3", { text: tr(ctx, "gr.your_hand") }),
    view.my_choice ? h("p", { class: "muted", text: `✓ ${cardName(ctx, view.my_choice)}` }) : null,
    h("ul", { class: "gr-cards" }, hand.map((code, index) => {
      const onclick = handCardClick(code, view, ctx, memory, redraw);
      const selected = memory.sel.card === code && ["place", "swap_in"].includes(memory.sel.mode);
      return h("li", {}, h("button", { type: "button", class: ["gr-card", isNumber(code) ? "gr-card-number" : "gr-card-effect",
        selected && "gr-card-selected"], "data-testid": "hand-card", "data-card": code, "data-action": action,
      "data-key": `hand-${index}-${code}`, disabled: !onclick || busy(ctx), "aria-pressed": selected ? "true" : null,
      title: onclick ? handCardExplanation(code, view, ctx) : null,
      text: cardName(ctx, code), onclick }));
    })));
}

function selectionPanel(view, ctx, memory, redraw) {
  const sel = memory.sel;
  const cancel = h("button", { type: "button", class: "button", "data-testid": "gr-cancel", "data-key": "gr-cancel",
    text: tr(ctx, "gr.cancel"), onclick: () => { memory.sel = {}; redraw(); } });
  const line = (text, ...more) => h("div", { class: "gr-selection", "data-testid": "gr-selection" },
    h("span", { text }), ...more, cancel);
  const play = (action) => { memory.sel = {}; ctx.act(action); };
  switch (sel.mode) {
    case "place": return line(tr(ctx, "gr.pick.place", { card: sel.card }));
    case "bomb": return line(tr(ctx, "gr.pick.bomb"));
    case "swap_cells": return line(tr(ctx, sel.first ? "gr.pick.swap_cells_second" : "gr.pick.swap_cells"));
    case "swap_in": return line(sel.card ? tr(ctx, "gr.pick.swap_in_cell", { card: sel.card }) : tr(ctx, "gr.pick.swap_in"));
    case "swap": return line("",
      legalOf(ctx, "swap_cells").length ? h("button", { type: "button", class: "button", "data-testid": "gr-swap-cells",
        "data-key": "gr-swap-cells", text: tr(ctx, "gr.swap_mode.cells"),
        onclick: () => { memory.sel = { mode: "swap_cells" }; redraw(); } }) : null,
      legalOf(ctx, "swap_in").length ? h("button", { type: "button", class: "button", "data-testid": "gr-swap-in",
        "data-key": "gr-swap-in", text: tr(ctx, "gr.swap_mode.in"),
        onclick: () => { memory.sel = { mode: "swap_in" }; redraw(); } }) : null);
    case "super_add": return line(tr(ctx, "gr.super_add.help"),
      [...legalOf(ctx, "super_add_pair"), ...legalOf(ctx, "super_add_line")].map((action, index) => {
        const [a, b, c] = action.cells.map(cellName);
        const text = action.type === "super_add_pair" ? tr(ctx, "gr.super_add.pair", { a, b })
          : tr(ctx, "gr.super_add.line", { a, b, c });
        return h("button", { type: "button", class: "button", "data-testid": "gr-super-add", "data-key": `gr-sa-${index}`,
          disabled: busy(ctx), text, onclick: () => play(action) });
      }));
    default:
      if (legalOf(ctx, "standoff_swap").length && sel.first) return line(tr(ctx, "gr.pick.standoff"));
      return null;
  }
}

// ------------------------------------------------------------------ prompts and buttons

function button(ctx, testid, label, action, primary = false) {
  return h("button", { type: "button", class: ["button", primary && "button-primary"], "data-testid": testid,
    "data-key": testid, disabled: busy(ctx), text: label, title: tr(ctx, `gr.explain.${action.type}`),
    onclick: () => ctx.act(action) });
}

function stackPanel(view, ctx) {
  if (!view.stack.length) return null;
  return h("ol", { class: "gr-stack", "data-testid": "gr-stack" }, view.stack.map((entry) => h("li", {
    text: entry.action.type === "ban" ? tr(ctx, "gr.stack.ban", { name: seatLabel(ctx, entry.seat) })
      : tr(ctx, "gr.stack.effect", { name: seatLabel(ctx, entry.seat), card: cardName(ctx, EFFECT_OF[entry.action.type]),
        target: targetText(ctx, entry.action) }) })));
}

function actionsPanel(view, ctx) {
  const has = (type) => ctx.legal.some((a) => a.type === type);
  const buttons = [];
  if (has("ban")) buttons.push(button(ctx, "gr-ban", tr(ctx, "gr.ban"), { type: "ban" }, true));
  if (has("decline")) buttons.push(button(ctx, "gr-decline", tr(ctx, "gr.decline"), { type: "decline" }));
  if (has("accept_draw")) buttons.push(button(ctx, "gr-accept-draw", tr(ctx, "gr.accept_draw"), { type: "accept_draw" }, true));
  if (has("decline_draw")) buttons.push(button(ctx, "gr-decline-draw", tr(ctx, "gr.decline_draw"), { type: "decline_draw" }));
  if (has("offer_draw")) buttons.push(button(ctx, "gr-offer-draw", tr(ctx, "gr.offer_draw"), { type: "offer_draw" }));
  if (has("end_stage")) {
    buttons.push(button(ctx, "gr-end-stage", tr(ctx, view.standoff ? "gr.pass" : "gr.end_stage"), { type: "end_stage" }, true));
  }
  if (!buttons.length && !view.stack.length) return null;
  return h("div", { class: "gr-actions", "data-testid": "gr-actions" }, stackPanel(view, ctx), buttons);
}

function pilesPanel(view, ctx, kept) {
  const spent = listText(view.spent.map(([a, b]) => `${cellName(a)}–${cellName(b)}`), ctx.t);
  return h("section", { class: "gr-piles" },
    h("p", { "data-testid": "gr-spent", text: spent ? tr(ctx, "gr.spent", { list: spent }) : tr(ctx, "gr.spent_none") }),
    h("span", { "data-testid": "gr-deck", text: tr(ctx, "gr.deck", { n: view.deck_size }) }),
    keptDetails(kept, "discard", false, {}, h("summary", { text: tr(ctx, "gr.discard_pile", { n: view.discard.length }) }),
      h("p", { text: listText(view.discard.map((c) => cardName(ctx, c)), ctx.t) })),
    view.redeals.map((r) => h("p", { class: "muted small", text: tr(ctx, "gr.redeal",
      { name: seatLabel(ctx, r.seat), cards: listText(r.cards.map((c) => cardName(ctx, c)), ctx.t) }) })));
}

// ------------------------------------------------------------------ drawing

function draw(root, memory) {
  replaceKeepingFocus(root, buildTable(root, memory));
}

function buildTable(root, memory) {
  const ctx = memory.ctx;
  const view = ctx.view;
  const redraw = () => draw(root, memory);
  const playing = memory.playback;
  const marks = { targets: playing ? new Map() : targetsFor(view, ctx, memory, redraw),
    selected: new Set(memory.sel.first ? [key(memory.sel.first)] : []), spent: spentKeys(view),
    firing: new Set(), flipped: new Set(), broken: new Set(), overrides: null, busy: busy(ctx) };
  marks.explain = targetExplanations(view, ctx, memory, marks.targets);
  if (playing) Object.assign(marks, playbackMarks(playing));
  else Object.assign(marks, { last: new Set(lastCells(ctx.lastEvents || [])), fresh: (ctx.events || []).length > 0 });
  const me = ctx.seat === null || ctx.seat === undefined ? view.first : ctx.seat;
  return h("div", { class: "gr", "data-phase": view.phase },
    statusBar(view, ctx),
    seatLine(view, ctx, 1 - me),
    boardEl(view, ctx, marks),
    seatLine(view, ctx, me),
    counters(view, ctx),
    playing ? playbackPanel(playing, ctx, () => { stopPlayback(memory); redraw(); }) : null,
    playing ? null : actionsPanel(view, ctx),
    playing ? null : selectionPanel(view, ctx, memory, redraw),
    handPanel(view, ctx, memory, redraw),
    pilesPanel(view, ctx, memory.kept));
}

function remember(memory, ctx, redraw) {
  if (ctx.prompt !== memory.prompt || !ctx.legal.length) {
    memory.sel = {};
    memory.prompt = ctx.prompt;
  }
  const steps = stepsOf(ctx.events || []);
  if (steps.length) startPlayback(memory, steps, redraw);
}

/**
 * Draw the Grid Reversal table into `root` for ctx = {view, legal, seat, prompt, deadline,
 * clocks, events, room, players, connected, pending, act, t, countdown} (README.md).
 */
export function render(root, ctx) {
  ensureStyles("grid_reversal.css");
  const memory = memoryFor(root);
  memory.ctx = ctx;
  // A playback tick patches the table in place (`patchInto`): a button pressed across a tick
  // (Skip, a hand card) keeps its click.
  remember(memory, ctx, () => patchInto(root, buildTable(root, memory)));
  draw(root, memory);
}

/** Stop the playback timer and forget the selection when the shell drops the table. */
export function dispose(root) {
  const memory = memories.get(root);
  if (memory) stopPlayback(memory);
  memories.delete(root);
}
