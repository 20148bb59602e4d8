// The move log of a match, for the room and replay pages: what happened, in plain words, from the
// events this viewer received. The words come from the game module's optional
// `logLines(events, ctx)` (games/README.md); the shell adds the events of the room itself: the
// clock timeouts, and a seat the room resigned because it kept timing out (`forfeit`: told
// instead of the game's own "resigned" line for that seat), and a player's own resign ("Ann
// resigned.") for the games whose engine tells it only by its `match_over` (NumGR, Reverse Curse,
// Reversed Civilizations; zipai, mahjong and Grid Reversal send `resigned {seat}`, worded by
// their own log). The room keeps
// what it received in sessionStorage (per match and viewer), so a reload keeps the log, the
// last-move mark and what a table derives from past events.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { nameOfSeat, seatName } from "./bots.js";
import { forfeitText, resignText, resignedSeats } from "./outcome.js";

/** How many event batches a room keeps per match, at most: older ones are dropped from the log
 * (`ReceivedEvents.add`), leaving a gap in their place. */
const KEEP_BATCHES = 1500;

/** The lines of the room's own events (docs/protocol.md: `timeout {seat}`, `forfeit {seat,
 * reason, timeouts}`), by kind. */
const ROOM_LINES = {
  timeout: (data, ctx) => t("log.timeout", { name: nameOfSeat(ctx.players, data.seat) }),
  forfeit: (data, ctx) => forfeitText(data, nameOfSeat(ctx.players, data.seat)),
};

/** "Ann resigned." for a batch that ends the match by a player's own resign (a `match_over`
 * whose reason — its data's, else the outcome of ctx.view — is `resign`) and says nothing else
 * of it: no `resigned` event (the game's log words it) and no `forfeit` (the room resigned the
 * seat: told as such). Who resigned: ctx.actor (a replay step's seat) when it lost, else the
 * last-ranked seats of the match_over's `ranks` or the view's outcome (a team game's side live:
 * who of the side pressed is not sent). Null otherwise. */
function resignLine(events, ctx) {
  const over = events.find((event) => event.kind === "match_over");
  if (!over || events.some((event) => event.kind === "resigned" || event.kind === "forfeit")) return null;
  const data = over.data || {};
  const outcome = ctx.view && ctx.view.outcome;
  const reason = data.reason || (outcome && outcome.reason);
  if (reason !== "resign") return null;
  const losers = resignedSeats(Array.isArray(data.ranks) ? { ranks: data.ranks, reason } : outcome);
  if (!losers.length) return null;
  const actor = ctx.actor;
  return resignText(losers.includes(actor) ? [actor] : losers, ctx.players);
}

/** The memo the table `module` keeps of the view that came with a batch (its optional
 * `logMemo(view)`: what its log lines need of that moment), or null. */
export function memoOf(module, view) {
  return module && module.logMemo && view ? module.logMemo(view) : null;
}

/** The log lines of one batch of events ([{kind, data}]) for the table `module` and its ctx
 * (ctx.memo: the batch's memo): the room's own first — a `timeout {seat}` gives "Bob's time ran
 * out …", a `forfeit` "Bob forfeited: 3 turns timed out in a row." —, a player's own resign the
 * game's events do not word (resignLine: "Ann resigned."), then the module's (none without
 * `logLines`) for the rest but a forfeited seat's `resigned` (the forfeit says it). */
export function batchLines(module, events, ctx) {
  const lines = events.filter((event) => ROOM_LINES[event.kind])
    .map((event) => ROOM_LINES[event.kind](event.data, ctx));
  const resign = resignLine(events, ctx);
  if (resign) lines.push(resign);
  const forfeited = new Set(events.filter((event) => event.kind === "forfeit").map((event) => event.data.seat));
  const rest = events.filter((event) => !ROOM_LINES[event.kind]
    && !(event.kind === "resigned" && forfeited.has(event.data.seat)));
  if (module && module.logLines && rest.length) lines.push(...module.logLines(rest, ctx));
  return lines;
}

/**
 * The events one viewer received in one match, batch by batch (one batch = one update's
 * events), kept in sessionStorage under `arena.log.<match>.<seat|spectator>`; a gap (the page
 * was not connected while versions passed) is kept as a batch {gap: true}, and so are the oldest
 * batches once more than `keep` came (`add`: {gap: true, dropped: true}, first): either way the
 * page did not keep the whole match (`hasGap`).
 */
export class ReceivedEvents {
  constructor(keep = KEEP_BATCHES) {
    /** The most batches kept (at least 2: the dropped batches' gap and the newest). */
    this.keep = Math.max(2, keep);
    this.key = null;
    this.matchId = null;
    this.batches = [];
    this.version = -1;
  }

  /** Switch to match `matchId` seen by `seat` (null = spectator), loading what was kept. The
   * same match seen from another seat (this page's seat taken over by a bot or freed: it
   * watches on) keeps what this page received, kept from then on under the new seat. */
  open(matchId, seat) {
    const key = matchId === null || matchId === undefined ? null
      : `arena.log.${matchId}.${seat === null || seat === undefined ? "spectator" : seat}`;
    if (key === this.key) return;
    const sameMatch = key !== null && this.key !== null && matchId === this.matchId;
    this.key = key;
    this.matchId = key === null ? null : matchId;
    if (sameMatch) {
      this.save();
      return;
    }
    const kept = key ? JSON.parse(sessionStorage.getItem(key) || "null") : null;
    this.batches = kept ? kept.batches : [];
    this.version = kept ? kept.version : -1;
  }

  /** Note a welcome at `version`: when versions passed unseen (since the last batch, or since
   * the match began for a page that arrives late), a gap. */
  greet(version) {
    const unseen = this.batches.length ? version > this.version : version > 0;
    if (unseen && !(this.batches.length && this.batches.at(-1).gap)) this.batches.push({ gap: true, events: [] });
    this.version = Math.max(this.version, version);
    this.save();
  }

  /** Add one update's events (seen at `version`) with the table's memo of its view and the
   * seats' names then (`players` [{seat, name, bot_level}]: a line keeps the name of whoever
   * made the move, also after the computer took the seat over; a bot is kept by its level, so
   * its name is said in the page's language when the log is drawn); nothing for an update
   * without events. Past `keep` batches the oldest are dropped and one gap batch {gap: true,
   * dropped: true} stands first in their place (a gap it follows is dropped with them). */
  add(events, version, memo = null, players = []) {
    this.version = Math.max(this.version, version);
    if (!events.length) return;
    const names = players.map(({ seat, name, bot_level }) => ({ seat, name, bot_level }));
    this.batches.push(memo === null ? { events, names } : { events, memo, names });
    if (this.batches.length > this.keep) {
      const rest = this.batches.slice(this.batches.length - this.keep + 1);
      while (rest[0].gap) rest.shift();
      this.batches = [{ gap: true, dropped: true, events: [] }, ...rest];
    }
    this.save();
  }

  /** Whether the kept batches lack part of the match: a gap among them (the page was not
   * connected while versions passed, or the oldest batches were dropped). */
  hasGap() {
    return this.batches.some((batch) => batch.gap);
  }

  /** The events of the last batch that had any ([] when none). */
  last() {
    const batch = this.batches.findLast((entry) => !entry.gap);
    return batch ? batch.events : [];
  }

  /** Every event received in this match, oldest first. */
  all() {
    return this.batches.flatMap((batch) => batch.events);
  }

  save() {
    if (!this.key) return;
    try {
      sessionStorage.setItem(this.key, JSON.stringify({ version: this.version, batches: this.batches }));
    } catch {
      // storage full: the log of this page still shows what it received
    }
  }
}

/** The seats' names a batch's lines use: those kept with it (a bot's in the page's language), or
 * the room's now. */
function batchPlayers(batch, ctx) {
  return batch.names ? batch.names.map((entry) => ({ ...entry, name: seatName(entry) })) : ctx.players;
}

/** Every kept batch as a table reads it (ctx.batches, games/README.md): `{events, players}`, the
 * seats' players when it came (names as `batchPlayers`), or `{gap: true, events: []}`. `ctx`
 * gives the players of a batch kept without names. */
export function namedBatches(received, ctx) {
  return received.batches.map((batch) => (batch.gap ? { gap: true, events: [] }
    : { events: batch.events, players: batchPlayers(batch, ctx) }));
}

/** The log entries [{text, gap?}] of every kept batch for `module` and ctx (a gap's line says
 * whether the page was not connected or dropped the oldest batches); the first batch kept, when
 * no gap stands before it, is the match's first move (ctx.opening, games/README.md). */
export function logEntries(received, module, ctx) {
  return received.batches.flatMap((batch, index) => (batch.gap
    ? [{ text: t(batch.dropped ? "log.dropped" : "log.gap"), gap: true }]
    : batchLines(module, batch.events, { ...ctx, memo: batch.memo, players: batchPlayers(batch, ctx),
      opening: index === 0 })
      .map((text) => ({ text }))));
}

/**
 * Draw the log `entries` [{text, gap?, step?, current?}] into the list `list` (only when they
 * changed), newest last, keeping it scrolled to the newest line unless the reader scrolled up.
 */
export function renderLog(list, entries) {
  const key = JSON.stringify(entries);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren(...(entries.length ? entries.map((entry) => h("li", {
    class: ["log-line", entry.gap && "log-gap muted", entry.current && "log-current"],
    "data-testid": "log-line", "data-step": entry.step, "aria-current": entry.current ? "step" : null,
    text: entry.text })) : [h("li", { class: "muted", text: t("log.empty") })]));
  const current = list.querySelector(".log-current");
  if (current) {  // the step shown in a replay: in the middle of the list (the page stays put)
    list.scrollTop += current.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientHeight / 2;
  } else if (atBottom) list.scrollTop = list.scrollHeight;
}
