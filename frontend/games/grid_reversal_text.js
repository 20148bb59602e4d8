// Grid Reversal texts, card labels and cell names. Strings go through ctx.t with keys "gr.*" (frontend/i18n/<lang>.json,
// en/zh/ja; tests/e2e/test_i18n_static.py checks every key exists in every language).
// Rules for players: docs/rules/grid_reversal.md; view and events: docs/protocol.md.

import { listText } from "/static/js/i18n.js";
import { tr } from "./kit.js";

/** The display name of a card code ("3", "Ban 禁止" …). */
export function cardName(ctx, code) {
  return tr(ctx, `gr.card.${code}`);
}

/** Whether a card code is a number card. */
export function isNumber(code) {
  return ["1", "2", "3", "4"].includes(code);
}

/** A cell's name as players read it: column letter and row number from the top, e.g. "C6". */
export function cellName(cell) {
  return `${String.fromCharCode(65 + cell[1])}${cell[0] + 1}`;
}


/** "C3, D3" for a list of cells. */
export function cellsText(cells) {
  return listText(cells.map(cellName));
}

/** The target of an effect action in words ("on C4", "C3–D3" …). */
export function targetText(ctx, action) {
  if (action.cell && action.card) return `${cellName(action.cell)} ← ${cardName(ctx, action.card)}`;
  if (action.cell) return cellName(action.cell);
  if (action.cells) return action.cells.map(cellName).join("–");
  return "";
}
