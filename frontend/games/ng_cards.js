// NumGR cards and stacks as elements. A stack draws its base card peeking out as the seed
// describes: a 0 shows its top half below its number, a γ's base shows to its left, a θ's card
// shows above it (face-down when this viewer may not see it).

import { h } from "/static/js/dom.js";
import { icon } from "/static/js/icons.js";
import { t } from "/static/js/i18n.js";
import { ATTR_SYMBOLS, FACE_NAMES, FACE_SYMBOLS, cardText, faceText, pointsText } from "./ng_text.js";
import { markLastMove, tr } from "./kit.js";

/**
 * One card. code: a card code, or null for a face-down card. options: {tag, key, testid,
 * disabled, onclick, selected, small, action, title (what clicking it does)}.
 */
export function cardEl(code, options = {}) {
  const { tag = "div" } = options;
  const attr = code ? code.slice(1) : "back";
  const face = code ? code[0] : "";
  return h(tag, {
    class: ["card", "ng-card", `ng-${attr}`, options.small && "ng-card-small",
      options.selected && "card-highlight", !code && "card-back"],
    type: tag === "button" ? "button" : null, role: tag === "button" ? null : "img",
    "data-card": code || "", "data-key": options.key,
    "data-testid": options.testid, "data-action": options.action, disabled: options.disabled,
    "aria-label": code ? cardText(code) : t("ng.back"), title: options.title, "aria-pressed": tag === "button" && options.selected ? "true" : null,
    onclick: options.onclick,
  },
  code ? h("span", { class: "ng-attr", "aria-hidden": "true", text: ATTR_SYMBOLS[attr] }) : null,
  h("span", { class: "card-symbol", "aria-hidden": "true", text: code ? FACE_SYMBOLS[face] : "?" }),
  code && FACE_NAMES[face] ? h("span", { class: "card-name", "aria-hidden": "true", text: t(FACE_NAMES[face]) }) : null);
}

function variantCard(stack, ctx) {
  return h("div", { class: ["card", "ng-card", "ng-variant", `ng-${stack.attr || "bomb"}`] },
    stack.attr ? h("span", { class: "ng-attr", text: ATTR_SYMBOLS[stack.attr] }) : null,
    stack.kind === "bomb" ? h("span", { class: "card-symbol", "aria-hidden": "true" }, icon("burst"))
      : h("span", { class: "card-symbol", text: "333" }),
    h("span", { class: "card-name", text: `${tr(ctx, `ng.variant.${stack.kind}`)} ${faceText(stack.face)}` }));
}

function stackNotes(stack, view, ctx) {
  const notes = [];
  if (stack.copy) notes.push(tr(ctx, "ng.copy", { face: faceText(stack.copy) }));
  if (stack.mode && stack.acts_as === "G") notes.push(tr(ctx, `ng.synergy.${stack.mode}`));
  else if (stack.mode) notes.push(tr(ctx, "ng.star", { mode: tr(ctx, `ng.mode.${stack.mode}`) }));
  if (stack.base_mode) notes.push(tr(ctx, "ng.star_zero", { mode: tr(ctx, `ng.mode.${stack.base_mode}`) }));
  if (stack.base_role === "held") {
    notes.push(stack.held_hidden ? tr(ctx, "ng.holds_hidden") : tr(ctx, "ng.holds", { card: cardText(stack.base) }));
  }
  if (stack.lock !== null) {
    const target = lockedTarget(stack, view);
    notes.push(tr(ctx, "ng.locks", { card: target ? `${cardText(target.main)} #${target.id}` : `#${stack.lock}` }));
  }
  if (stack.reflected) notes.push(tr(ctx, "ng.reflected"));
  if (stack.locked_by !== null) notes.push(tr(ctx, "ng.locked"));
  const points = pointsText(ctx, stack);
  if (points) notes.push(points);
  return notes;
}

/** The opponent stack a θ locks (from the view), or null. */
function lockedTarget(stack, view) {
  return stack.lock === null ? null : view.areas.flat().find((s) => s.id === stack.lock) || null;
}

/** The card under a stack: its base, or a ghost of the opponent stack a θ locks. */
function baseEl(stack, view) {
  if (stack.base_role) {
    const base = cardEl(stack.held_hidden ? null : stack.base, { small: true });
    base.classList.add("ng-base", `ng-base-${stack.base_role}`);
    return base;
  }
  const target = lockedTarget(stack, view);
  if (!target || !target.main) return null;
  const ghost = cardEl(target.main, { small: true });
  ghost.classList.add("ng-base", "ng-base-held", "ng-ghost");
  return ghost;
}

/** One stack: base card peeking out, main card on top, notes below. options: {moving, last
 * (the stack played last: marked, animated when it just arrived)}. */
export function stackEl(stack, view, ctx, options = {}) {
  const base = baseEl(stack, view);
  const main = stack.kind === "card" ? cardEl(stack.main, { small: true }) : variantCard(stack, ctx);
  main.classList.add("ng-main");
  const pile = h("div", { class: "ng-pile" }, base, main,
    stack.locked_by !== null ? h("span", { class: "card-flag", text: `θ#${stack.locked_by}` }) : null);
  if (options.last) markLastMove(pile, ctx, (ctx.events || []).length > 0);
  return h("li", {
    class: ["ng-stack", stack.locked_by !== null && "ng-locked", stack.reflected && "ng-reflected",
      stack.base_role && `ng-has-${stack.base_role}`, options.moving && `ng-moving-${options.moving}`],
    "data-testid": "ng-stack", "data-id": stack.id, "data-main": stack.main || stack.kind,
    "data-owner": stack.owner,
  },
  pile,
  h("p", { class: "ng-notes", text: `#${stack.id} ${stackNotes(stack, view, ctx).join(" · ")}` }));
}
