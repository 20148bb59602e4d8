// Fallback table for a game without its own module: the raw view in a collapsible block and
// every legal action as a button (so any registered game stays playable while its module is
// being written). Interface: README.md.

import { h, replaceKeepingFocus } from "/static/js/dom.js";
import { labelPrefix } from "/static/js/i18n.js";
import { busy } from "./kit.js";

function actionLabel(action) {
  return Object.entries(action).map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(", ");
}

/** Draw the phase, the clock, and one button per legal action. */
export function render(root, ctx) {
  const { t, view, legal } = ctx;
  replaceKeepingFocus(root, h("div", { class: "generic-table" },
    h("p", { class: "muted", text: t("generic.no_module") }),
    ctx.deadline && legal.length ? h("p", {}, labelPrefix(t("generic.your_decision"), t), ctx.countdown(ctx.deadline)) : null,
    h("div", { class: "dialog-actions" }, legal.map((action, index) => h("button", {
      type: "button", class: "button", "data-key": `legal-${index}`, disabled: busy(ctx),
      text: actionLabel(action), onclick: () => ctx.act(action) }))),
    h("details", {}, h("summary", { text: t("generic.raw_view") }),
      h("pre", { class: "raw", text: JSON.stringify(view, null, 2) }))));
}
