// Mahjong table (game id "mahjong", rule sets hebei and mcr); interface: frontend/games/README.md;
// view: docs/protocol.md "Mahjong view"; rules for players: docs/rules/mahjong.<lang>.md.
// Draws the four seats around the table in table order from the viewer (下家 right, 对家 across,
// 上家 left) with their seat winds, dealer and ready marks, hand sizes, declared sets (another
// seat's concealed kong face down), flowers and discards in order (the latest marked, taken ones
// marked); the prevalent wind (mcr), the tiles left in the wall, whose turn with the countdown,
// the tile a claim window is about; the viewer's hand sorted with the drawn tile apart; one
// button per legal action (which chow, which kong, 报听 with which discard); the last hand's
// score sheet, every hand's scores and the final ranking.

import { h, replaceKeepingFocus } from "/static/js/dom.js";
import { labelText } from "/static/js/i18n.js";
import { minus } from "/static/js/numbers.js";
import { busy, currentClock, ensureStyles, isSpectator, keptDetails, legalOf, markLastMove, memoryOf, tr } from "./kit.js";
import { lastMove } from "./mj_log.js";
import { rankingEl, scoresEl, sheetEl } from "./mj_sheet.js";
import { tileEl, tileRow } from "./mj_tiles.js";
import { meldName, playerName, tileName, tilesName, windName } from "./mj_text.js";

export { logLines } from "./mj_log.js";

/** Per-table memory: the hands whose sheets the viewer folded away (a Set of hand numbers). */
const memory = new WeakMap();

function names(ctx) {
  return (code) => tileName(ctx.t, code);
}

function small(ctx, codes, options = {}) {
  return tileRow(codes, { size: "sm", name: names(ctx), rowLabel: codes.length ? tilesName(ctx.t, codes) : null, ...options });
}

function sheetEnv(view, ctx) {
  return { t: ctx.t, name: (seat) => playerName(ctx, seat), rules: view.rules };
}

// ------------------------------------------------------------------ status

function claimParams(view, ctx) {
  const claim = view.claim;
  return { name: playerName(ctx, claim.from), tile: tileName(ctx.t, claim.tile) };
}

function statusText(view, ctx) {
  if (view.phase === "finished") return tr(ctx, "mj.status.finished");
  if (view.phase === "claim") {
    const mine = view.me && view.me.claim;
    if (mine === "answered") return tr(ctx, "mj.status.answered");
    const params = claimParams(view, ctx);
    if (mine === "asked") return tr(ctx, view.claim.robbing ? "mj.status.rob_mine" : "mj.status.claim_mine", params);
    return tr(ctx, "mj.status.claims_pending", params);
  }
  if (view.turn === ctx.seat && ctx.legal.length) {
    if (legalOf(ctx, "win").length) return tr(ctx, "mj.status.can_win");
    return tr(ctx, view.step === "claimed" ? "mj.status.discard_claimed" : "mj.status.mine");
  }
  return tr(ctx, "mj.status.other", { name: playerName(ctx, view.turn) });
}

function statusBar(view, ctx) {
  const clock = view.phase === "finished" ? null : currentClock(ctx);
  return h("div", { class: "mj-status", "data-testid": "mj-status", "data-phase": view.phase, "data-hand": view.hand_no },
    h("span", { class: "muted", "data-testid": "mj-hand-no", text: tr(ctx, "mj.hand_no", { n: view.hand_no, total: view.hands }) }),
    h("strong", { class: "mj-phase", "data-testid": "mj-phase", text: statusText(view, ctx) }),
    clock ? ctx.countdown(clock) : null);
}

// ------------------------------------------------------------------ seats

/** The seats in table order from `bottom`: [bottom, 下家 (right), 对家 (top), 上家 (left)]. */
export function aroundTable(order, bottom) {
  const at = Math.max(0, order.indexOf(bottom));
  return [0, 1, 2, 3].map((k) => order[(at + k) % order.length]);
}

function meldEl(meld, ctx, seat) {
  const hidden = meld.tiles.every((tile) => tile === null);
  const label = hidden ? tr(ctx, "mj.concealed_kong_hidden")
    : labelText(meldName(ctx.t, meld.kind), tilesName(ctx.t, meld.tiles), ctx.t)
      + (meld.from !== null && meld.from !== undefined && meld.from !== seat ? ` — ${tr(ctx, "mj.from", { name: playerName(ctx, meld.from) })}` : "");
  const claimedAt = meld.claimed ? meld.tiles.indexOf(meld.claimed) : -1;
  return h("li", { class: ["mj-meld", `mj-meld-${meld.kind}`], "data-kind": meld.kind, title: label },
    h("span", { class: "mj-row", role: "img", "aria-label": label }, meld.tiles.map((tile, i) => tileEl(tile, {
      size: "sm", hidden: true, classes: [i === claimedAt && "mj-claimed"] }))),
    h("span", { class: "mj-meld-kind", "aria-hidden": "true", text: meldName(ctx.t, meld.kind) }));
}

function discardEl(discard, ctx, index) {
  const words = [tileName(ctx.t, discard.tile)];
  if (discard.taken) words.push(tr(ctx, "mj.taken"));
  if (discard.ready) words.push(tr(ctx, "mj.ready_discard"));
  return h("li", { class: ["mj-discard", discard.taken && "mj-taken", discard.ready && "mj-ready-discard"],
    "data-testid": "mj-discard", "data-index": index, "data-taken": discard.taken ? "true" : "false" },
  tileEl(discard.tile, { size: "sm", label: words.join(" · ") }),
  discard.taken ? h("span", { class: "mj-taken-mark", "aria-hidden": "true", text: "↗" }) : null);
}

function markLast(items, mark, seat, kind, ctx) {
  if (mark && mark.seat === seat && mark.kind === kind && items.length) markLastMove(items[items.length - 1], ctx, mark.fresh);
  return items;
}

/** The hand's latest discard (view.last_discard) carries the last-move mark when the last move
 * was that discard, else a quieter mark of its own. */
function markDiscard(items, view, seat, mark, ctx) {
  const latest = view.last_discard;
  if (!latest || latest.seat !== seat || !items[latest.index]) return items;
  if (mark && mark.kind === "discard" && mark.seat === seat) markLastMove(items[latest.index], ctx, mark.fresh);
  else items[latest.index].classList.add("mj-latest");
  return items;
}

function seatHead(view, ctx, seat, place) {
  const player = view.players[seat];
  const turn = view.phase === "turn" && view.turn === seat;
  const mine = seat === ctx.seat;
  return h("header", { class: "mj-seat-head" },
    turn ? h("span", { class: "mj-turn-mark", "aria-hidden": "true", text: "▶" }) : null,
    h("strong", { class: "mj-seat-name", text: playerName(ctx, seat) }),
    place === "bottom" ? null : h("span", { class: "mj-place", text: tr(ctx, `mj.place.${place}`) }),
    h("span", { class: "mj-wind", "data-testid": `mj-wind-${seat}`, "data-wind": player.wind,
      text: tr(ctx, "mj.seat_wind", { wind: windName(ctx.t, player.wind) }) }),
    view.dealer === seat ? h("span", { class: "mj-badge", "data-testid": `mj-dealer-${seat}`, text: tr(ctx, "mj.dealer") }) : null,
    player.ready ? h("span", { class: "mj-badge mj-badge-ready", "data-testid": `mj-ready-${seat}`, text: tr(ctx, "mj.ready") }) : null,
    turn ? h("span", { class: "visually-hidden", "data-testid": mine ? "mj-my-turn" : null,
      text: tr(ctx, mine ? "mj.your_turn" : "mj.their_turn") }) : null,
    h("span", { class: "muted", "data-testid": `mj-hand-size-${seat}`, text: tr(ctx, "mj.hand_size", { n: player.hand_size }) }),
    mine ? null : h("span", { class: "mj-backs", "aria-hidden": "true" },
      Array.from({ length: player.hand_size }, () => h("span", { class: "mj-back-mini" }))),
    h("span", { class: "muted", "data-testid": `mj-seat-total-${seat}`, text: tr(ctx, "mj.points", { n: minus(view.totals[seat]) }) }));
}

function seatPanel(view, ctx, seat, place, mark) {
  const player = view.players[seat];
  const turn = view.phase === "turn" && view.turn === seat;
  const discards = player.discards.map((d, i) => discardEl(d, ctx, i));
  return h("section", { class: ["mj-seat", `mj-place-${place}`, `mj-seat-c${seat}`, turn && "mj-seat-turn"],
    "data-testid": `mj-seat-${seat}`, "data-seat": seat, "data-place": place,
    "aria-label": tr(ctx, "mj.seat_of", { name: playerName(ctx, seat) }) },
  seatHead(view, ctx, seat, place),
  player.melds.length || player.flowers.length ? h("ul", { class: "mj-melds", "data-testid": `mj-melds-${seat}` },
    markLast(player.melds.map((m) => meldEl(m, ctx, seat)), mark, seat, "meld", ctx),
    player.flowers.length ? h("li", { class: "mj-flowers", "data-testid": `mj-flowers-${seat}` },
      markLast([small(ctx, player.flowers)], mark, seat, "flower", ctx),
      h("span", { class: "mj-meld-kind", text: tr(ctx, "mj.flowers") })) : null) : null,
  h("ol", { class: "mj-discards", "data-testid": `mj-discards-${seat}`, "aria-label": tr(ctx, "mj.discards_of", { name: playerName(ctx, seat) }) },
    markDiscard(discards, view, seat, mark, ctx)));
}

function centre(view, ctx) {
  const claim = view.claim;
  return h("section", { class: "mj-centre", "data-testid": "mj-centre", "aria-label": tr(ctx, "mj.centre") },
    view.prevalent_wind ? h("p", { class: "mj-prevalent", "data-testid": "mj-prevalent",
      text: tr(ctx, "mj.prevalent", { wind: windName(ctx.t, view.prevalent_wind) }) }) : null,
    h("p", { class: "mj-wall", "data-testid": "mj-wall", "data-n": view.wall_left, text: tr(ctx, "mj.wall_left", { n: view.wall_left }) }),
    claim ? h("div", { class: "mj-claim-tile", "data-testid": "mj-claim-tile", "data-tile": claim.tile },
      h("span", { class: "muted small", text: tr(ctx, claim.robbing ? "mj.claim_robbing" : "mj.claim_from", claimParams(view, ctx)) }),
      tileEl(claim.tile, { size: "lg", name: names(ctx) })) : null,
    view.claims_pending ? h("p", { class: "mj-pending", "data-testid": "mj-claims-pending", text: tr(ctx, "mj.claims_pending") }) : null);
}

// ------------------------------------------------------------------ the viewer's hand and actions

function discardTiles(ctx) {
  return new Set(ctx.legal.filter((a) => a.type === "discard" && !a.ready).map((a) => a.tile));
}

function handTile(code, ctx, discards, key, testid) {
  const can = discards.has(code);
  return tileEl(code, { tag: "button", size: "md", name: names(ctx),
    label: can ? tr(ctx, "mj.explain.discard", { tile: tileName(ctx.t, code) }) : tileName(ctx.t, code),
    title: can ? tr(ctx, "mj.explain.discard", { tile: tileName(ctx.t, code) }) : tileName(ctx.t, code),
    data: { testid: testid, action: can ? "discard" : null, key }, disabled: !can || busy(ctx),
    onclick: () => ctx.act({ type: "discard", tile: code }) });
}

function handPanel(view, ctx) {
  if (!view.me || view.phase === "finished") return null;
  const discards = discardTiles(ctx);
  const drawn = view.me.drawn;
  return h("section", { class: "mj-hand", "data-testid": "hand", "aria-label": tr(ctx, "mj.your_hand") },
    h("h3", { text: tr(ctx, "mj.your_hand") }),
    h("div", { class: "mj-hand-row" },
      h("div", { class: "mj-hand-tiles" }, view.me.hand.map((code, i) => handTile(code, ctx, discards, `hand-${i}`, "hand-card"))),
      drawn ? h("div", { class: "mj-drawn", "data-testid": "mj-drawn" },
        h("span", { class: "muted small", text: tr(ctx, "mj.drawn") }),
        handTile(drawn, ctx, discards, "hand-drawn", "hand-card")) : null),
    discards.size ? h("p", { class: "muted small", text: tr(ctx, "mj.discard_help") }) : null,
    actionButtons(view, ctx));
}

function actionLabel(view, ctx, action) {
  const t = ctx.t;
  const claimTile = view.claim ? view.claim.tile : null;
  switch (action.type) {
    case "win": return tr(ctx, view.phase === "claim" ? "mj.action.win_claim" : "mj.action.win_self", { tile: tileName(t, claimTile) });
    case "pung": return tr(ctx, "mj.action.pung", { tile: tileName(t, claimTile) });
    case "chow": return tr(ctx, "mj.action.chow", { tiles: tilesName(t, [...action.tiles, claimTile].sort()) });
    case "kong": return tr(ctx, view.phase === "claim" ? "mj.action.kong_claim" : ownKongKind(view, action.tile) === "added"
      ? "mj.action.kong_added" : "mj.action.kong_concealed", { tile: tileName(t, action.tile) });
    case "discard": return tr(ctx, "mj.action.ready", { tile: tileName(t, action.tile) });
    default: return tr(ctx, "mj.action.pass");
  }
}

/** "added" when the kong tile matches one of the viewer's exposed pungs, else "concealed". */
function ownKongKind(view, tile) {
  const melds = view.players[view.seat].melds;
  return melds.some((m) => m.kind === "pung" && m.tiles[0] === tile) ? "added" : "concealed";
}

function explainKey(view, action) {
  if (action.type === "discard") return "mj.explain.ready";
  if (action.type === "kong") return view.phase === "claim" ? "mj.explain.kong_claim" : `mj.explain.kong_${ownKongKind(view, action.tile)}`;
  if (action.type === "win") return view.phase === "claim" ? "mj.explain.win_claim" : "mj.explain.win_self";
  return `mj.explain.${action.type}`;
}

function actionTiles(view, action) {
  const tile = view.claim ? view.claim.tile : null;
  if (action.type === "chow") return [...action.tiles, tile].sort();
  if (action.type === "pung") return [tile, tile, tile];
  if (action.type === "kong") return [action.tile, action.tile, action.tile, action.tile];
  if (action.type === "discard") return [action.tile];
  return [];
}

function actionButtons(view, ctx) {
  const actions = ctx.legal.filter((a) => a.type !== "discard" || a.ready);
  if (!actions.length) return null;
  return h("div", { class: "mj-actions", "data-testid": "mj-actions" }, actions.map((action, i) => {
    const label = actionLabel(view, ctx, action);
    const tiles = actionTiles(view, action);
    const title = tr(ctx, explainKey(view, action), { tile: tileName(ctx.t, action.tile || (view.claim && view.claim.tile)) });
    return h("button", { type: "button", class: ["button", "mj-action", action.type !== "pass" && "button-primary"],
      "data-testid": "mj-action", "data-action": action.type === "discard" ? "ready" : action.type,
      "data-tile": action.tile || null, "data-tiles": action.tiles ? action.tiles.join(",") : null,
      "data-key": `action-${i}`, title, disabled: busy(ctx), onclick: () => ctx.act(action) },
    h("span", { class: "mj-action-word", text: label }),
    tiles.length ? tileRow(tiles, { size: "sm", rowClass: "mj-action-tiles", hidden: true }) : null);
  }));
}

// ------------------------------------------------------------------ results

function sheetPanel(view, ctx, mark, kept) {
  const sheet = view.results[view.results.length - 1];
  if (!sheet) return null;
  const panel = keptDetails(kept, `last-${sheet.hand}`, true, { class: "mj-last-sheet", "data-testid": "mj-last-sheet" },
  h("summary", { text: tr(ctx, "mj.last_hand", { n: sheet.hand }) }),
  sheetEl(sheet, sheetEnv(view, ctx), false));
  if (mark && mark.kind === "sheet") markLastMove(panel.querySelector("[data-testid=mj-sheet-headline]"), ctx, mark.fresh);
  return panel;
}

/**
 * Draw the mahjong table into `root` for ctx = {view, legal, seat, prompt, deadline, clocks,
 * events, lastEvents, room, players, connected, pending, act, t, countdown} (README.md).
 */
export function render(root, ctx) {
  ensureStyles("mahjong.css");
  const view = ctx.view;
  const bottom = isSpectator(ctx) ? view.order[0] : ctx.seat;
  const last = lastMove(ctx.lastEvents || []);
  const mark = last && { ...last, fresh: (ctx.events || []).length > 0 };
  const places = ["bottom", "right", "top", "left"];
  const seats = aroundTable(view.order, bottom);
  const env = sheetEnv(view, ctx);
  const kept = memoryOf(memory, root, () => new Map());
  replaceKeepingFocus(root, h("div", { class: "mj", "data-phase": view.phase, "data-rules": view.rules },
    statusBar(view, ctx),
    view.outcome ? rankingEl(view.outcome, view.totals, env) : null,
    h("div", { class: "mj-table" },
      seats.map((seat, k) => seatPanel(view, ctx, seat, places[k], mark)),
      centre(view, ctx)),
    handPanel(view, ctx),
    sheetPanel(view, ctx, mark, kept),
    view.results.length ? scoresEl(view.results, view.totals, env, view.phase === "finished", kept) : null));
}

/** Nothing to stop: the table keeps no timers. */
export function dispose() {}
