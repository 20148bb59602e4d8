// NumGR move log (games/README.md "logLines"): one line per public event. A θ's face-down card
// stays unnamed (`stack_played` has no base for it) and the owner-only events (`card_held`,
// `cards_drawn_private`) are never logged. Events: docs/protocol.md "NumGR view".

import { listText } from "/static/js/i18n.js";
import { loserReasonText } from "/static/js/outcome.js";
import { cardText, faceText } from "./ng_text.js";
import { lastOf, linesFrom, seatName } from "./kit.js";

function playLine(d, ctx) {
  const name = seatName(ctx, d.seat);
  const card = cardText(d.main);
  const parts = [];
  if (d.base && d.main[0] !== "T") parts.push(ctx.t("ng.log.on", { card: cardText(d.base) }));
  if (d.copy) parts.push(ctx.t("ng.copy", { face: faceText(d.copy) }));
  if (d.mode && (d.copy || d.main[0]) === "G") parts.push(ctx.t(`ng.synergy.${d.mode}`));
  else if (d.mode) parts.push(ctx.t("ng.star", { mode: ctx.t(`ng.mode.${d.mode}`) }));
  if (d.base_mode) parts.push(ctx.t("ng.star_zero", { mode: ctx.t(`ng.mode.${d.base_mode}`) }));
  if ((d.copy || d.main[0]) === "T" && d.lock === null) {
    parts.push(d.base ? ctx.t("ng.holds", { card: cardText(d.base) }) : ctx.t("ng.holds_hidden"));
  }
  if (d.lock !== null && d.lock !== undefined) parts.push(ctx.t("ng.locks", { card: `#${d.lock}` }));
  const how = parts.length ? ctx.t("ng.log.how", { parts: parts.join(ctx.t("ng.log.how_sep")) }) : "";
  return ctx.t("ng.log.played", { name, card, id: d.id, how });
}

const LINES = {
  turn_started: (d, ctx) => ctx.t("ng.log.turn", { n: d.turn, name: seatName(ctx, d.seat) }),
  stack_played: playLine,
  stack_locked: (d, ctx) => ctx.t("ng.log.locked", { id: d.id, by: d.by }),
  stack_reflected: (d, ctx) => ctx.t("ng.log.reflected", { id: d.id, name: seatName(ctx, d.to) }),
  stack_removed: (d, ctx) => ctx.t("ng.log.removed", { id: d.id, cards: d.cards.map(cardText).join(" ") }),
  card_released: (d, ctx) => ctx.t("ng.log.released", { name: seatName(ctx, d.seat), card: cardText(d.card) }),
  variant: (d, ctx) => ctx.t(`ng.log.variant.${d.kind}`, { name: seatName(ctx, d.seat), face: faceText(d.face) }),
  hp_check: (d, ctx) => checkLine(d, ctx),
  card_discarded: (d, ctx) => ctx.t("ng.log.discarded", { name: seatName(ctx, d.seat), card: cardText(d.card) }),
  pending_discarded: (d, ctx) => ctx.t("ng.log.pending_discarded",
    { name: seatName(ctx, d.seat), cards: d.cards.map(cardText).join(" ") }),
  cards_drawn: (d, ctx) => ctx.t("ng.log.drew", { name: seatName(ctx, d.seat), n: d.count }),
  reshuffled: (d, ctx) => ctx.t("ng.log.reshuffled", { n: d.deck_size }),
  match_over: (d, ctx) => (d.reason === "ko" ? loserReasonText("numgr", d, ctx.players) : null),
};

/** "HP check: Alice faced 3 against 2 — lost 1 HP." for an `hp_check` event's data (`key`:
 * the sentence, "ng.log.check" in the log, "ng.last_check" under the table). */
export function checkLine(d, ctx, key = "ng.log.check") {
  return ctx.t(key, { name: seatName(ctx, d.seat), attack: d.attack + d.unstoppable,
    defense: d.defense, result: ctx.t(d.lost ? "ng.lost_hp" : "ng.held_hp") });
}

/** "Turn 1: Ann." before the match's first move (ctx.opening): the engine starts turn 1 as it
 * deals, so no `turn_started` tells it (none is logged twice should one come); the first player is the seat of the batch's first event
 * that names one (its first move, or the room's timeout of it), else ctx.actor (a replay step's
 * seat). Null for any other batch. */
function openingLine(events, ctx) {
  if (!ctx.opening || events.some((event) => event.kind === "turn_started" && event.data.turn === 1)) return null;
  const named = events.find((event) => event.data && Number.isInteger(event.data.seat));
  const seat = named ? named.data.seat : ctx.actor;
  return Number.isInteger(seat) ? ctx.t("ng.log.turn", { n: 1, name: seatName(ctx, seat) }) : null;
}

/** The move-log lines of one batch of events this viewer received (README.md "logLines");
 * a clean-up's run of `stack_discarded` events makes one line, where the run is. */
export function logLines(events, ctx) {
  const lines = [openingLine(events, ctx)].filter(Boolean);
  let cleared = [];
  const flush = () => {
    if (cleared.length) lines.push(ctx.t("ng.log.cleanup", { ids: listText(cleared, ctx.t) }));
    cleared = [];
  };
  for (const event of events) {
    if (event.kind === "stack_discarded") {
      cleared.push(`#${event.data.id}`);
      continue;
    }
    flush();
    lines.push(...linesFrom(LINES, [event], ctx));
  }
  flush();
  return lines;
}

/** The id of the stack played last in `events`, or null. */
export function lastStack(events) {
  const played = lastOf(events, ["stack_played"]);
  return played ? played.data.id : null;
}

/** The data of the last `hp_check` in `events` (all this viewer received), or null. */
export function lastCheck(events) {
  const check = lastOf(events, ["hp_check"]);
  return check ? check.data : null;
}
