// Play vs computer: the lobby's "fill empty seats with bots" choice and the
// room's button that does the same in an open room. The server seats the bots
// (POST /api/rooms/{code}/bots {level}); a match with bots is unrated.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The bot levels, weakest first ("none" = wait for people). */
export const BOT_CHOICES = ["none", "random", "greedy"];

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
    BOT_CHOICES.slice(1).map((level) => h("option", { value: level, text: t(`bots.level.${level}`) })));
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

/** The names the server gives its bot players (app/rooms/bots.py BOT_NAMES), by level. */
const BOT_NAMES = { "Random bot": "random", "Greedy bot": "greedy" };

/** A seat holder's name for display: a bot's name in the page's language, else as is. */
export function seatName(name) {
  const level = BOT_NAMES[name];
  return level ? t(`bots.name.${level}`) : name;
}

/** Whether `name` is the name of a bot player (bots are never online: they have no socket). */
export function isBotName(name) {
  return Object.hasOwn(BOT_NAMES, name || "");
}
