// Helpers every game table shares (interface of the tables: README.md). A table module imports
// what it needs from here instead of redefining it; nothing in this file knows a game.

import { apart } from "/static/js/bots.js";
import { h } from "/static/js/dom.js";
import { endReason } from "/static/js/outcome.js";

/** Link the table's own stylesheet `/static/games/<file>` once per page (a second call for the
 * same file does nothing). */
export function ensureStyles(file) {
  const href = `/static/games/${file}`;
  if (document.querySelector(`link[data-table-css="${CSS.escape(file)}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href, "data-table-css": file }));
}

/** Whether the table must not send an action now: one is on its way, or the socket is down. */
export function busy(ctx) {
  return Boolean(ctx.pending || !ctx.connected);
}

/** Translate `key` with the shell's t (ctx.t), filling `{name}` placeholders from `params`. */
export function tr(ctx, key, params = {}) {
  return ctx.t(key, params);
}

/** Why the match ended, in words, for a table's outcome line: the sentence of the seat the room
 * resigned when it did (ctx.room.forfeit: "Bob forfeited: 3 turns timed out in a row."), else
 * the outcome's reason ("A mother card was flipped."). `endReason` of /static/js/outcome.js. */
export function endReasonOf(ctx, outcome) {
  const room = ctx.room || {};
  return endReason(room.game, outcome, room.forfeit || null, ctx.players);
}

/** Whether the viewer is a spectator (no seat). */
export function isSpectator(ctx) {
  return ctx.seat === null || ctx.seat === undefined;
}

/** The seat's display name: its player's name from ctx.players (bot names already in the
 * page's language; "Normal bot · Seat 2" when another seat has the same name: bots.js
 * `apart`), else "Seat n" (n = seat + 1). */
export function seatName(ctx, seat) {
  const players = ctx.players || [];
  const entry = players.find((player) => player.seat === seat);
  if (!entry || !entry.name) return ctx.t("room.seat_n", { n: seat + 1 });
  return apart(entry.name, seat, players.filter((player) => player.name === entry.name).length,
    ctx.t);
}

/** seatName, with " (you)" added for the viewer's own seat. */
export function seatLabel(ctx, seat) {
  const name = seatName(ctx, seat);
  return seat === ctx.seat ? ctx.t("room.name_you", { name }) : name;
}

/** The seat drawn nearest the viewer: the viewer's own, or `fallback` for a spectator. */
export function bottomSeat(ctx, fallback = 0) {
  return isSpectator(ctx) ? fallback : ctx.seat;
}

/** The legal actions of one `type` (in the legal list's order). */
export function legalOf(ctx, type) {
  return ctx.legal.filter((action) => action.type === type);
}

/** The clock to show (unix seconds): the viewer's deadline while it is asked, else the earliest
 * deadline of the seats being waited for (ctx.clocks); null when there is none. */
export function currentClock(ctx) {
  if (ctx.legal.length && ctx.deadline) return ctx.deadline;
  const clocks = Object.values(ctx.clocks || {});
  return clocks.length ? Math.min(...clocks) : null;
}

/** The per-table memory of `root` in `store` (a WeakMap), made by `init()` on first use. */
export function memoryOf(store, root, init) {
  if (!store.has(root)) store.set(root, init());
  return store.get(root);
}

/**
 * A `<details>` whose open state survives the table's redraws: `kept` (a Map in the table's
 * memory) holds what the reader last chose under `key`; until they toggle it, `open` decides.
 * Its `<summary>` gets `data-key="fold-<key>"` (unless it has one), so a redraw gives the focus
 * back to it (`replaceKeepingFocus`). `kept` null (a page drawn once): just `open`. `attrs` and
 * `children` as for h().
 */
export function keptDetails(kept, key, open, attrs, ...children) {
  if (!kept) return h("details", { ...attrs, open }, ...children);
  const details = h("details", { ...attrs, open: kept.has(key) ? kept.get(key) : open,
    ontoggle: (event) => { kept.set(key, event.target.open); } }, ...children);
  const summary = details.querySelector(":scope > summary");
  if (summary && !summary.dataset.key) summary.dataset.key = `fold-${key}`;
  return details;
}

/**
 * Mark `el` as the last action played (class `last-move`, with a word for screen readers in its
 * title); `fresh` (the action has just arrived, not a redraw) adds `last-move-fresh`, which
 * animates once unless the reader asked for reduced motion (css/games.css). Returns `el`.
 */
export function markLastMove(el, ctx, fresh) {
  el.classList.add("last-move");
  if (fresh) el.classList.add("last-move-fresh");
  el.dataset.lastMove = "true";
  const said = ctx.t("log.last_move");
  el.setAttribute("aria-description", said);
  if (!el.title) el.title = said;
  return el;
}

/**
 * The move-log lines of one batch of `events` ([{kind, data}], as received), by `table`:
 * {kind: (data, ctx) => string | string[] | null}. Kinds the table lacks (and null results) give
 * no line — a table lists only public events, so a hidden answer is never logged.
 */
export function linesFrom(table, events, ctx) {
  const lines = [];
  for (const event of events) {
    const line = Object.hasOwn(table, event.kind) ? table[event.kind](event.data || {}, ctx) : null;
    if (Array.isArray(line)) lines.push(...line.filter(Boolean));
    else if (line) lines.push(line);
  }
  return lines;
}

/** The last event of `events` whose kind is one of `kinds`, or null. */
export function lastOf(events, kinds) {
  for (let i = (events || []).length - 1; i >= 0; i -= 1) {
    if (kinds.includes(events[i].kind)) return events[i];
  }
  return null;
}
