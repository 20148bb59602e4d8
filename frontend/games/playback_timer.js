// The step timer both playbacks share (Grid Reversal chains, Reverse Curse set resolutions):
// reveal one more step every tick, optionally linger on the last one, then end by itself.
// State lives in the caller's per-table `memory` object: memory.playback and memory.timer.

/**
 * Start ticking `playback` (an object with `steps: array` and `shown: number` of steps visible)
 * in `memory`, replacing any running playback. Every `stepMs` milliseconds one more step is
 * shown; once all are shown the playback stays `lingerMs` more (rounded up to whole ticks, at
 * least one tick) and then ends. `redraw()` runs after every tick, including the last one.
 */
export function runPlayback(memory, playback, redraw, { stepMs, lingerMs = 0 }) {
  stopPlayback(memory);
  memory.playback = playback;
  let doneTicks = 0;
  memory.timer = setInterval(() => {
    const current = memory.playback;
    if (!current) stopPlayback(memory);
    else if (current.shown < current.steps.length) current.shown += 1;
    else if ((doneTicks += 1) * stepMs >= lingerMs) stopPlayback(memory);
    redraw();
  }, stepMs);
}

/** End the playback in `memory` (and its timer); safe to call when none runs. */
export function stopPlayback(memory) {
  clearInterval(memory.timer);
  memory.timer = null;
  memory.playback = null;
}
