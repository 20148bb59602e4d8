// Mahjong move log (games/README.md "logLines"): one line per public event, tiles named in the
// page's language. Draws are not logged (every turn has one; a drawn tile is never public), nor
// are the claim window's opening and closing (the table shows them while they last); a concealed
// kong names no tile. Events: docs/protocol.md "Mahjong view".

import { lastOf, linesFrom } from "./kit.js";
import { meldName, playerName, tileName, windName } from "./mj_text.js";

function name(ctx, seat) {
  return playerName(ctx, seat, false);
}

function tile(ctx, code) {
  return tileName(ctx.t, code);
}

const LINES = {
  hand_started: (data, ctx) => ctx.t(data.prevalent_wind ? "mj.log.hand_started_mcr" : "mj.log.hand_started",
    { n: data.hand, name: name(ctx, data.dealer),
      wind: data.prevalent_wind ? windName(ctx.t, data.prevalent_wind) : "" }),
  flower: (data, ctx) => ctx.t("mj.log.flower", { name: name(ctx, data.seat), tile: tile(ctx, data.tile) }),
  discarded: (data, ctx) => ctx.t(data.ready ? "mj.log.discarded_ready" : "mj.log.discarded",
    { name: name(ctx, data.seat), tile: tile(ctx, data.tile) }),
  claimed: (data, ctx) => ctx.t("mj.log.claimed", { name: name(ctx, data.seat), kind: meldName(ctx.t, data.kind),
    tile: tile(ctx, data.tile), from: name(ctx, data.from) }),
  kong_declared: (data, ctx) => ctx.t("mj.log.kong_declared", { name: name(ctx, data.seat), tile: tile(ctx, data.tile) }),
  kong: (data, ctx) => (data.kind === "concealed_kong"
    ? ctx.t("mj.log.concealed_kong", { name: name(ctx, data.seat) })
    : ctx.t("mj.log.added_kong", { name: name(ctx, data.seat), tile: tile(ctx, data.tile) })),
  won: (data, ctx) => ctx.t(`mj.log.won.${data.way}`, { name: name(ctx, data.seat), tile: tile(ctx, data.tile) }),
  hand_over: (data, ctx) => (data.result === "draw"
    ? ctx.t("mj.log.hand_draw", { n: data.hand })
    : ctx.t("mj.log.hand_won", { n: data.hand, name: name(ctx, data.winner), total: data.total })),
  match_over: (data, ctx) => ctx.t("mj.log.match_over"),
  resigned: (data, ctx) => ctx.t("mj.log.resigned", { name: name(ctx, data.seat) }),
};

/** The move-log lines of one batch of events this viewer received (README.md "logLines"). */
export function logLines(events, ctx) {
  return linesFrom(LINES, events, ctx);
}

/** What to mark as the last move from `events`: {kind: "discard"|"meld"|"flower"|"sheet", seat},
 * or null. A discard is the seat's newest discard, a claim or a kong its newest set, a flower its
 * newest flower, a win or a hand's end the newest score sheet. */
export function lastMove(events) {
  const last = lastOf(events, ["discarded", "claimed", "kong", "kong_declared", "flower", "won", "hand_over"]);
  if (!last) return null;
  const kind = { discarded: "discard", claimed: "meld", kong: "meld", kong_declared: "meld", flower: "flower",
    won: "sheet", hand_over: "sheet" }[last.kind];
  return { kind, seat: last.data.seat ?? null };
}
