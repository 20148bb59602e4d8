// Zipai texts and card labels. Strings go through ctx.t with keys "zp.*" (frontend/i18n/<lang>.json,
// en/zh/ja; tests/e2e/test_i18n_static.py checks every key exists in every language).
// Game terms are shown in Chinese with a gloss. Card codes: x1…x10 small 一…十, d1…d10 big 壹…拾.

import { t } from "/static/js/i18n.js";
import { tr } from "./kit.js";

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

/** "二 (small 2)", "贰 (big 2)": the character with a gloss in the page's language. */
export function cardGloss(code) {
  return t(isBig(code) ? "zp.gloss.big" : "zp.gloss.small", { char: cardText(code), n: cardValue(code) });
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
