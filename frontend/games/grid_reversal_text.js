// Grid Reversal texts, card labels and cell names. Strings go through ctx.t with keys "gr.*";
// until those keys are in frontend/i18n/<lang>.json the English text below is used.
// Rules for players: docs/rules/grid_reversal.md; view and events: docs/protocol.md.

import { has } from "/static/js/i18n.js";

const ENGLISH = {
  "gr.round": "Round {n}",
  "gr.setup": "Setup",
  "gr.you": "you",
  "gr.seat": "Seat {seat}",
  "gr.first": "first player",
  "gr.second": "second player",
  "gr.hand_size": "{n} in hand",
  "gr.your_hand": "Your hand",
  "gr.deck": "Deck {n}",
  "gr.discard_pile": "Discard pile ({n})",
  "gr.placements": "Placements left: {n}",
  "gr.idle": "Idle stages: {n}/{max}",
  "gr.flipless": "Stages without a flip: {n}/{max}",
  "gr.standoff": "Standoff! No more placements or draws: each stage is one swap of two touching cards of your own, or a pass.",
  "gr.status.mother": "Choose your mother card: the number card for your S square.",
  "gr.status.mother_wait": "Mother cards: waiting until both are chosen.",
  "gr.status.setup_discard": "Choose one card to discard (you keep 4).",
  "gr.status.setup_discard_wait": "Setup discards: waiting until both are chosen.",
  "gr.status.discard": "Discard down to 4: click a card of your hand.",
  "gr.status.discard_other": "{name} is discarding down to 4.",
  "gr.status.stage": "Your stage: place a number card, play effect cards, then end your stage.",
  "gr.status.stage_standoff": "Your standoff stage: click two touching cards of yours to swap them, or pass.",
  "gr.status.stage_other": "{name}'s stage.",
  "gr.status.response": "{name} played {card}. Answer with a Ban?",
  "gr.status.response_wait": "Waiting for the answer to {card}…",
  "gr.status.draw_offer": "{name} offers a draw.",
  "gr.status.draw_offer_wait": "Draw offered: waiting for the answer.",
  "gr.status.over": "The game is over.",
  "gr.outcome.win": "{name} wins: {reason}.",
  "gr.outcome.draw": "Draw: {reason}.",
  "gr.reason.mother_flipped": "a mother card was flipped",
  "gr.reason.resign": "resignation",
  "gr.reason.agreement": "agreed in the standoff",
  "gr.reason.no_flip": "10 standoff stages without a flip",
  "gr.reason.repetition": "the same standoff position a third time",
  "gr.reason.idle": "6 stages in a row where nothing happened",
  "gr.reason.round_limit": "round 200 reached",
  "gr.card.1": "1", "gr.card.2": "2", "gr.card.3": "3", "gr.card.4": "4",
  "gr.card.BAN": "Ban 禁止",
  "gr.card.BOMB": "Bomb 炸弹",
  "gr.card.SUPER_ADD": "Super-Add 超级加",
  "gr.card.SWAP": "Swap 交换",
  "gr.card.LIGHTNING": "Lightning 闪电",
  "gr.end_stage": "End stage",
  "gr.pass": "Pass",
  "gr.ban": "Ban it",
  "gr.decline": "Let it happen",
  "gr.offer_draw": "Offer a draw",
  "gr.accept_draw": "Accept the draw",
  "gr.decline_draw": "Decline",
  "gr.cancel": "Cancel",
  "gr.choose_mother": "Make it your mother card",
  "gr.pick.place": "Click a highlighted cell to place your {card}.",
  "gr.pick.bomb": "Bomb: click a highlighted card on your own rows.",
  "gr.pick.swap_cells": "Swap: click two of your touching cards.",
  "gr.pick.swap_cells_second": "Swap: now click a card touching the first one.",
  "gr.pick.swap_in": "Swap in: pick a number card of your hand, then one of your cards.",
  "gr.pick.swap_in_cell": "Swap in your {card}: click one of your cards.",
  "gr.pick.standoff": "Click a second card touching the first one.",
  "gr.swap_mode.cells": "Swap two cards on the grid",
  "gr.swap_mode.in": "Swap a hand card in",
  "gr.super_add.help": "Super-Add: choose what fires.",
  "gr.super_add.pair": "Re-fire spent pair {a}–{b}",
  "gr.super_add.line": "Fire line {a}–{b}–{c}",
  "gr.play_lightning": "Play Lightning (one more placement)",
  "gr.stack.effect": "{name}: {card} {target}",
  "gr.stack.ban": "{name}: Ban",
  "gr.spent": "Spent pairs: {list}",
  "gr.spent_none": "No spent pairs.",
  "gr.redeal": "{name} showed a hand without number cards and drew again: {cards}",
  "gr.playback.title": "Chain",
  "gr.playback.fired": "Wave {wave}: {cells} add up to 5",
  "gr.playback.flipped": " — flipped {cells}",
  "gr.playback.nothing": " — nothing to flip",
  "gr.playback.mother": " — the mother card!",
  "gr.playback.broken": "Breakage: {cells} left the grid",
  "gr.skip": "Skip",
  "gr.mother": "mother card",
  "gr.start": "S",
  "gr.cell": "{cell}: {what}",
  "gr.cell_empty": "empty",
  "gr.cell_card": "{value} of {name}",
};

/** Translate `key` (a "gr." key) with the shell's t, falling back to the English above. */
export function tr(ctx, key, params = {}) {
  if (has(key) || !(key in ENGLISH)) return ctx.t(key, params);
  return ENGLISH[key].replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

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

/** The seat's display name from ctx.players ("Seat n" when unknown), "(you)" for the viewer. */
export function seatName(ctx, seat) {
  const player = (ctx.players || []).find((p) => p.seat === seat);
  const name = player && player.name ? player.name : tr(ctx, "gr.seat", { seat: seat + 1 });
  return seat === ctx.seat ? `${name} (${tr(ctx, "gr.you")})` : name;
}

/** "C3, D3" for a list of cells. */
export function cellsText(cells) {
  return cells.map(cellName).join(", ");
}

/** The target of an effect action in words ("on C4", "C3–D3" …). */
export function targetText(ctx, action) {
  if (action.cell && action.card) return `${cellName(action.cell)} ← ${cardName(ctx, action.card)}`;
  if (action.cell) return cellName(action.cell);
  if (action.cells) return action.cells.map(cellName).join("–");
  return "";
}
