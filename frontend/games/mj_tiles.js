// Mahjong tile faces drawn by the page (no pictures, no Unicode mahjong block): 万 characters as
// a Chinese numeral over 万, 筒 dots and 条 bamboo as SVG shapes built with createElementNS, winds
// and dragons as their character (白 as an empty frame), flowers as their character and number,
// a face-down tile as a patterned back. Characters come from the self-hosted face font
// (fonts/faces.txt). Codes (docs/protocol.md "Mahjong view"): 1m…9m, 1p…9p, 1s…9s, 1z…7z =
// 东南西北白发中, 1f…8f = 春夏秋冬梅兰竹菊; null is a face-down tile. The printed forms are the
// page language's, as its tile names write them (i18n `mj.face.m` 万/萬, `mj.face.z` 东…/東…,
// `mj.face.f` …兰…/…蘭…: one character per tile, in code order).

import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const NUMERALS = "一二三四五六七八九";
const SUIT_ORDER = { m: 0, p: 1, s: 2, z: 3, f: 4 };

// 筒: dot centres in a 30 × 40 box, with radius; colours cycle blue, green, red by class.
const DOTS = {
  1: [[15, 20, 10]],
  2: [[15, 11, 6.5], [15, 29, 6.5]],
  3: [[8, 9, 5.5], [15, 20, 5.5], [22, 31, 5.5]],
  4: [[9, 12, 5.5], [21, 12, 5.5], [9, 28, 5.5], [21, 28, 5.5]],
  5: [[8, 9, 5], [22, 9, 5], [15, 20, 5], [8, 31, 5], [22, 31, 5]],
  6: [[10, 8, 4.6], [20, 8, 4.6], [10, 21, 4.6], [20, 21, 4.6], [10, 32, 4.6], [20, 32, 4.6]],
  7: [[7, 6, 3.8], [15, 11, 3.8], [23, 16, 3.8], [10, 25, 4], [20, 25, 4], [10, 34, 4], [20, 34, 4]],
  8: [[10, 6, 4], [20, 6, 4], [10, 15.3, 4], [20, 15.3, 4], [10, 24.6, 4], [20, 24.6, 4], [10, 34, 4], [20, 34, 4]],
  9: [[7, 8, 4], [15, 8, 4], [23, 8, 4], [7, 20, 4], [15, 20, 4], [23, 20, 4], [7, 32, 4], [15, 32, 4], [23, 32, 4]],
};
const DOT_COLOURS = { 1: "r", 2: "gb", 3: "brg", 4: "bgbg", 5: "bgrbg", 6: "ggrrrr", 7: "gggrrrr", 8: "bbbbbbbb", 9: "bbbrrrggg" };

// 条: sticks (x of the centre, y of the top, height) in a 30 × 40 box; "r" marks a red stick.
const STICKS = {
  2: [[15, 3, 15], [15, 22, 15]],
  3: [[15, 3, 15], [9, 22, 15], [21, 22, 15]],
  4: [[9, 3, 15], [21, 3, 15], [9, 22, 15], [21, 22, 15]],
  5: [[7, 3, 15], [23, 3, 15], [15, 12, 16, "r"], [7, 22, 15], [23, 22, 15]],
  6: [[6, 3, 15], [15, 3, 15], [24, 3, 15], [6, 22, 15], [15, 22, 15], [24, 22, 15]],
  7: [[15, 1, 10, "r"], [6, 14, 11], [15, 14, 11], [24, 14, 11], [6, 27, 11], [15, 27, 11], [24, 27, 11]],
  8: [[4.5, 3, 15], [11.5, 3, 15], [18.5, 3, 15], [25.5, 3, 15], [4.5, 22, 15], [11.5, 22, 15], [18.5, 22, 15], [25.5, 22, 15]],
  9: [[6, 1.5, 11], [15, 1.5, 11, "r"], [24, 1.5, 11], [6, 14.5, 11], [15, 14.5, 11, "r"], [24, 14.5, 11],
    [6, 27.5, 11], [15, 27.5, 11, "r"], [24, 27.5, 11]],
};

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

function svgBox(children) {
  const svg = svgEl("svg", { viewBox: "0 0 30 40", class: "mj-svg", "aria-hidden": "true", focusable: "false" });
  svg.append(...children);
  return svg;
}

function dotsFace(n) {
  const colours = DOT_COLOURS[n];
  return svgBox(DOTS[n].flatMap(([cx, cy, r], i) => [
    svgEl("circle", { cx, cy, r, class: `mj-dot mj-ink-${colours[i]}` }),
    svgEl("circle", { cx, cy, r: r * 0.42, class: "mj-dot-eye" })]));
}

function stick(cx, y, height, red) {
  return svgEl("rect", { x: cx - 2.2, y, width: 4.4, height, rx: 2.2, class: `mj-stick${red ? " mj-stick-red" : ""}` });
}

function bambooFace(n) {
  if (n === 1) {
    return svgBox([svgEl("rect", { x: 11.5, y: 9, width: 7, height: 28, rx: 3.5, class: "mj-stick" }),
      svgEl("circle", { cx: 15, cy: 7, r: 5, class: "mj-stick-red" })]);
  }
  return svgBox(STICKS[n].map(([cx, y, height, red]) => stick(cx, y, height, red)));
}

function whiteFace() {
  return svgBox([svgEl("rect", { x: 6, y: 7, width: 18, height: 26, rx: 2, class: "mj-white-frame" })]);
}

/** The suit letter of a tile code ("5m" → "m"). */
export function suitOf(code) {
  return code[1];
}

/** The number of a tile code ("5m" → 5). */
export function numberOf(code) {
  return Number(code[0]);
}

/** The character printed on an honor or flower tile ("1z" → 东 in Chinese, 東 in Japanese), or
 * the numeral of a 万 tile ("3m" → 三); a 筒 or 条 tile's number as a string. */
export function faceChar(code) {
  const n = numberOf(code);
  const chars = { m: NUMERALS, z: t("mj.face.z"), f: t("mj.face.f") }[suitOf(code)];
  return chars ? chars[n - 1] : String(n);
}

/** The engine's sort order (m, p, s, z, f; by number). */
export function tileOrder(code) {
  return SUIT_ORDER[suitOf(code)] * 10 + numberOf(code);
}

/** Codes sorted in the engine's order (a new array). */
export function sortTiles(codes) {
  return [...codes].sort((a, b) => tileOrder(a) - tileOrder(b));
}

function faceOf(code) {
  const suit = suitOf(code);
  const n = numberOf(code);
  if (suit === "m") {
    return [h("span", { class: "mj-num", text: faceChar(code) }), h("span", { class: "mj-man", text: t("mj.face.m") })];
  }
  if (suit === "p") return [dotsFace(n)];
  if (suit === "s") return [bambooFace(n)];
  if (code === "5z") return [whiteFace()];
  if (suit === "f") {
    return [h("span", { class: "mj-char", text: faceChar(code) }), h("span", { class: "mj-fnum", text: String(((n - 1) % 4) + 1) })];
  }
  return [h("span", { class: "mj-char", text: faceChar(code) })];
}

/**
 * One tile: `code` (null = face down). options: {size: "sm"|"md"|"lg", tag ("span" or
 * "button"), label (its accessible name; default `name(code)`), name (code → words), title,
 * classes, data ({key: value} as data-*), onclick, disabled, hidden (no name of its own: the row
 * around it has one)}. A span is role="img".
 */
export function tileEl(code, options = {}) {
  const { tag = "span", size = "md" } = options;
  const suit = code ? suitOf(code) : "back";
  const label = options.label || (options.name ? options.name(code) : code || "");
  const attrs = {
    class: ["mj-tile", `mj-${size}`, `mj-suit-${suit}`, code === "7z" && "mj-red", code === "6z" && "mj-green",
      ...(options.classes || [])],
    "data-tile": code || "", role: tag === "button" || options.hidden ? null : "img",
    "aria-label": options.hidden ? null : label, "aria-hidden": options.hidden ? "true" : null,
    title: options.title || null, type: tag === "button" ? "button" : null,
    onclick: options.onclick, disabled: options.disabled,
  };
  for (const [key, value] of Object.entries(options.data || {})) attrs[`data-${key}`] = value;
  return h(tag, attrs, code ? h("span", { class: "mj-face", "aria-hidden": "true" }, faceOf(code)) : null);
}

/** A row of tiles (`codes`, null = face down) in a span of class mj-row; options as tileEl's,
 * plus `rowLabel` (the row's accessible name, then each tile is hidden from it). */
export function tileRow(codes, options = {}) {
  const { rowLabel, rowClass, ...tile } = options;
  return h("span", { class: ["mj-row", rowClass], role: rowLabel ? "img" : null, "aria-label": rowLabel || null },
    codes.map((code) => tileEl(code, rowLabel ? { ...tile, hidden: true } : tile)));
}
