// Zipai texts and card labels. Strings go through ctx.t with keys "zp.*"; until those keys are in
// frontend/i18n/<lang>.json the English text below is used (never a raw ⟦key⟧). Game terms are
// shown in Chinese with an English gloss. Card codes: x1…x10 small 一…十, d1…d10 big 壹…拾.

import { has } from "/static/js/i18n.js";

const ENGLISH = {
  "zp.seat": "Seat {seat}",
  "zp.you": "you",
  "zp.hand_no": "Hand {n} of {total}",
  "zp.dealer": "庄 dealer",
  "zp.stock": "Stock {n}",
  "zp.liang": "亮张 shown card",
  "zp.status.discard.mine": "Your turn: discard a card.",
  "zp.status.selfwin.mine": "You may win now (胡), or go on.",
  "zp.status.discard.other": "{name} is deciding.",
  "zp.status.claim": "Claims pending on {card} ({source} {name}).",
  "zp.status.claim.mine": "{card} ({source} {name}): claim it or pass.",
  "zp.status.claim.answered": "You answered; waiting for the others.",
  "zp.status.finished": "The match is over.",
  "zp.source.draw": "drawn by",
  "zp.source.discard": "discarded by",
  "zp.hand_size": "{n} cards",
  "zp.your_hand": "Your hand",
  "zp.discard_help": "Click a card to discard it (坎 cannot be discarded).",
  "zp.chou": "臭 foul for you: {cards}",
  "zp.pile": "Pile",
  "zp.groups_none": "No groups yet.",
  "zp.exposed": "Exposed card",
  "zp.action.hu": "胡 Win",
  "zp.action.pass": "过 Pass",
  "zp.action.peng": "碰 Pong {card}",
  "zp.action.kaiduo": "开舵 Kaiduo (four of {card})",
  "zp.action.chi": "吃 Eat {card} with {cards}",
  "zp.action.bi": "; 比 {groups}",
  "zp.kind.chi": "吃 eaten",
  "zp.kind.bi": "比 matched",
  "zp.kind.peng": "碰 pong",
  "zp.kind.sao": "扫 sao",
  "zp.kind.guosao": "过扫 passed sao",
  "zp.kind.kaiduo": "开舵 kaiduo",
  "zp.kind.saochuan": "扫穿 saochuan",
  "zp.kind.kan": "坎 kan",
  "zp.kind.yi_er_san": "一二三",
  "zp.kind.er_qi_shi": "二七十",
  "zp.kind.shunzi": "顺子 run",
  "zp.kind.dada": "大小三搭 mixed three",
  "zp.kind.pair": "将 pair",
  "zp.kind.guopeng": "过碰 passed pong",
  "zp.in_hand": "(kept in hand)",
  "zp.scores": "Scores",
  "zp.total": "Total",
  "zp.result.title": "Hand {n}",
  "zp.result.huang": "荒庄 drawn hand: the stock ran out, nobody scores.",
  "zp.result.win": "{name} wins (胡) with {huxi} 胡息 huxi → {duo} 舵 duo.",
  "zp.result.win_card": "Winning card: {card}",
  "zp.result.multipliers": "Multipliers: {list}",
  "zp.result.no_multiplier": "No multiplier.",
  "zp.result.xing": "翻醒 turned {turned}: 醒 xing card {face} ×{count}",
  "zp.result.no_xing": "No 翻醒 (海底 or empty stock).",
  "zp.result.points": "Points: ({duo} × {factor} + {xing} 醒) × {stake} = {points}",
  "zp.result.dianpao": "点炮: {name} (the discarder) pays {points}.",
  "zp.result.both_pay": "Each of the two others pays {points}.",
  "zp.result.payments": "Payments",
  "zp.result.huxi": "{n} 胡息",
  "zp.mult.zimo": "自摸 self-drawn ×2",
  "zp.mult.haidi": "海底 last card ×2",
  "zp.mult.tianhu": "天胡 dealer's deal ×2",
  "zp.mult.dihu": "地胡 dealer's first discard ×2",
  "zp.outcome": "Final ranking: {ranking}",
  "zp.back": "face-down card",
};

/** Translate `key` (a "zp." key) with the shell's t, falling back to the English above. */
export function tr(ctx, key, params = {}) {
  if (has(key) || !(key in ENGLISH)) return ctx.t(key, params);
  return ENGLISH[key].replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

const SMALL = "一二三四五六七八九十";
const BIG = "壹贰叁肆伍陆柒捌玖拾";
const RED = new Set([2, 7, 10]);

/** The value 1..10 of a card code. */
export function cardValue(code) {
  return Number(code.slice(1));
}

/** Whether a card code is big (壹…拾). */
export function isBig(code) {
  return code[0] === "d";
}

/** The Chinese character of a card code ("x1" → 一, "d10" → 拾); "?" for a hidden card. */
export function cardText(code) {
  if (!code) return "?";
  return (isBig(code) ? BIG : SMALL)[cardValue(code) - 1];
}

/** "二 (small 2)", "贰 (big 2)": the character with an English gloss. */
export function cardGloss(code) {
  return `${cardText(code)} (${isBig(code) ? "big" : "small"} ${cardValue(code)})`;
}

/** Whether the card is printed red (二七十, 贰柒拾). */
export function isRed(code) {
  return Boolean(code) && RED.has(cardValue(code));
}

/** Sort key: small 一…十 then big 壹…拾 (the engine's order). */
export function cardOrder(code) {
  return (isBig(code) ? 10 : 0) + cardValue(code) - 1;
}

/** Cards joined as Chinese characters ("三四"). */
export function cardsText(codes) {
  return codes.map(cardText).join("");
}

/** The seat's display name from ctx.players, "Seat n" when unknown. */
export function seatName(ctx, seat) {
  const player = (ctx.players || []).find((p) => p.seat === seat);
  const name = player && player.name ? player.name : tr(ctx, "zp.seat", { seat: seat + 1 });
  return seat === ctx.seat ? `${name} (${tr(ctx, "zp.you")})` : name;
}

/** A label spelling out a legal action: which cards a 吃 uses and its 比 groups. */
export function actionText(ctx, action, exposed) {
  const card = exposed ? cardText(exposed.card) : "";
  if (action.type === "chi") {
    const bi = action.bi.length
      ? tr(ctx, "zp.action.bi", { groups: action.bi.map(cardsText).join(" ") }) : "";
    return tr(ctx, "zp.action.chi", { card, cards: cardsText(action.cards) }) + bi;
  }
  return tr(ctx, `zp.action.${action.type}`, { card });
}
