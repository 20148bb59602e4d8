// NumGR texts and card labels. Strings go through ctx.t with keys "ng.*" (frontend/i18n/<lang>.json,
// en/zh/ja; tests/e2e/test_i18n_static.py checks every key exists in every language).
// Card codes: face (1 2 3 0 A B G T) + attribute (atk def rem any), docs/protocol.md.

import { listText } from "/static/js/i18n.js";
import { tr } from "./kit.js";

export const FACE_SYMBOLS = { 1: "1", 2: "2", 3: "3", 0: "0", A: "α", B: "β", G: "γ", T: "θ" };
export const ATTR_SYMBOLS = { atk: "△", def: "○", rem: "□", any: "☆" };
/** The i18n key of the name printed on each special face ("ng.face.A" = reflect …). */
export const FACE_NAMES = { A: "ng.face.A", B: "ng.face.B", G: "ng.face.G", T: "ng.face.T" };

/** "△3", "○θ" … for a card code; "?" for a hidden card (null). */
export function cardText(code) {
  if (!code) return "?";
  return `${ATTR_SYMBOLS[code.slice(1)] || ""}${FACE_SYMBOLS[code[0]] || code[0]}`;
}

/** The printed face of a copied face ("3", "α" …). */
export function faceText(face) {
  return FACE_SYMBOLS[face] || face;
}

/** "3 attack, 2 defense" for a stack view's points (empty when it gives none). */
export function pointsText(ctx, stack) {
  return listText(["attack", "defense", "unstoppable"].filter((k) => stack[k] > 0)
    .map((k) => tr(ctx, `ng.points.${k}`, { n: stack[k] })), ctx.t);
}
