// Zipai table (game id "zipai"); interface: frontend/games/README.md; view: docs/protocol.md
// "Zipai view"; rules for players: docs/rules/zipai.md.
// Draws the three seats (shown groups, face-down 扫, piles, hand sizes, 庄), the exposed card,
// stock size and 亮张 in the middle, whose turn with the countdown, the viewer's hand sorted and
// grouped by value (坎 kept together), one button per legal claim spelled out, running scores
// and the breakdown of every finished hand.

import { h, replaceKeepingFocus } from "/static/js/dom.js";
import { labelText, listText, t } from "/static/js/i18n.js";
import { minus, signed } from "/static/js/numbers.js";
import { actionText, cardGloss, cardOrder, cardText, cardValue, cardsText, isBig, isRed } from "./zp_text.js";
import { busy, currentClock, ensureStyles, keptDetails, markLastMove, memoryOf, seatLabel, tr } from "./kit.js";
import { lastMove } from "./zp_log.js";

export { logLines } from "./zp_log.js";

/** Per-table memory: which folds the reader opened (kit.js keptDetails). */
const memories = new WeakMap();

/** One card: code or null (face-down). options: {tag, small, key, testid, action, disabled, onclick,
 * title (what clicking it does; default: the card's gloss)}.
 * The Chinese character is glossed with its value in a corner (big cards on a tinted face). */
function cardEl(code, options = {}) {
  const { tag = "span" } = options;
  return h(tag, {
    class: ["zp-card", options.small && "zp-card-small", !code && "zp-back",
      code && isRed(code) && "zp-red", code && isBig(code) && "zp-big"],
    type: tag === "button" ? "button" : null, role: tag === "button" ? null : "img",
    "data-card": code || "", "data-key": options.key,
    "data-testid": options.testid, "data-action": options.action, disabled: options.disabled,
    title: options.title || (code ? cardGloss(code) : null),
    "aria-label": code ? cardGloss(code) : t("zp.back"), onclick: options.onclick,
  },
  h("span", { class: "zp-char", "aria-hidden": "true", text: code ? cardText(code) : "?" }),
  code ? h("span", { class: "zp-index", "aria-hidden": "true", text: String(cardValue(code)) }) : null);
}

function clockFor(view, ctx) {
  return view.phase === "finished" ? null : currentClock(ctx);
}

function statusText(view, ctx) {
  if (view.phase === "finished") return tr(ctx, "zp.status.finished");
  if (view.phase === "claim") {
    const params = { card: cardText(view.exposed.card), name: seatLabel(ctx, view.exposed.seat),
      source: tr(ctx, `zp.source.${view.exposed.source}`) };
    const claim = view.me && view.me.claim;
    if (claim === "answered") return tr(ctx, "zp.status.claim.answered");
    return tr(ctx, claim === "asked" ? "zp.status.claim.mine" : "zp.status.claim", params);
  }
  if (view.turn === ctx.seat && ctx.legal.length) {
    const discards = ctx.legal.some((a) => a.type === "discard");
    return tr(ctx, discards && !ctx.legal.some((a) => a.type === "hu")
      ? "zp.status.discard.mine" : "zp.status.selfwin.mine");
  }
  return tr(ctx, "zp.status.discard.other", { name: seatLabel(ctx, view.turn) });
}

function statusBar(view, ctx) {
  const clock = clockFor(view, ctx);
  return h("div", { class: "zp-status", "data-testid": "zp-status", "data-phase": view.phase,
    "data-hand": view.hand_no },
  h("span", { class: "muted", text: tr(ctx, "zp.hand_no", { n: view.hand_no, total: view.hands }) }),
  h("strong", { class: "zp-phase", text: statusText(view, ctx) }),
  clock ? ctx.countdown(clock) : null);
}

function groupEl(group, ctx) {
  const kind = tr(ctx, `zp.kind.${group.kind}`) + (group.in_hand ? ` ${tr(ctx, "zp.in_hand")}` : "");
  return h("li", { class: "zp-group", "data-kind": group.kind },
    h("span", { class: "zp-group-cards" }, group.cards.map((c) => cardEl(c, { small: true }))),
    h("span", { class: "zp-group-kind", text: kind }));
}

/** Mark the last element of `items` (an array of elements) as the last move when `mark` says
 * so for this seat and place. */
function markLast(items, mark, seat, kind, ctx) {
  if (mark && mark.seat === seat && mark.kind === kind && items.length) {
    markLastMove(items[items.length - 1], ctx, mark.fresh);
  }
  return items;
}

function seatPanel(view, ctx, seat, mark) {
  const player = view.players[seat];
  const turn = view.phase === "discard" && view.turn === seat;
  return h("section", { class: ["zp-seat", turn && "zp-seat-turn"], "data-testid": `zp-seat-${seat}`,
    "data-seat": seat },
  h("header", { class: "zp-seat-head" },
    h("strong", { text: seatLabel(ctx, seat) }),
    view.dealer === seat ? h("span", { class: "zp-badge", text: tr(ctx, "zp.dealer") }) : null,
    h("span", { class: "muted", "data-testid": `zp-hand-size-${seat}`,
      text: tr(ctx, "zp.hand_size", { n: player.hand_size }) }),
    h("span", { class: "muted", "data-testid": `zp-total-${seat}`, text: `${tr(ctx, "zp.total")} ${minus(view.totals[seat])}` })),
  player.groups.length
    ? h("ul", { class: "zp-groups" }, markLast(player.groups.map((g) => groupEl(g, ctx)), mark, seat, "group", ctx))
    : h("p", { class: "muted", text: tr(ctx, "zp.groups_none") }),
  player.pile.length ? h("div", {}, h("span", { class: "muted", text: tr(ctx, "zp.pile") }),
    h("div", { class: "zp-pile" }, markLast(player.pile.map((c) => cardEl(c, { small: true })), mark, seat, "pile", ctx)))
    : null);
}

function middle(view, ctx, mark) {
  const exposed = view.exposed;
  const card = exposed ? cardEl(exposed.card) : null;
  if (card && mark && mark.kind === "exposed" && mark.seat === exposed.seat) markLastMove(card, ctx, mark.fresh);
  return h("section", { class: "zp-middle", "data-testid": "zp-middle" },
    exposed ? h("div", { "data-testid": "zp-exposed", "data-card": exposed.card },
      h("div", { class: "muted", text: `${tr(ctx, "zp.exposed")} — ${tr(ctx, `zp.source.${exposed.source}`)} ${seatLabel(ctx, exposed.seat)}` }),
      card) : null,
    h("div", { "data-testid": "zp-liang" }, h("div", { class: "muted", text: tr(ctx, "zp.liang") }),
      cardEl(view.liangzhang, { small: true })),
    h("div", { class: "muted", "data-testid": "zp-stock", "data-n": view.stock_size,
      text: tr(ctx, "zp.stock", { n: view.stock_size }) }));
}

/** The hand as columns by value (small then big of one value together); a 坎 (three identical
 * cards) is its own column so it stays together. Returns [{cards, kan}]. */
function handColumns(hand) {
  const byValue = new Map();
  for (const code of [...hand].sort((a, b) => cardOrder(a) - cardOrder(b))) {
    const value = cardValue(code);
    if (!byValue.has(value)) byValue.set(value, []);
    byValue.get(value).push(code);
  }
  const columns = [];
  for (const [, cards] of [...byValue.entries()].sort((a, b) => a[0] - b[0])) {
    const kans = [...new Set(cards)].filter((c) => cards.filter((x) => x === c).length === 3);
    for (const kan of kans) columns.push({ cards: [kan, kan, kan], kan: true });
    const rest = cards.filter((c) => !kans.includes(c));
    if (rest.length) columns.push({ cards: rest, kan: false });
  }
  return columns;
}

function handPanel(view, ctx) {
  if (!view.me) return null;
  const discards = new Set(ctx.legal.filter((a) => a.type === "discard").map((a) => a.card));
  const hand = view.me.hand;
  return h("section", { class: "zp-hand", "data-testid": "hand" },
    h("h3", { text: tr(ctx, "zp.your_hand") }),
    h("div", { class: "zp-columns" }, handColumns(hand).map(({ cards, kan }, col) => h("div", {
      class: ["zp-column", kan && "zp-column-kan"], title: kan ? tr(ctx, "zp.kind.kan") : null },
    cards.map((code, i) => cardEl(code, { tag: "button", key: `hand-${col}-${i}`, testid: "hand-card",
      action: discards.has(code) ? "discard" : null, disabled: !discards.has(code) || busy(ctx),
      title: discards.has(code) ? tr(ctx, "zp.explain.discard", { card: cardGloss(code) }) : null,
      onclick: () => ctx.act({ type: "discard", card: code }) }))))),
    discards.size ? h("p", { class: "muted", text: tr(ctx, "zp.discard_help") }) : null,
    view.me.chou.length ? h("p", { class: "muted", "data-testid": "zp-chou",
      text: tr(ctx, "zp.chou", { cards: cardsText(view.me.chou) }) }) : null,
    actionButtons(view, ctx));
}

function actionButtons(view, ctx) {
  const actions = ctx.legal.filter((a) => a.type !== "discard");
  if (!actions.length) return null;
  return h("div", { class: "zp-actions", "data-testid": "zp-actions" }, actions.map((action, i) => h("button", {
    type: "button", class: ["button", action.type === "pass" ? null : "button-primary"],
    "data-testid": "zp-action", "data-action": action.type, "data-key": `action-${i}`,
    disabled: busy(ctx), text: actionText(ctx, action, view.exposed),
    title: tr(ctx, `zp.explain.${action.type}`, { card: view.exposed ? cardGloss(view.exposed.card) : "" }),
    onclick: () => ctx.act(action) })));
}

function resultLines(result, ctx) {
  if (result.winner === null || result.winner === undefined) {
    return [h("p", { text: tr(ctx, "zp.result.huang") })];
  }
  const mults = listText(result.multipliers.map((m) => tr(ctx, `zp.mult.${m.name}`)), ctx.t);
  return [
    h("p", { "data-testid": "zp-result-win", text: tr(ctx, "zp.result.win", {
      name: seatLabel(ctx, result.winner), huxi: result.huxi, duo: result.duo }) }),
    result.win_card ? h("p", { text: tr(ctx, "zp.result.win_card", { card: cardText(result.win_card) }) }) : null,
    h("ul", { class: "zp-groups" }, result.groups.map((g) => h("li", { class: "zp-group" },
      h("span", { class: "zp-group-cards" }, g.cards.map((c) => cardEl(c, { small: true }))),
      h("span", { class: "zp-group-kind", text: `${tr(ctx, `zp.kind.${g.kind}`)} · ${tr(ctx, "zp.result.huxi", { n: g.huxi })}` })))),
    h("p", { text: mults ? tr(ctx, "zp.result.multipliers", { list: mults }) : tr(ctx, "zp.result.no_multiplier") }),
    result.xing.length
      ? result.xing.map((x) => h("p", { text: tr(ctx, "zp.result.xing", {
        turned: cardText(x.turned), face: cardText(x.face), count: x.count }) }))
      : h("p", { text: tr(ctx, "zp.result.no_xing") }),
    h("p", { text: tr(ctx, "zp.result.points", { duo: result.duo, factor: result.factor,
      xing: result.xing_count, stake: result.stake, points: result.points }) }),
    h("p", { text: result.payer === null
      ? tr(ctx, "zp.result.both_pay", { points: result.points })
      : tr(ctx, "zp.result.dianpao", { name: seatLabel(ctx, result.payer), points: result.points }) }),
  ];
}

function resultPanel(view, ctx) {
  const result = view.results[view.results.length - 1];
  if (!result) return null;
  return h("section", { class: "zp-result", "data-testid": "zp-result", "data-hand": result.hand,
    "data-winner": result.winner === null ? "" : result.winner },
  h("h3", { text: tr(ctx, "zp.result.title", { n: result.hand }) }),
  resultLines(result, ctx),
  h("table", {}, h("tbody", {}, h("tr", {}, h("th", { text: tr(ctx, "zp.result.payments") }),
    result.payments.map((p, seat) => h("td", { title: seatLabel(ctx, seat),
      text: tr(ctx, "zp.result.payment", { name: seatLabel(ctx, seat), points: signed(p) }) }))))));
}

function scoresPanel(view, ctx, kept) {
  const seats = [0, 1, 2];
  return keptDetails(kept, "scores", view.phase === "finished", { class: "zp-scores", "data-testid": "zp-scores" },
    h("summary", { text: labelText(tr(ctx, "zp.scores"), seats.map((s) => `${seatLabel(ctx, s)} ${minus(view.totals[s])}`).join(" · "), ctx.t) }),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { text: "#" }), seats.map((s) => h("th", { text: seatLabel(ctx, s) })))),
      h("tbody", {}, view.results.map((r) => h("tr", {}, h("td", { text: String(r.hand) }),
        r.payments.map((p) => h("td", { text: signed(p) })))),
      h("tr", {}, h("th", { text: tr(ctx, "zp.total") }), view.totals.map((t) => h("th", { text: minus(t) }))))));
}

function outcomeLine(view, ctx) {
  if (!view.outcome) return null;
  const order = [0, 1, 2].sort((a, b) => view.outcome.ranks[a] - view.outcome.ranks[b]);
  const ranking = order.map((s) => tr(ctx, "zp.rank_line",
    { rank: view.outcome.ranks[s], name: seatLabel(ctx, s), total: minus(view.totals[s]) })).join(tr(ctx, "zp.rank_sep"));
  return h("p", { class: "zp-outcome", "data-testid": "zp-outcome", text: tr(ctx, "zp.outcome", { ranking }) });
}

/**
 * Draw the Zipai table into `root` for ctx = {view, legal, seat, prompt, deadline, clocks,
 * events, room, players, connected, pending, act, t, countdown} (README.md).
 */
export function render(root, ctx) {
  ensureStyles("zipai.css");
  const view = ctx.view;
  const me = ctx.seat === null || ctx.seat === undefined ? 0 : ctx.seat;
  const others = [1, 2].map((k) => (me + k) % 3);
  const last = lastMove(ctx.lastEvents || []);
  const mark = last && { ...last, fresh: (ctx.events || []).length > 0 };
  replaceKeepingFocus(root, h("div", { class: "zp", "data-phase": view.phase },
    statusBar(view, ctx),
    outcomeLine(view, ctx),
    h("div", { class: "zp-seats" }, others.map((s) => seatPanel(view, ctx, s, mark))),
    middle(view, ctx, mark),
    seatPanel(view, ctx, me, mark),
    handPanel(view, ctx),
    resultPanel(view, ctx),
    scoresPanel(view, ctx, memoryOf(memories, root, () => new Map()))));
}

/** Nothing to stop: the table keeps no timers. */
export function dispose() {}
