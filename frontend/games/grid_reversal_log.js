// Grid Reversal move log (games/README.md "logLines"): one line per public action, with what its
// chain flipped ("Alice placed 4 on C3 — flipped 2 cards."). Cells are named as on the board
// (column letter, row from the top: the same name for every viewer). The secret setup choices
// and the drawer's own cards (`mother_chosen`, `setup_discard_chosen`, `drew_cards`) are never
// logged. Events: docs/protocol.md "Grid Reversal view".

import { listText } from "/static/js/i18n.js";
import { cardName, cellName, cellsText, targetText } from "./grid_reversal_text.js";
import { lastOf, seatName } from "./kit.js";

const LINES = {
  mothers_revealed: (d, ctx) => ctx.t("gr.log.mothers", { list: listText(d.mothers.map((m) => ctx.t("gr.log.mother_of",
    { name: seatName(ctx, m.seat), value: m.value, cell: cellName(m.cell) })), ctx.t) }),
  setup_discards_revealed: (d, ctx) => ctx.t("gr.log.setup_discards", { list: listText(d.discards.map((x) =>
    `${seatName(ctx, x.seat)} ${cardName(ctx, x.card)}`), ctx.t) }),
  round_started: (d, ctx) => ctx.t(d.standoff ? "gr.log.round_standoff" : "gr.log.round", { n: d.round }),
  drew: (d, ctx) => ctx.t("gr.log.drew", { name: seatName(ctx, d.seat), n: d.count }),
  deck_reshuffled: (d, ctx) => ctx.t("gr.log.reshuffled", { n: d.size }),
  discarded: (d, ctx) => ctx.t("gr.log.discarded", { name: seatName(ctx, d.seat), card: cardName(ctx, d.card) }),
  placed: (d, ctx) => ctx.t("gr.log.placed", { name: seatName(ctx, d.seat), card: d.card, cell: cellName(d.cell) }),
  effect_played: (d, ctx) => {
    const target = targetText(ctx, d.action);
    const params = { name: seatName(ctx, d.seat), card: cardName(ctx, d.card), target };
    return ctx.t(target ? "gr.log.effect_on" : "gr.log.effect", params);
  },
  banned: (d, ctx) => ctx.t("gr.log.banned", { name: seatName(ctx, d.seat) }),
  window_closed: (d, ctx) => (d.cancelled ? ctx.t("gr.log.cancelled", { card: cardName(ctx, d.card) }) : null),
  lightning: (d, ctx) => ctx.t("gr.log.lightning", { name: seatName(ctx, d.seat), n: d.placements }),
  bombed: (d, ctx) => ctx.t("gr.log.bombed", { name: seatName(ctx, d.owner), value: d.value, cell: cellName(d.cell) }),
  swapped: (d, ctx) => ctx.t("gr.log.swapped", { name: seatName(ctx, d.seat), a: cellName(d.cells[0]), b: cellName(d.cells[1]) }),
  swapped_in: (d, ctx) => ctx.t("gr.log.swapped_in", { name: seatName(ctx, d.seat), card: d.card, cell: cellName(d.cell),
    replaced: d.replaced }),
  broken: (d, ctx) => ctx.t("gr.log.broken", { cells: cellsText(d.cells.map((c) => c.cell)) }),
  stage_ended: (d, ctx) => ctx.t("gr.log.stage_ended", { name: seatName(ctx, d.seat) }),
  standoff_started: (d, ctx) => ctx.t("gr.log.standoff"),
  draw_offered: (d, ctx) => ctx.t("gr.log.draw_offered", { name: seatName(ctx, d.seat) }),
  draw_declined: (d, ctx) => ctx.t("gr.log.draw_declined", { name: seatName(ctx, d.seat) }),
  resigned: (d, ctx) => ctx.t("gr.log.resigned", { name: seatName(ctx, d.seat) }),
};

/** " — flipped 2 cards" (and " — a mother card flipped") for the `fired` events of a chain. */
function chainText(fired, ctx) {
  const flips = fired.reduce((n, e) => n + e.data.flips.length, 0);
  const mother = fired.some((e) => e.data.mother_flipped);
  return (flips ? ctx.t("gr.log.flipped", { n: flips }) : "") + (mother ? ctx.t("gr.log.mother_flipped") : "");
}

/** The move-log lines of one batch of events this viewer received (README.md "logLines"): a
 * chain's `fired` events are told at the end of the line of the action that set it off. */
export function logLines(events, ctx) {
  const lines = [];
  let fired = [];
  const flush = () => {
    if (fired.length && lines.length) lines[lines.length - 1] += chainText(fired, ctx);
    fired = [];
  };
  for (const event of events) {
    if (event.kind === "fired") {
      fired.push(event);
      continue;
    }
    const line = Object.hasOwn(LINES, event.kind) ? LINES[event.kind](event.data || {}, ctx) : null;
    if (!line) continue;
    flush();
    lines.push(line);
  }
  flush();
  return lines.map((text) => ctx.t("gr.log.sentence", { text }));
}

/** The cells the last action of `events` changed ("r,c" keys): where a card was placed, bombed,
 * swapped or swapped in, or the line an effect fired; [] when the last action changed none. */
export function lastCells(events) {
  const last = lastOf(events, ["placed", "bombed", "swapped", "swapped_in", "mothers_revealed"]);
  if (!last) return [];
  const d = last.data;
  const cells = last.kind === "swapped" ? d.cells : last.kind === "mothers_revealed" ? d.mothers.map((m) => m.cell) : [d.cell];
  return cells.map((cell) => `${cell[0]},${cell[1]}`);
}
