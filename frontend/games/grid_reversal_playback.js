// Chain playback: after an action whose events hold `fired` steps, the grid shows the chain one
// firing at a time (the firing pair or line, then what it flipped), breakage last. The view
// already holds the final grid; earlier states are drawn by overriding the cells that change
// later (flipped cards show their former owner, broken cards are still there).

import { h } from "/static/js/dom.js";
import { cellsText } from "./grid_reversal_text.js";
import { seatLabel, tr } from "./kit.js";
import { key } from "./grid_reversal_board.js";
import { runPlayback, stopPlayback } from "./playback_timer.js";

export { stopPlayback };

export const STEP_MS = 700;

/** The playback steps of one update's events: each `fired` event, then breakage if any. */
export function stepsOf(events) {
  const steps = events.filter((e) => e.kind === "fired").map((e) => ({ kind: "fired", ...e.data }));
  const broken = events.filter((e) => e.kind === "broken").flatMap((e) => e.data.cells);
  if (steps.length && broken.length) steps.push({ kind: "broken", cells: broken });
  return steps;
}

/** Start playing `steps` back; `redraw()` runs on every tick. */
export function startPlayback(memory, steps, redraw) {
  if (!steps.length) return stopPlayback(memory);
  runPlayback(memory, { steps, shown: 1 }, redraw, { stepMs: STEP_MS });
}

/**
 * The marks for the grid at the current step: cells that flip or break later keep their
 * earlier card; the current firing (its hot card marked), its flips and breakage are highlighted.
 */
export function playbackMarks(playback) {
  const overrides = new Map();
  const firing = new Set();
  const flipped = new Set();
  const broken = new Set();
  const hot = new Set();
  playback.steps.forEach((step, index) => {
    const shown = index < playback.shown;
    const current = index === playback.shown - 1;
    if (step.kind === "broken") {
      for (const gone of step.cells) {
        if (!shown) overrides.set(key(gone.cell), { owner: gone.owner, value: gone.value, mother: false });
        else if (current) broken.add(key(gone.cell));
      }
      return;
    }
    for (const flip of step.flips) {
      if (!shown) overrides.set(key(flip.cell), { owner: flip.from, value: flip.value, mother: false });
      else if (current) flipped.add(key(flip.cell));
    }
    if (current) step.cells.forEach((cell) => firing.add(key(cell)));
    if (current && step.hot) hot.add(key(step.hot));
  });
  return { overrides, firing, flipped, broken, hot };
}

function stepLine(step, ctx) {
  if (step.kind === "broken") {
    return tr(ctx, "gr.playback.broken", { cells: cellsText(step.cells.map((c) => c.cell)) });
  }
  const flips = step.flips.map((f) => f.cell);
  const what = flips.length ? tr(ctx, "gr.playback.flipped", { cells: cellsText(flips) })
    : tr(ctx, "gr.playback.nothing");
  const mother = step.mother_flipped ? tr(ctx, "gr.playback.mother") : "";
  return tr(ctx, "gr.playback.fired", { wave: step.wave, cells: cellsText(step.cells) }) + what + mother;
}

/** The playback caption: a Skip button, then the steps shown so far (the button first, so
 * the steps appearing on each tick do not move it from under a pointer). */
export function playbackPanel(playback, ctx, onSkip) {
  const steps = playback.steps.slice(0, playback.shown);
  const who = playback.steps.find((s) => s.kind === "fired");
  return h("section", { class: "gr-playback", "data-testid": "gr-playback", "aria-live": "polite" },
    h("h3", { text: `${tr(ctx, "gr.playback.title")} — ${who ? seatLabel(ctx, who.seat) : ""}` }),
    h("button", { type: "button", class: "button", "data-testid": "gr-skip", "data-key": "gr-skip",
      text: tr(ctx, "gr.skip"), onclick: onSkip }),
    h("ol", {}, steps.map((step) => h("li", { text: stepLine(step, ctx) }))));
}
