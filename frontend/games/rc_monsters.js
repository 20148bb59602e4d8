// Reverse Curse monsters in the table: the shop (offer, energies, who buys first, countdown)
// and the held monster with its summon button (cost, and why it is disabled when it is).
// What is allowed comes from the legal list only; the reasons shown for a disabled summon
// restate the rulings' "Monsters" table ("not allowed when") and summon costs for the reader.

import { h } from "/static/js/dom.js";
import { busy } from "./kit.js";

/** Summon cost in energy of each monster (rulings "Monsters"; recruiting costs 1). */
export const SUMMON_COST = {
  VEIL_SNAIL: 0, SWITCH_WITCH: 0, SPY_EYE: 1, SHARE_BEAR: 1, ROLL_MOLE: 2, REBORN_UNICORN: 2,
};
export const RECRUIT_COST = 1;
const ENERGY_CAP = 3;

function other(side) {
  return side === "UP" ? "DOWN" : "UP";
}

/**
 * The side that shops first this set (rulings "Match flow" 5): the side behind (position > 0
 * favours UP, so DOWN is behind), or at position 0 the side going second.
 */
export function firstShopper(view) {
  if (view.position > 0) return "DOWN";
  if (view.position < 0) return "UP";
  return other(view.first_side);
}

const FORBIDDEN = {
  VEIL_SNAIL: () => false,
  SWITCH_WITCH: (view, hand) => view.deck_size === 0 || hand.length === 0,
  SPY_EYE: (view) => !view.field.length || view.field[view.field.length - 1].face_up,
  SHARE_BEAR: (view) => view.turn === 12
    || (view.sides[other(view.my_side)] || []).every((seat) => !(view.hand_sizes || {})[seat]),
  ROLL_MOLE: (view) => view.turn === 1 || !view.field.length,
  REBORN_UNICORN: (view) => !(view.graveyard || []).length || !view.field.length,
};

/**
 * Why the viewer's side may not summon now, as an i18n key under "rc.summon_why." — or null
 * when the legal list has `summon`. Order: no monster, not your turn, energy, the monster's rule.
 */
export function summonBlock(view, ctx) {
  if (ctx.legal.some((action) => action.type === "summon")) return null;
  const monster = view.my_side ? view.held[view.my_side] : null;
  if (!monster) return "no_monster";
  if (view.phase !== "deployment" || view.side_to_act !== view.my_side
      || !ctx.legal.some((action) => action.type === "play")) return "not_your_turn";
  if (view.energy[view.my_side] < SUMMON_COST[monster]) return "not_enough_energy";
  const hand = (view.hands || {})[String(ctx.seat)] || [];
  if (FORBIDDEN[monster] && FORBIDDEN[monster](view, hand)) return `rule.${monster}`;
  return "not_allowed";
}

function energyLine(view, t) {
  return h("p", { class: "rc-energies small", "data-testid": "rc-energies" },
    ["UP", "DOWN"].map((side, i) => [i ? " · " : "", h("span", { "data-side": side,
      text: t("rc.energy_of", { side: t(`rc.side.${side}`), n: view.energy[side], cap: ENERGY_CAP }) })]));
}

function offerCard(monster, ctx, canRecruit) {
  const { t, act } = ctx;
  return h("li", { class: "monster-offer", "data-testid": "shop-offer", "data-monster": monster },
    h("strong", { text: t(`rc.monster.${monster}`) }),
    h("span", { class: "muted small", text: t("rc.summon_cost", { n: SUMMON_COST[monster] }) }),
    h("span", { class: "small", text: t(`rc.monster_help.${monster}`) }),
    canRecruit ? h("button", { type: "button", class: "button", "data-action": "recruit",
      "data-key": `recruit-${monster}`, disabled: busy(ctx),
      title: t("rc.explain.recruit", { monster: t(`rc.monster.${monster}`), n: RECRUIT_COST }),
      text: t("rc.recruit", { monster: t(`rc.monster.${monster}`) }),
      onclick: () => act({ type: "recruit", monster }) }) : null);
}

/**
 * The shop panel for every viewer: the four offered monsters, both energies, who buys first
 * and who is shopping now, the clock, and (for the shopping side) recruit/pass buttons.
 */
export function shopPanel(view, ctx, clock) {
  const { t, act } = ctx;
  const shop = view.shop || { offer: [], side: null };
  const recruits = new Set(ctx.legal.filter((a) => a.type === "recruit").map((a) => a.monster));
  const canPass = ctx.legal.some((action) => action.type === "pass");
  const mine = canPass || recruits.size > 0;
  const first = firstShopper(view);
  return h("section", { class: "decision rc-shop", "data-testid": "rc-shop" },
    h("h3", { text: t("rc.shop_title") }),
    h("p", { class: "small", "data-testid": "rc-shop-first",
      text: t("rc.shop_first", { side: t(`rc.side.${first}`) }) }),
    h("p", { "data-testid": "rc-shop-now" },
      h("strong", { text: mine ? t("rc.shop_yours") : t("rc.shop_now", { side: t(`rc.side.${shop.side}`) }) }),
      clock ? [" ", ctx.countdown(clock)] : null),
    energyLine(view, t),
    mine ? h("p", { class: "muted small", text: t("rc.shop_help") }) : null,
    mine && !recruits.size ? h("p", { class: "small", text: t("rc.shop_no_energy") }) : null,
    h("ul", { class: "monster-offers" }, shop.offer.map((monster) => offerCard(monster, ctx, recruits.has(monster)))),
    canPass ? h("div", { class: "dialog-actions" }, h("button", { type: "button", class: "button",
      "data-action": "pass", "data-key": "pass", disabled: busy(ctx),
      title: t("rc.explain.pass"), text: t("rc.pass"), onclick: () => act({ type: "pass" }) })) : null);
}

/**
 * The viewer side's held monster with a summon button showing its cost (its title says what a
 * summon does: rulings "Match flow" 6); when the legal list has no `summon` the button is
 * disabled and the reason is shown next to it. Null without monsters or when the viewer's side
 * holds none (spectators see held monsters in the sides).
 */
export function summonPanel(view, ctx) {
  const { t, act } = ctx;
  if (!view.monsters || !view.my_side || view.phase === "finished") return null;
  const monster = view.held[view.my_side];
  if (!monster) return null;
  const why = summonBlock(view, ctx);
  const name = t(`rc.monster.${monster}`);
  const cost = { monster: name, n: SUMMON_COST[monster] };
  return h("section", { class: "rc-held", "data-testid": "rc-held", "data-monster": monster },
    h("p", {}, h("strong", { text: t("rc.holds", { monster: name }) }), " ",
      h("span", { class: "muted small", text: t(`rc.monster_help.${monster}`) })),
    h("button", { type: "button", class: ["button", !why && "button-primary"], "data-action": "summon",
      "data-key": "summon", "data-testid": "summon", disabled: Boolean(why) || busy(ctx),
      "aria-describedby": why ? "rc-summon-why" : null,
      title: t("rc.explain.summon", cost), text: t("rc.summon_for", cost),
      onclick: () => act({ type: "summon" }) }),
    why ? h("span", { id: "rc-summon-why", class: "muted small", "data-testid": "summon-why",
      text: t(`rc.summon_why.${why}`, { n: SUMMON_COST[monster], energy: view.energy[view.my_side] }) }) : null);
}
