// The NumGR stack builder: choose a main card from the hand (or a released pending card), then
// what goes under it, then the remaining choices (☆ effect, γ mode, β's copy, θ's target). It
// only ever offers actions from ctx.legal, narrowed step by step.

import { h } from "/static/js/dom.js";
import { cardEl } from "./ng_cards.js";
import { cardText, faceText } from "./ng_text.js";
import { busy, tr } from "./kit.js";

/** Play actions of ctx.legal. */
export function playsOf(ctx) {
  return ctx.legal.filter((a) => a.type === "play");
}

/** Mains that start at least one legal play. */
export function playableMains(ctx) {
  return new Set(playsOf(ctx).map((a) => a.main));
}

function targetText(view, id) {
  const target = view.areas.flat().find((s) => s.id === id);
  return target ? `${cardText(target.main)} #${id}` : `#${id}`;
}

/** A short description of a play's choices beyond its main card and base. */
export function choiceText(action, view, ctx) {
  const parts = [];
  if (action.copy) parts.push(tr(ctx, "ng.copy", { face: faceText(action.copy) }));
  const actsAs = action.copy || action.main[0];
  if (action.mode && actsAs === "G") parts.push(tr(ctx, `ng.synergy.${action.mode}`));
  else if (action.mode) parts.push(tr(ctx, "ng.star", { mode: tr(ctx, `ng.mode.${action.mode}`) }));
  if (action.base_mode) parts.push(tr(ctx, "ng.star_zero", { mode: tr(ctx, `ng.mode.${action.base_mode}`) }));
  if (action.base && actsAs === "T") parts.push(tr(ctx, "ng.holds", { card: cardText(action.base) }));
  if (action.lock !== null) parts.push(tr(ctx, "ng.locks", { card: targetText(view, action.lock) }));
  return parts.length ? parts.join(tr(ctx, "ng.log.how_sep")) : tr(ctx, "ng.play.plain");
}

function baseButtons(plays, choice, ctx, redraw) {
  const bases = [...new Set(plays.map((a) => a.base))];
  const theta = choice.main[0] === "T";
  return h("div", { class: "ng-choices" },
    h("span", { class: "ng-choice-label", text: tr(ctx, theta ? "ng.choose_hold" : "ng.choose_base") }),
    bases.map((base) => h("button", {
      type: "button", class: "button button-small", "data-testid": "ng-base-option",
      "data-base": base || "", "data-key": `base-${base}`, disabled: busy(ctx),
      text: base ? cardText(base) : tr(ctx, theta ? "ng.lock_instead" : "ng.no_base"),
      onclick: () => { choice.base = base; redraw(); } })));
}

function playButtons(plays, view, ctx) {
  return h("div", { class: "ng-choices" },
    h("span", { class: "ng-choice-label", text: tr(ctx, "ng.choose_play") }),
    plays.map((action, index) => h("button", {
      type: "button", class: "button button-small button-primary", "data-testid": "ng-play-option",
      "data-key": `play-${index}`, disabled: busy(ctx), text: choiceText(action, view, ctx),
      onclick: () => ctx.act(action) })));
}

/**
 * The builder panel for the selected main card; `choice` = {main, base (undefined until
 * chosen)} lives in the module's memory. Returns null when nothing is selected.
 */
export function builderPanel(choice, view, ctx, redraw) {
  if (!choice.main) return h("p", { class: "muted", text: tr(ctx, "ng.builder_help") });
  const plays = playsOf(ctx).filter((a) => a.main === choice.main);
  const bases = new Set(plays.map((a) => a.base));
  if (choice.base === undefined && bases.size === 1) choice.base = [...bases][0];
  const chosen = choice.base === undefined ? [] : plays.filter((a) => a.base === choice.base);
  return h("section", { class: "ng-builder", "data-testid": "ng-builder" },
    h("div", { class: "ng-builder-head" },
      cardEl(choice.main, { small: true }),
      h("strong", { text: tr(ctx, "ng.builder", { card: cardText(choice.main) }) }),
      h("button", { type: "button", class: "button button-small", "data-testid": "ng-cancel",
        "data-key": "cancel", text: tr(ctx, "ng.cancel"),
        onclick: () => { choice.main = null; choice.base = undefined; redraw(); } })),
    choice.base === undefined ? baseButtons(plays, choice, ctx, redraw) : playButtons(chosen, view, ctx));
}
