// Mahjong words: tile names, winds, set kinds, score-sheet entries. Strings go through the `t`
// given (ctx.t on the table, i18n's t on the match page) with keys "mj.*" (frontend/i18n/<lang>.json);
// game terms keep their Chinese names (碰, 吃, 杠, 和, fan names) with a gloss in the page's language.

import { listText } from "/static/js/i18n.js";
import { seatLabel, seatName } from "./kit.js";
import { DOUBLINGS, FANS } from "./mj_names.js";
import { numberOf, suitOf } from "./mj_tiles.js";

/** A seat's name at the mahjong table: the player's name, with "(you)" for the viewer when
 * `you` (a namesake's seat told apart by kit.js `seatName`: three "Normal bot"s). */
export function playerName(ctx, seat, you = true) {
  return you ? seatLabel(ctx, seat) : seatName(ctx, seat);
}

/** A tile's name in words ("5 Dots", "5筒", "East wind"); a face-down tile for null. */
export function tileName(t, code) {
  if (!code) return t("mj.tile.back");
  const suit = suitOf(code);
  if (suit === "m" || suit === "p" || suit === "s") return t(`mj.tile.${suit}`, { n: numberOf(code) });
  return t(`mj.tile.${code}`);
}

/** Several tiles' names, joined ("3 Characters, 4 Characters"). */
export function tilesName(t, codes) {
  return listText(codes.map((code) => tileName(t, code)), t);
}

/** A seat wind or the prevalent wind in words ("East"); letter E, S, W or N. */
export function windName(t, letter) {
  return t(`mj.wind.${letter}`);
}

/** "大四喜 Big Four Winds" (the Chinese name, then the page's gloss when it differs). */
function glossed(zh, gloss) {
  return gloss && gloss !== zh ? `${zh} ${gloss}` : zh;
}

/** An MCR fan by id: its Chinese name glossed ("碰碰和 All Pungs"). */
export function fanName(t, id) {
  return glossed(FANS[id] ? FANS[id][0] : id, t(`mj.fan.${id}`));
}

/** A Hebei doubling by id: its Chinese name glossed ("门清 Concealed Hand"). */
export function doublingName(t, id) {
  return glossed(DOUBLINGS[id] || id, t(`mj.dbl.${id}`));
}

/** A declared set's kind in words ("碰 Pung"): chow, pung, kong, added_kong, concealed_kong. */
export function meldName(t, kind) {
  return t(`mj.meld.${kind}`);
}

