// Long-press explanations for touch screens: every legal action of a table
// explains itself in its `title` (hover with a mouse). On a touch screen, holding a finger on it
// for LONG_PRESS_MS shows that text as a toast instead, and the click that follows is swallowed,
// so reading an explanation never plays the move.

import { toast } from "./ui.js";

export const LONG_PRESS_MS = 550;

/** The explanation of the element under a pointer: the nearest `title` inside `root`, or null. */
export function explanationAt(root, target) {
  const el = target instanceof Element ? target.closest("[title]") : null;
  return el && root.contains(el) && el.title ? el : null;
}

/** Make long-presses on `root` (the game table) show the pressed control's explanation. */
export function installLongPress(root) {
  let timer = null;
  let swallow = false;
  const cancel = () => { clearTimeout(timer); timer = null; };
  root.addEventListener("pointerdown", (event) => {
    cancel();
    swallow = false;
    if (event.pointerType !== "touch") return;
    const el = explanationAt(root, event.target);
    if (!el) return;
    timer = setTimeout(() => { timer = null; swallow = true; toast(el.title); }, LONG_PRESS_MS);
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) root.addEventListener(type, cancel);
  root.addEventListener("click", (event) => {
    if (!swallow) return;
    swallow = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);
  root.addEventListener("contextmenu", (event) => {
    if (swallow || timer) event.preventDefault();
  });
}
