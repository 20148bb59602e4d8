// Reverse Curse move log (games/README.md "logLines"): one line per public event, in the page's
// language. Face-down cards stay unnamed (card_played carries no card for them, for anyone) and
// the side-only events — a mulligan answer, the card SWITCH_WITCH drew, SHARE_BEAR's swap —
// are not logged. Events: docs/protocol.md "Reverse Curse view".

import { listText } from "/static/js/i18n.js";
import { cardLabel, signed } from "./rc_cards.js";
import { lastOf, linesFrom, seatName } from "./kit.js";

function side(ctx, code) {
  return ctx.t(`rc.side.${code}`);
}

function monster(ctx, code) {
  return ctx.t(`rc.monster.${code}`);
}

const EFFECTS = {
  SWITCH_WITCH: (data, ctx) => ctx.t("rc.log.effect.SWITCH_WITCH", { card: cardLabel(data.discarded, ctx.t) }),
  SPY_EYE: (data, ctx) => ctx.t("rc.log.effect.SPY_EYE", { turn: data.turn, card: cardLabel(data.card, ctx.t) }),
  SHARE_BEAR: (data, ctx) => ctx.t("rc.log.effect.SHARE_BEAR"),
  ROLL_MOLE: (data, ctx) => ctx.t("rc.log.effect.ROLL_MOLE"),
  REBORN_UNICORN: (data, ctx) => ctx.t("rc.log.effect.REBORN_UNICORN",
    { card: cardLabel(data.revived, ctx.t), replaced: cardLabel(data.replaced, ctx.t) }),
};

const LINES = {
  set_started: (data, ctx) => ctx.t("rc.log.set_started", { set: data.set }),
  order_chosen: (data, ctx) => ctx.t(data.first ? "rc.log.order_first" : "rc.log.order_second",
    { side: side(ctx, data.side) }),
  mulligan_done: (data, ctx) => ["UP", "DOWN"].map((code) => {
    const sent = (data.sent || []).find((entry) => entry.side === code);
    return sent ? ctx.t("rc.log.mulligan_sent", { side: side(ctx, code), card: cardLabel(sent.card, ctx.t) })
      : ctx.t("rc.log.mulligan_kept", { side: side(ctx, code) });
  }),
  shop_opened: (data, ctx) => ctx.t("rc.log.shop_opened",
    { offer: listText(data.offer.map((code) => monster(ctx, code)), ctx.t) }),
  recruited: (data, ctx) => ctx.t("rc.log.recruited",
    { name: seatName(ctx, data.seat), side: side(ctx, data.side), monster: monster(ctx, data.monster) }),
  shop_passed: (data, ctx) => ctx.t("rc.log.shop_passed", { name: seatName(ctx, data.seat), side: side(ctx, data.side) }),
  card_played: (data, ctx) => (data.face_up && data.card
    ? ctx.t("rc.log.played_up", { name: seatName(ctx, data.seat), card: cardLabel(data.card, ctx.t), turn: data.turn })
    : ctx.t("rc.log.played_down", { name: seatName(ctx, data.seat), turn: data.turn })),
  summoned: (data, ctx) => ctx.t("rc.log.summoned", { name: seatName(ctx, data.seat), monster: monster(ctx, data.monster) }),
  monster_effect: (data, ctx) => (EFFECTS[data.monster] ? EFFECTS[data.monster](data, ctx) : null),
  set_resolved: (data, ctx) => ctx.t("rc.log.set_resolved",
    { set: data.set, result: signed(data.result), n: signed(data.position_after) }),
};

/** The move-log lines of one batch of events this viewer received (README.md "logLines"). */
export function logLines(events, ctx) {
  return linesFrom(LINES, events, ctx);
}

/** The field turn (T#) of the last card played in `events`, or null. */
export function lastPlayedTurn(events) {
  const played = lastOf(events, ["card_played"]);
  return played ? played.data.turn : null;
}

/** The field turn to mark as the last move: the last card played in the last batch of events
 * (`lastEvents`), or, on a page that has received no event of this match (`history` empty: it
 * was opened mid-match), the newest card of `field` (the view's entries {turn, …}); else null. */
export function markedTurn(lastEvents, history, field) {
  const played = lastPlayedTurn(lastEvents);
  if (played !== null || history.length) return played;
  return (field || []).reduce((newest, entry) => Math.max(newest ?? 0, entry.turn), null);
}
