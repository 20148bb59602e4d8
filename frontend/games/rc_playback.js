// Play a set's LIFO resolution back step by step (rulings "LIFO resolution"): after each
// `set_resolved` event the steps appear one at a time (T12 first) with what each card did and
// the running total, then the result; the viewer may skip, and it closes by itself afterwards.

import { h } from "/static/js/dom.js";
import { signed, stepCardText, stepText } from "./rc_cards.js";
import { runPlayback, stopPlayback } from "./playback_timer.js";

export { stopPlayback };

export const STEP_MS = 550;
export const LINGER_MS = 3500;

/**
 * Start a playback in `memory` from a set_resolved event's data
 * {set, result, position_after, steps: [{index, card, identity, silenced, effect, total}]}
 * and the set's field [{card, seat, side}] (T1 first); `redraw()` is called on every tick.
 */
export function startPlayback(memory, data, field, redraw) {
  const playback = { ...data, field, shown: Math.min(1, data.steps.length) };
  runPlayback(memory, playback, redraw, { stepMs: STEP_MS, lingerMs: LINGER_MS });
}

/** The T# of the step being shown (to highlight it on the field), or null. */
export function activeTurn(playback) {
  if (!playback || playback.shown === 0 || playback.shown > playback.steps.length) return null;
  return playback.steps[playback.shown - 1].index;
}

function stepRow(step, t) {
  return h("li", { class: ["step", step.silenced && "step-silenced"] },
    h("span", { class: "step-turn", text: `T${step.index}` }),
    h("span", { class: "step-card", text: stepCardText(step, t) }),
    h("span", { class: "step-effect", text: stepText(step, t) }),
    h("span", { class: "step-total", text: t("rc.total", { n: signed(step.total) }) }));
}

/**
 * The playback panel. memory.playback must be set; onSkip shows every step at once,
 * onClose ends the playback. Its nodes are the same on every tick but the steps and the
 * result (the Skip button hidden once done), so a tick's `morph` keeps the buttons; they come
 * before the steps, so the steps appearing do not move them from under a pointer.
 */
export function playbackPanel(playback, ctx, { onSkip, onClose }) {
  const { t } = ctx;
  const done = playback.shown >= playback.steps.length;
  const steps = playback.steps.slice(0, playback.shown);
  return h("section", { class: "rc-playback", "data-testid": "rc-playback", "aria-live": "polite" },
    h("h3", { text: t("rc.playback_title", { n: playback.set }) }),
    h("p", { class: "muted small", text: t("rc.playback_help") }),
    h("div", { class: "dialog-actions" },
      h("button", { type: "button", class: "button", "data-key": "rc-skip", hidden: done,
        "data-testid": "rc-skip", text: t("rc.skip"), onclick: onSkip }),
      h("button", { type: "button", class: "button button-primary", "data-key": "rc-continue",
        "data-testid": "rc-continue", title: t("rc.explain.continue"), text: t("rc.continue"),
        onclick: onClose })),
    h("ol", { class: "steps" }, steps.map((step) => stepRow(step, t))),
    h("p", { class: "playback-result", "data-testid": "rc-result", hidden: !done },
      done ? [h("strong", { text: t("rc.result", { n: signed(playback.result) }) }), " ",
        t("rc.position_after", { n: signed(playback.position_after) })] : null));
}
