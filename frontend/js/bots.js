// Play vs computer: the lobby's "fill empty seats with bots" choice and the room's button that
// does the same in an open room. The server seats the bots (POST /api/rooms/{code}/bots {level});
// a match with bots is unrated. A seat's `bot_level` (room and match JSON) says it holds a bot.
// A match seat's `occupants` list everyone who played it, each `from_step` on: a bot that took
// over a seat that kept timing out follows the player it replaced (docs/protocol.md).

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The bot levels, weakest first (engine.bots.LEVELS). */
export const BOT_LEVELS = ["easy", "normal", "hard", "expert"];
/** The lobby's choices: "none" (wait for people), then the levels. */
export const BOT_CHOICES = ["none", ...BOT_LEVELS];

/** A form row with the bot level select (id "bots-select"). */
export function botChoiceRow() {
  const select = h("select", { id: "bots-select", name: "bots", "data-testid": "bots-select" },
    BOT_CHOICES.map((level) => h("option", { value: level, text: t(`bots.level.${level}`) })));
  return h("div", { class: ["option-row", "option-choice", "bots-row"] },
    h("label", { for: "bots-select", text: t("bots.fill") }), select,
    h("p", { class: "muted small", text: t("bots.unrated") }));
}

/** Seat bots of `level` in every free seat of room `code`; return the room JSON. */
export function fillWithBots(code, level) {
  return api(`/api/rooms/${encodeURIComponent(code)}/bots`, { method: "POST", auth: true, body: { level } });
}

/** Seat the creator of room `code` in its first seat (index 0); return the room JSON. */
export function claimFirstSeat(code) {
  return api(`/api/rooms/${encodeURIComponent(code)}/seats/0`, { method: "POST", auth: true });
}

/** The room's "Fill empty seats with bots" controls (for the creator of an open room), or null. */
export function fillButton(room, playerId, onDone, onError) {
  const free = room.seats.some((seat) => seat.player_id === null);
  if (room.status !== "open" || room.creator_id !== playerId || !free) return null;
  const select = h("select", { "data-testid": "room-bots-level", "aria-label": t("bots.level_label") },
    BOT_LEVELS.map((level) => h("option", { value: level, text: t(`bots.level.${level}`) })));
  const button = h("button", { class: "button button-small", "data-testid": "room-fill-bots",
    text: t("bots.fill_button"), onclick: async () => {
      button.disabled = true;
      try {
        onDone(await fillWithBots(room.code, select.value));
      } catch (error) {
        button.disabled = false;
        onError(error);
      }
    } });
  return h("div", { class: "bots-fill" }, select, button);
}

/** A seat holder's name for display: a bot's level name in the page's language, else as is. */
export function seatName(entry) {
  return isBot(entry) ? t(`bots.name.${entry.bot_level}`) : entry.name;
}

/** The name of `seat` among `seats` ([{seat, name, bot_level}]: a room's or a match's seats,
 * a table's players): seatName of its entry (`apart` from a namesake), "Seat n" for a seat
 * nobody holds. */
export function nameOfSeat(seats, seat) {
  const entry = (seats || []).find((s) => s.seat === seat);
  if (!entry || !entry.name) return t("room.seat_n", { n: seat + 1 });
  const name = seatName(entry);
  return apart(name, seat, (seats || []).filter((s) => s.name && seatName(s) === name).length);
}

/** `name` of `seat`, followed by " · Seat n" when `holders` (how many seats show that name) is
 * more than one: three "Normal bot"s, or two people called Ann, read apart (`tr`: the t of
 * the caller's texts). */
export function apart(name, seat, holders, tr = t) {
  return holders > 1 ? `${name} · ${tr("room.seat_n", { n: seat + 1 })}` : name;
}

/** Whether seat `entry` holds a bot (bots are never online: they have no socket). */
export function isBot(entry) {
  return Boolean(entry && entry.bot_level);
}

/** Everyone who played match seat `entry` (a `MatchSummary` seat), in order, each with its
 * `from_step`: the player seated at the start first. */
export function occupantsOf(entry) {
  return entry.occupants && entry.occupants.length ? entry.occupants : [{ ...entry, from_step: 1 }];
}

/** The occupant of match seat `entry` who played step `step` (an action's `seq`): the last
 * whose `from_step` is at most `step` (the one seated at the start for the deal, step 0). */
export function occupantAt(entry, step) {
  const all = occupantsOf(entry);
  return all.filter((o) => o.from_step !== null && o.from_step <= step).at(-1) || all[0];
}

/** "replaced by Normal bot from step 6" for each occupant after the first of match seat `entry`
 * (without the step while the match is played: the server tells it once the match is over). */
export function replacedNotes(entry) {
  return occupantsOf(entry).slice(1).map((o) => (o.from_step === null
    ? t("match.replaced", { bot: seatName(o) })
    : t("match.replaced_from", { bot: seatName(o), n: o.from_step })));
}

/** Match seat `entry`'s players for lists: the one seated at the start, and who replaced them
 * ("Bob (replaced by Normal bot from step 6)"). */
export function matchSeatName(entry) {
  return replacedNotes(entry).reduce((name, note) => t("match.seat_replaced", { name, note }),
    seatName(occupantsOf(entry)[0]));
}

/** Match seat `entry`'s players, short ("Bob → Normal bot"), where no step applies (a ladder
 * card, a score sheet). */
export function seatNames(entry) {
  return occupantsOf(entry).map(seatName).join(" → ");
}
