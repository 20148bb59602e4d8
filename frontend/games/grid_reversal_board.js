// The Grid Reversal grid: both boards as one grid, the viewer's own board at the bottom (the
// second player sees it turned round), owners by colour and arrow (the arrow points at its
// owner; a seat's colour is the same for every viewer: seat 1 blue, seat 2 red), S squares,
// mother cards, spent pairs, the cells the current selection may target and the last move.

import { h } from "/static/js/dom.js";
import { icon } from "/static/js/icons.js";
import { cellName } from "./grid_reversal_text.js";
import { markLastMove, seatLabel, tr } from "./kit.js";

/** "r,c" key of a cell. */
export function key(cell) {
  return `${cell[0]},${cell[1]}`;
}

/** Whether the second player's view is drawn turned round (its own board at the bottom). */
function turned(view, ctx) {
  return ctx.seat !== null && ctx.seat !== undefined && !view.seats[ctx.seat].first;
}

/** The owner's colour class (by seat, the same for every viewer), and `gr-mine` on the
 * viewer's own cards. */
function ownerClass(owner, ctx) {
  return owner === ctx.seat ? `gr-seat${owner} gr-mine` : `gr-seat${owner}`;
}

function arrow(owner, view, flip) {
  const atBottom = view.seats[owner].first !== flip;
  return atBottom ? "▼" : "▲";
}

function cardOn(view, cell, overrides) {
  const k = key(cell);
  const final = view.grid[cell[0]][cell[1]];
  if (overrides && overrides.has(k)) return { ...overrides.get(k), mother: Boolean(final && final.mother) };
  return final;
}

function cellLabel(ctx, cell, card) {
  const what = card ? tr(ctx, "gr.cell_card", { value: card.value, name: seatLabel(ctx, card.owner) })
    : tr(ctx, "gr.cell_empty");
  return tr(ctx, "gr.cell", { cell: cellName(cell), what });
}

function cellEl(view, ctx, cell, marks, flip) {
  const card = cardOn(view, cell, marks.overrides);
  const k = key(cell);
  const start = view.seats.find((s) => s.start[0] === cell[0] && s.start[1] === cell[1]);
  const half = view.seats.find((s) => s.rows.includes(cell[0]));
  const onclick = marks.targets && marks.targets.get(k);
  const classes = ["gr-cell", half && (half.first ? "gr-half-first" : "gr-half-second"),
    card && ownerClass(card.owner, ctx), start && "gr-start", card && card.mother && "gr-mother",
    marks.spent.has(k) && "gr-spent", onclick && "gr-target", marks.selected.has(k) && "gr-selected",
    marks.firing.has(k) && "gr-firing", marks.hot && marks.hot.has(k) && "gr-hot", marks.flipped.has(k) && "gr-flipped",
    marks.broken.has(k) && "gr-broken"];
  const attrs = { class: classes, "data-testid": "gr-cell", "data-row": cell[0], "data-col": cell[1],
    "data-owner": card ? card.owner : null, "data-value": card ? card.value : null,
    "data-target": onclick ? "true" : null, "aria-label": cellLabel(ctx, cell, card),
    title: (onclick && marks.explain && marks.explain.get(k)) || cellName(cell) };
  const inside = [
    start ? h("span", { class: "gr-s", text: tr(ctx, "gr.start") }) : null,
    card ? h("span", { class: "gr-value", text: String(card.value) }) : null,
    card ? h("span", { class: "gr-arrow", "aria-hidden": "true", text: arrow(card.owner, view, flip) }) : null,
    card && card.mother ? h("span", { class: "gr-crown", "aria-hidden": "true" }, icon("crown")) : null,
    marks.spent.has(k) ? h("span", { class: "gr-link", "aria-hidden": "true" }, icon("link")) : null,
    marks.hot && marks.hot.has(k) ? h("span", { class: "gr-hot-mark", "aria-hidden": "true" }, icon("fire")) : null,
  ];
  const el = onclick ? h("button", { ...attrs, type: "button", disabled: marks.busy, onclick, "data-key": `cell-${k}` }, inside)
    : h("div", { ...attrs, role: "gridcell" }, inside);
  if (marks.last && marks.last.has(k)) markLastMove(el, ctx, marks.fresh);
  return el;
}

/**
 * The grid element. marks = {targets: Map(key -> onclick), selected, spent, firing, flipped,
 * broken, hot: Set(key), overrides: Map(key -> card|null) for a chain being played back, busy,
 * explain: Map(key -> what clicking that target does), last: Set(key) of the last move's cells,
 * fresh: whether that move just arrived (it animates)}.
 */
export function boardEl(view, ctx, marks) {
  const flip = turned(view, ctx);
  const rows = [...Array(view.rows).keys()];
  const cols = [...Array(view.width).keys()];
  if (flip) { rows.reverse(); cols.reverse(); }
  const board = h("div", { class: "gr-board", role: "grid", "data-testid": "gr-board",
    "aria-label": tr(ctx, "gr.board") },
  rows.map((r) => h("div", { class: "gr-row", role: "row" },
    cols.map((c) => cellEl(view, ctx, [r, c], marks, flip)))));
  board.style.setProperty("--gr-cols", String(view.width));
  return board;
}

/** The set of "r,c" keys of the cells in spent pairs. */
export function spentKeys(view) {
  return new Set(view.spent.flat().map(key));
}
