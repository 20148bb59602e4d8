// Lobby pieces: the "my games" list (GET /api/account/rooms: the open,
// playing and finished rooms I hold a seat in, private ones included) and the room settings of
// the create form (a private room, listed nowhere; what happens to a seat that keeps timing out).

import { api, getPlayer } from "./api.js";
import { dataKey, h, patchChildren, replace } from "./dom.js";
import { gameTitle, t } from "./i18n.js";

/** The create form's extra rows: "private room" and "after 3 timeouts in a row". */
export function roomSettingsRows() {
  return h("div", { class: "room-settings" },
    h("div", { class: "option-row" },
      h("label", {}, h("input", { type: "checkbox", id: "private-room", "data-testid": "private-room" }),
        " ", t("manage.private_label")),
      h("p", { class: "muted small", text: t("manage.private_help") })),
    h("div", { class: ["option-row", "option-choice"] },
      h("label", { for: "on-timeouts", text: t("manage.timeouts_label") }),
      h("select", { id: "on-timeouts", "data-testid": "on-timeouts" },
        ["bot", "forfeit"].map((value) => h("option", { value, text: t(`manage.timeouts.${value}`) })))));
}

/** The create body's fields read from roomSettingsRows(): {private, on_timeouts}. */
export function readRoomSettings() {
  return {
    private: document.getElementById("private-room").checked,
    on_timeouts: document.getElementById("on-timeouts").value,
  };
}

function myRoomItem(room, games) {
  const game = games.find((entry) => entry.id === room.game);
  return h("li", { class: "room-item", "data-code": room.code },
    h("div", { class: "room-item-main" },
      h("strong", { text: gameTitle(game && game.titles, room.game) }),
      h("span", { class: "code", text: room.code }),
      room.private ? h("span", { class: "small", text: t("manage.private") }) : null,
      h("span", { class: "small", text: t(`room.status.${room.status}`) })),
    h("a", { class: "button", href: `/room/${encodeURIComponent(room.code)}`, text: t("mine.open") }));
}

/** My rooms (GET /api/account/rooms), or null without an identity. */
export async function myRooms() {
  return getPlayer() ? api("/api/account/rooms", { auth: true }) : null;
}

/** Fill `list` with `rooms` (from myRooms: null, nothing to show without an identity); `games`
 * is the catalog. */
export function renderMyGames(list, rooms, games) {
  if (rooms === null) {
    replace(list, h("li", { class: "muted empty", text: t("mine.none") }));
    delete list.dataset.json;
    return;
  }
  const json = JSON.stringify(rooms);
  if (list.dataset.json === json) return;
  list.dataset.json = json;
  patchChildren(list, rooms.length ? rooms.map((room) => myRoomItem(room, games))
    : h("li", { class: "muted empty", text: t("mine.none") }), dataKey("code"));
}
