// NumGR texts and card labels. Strings go through ctx.t with keys "ng.*"; until those keys are
// in frontend/i18n/<lang>.json the English text below is used (never a raw ⟦key⟧).
// Card codes: face (1 2 3 0 A B G T) + attribute (atk def rem any), docs/protocol.md.

import { has } from "/static/js/i18n.js";

const ENGLISH = {
  "ng.turn": "Turn {turn}",
  "ng.step.defense": "Defense",
  "ng.step.attack": "Attack",
  "ng.step.discard": "Discard",
  "ng.step.over": "Game over",
  "ng.status.mine.defense": "Your defense step: play stacks, then end it (HP check).",
  "ng.status.mine.attack": "Your attack step: play stacks to attack next turn, then end it.",
  "ng.status.mine.discard": "Discard one card, or keep them all; then you refill to 5.",
  "ng.status.other": "{name}'s turn — {step} step.",
  "ng.status.over": "The match is over.",
  "ng.you": "you",
  "ng.seat": "Seat {seat}",
  "ng.hp": "HP {hp}/{max}",
  "ng.hand_size": "{n} in hand",
  "ng.totals": "Attack {attack} · Defense {defense}",
  "ng.unstoppable": " (+{n} ○ cannot stop)",
  "ng.circle": " ({n} from ○)",
  "ng.threat": "Incoming attack {attack}{extra} against your defense {defense}.",
  "ng.area_empty": "No stacks.",
  "ng.pending": "Released, to complete this turn:",
  "ng.your_hand": "Your hand",
  "ng.deck": "Deck {n}",
  "ng.discard_pile": "Discard pile ({n})",
  "ng.end.defense": "End defense (HP check)",
  "ng.end.attack": "End attack",
  "ng.keep": "Discard nothing",
  "ng.discard_help": "Click a hand card to discard it.",
  "ng.builder": "Build a stack with {card}",
  "ng.builder_help": "Pick a card from your hand to build a stack.",
  "ng.choose_base": "Put under it:",
  "ng.no_base": "nothing",
  "ng.choose_hold": "Hold face-down:",
  "ng.lock_instead": "no card: lock a stack",
  "ng.choose_play": "Play it as:",
  "ng.cancel": "Cancel",
  "ng.play.plain": "play it",
  "ng.mode.atk": "attack",
  "ng.mode.def": "defense",
  "ng.mode.rem": "remove",
  "ng.synergy.atk": "synergy attack",
  "ng.synergy.def": "synergy defense",
  "ng.star": "☆ as {mode}",
  "ng.star_zero": "☆0 as {mode}",
  "ng.copy": "copying {face}",
  "ng.holds": "holding {card}",
  "ng.holds_hidden": "holding a face-down card",
  "ng.locks": "locking {card}",
  "ng.locked": "locked",
  "ng.reflected": "reflected",
  "ng.gives": "{points}",
  "ng.points.attack": "{n} attack",
  "ng.points.defense": "{n} defense",
  "ng.points.unstoppable": "{n} unstoppable",
  "ng.variant.bomb": "Bomb",
  "ng.variant.333": "333",
  "ng.outcome.draw": "Draw (game-length rule).",
  "ng.outcome.win": "{name} wins ({reason}).",
  "ng.reason.ko": "0 HP",
  "ng.reason.resign": "resignation",
  "ng.reason.draw": "draw",
  "ng.last_check": "Last HP check: {name} faced {attack} against {defense} — {result}.",
  "ng.lost_hp": "lost 1 HP",
  "ng.held_hp": "no damage",
};

/** Translate `key` (an "ng." key) with the shell's t, falling back to the English above. */
export function tr(ctx, key, params = {}) {
  if (has(key) || !(key in ENGLISH)) return ctx.t(key, params);
  return ENGLISH[key].replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

export const FACE_SYMBOLS = { 1: "1", 2: "2", 3: "3", 0: "0", A: "α", B: "β", G: "γ", T: "θ" };
export const ATTR_SYMBOLS = { atk: "△", def: "○", rem: "□", any: "☆" };
export const FACE_NAMES = { A: "reflect", B: "imitate", G: "synergy", T: "lock" };

/** "△3", "○θ" … for a card code; "?" for a hidden card (null). */
export function cardText(code) {
  if (!code) return "?";
  return `${ATTR_SYMBOLS[code.slice(1)] || ""}${FACE_SYMBOLS[code[0]] || code[0]}`;
}

/** The printed face of a copied face ("3", "α" …). */
export function faceText(face) {
  return FACE_SYMBOLS[face] || face;
}

/** The seat's display name from ctx.players, "Seat n" when unknown. */
export function seatName(ctx, seat) {
  const player = (ctx.players || []).find((p) => p.seat === seat);
  const name = player && player.name ? player.name : tr(ctx, "ng.seat", { seat: seat + 1 });
  return seat === ctx.seat ? `${name} (${tr(ctx, "ng.you")})` : name;
}

/** "3 attack, 2 defense" for a stack view's points (empty when it gives none). */
export function pointsText(ctx, stack) {
  return ["attack", "defense", "unstoppable"].filter((k) => stack[k] > 0)
    .map((k) => tr(ctx, `ng.points.${k}`, { n: stack[k] })).join(", ");
}
