// A finished match's replay (GET /api/matches/{id}/replay, docs/protocol.md "Replays") read as a
// table reads a match: who held each seat at a step, the ctx of a step (games/README.md) and
// every step's lines of the move log. The replay page draws its steps from it; a room page
// that did not see the whole of a match that has ended (it opened after the end, or joined or
// reconnected partway through) takes the match's past from it (`replayPast`: its move log and
// the events its table derives "what just happened" from), so both pages tell the same lines.

import { api } from "./api.js";
import { occupantAt, seatName } from "./bots.js";
import { t } from "./i18n.js";
import { countdown } from "./ui.js";
import { batchLines, memoOf } from "./move_log.js";

/** Fetch the replay of match `matchId` seen by `viewer` (a seat; null = the spectator's).
 * Throws the ApiError of api.js (`no_such_seat`, `match_not_finished`, …). */
export function fetchReplay(matchId, viewer) {
  const query = viewer === null || viewer === undefined ? "" : `?viewer=${encodeURIComponent(viewer)}`;
  return api(`/api/matches/${encodeURIComponent(matchId)}/replay${query}`);
}

/** The seats of replay `data` as held at step `index` (who played its action: `occupantAt`). */
export function seatsAt(data, index) {
  return data.seats.map((s) => ({ ...s, ...occupantAt(s, index), side: null }));
}

/** The seats' players at step `index` of replay `data` as tables name them (ctx.players). */
export function playersAt(data, index) {
  return seatsAt(data, index).map((entry) => ({ ...entry, name: seatName(entry) }));
}

/** One batch per step of replay `data`, with who held each seat then (ctx.batches). */
export function stepBatches(data) {
  return data.steps.map((entry) => ({ events: entry.events, players: playersAt(data, entry.step) }));
}

/** The ctx a table reads at step `index` of replay `data` (its `batches`: `stepBatches`), seen
 * by `data.viewer`: the step's view, no actions offered, no clock; `events` (what the table
 * animates) are the step's own when `forward` (stepping forward), else none. */
export function stepContext(data, batches, index, forward = false) {
  const step = data.steps[index];
  const room = { code: data.room_code, game: data.game, options: data.options, status: "finished",
    seats: seatsAt(data, step.step), match_id: data.id, forfeit: data.forfeit };
  return {
    view: step.view, legal: [], seat: data.viewer, prompt: null, deadline: null, clocks: {},
    events: forward ? step.events : [], room, players: playersAt(data, step.step), connected: false,
    pending: false, act: () => false, t, countdown, lastEvents: step.events,
    history: data.steps.slice(0, index + 1).flatMap((entry) => entry.events),
    batches: batches.slice(0, index + 1),
  };
}

/** Every step's log lines of replay `data` for the table `module` ([[str]], one list per step;
 * none for step 0, the deal): `batchLines` with the step's ctx, its memo, ctx.actor, the
 * step's seat (who resigned when its action was a resign), and ctx.opening for step 1 (the
 * match's first move, as the room's log: `logEntries`). */
export function stepLines(module, data, batches) {
  return data.steps.map((step, index) => (index === 0 ? []
    : batchLines(module, step.events, { ...stepContext(data, batches, index), memo: memoOf(module, step.view),
      actor: step.seat, opening: index === 1 })));
}

/** What a room page that did not see the whole match reads from the finished match's replay
 * `data` for the table `module`, instead of the updates it kept: `entries` [{text}], the move
 * log (every step's lines, `stepLines`: no gap line, the replay has every step), and the ctx
 * fields a table derives past events from (games/README.md): `batches` (one per step with who
 * held each seat then, `stepBatches`), `history` (every step's events, oldest first) and
 * `lastEvents` (the events of the last step that had any, as a live page keeps its last
 * update's). */
export function replayPast(module, data) {
  const batches = stepBatches(data);
  const told = data.steps.filter((step) => step.events.length);
  return {
    entries: stepLines(module, data, batches).flat().map((text) => ({ text })),
    batches,
    history: data.steps.flatMap((step) => step.events),
    lastEvents: told.length ? told.at(-1).events : [],
  };
}
