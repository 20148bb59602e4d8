// Zipai move log (games/README.md "logLines"): one line per public event, cards as their
// Chinese characters with a gloss. A face-down 扫 stays unnamed (the public `drawn` event has no
// card then); the drawer's own `drawn_own` and a hidden opening 扫穿 are not logged.
// Events: docs/protocol.md "Zipai view".

import { cardGloss, cardsText } from "./zp_text.js";
import { lastOf, linesFrom, seatName } from "./kit.js";

function kind(ctx, code) {
  return ctx.t(`zp.kind.${code}`);
}

const LINES = {
  hand_started: (data, ctx) => ctx.t("zp.log.hand_started",
    { n: data.hand, name: seatName(ctx, data.dealer), card: cardGloss(data.liangzhang) }),
  opening_saochuan: (data, ctx) => (data.on_table
    ? ctx.t("zp.log.opening_saochuan", { name: seatName(ctx, data.seat), n: data.sets }) : null),
  drawn: (data, ctx) => {
    const name = seatName(ctx, data.seat);
    if (data.forced && data.card) return ctx.t("zp.log.drawn_forced", { name, card: cardGloss(data.card), kind: kind(ctx, data.forced) });
    if (data.forced) return ctx.t("zp.log.drawn_hidden", { name, kind: kind(ctx, data.forced) });
    return ctx.t("zp.log.drawn", { name, card: cardGloss(data.card) });
  },
  claimed: (data, ctx) => ctx.t("zp.log.claimed", { name: seatName(ctx, data.seat), kind: kind(ctx, data.kind)
    + ((data.bi || []).length ? ctx.t("zp.action.bi", { groups: data.bi.map(cardsText).join(" ") }) : ""),
  cards: cardsText(data.cards) }),
  discarded: (data, ctx) => ctx.t("zp.log.discarded", { name: seatName(ctx, data.seat), card: cardGloss(data.card) }),
  to_pile: (data, ctx) => ctx.t("zp.log.to_pile", { name: seatName(ctx, data.seat), card: cardGloss(data.card) }),
  passed: (data, ctx) => ctx.t("zp.log.passed", { name: seatName(ctx, data.seat) }),
  hand_over: (data, ctx) => (data.winner === null || data.winner === undefined
    ? ctx.t("zp.log.huang", { n: data.hand })
    : ctx.t("zp.log.won", { n: data.hand, name: seatName(ctx, data.winner), huxi: data.huxi,
      points: ctx.t("zp.points", { n: data.points }) })),
  resigned: (data, ctx) => ctx.t("zp.log.resigned", { name: seatName(ctx, data.seat) }),
};

/** The move-log lines of one batch of events this viewer received (README.md "logLines"). */
export function logLines(events, ctx) {
  return linesFrom(LINES, events, ctx);
}

/** The last move of `events` to mark on the table: {kind: "exposed"|"group"|"pile", seat}, or
 * null. A card turned up or discarded is the exposed card; a claim is the seat's newest shown
 * group; a card nobody took is the newest card of that seat's pile. */
export function lastMove(events) {
  const last = lastOf(events, ["drawn", "discarded", "claimed", "to_pile"]);
  if (!last) return null;
  const where = { drawn: "exposed", discarded: "exposed", claimed: "group", to_pile: "pile" }[last.kind];
  if (last.kind === "drawn" && last.data.forced) return { kind: "group", seat: last.data.seat };
  return { kind: where, seat: last.data.seat };
}
