// Tiles in the mahjong rules text: the rules page (js/rules.js) calls enhanceRules(body) after it
// showed docs/rules/mahjong.<lang>.md, and every code span written as a tile row — "[123m 456p
// !777z +5p]" — is drawn as tiles. Inside the brackets, groups are separated by spaces; a group
// is tile codes (digits before their suit letter m, p, s, z or f, as the table's tiles); a group
// starting with "!" is a declared set (碰, 吃, 明杠), with "~" a concealed kong (its outer two
// tiles face down), with "+" the winning tile (drawn apart). Nothing else is touched, and a row
// that does not parse stays as written.

import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { ensureStyles } from "./kit.js";
import { tileRow } from "./mj_tiles.js";
import { tilesName } from "./mj_text.js";

const ROW = /^\[([0-9mpszf!~+ ]+)\]$/;
const GROUP = /^([!~+]?)((?:[0-9]+[mpszf])+)$/;
const MARKS = { "": "plain", "!": "exposed", "~": "concealed_kong", "+": "win" };

/** The tile codes of MPSZ text ("123m5z" → ["1m", "2m", "3m", "5z"]), or null if it is not that. */
export function parseCodes(text) {
  const codes = [];
  for (const [, digits, suit] of text.matchAll(/([0-9]+)([mpszf])/g)) {
    for (const digit of digits) {
      const n = Number(digit);
      const top = { m: 9, p: 9, s: 9, z: 7, f: 8 }[suit];
      if (n < 1 || n > top) return null;
      codes.push(`${n}${suit}`);
    }
  }
  return codes.length ? codes : null;
}

/** The groups of a row's text ("123m !555p +5p" → [{mark, codes}]), or null if it does not parse. */
export function parseRow(text) {
  const groups = [];
  for (const part of text.trim().split(/\s+/)) {
    const match = GROUP.exec(part);
    const codes = match && parseCodes(match[2]);
    if (!codes) return null;
    groups.push({ mark: MARKS[match[1]], codes });
  }
  return groups.length ? groups : null;
}

function groupEl(group) {
  const shown = group.mark === "concealed_kong" && group.codes.length === 4
    ? [null, group.codes[1], group.codes[2], null] : group.codes;
  return tileRow(shown, { size: "sm", hidden: true, rowClass: `mj-rules-group mj-rules-${group.mark}` });
}

/** The drawn tiles of a parsed row, named for screen readers. */
export function rowEl(groups) {
  const words = groups.map((group) => {
    const names = tilesName(t, group.codes);
    return group.mark === "plain" ? names : t(`mj.rules.${group.mark}`, { tiles: names });
  });
  return h("span", { class: "mj-rules-tiles", role: "img", "aria-label": words.join(" · "), "data-testid": "mj-rules-tiles" },
    groups.map(groupEl));
}

/** Draw every tile-row code span inside `root` as tiles. */
export function enhanceRules(root) {
  ensureStyles("mahjong.css");
  for (const code of root.querySelectorAll("code")) {
    const match = ROW.exec(code.textContent);
    const groups = match && parseRow(match[1]);
    if (groups) code.replaceWith(rowEl(groups));
  }
}
