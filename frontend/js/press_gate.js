// Redraws that wait for a press to end. Chromium drops a click whose element left the document
// between press and release (even to come back redrawn), and a list redrawn under a held press
// can move another row under the pointer: a page whose frames or timers redraw a part of it asks
// for those redraws through a PressGate on that part, and while a press is held there they wait
// until just after its click.

/** The longest a press holds redraws back (ms): past it they run anyway (a release the page
 * never saw must not freeze it). */
export const HOLD_MS = 10000;

/** The keys that click a focused control: Enter on its press, Space on its release. */
const ACTIVATION_KEYS = new Set(["Enter", " "]);

/** Whether `target` is a form field a press edits or opens (a text box, a drop-down) rather
 * than clicks: the redraws never replace those, and a drop-down's release may go to its popup,
 * never to the page. */
function isField(target) {
  return target instanceof Element && Boolean(target.closest("input, select, textarea"));
}

/**
 * Holds the redraws of `area` (an element) while a press is held inside it: the primary
 * pointer button down on it, or Enter/Space down on a focused control in it. A redraw asked for
 * then (`run`) waits; the press's end (pointerup, pointercancel, the key's keyup, the window
 * losing focus) runs every waiting one once, in the order they were first asked for, in a task
 * after the press's own click — so that click reaches the element that was pressed, and a
 * redraw the click itself asks for waits too. While redraws wait, `area` has
 * `data-redraw="waiting"`.
 */
export class PressGate {
  /** @param {Element} area @param {number} holdMs the longest hold (default HOLD_MS) */
  constructor(area, holdMs = HOLD_MS) {
    this.area = area;
    this.holdMs = holdMs;
    /** Whether a press holds the redraws now. */
    this.held = false;
    /** The waiting redraws: key -> the newest redraw asked for under that key. */
    this.waiting = new Map();
    this.timer = null;
    area.addEventListener("pointerdown", (event) => {
      if (event.isPrimary && event.button === 0 && !isField(event.target)) this.hold();
    });
    area.addEventListener("keydown", (event) => {
      if (ACTIVATION_KEYS.has(event.key) && !event.repeat && !isField(event.target)) this.hold();
    });
    const end = () => this.end();
    document.addEventListener("pointerup", (event) => event.isPrimary && end(), true);
    document.addEventListener("pointercancel", (event) => event.isPrimary && end(), true);
    document.addEventListener("keyup", (event) => ACTIVATION_KEYS.has(event.key) && end(), true);
    window.addEventListener("blur", end);
  }

  /**
   * Run `redraw()` now, or, while a press is held, once it ends. Under one `key` (by default
   * the function itself) only the newest redraw asked for runs: a list redrawn from fetched
   * rows asks under a fixed key with a new function each time.
   */
  run(redraw, key = redraw) {
    if (!this.held) {
      redraw();
      return;
    }
    this.waiting.set(key, redraw);
    this.area.dataset.redraw = "waiting";
  }

  /** A press begins: hold the redraws (for HOLD_MS at most). */
  hold() {
    this.held = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.holdMs);
  }

  /** The press ends: run the waiting redraws in the next task, after the press's click. */
  end() {
    if (!this.held) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), 0);
  }

  /** Stop holding and run every waiting redraw once, first asked first. */
  flush() {
    clearTimeout(this.timer);
    this.held = false;
    const redraws = [...this.waiting.values()];
    this.waiting.clear();
    delete this.area.dataset.redraw;
    for (const redraw of redraws) redraw();
  }
}
