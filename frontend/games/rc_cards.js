// Reverse Curse cards and steps as readable labels (rulings "Cards (24)").
// Codes: "+1".."+3", "-1".."-3", DOUBLE_BUBBLE, FLIP_TRAP, SILENCE_SIREN, MIRROR_PILLAR,
// ECHO_FLOW, REVERSE_CURSE. A null code is a face-down card this viewer may not see.

import { h } from "/static/js/dom.js";

/** The short symbol of each special card (shown big on the card). */
export const SPECIAL_SYMBOLS = {
  DOUBLE_BUBBLE: "×2", FLIP_TRAP: "×−1", SILENCE_SIREN: "⊘", MIRROR_PILLAR: "≡",
  ECHO_FLOW: "↑↑", REVERSE_CURSE: "⇄",
};

/** Whether `code` is a number card ("+1" … "-3"). */
export function isNumber(code) {
  return /^[+-][0-9]+$/.test(code || "");
}

/** A number code with a typographic minus: "-2" -> "−2", "+1" -> "+1". */
export function numberText(code) {
  return code.replace("-", "−");
}

/** The big symbol of a card: "+1", "−2", "×2" … */
export function cardSymbol(code) {
  return isNumber(code) ? numberText(code) : SPECIAL_SYMBOLS[code] || "?";
}

/** The card's name: "+1" for numbers, "DOUBLE BUBBLE" for specials (translated). */
export function cardName(code, t) {
  return isNumber(code) ? numberText(code) : t(`rc.card.${code}`);
}

/** One-line label "×2 DOUBLE BUBBLE" / "+1" used in lists and screen-reader text. */
export function cardLabel(code, t) {
  return isNumber(code) ? numberText(code) : `${cardSymbol(code)} ${cardName(code, t)}`;
}

function cardKind(code) {
  if (!isNumber(code)) return "special";
  return code.startsWith("-") ? "down" : "up";
}

/**
 * A card face as an element. options: {tag: "div"|"button", key, onclick, disabled, small,
 * hidden: bool (own face-down card), highlight: bool, testid, explain: what clicking it does (shown
 * on hover/long-press as the title, read by screen readers as the description)}.
 */
export function cardFace(code, t, options = {}) {
  const { tag = "div", small = false, hidden = false, highlight = false } = options;
  const help = isNumber(code) ? t("rc.card_help.number", { n: numberText(code) }) : t(`rc.card_help.${code}`);
  const label = hidden ? `${cardLabel(code, t)} (${t("rc.face_down_mine")})` : cardLabel(code, t);
  return h(tag, {
    class: ["card", `card-${cardKind(code)}`, small && "card-small", hidden && "card-hidden",
      highlight && "card-highlight"],
    type: tag === "button" ? "button" : null, role: tag === "button" ? null : "img",
    title: options.explain ? `${options.explain}\n${help}` : help,
    "aria-label": `${label}. ${help}`, "aria-description": options.explain || null,
    "data-card": code, "data-key": options.key, "data-testid": options.testid,
    disabled: options.disabled, onclick: options.onclick,
  },
  h("span", { class: "card-symbol", "aria-hidden": "true", text: cardSymbol(code) }),
  isNumber(code) ? h("span", { class: "card-name", "aria-hidden": "true",
    text: t(code.startsWith("-") ? "rc.down_card" : "rc.up_card") })
    : h("span", { class: "card-name", "aria-hidden": "true", text: cardName(code, t) }),
  hidden ? h("span", { class: "card-flag", "aria-hidden": "true", text: t("rc.face_down_short") }) : null);
}

/** The back of a face-down card. */
export function cardBack(t, small = false) {
  return h("div", { class: ["card", "card-back", small && "card-small"], role: "img", "aria-label": t("rc.face_down"),
    title: t("rc.face_down") }, h("span", { class: "card-symbol", "aria-hidden": "true", text: "?" }));
}

/**
 * What one resolution step did, as a sentence.
 * step: {index, card, identity, silenced, effect, total}; effect: "+n"/"-n", "x2", "x-1",
 * "silence", "echo", "curse", "nothing", "silenced".
 */
export function stepText(step, t) {
  if (step.silenced) return t("rc.step.silenced");
  if (isNumber(step.effect)) return t("rc.step.number", { n: numberText(step.effect) });
  const key = { x2: "double", "x-1": "flip", silence: "silence", echo: "echo", curse: "curse",
    nothing: "nothing" }[step.effect];
  return key ? t(`rc.step.${key}`) : step.effect;
}

/** "MIRROR PILLAR (as +2)" when a MIRROR copied something, else the card's label. */
export function stepCardText(step, t) {
  if (step.card !== "MIRROR_PILLAR") return cardLabel(step.card, t);
  const copied = step.identity ? cardLabel(step.identity, t) : t("rc.nothing");
  return t("rc.mirror_as", { card: cardLabel(step.card, t), copied });
}

export { signed } from "/static/js/numbers.js";
