// The room's system lines in the chat: who disconnected, who is back, whose seat the computer
// took over, who left — derived in the browser from what the server already sends: `presence
// {online: [seat]}` frames and the room's seats (`room` frames and the room in `update`s).
// Bots have no socket, so they are never "online" and never get a presence line.

import { t } from "./i18n.js";
import { isBot, seatName } from "./bots.js";

/** How long a seat may be offline before "disconnected" is posted: a page that reloads or
 * reconnects (a seat taken, a network blip) is back well within it. */
export const GRACE_MS = 3000;

function holder(room, seat) {
  return room.seats.find((entry) => entry.seat === seat) || null;
}

function person(entry) {
  return Boolean(entry && entry.player_id !== null && !isBot(entry));
}

/**
 * Who is away, for one room page: call `change(room, online)` on every presence frame;
 * `post(lines)` receives the lines to show. A person's seat that drops out is announced after
 * GRACE_MS if it is still out ("disconnected", or "left the room" once the match is over); one
 * announced disconnected that comes back "is back". `away(seat)` says whether a seat is
 * announced away now (its clock is shown as such).
 */
export class PresenceWatch {
  constructor(post, graceMs = GRACE_MS) {
    this.post = post;
    this.graceMs = graceMs;
    this.online = null;
    this.announced = new Set();
    this.timers = new Map();
    this.room = null;
  }

  /** Whether `seat` was announced as disconnected and has not come back. */
  away(seat) {
    return this.announced.has(seat);
  }

  change(room, online) {
    this.room = room;
    const before = this.online;
    this.online = online;
    if (before === null) return;
    for (const seat of before.filter((s) => !online.includes(s))) {
      if (!person(holder(room, seat)) || this.timers.has(seat)) continue;
      this.timers.set(seat, setTimeout(() => this.announce(seat), this.graceMs));
    }
    for (const seat of online.filter((s) => !before.includes(s))) {
      clearTimeout(this.timers.get(seat));
      this.timers.delete(seat);
      if (this.announced.delete(seat)) {
        const entry = holder(this.room, seat);
        if (entry) this.post([t("system.back", { name: seatName(entry) })]);
      }
    }
  }

  announce(seat) {
    this.timers.delete(seat);
    const entry = holder(this.room, seat);
    if (!person(entry) || this.online.includes(seat)) return;
    const over = this.room.status === "finished" || this.room.status === "abandoned";
    if (!over) this.announced.add(seat);
    this.post([t(over ? "system.left" : "system.disconnected", { name: seatName(entry) })]);
  }
}

/**
 * The lines for a change of the room's seats from `before` to `after` (Room objects of the same
 * room): a person's seat handed to a bot (three timeouts in a row) is "now played by the
 * computer"; a seat freed "left seat n" (the player may still be watching); a seat taken "took
 * seat n". Returns [str].
 */
export function seatLines(before, after) {
  if (!before || !after || before.code !== after.code) return [];
  const lines = [];
  for (const entry of after.seats) {
    const old = holder(before, entry.seat);
    if (!old || old.player_id === entry.player_id) continue;
    if (old.player_id !== null && entry.player_id !== null && isBot(entry) && !isBot(old)) {
      lines.push(t("system.bot_took_over", { name: seatName(old) }));
    } else if (old.player_id !== null && entry.player_id === null) {
      lines.push(t("system.left_seat", { name: seatName(old), n: old.seat + 1 }));
    } else if (entry.player_id !== null) {
      lines.push(t("system.sat_down", { name: seatName(entry), n: entry.seat + 1 }));
    }
  }
  return lines;
}
