// The room's system lines in the chat: who disconnected, who is back, whose seat the computer
// took over, who left — derived in the browser from what the server already sends: `presence
// {online: [seat]}` frames and the room's seats (`room` frames and the room in `update`s).
// Bots have no socket, so they are never "online" and never get a presence line.

import { t } from "./i18n.js";
import { isBotName, seatName } from "./bots.js";

function holder(room, seat) {
  return room.seats.find((entry) => entry.seat === seat) || null;
}

function person(entry) {
  return Boolean(entry && entry.player_id !== null && !isBotName(entry.name));
}

/**
 * The lines for a presence change in `room` from the seats online `before` to `after` (arrays
 * of seat numbers): a seat held by a person that dropped out is "disconnected" while a match is
 * played and "left the room" otherwise; one that came back "is back". Returns [str].
 */
export function presenceLines(room, before, after) {
  const lines = [];
  const status = room.status;
  for (const seat of before.filter((s) => !after.includes(s))) {
    const entry = holder(room, seat);
    if (!person(entry)) continue;
    const key = status === "playing" ? "system.disconnected" : "system.left";
    lines.push(t(key, { name: seatName(entry.name) }));
  }
  for (const seat of after.filter((s) => !before.includes(s))) {
    const entry = holder(room, seat);
    if (person(entry) && status === "playing") lines.push(t("system.back", { name: seatName(entry.name) }));
  }
  return lines;
}

/**
 * The lines for a change of the room's seats from `before` to `after` (Room objects of the same
 * room): a person's seat handed to a bot (three timeouts in a row) is "now played by the
 * computer"; a seat freed "left the room"; a seat taken "took seat n". Returns [str].
 */
export function seatLines(before, after) {
  if (!before || !after || before.code !== after.code) return [];
  const lines = [];
  for (const entry of after.seats) {
    const old = holder(before, entry.seat);
    if (!old || old.player_id === entry.player_id) continue;
    if (old.player_id !== null && entry.player_id !== null && isBotName(entry.name) && !isBotName(old.name)) {
      lines.push(t("system.bot_took_over", { name: seatName(old.name) }));
    } else if (old.player_id !== null && entry.player_id === null) {
      lines.push(t("system.left", { name: seatName(old.name) }));
    } else if (entry.player_id !== null) {
      lines.push(t("system.sat_down", { name: seatName(entry.name), n: entry.seat + 1 }));
    }
  }
  return lines;
}
