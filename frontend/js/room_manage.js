// Room management in the room shell: the creator removes a seated player
// before the start (DELETE /api/rooms/{code}/seats/{seat}); "play again" after the match
// (POST /api/rooms/{code}/rematch: the rematch starts in the same room with the same seats once
// every seated person asked); the private-room notice; noticing that my seat was taken from me.

import { api, getPlayer } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { confirmDialog, toastError } from "./ui.js";

const roomPath = (code) => `/api/rooms/${encodeURIComponent(code)}`;

/** The creator's "Remove" button for another person's seat in an open room, else null.
 * `onRoom(room)` receives the room after the removal. */
export function kickButton(room, entry, onRoom) {
  const me = getPlayer();
  const allowed = me && room.status === "open" && room.creator_id === me.id
    && entry.player_id !== null && entry.player_id !== me.id;
  if (!allowed) return null;
  return h("button", {
    class: "button button-small button-danger", "data-testid": `remove-seat-${entry.seat}`,
    text: t("manage.remove"), "aria-label": t("manage.remove_label", { name: entry.name }),
    onclick: async () => {
      const ok = await confirmDialog({ title: t("manage.remove_title", { name: entry.name }),
        body: t("manage.remove_body"), confirm: t("manage.remove") });
      if (!ok) return;
      try {
        onRoom(await api(`${roomPath(room.code)}/seats/${entry.seat}`, { method: "DELETE", auth: true }));
      } catch (error) {
        toastError(error);
      }
    },
  });
}

/** Whether a Room from a REST answer (`answer`) names an older match than the Room held
 * (`held`): the answer is a snapshot taken when its request committed, and the socket may have
 * brought a newer match since (another server process started the rematch meanwhile). */
export function olderRoom(held, answer) {
  if (!held || held.match_id === null || held.match_id === undefined) return false;
  return answer.match_id === null || answer.match_id === undefined
    || answer.match_id < held.match_id;
}

/** Whether `seat` (the seat this socket was greeted with) no longer holds me in `room`. */
export function lostMySeat(room, seat) {
  if (seat === null || seat === undefined) return false;
  const me = getPlayer();
  const entry = room.seats.find((s) => s.seat === seat);
  return !me || !entry || entry.player_id !== me.id;
}

function rematchControls(room, seat, onRoom) {
  const asked = room.rematch || [];
  const count = t("manage.rematch_count", { n: asked.length, total: room.seats.length });
  if (seat === null) {
    return asked.length ? h("p", { class: "muted", text: count }) : null;
  }
  if (asked.includes(seat)) {
    return h("p", { class: "rematch-waiting", "data-testid": "rematch-waiting", role: "status" },
      t("manage.rematch_waiting"), " ", h("span", { class: "muted", text: count }));
  }
  const button = h("button", { class: "button button-primary", "data-testid": "rematch",
    "data-key": "rematch", text: t("manage.rematch"), onclick: async () => {
      button.disabled = true;
      try {
        onRoom(await api(`${roomPath(room.code)}/rematch`, { method: "POST", auth: true }));
      } catch (error) {
        button.disabled = false;
        toastError(error);
      }
    } });
  return h("div", { class: "rematch" }, button,
    h("p", { class: "muted small", text: asked.length ? count : t("manage.rematch_help") }));
}

/** Fill `slot`: the private-room notice, and "play again" once the match is finished.
 * `seat` is my seat or null; redrawn only when something it shows changed (keeps focus). */
export function renderManage(slot, { room, seat, onRoom }) {
  const key = JSON.stringify([room.status, room.private, room.rematch, seat, room.match_id]);
  if (slot.dataset.key === key) return;
  slot.dataset.key = key;
  replace(slot,
    room.private ? h("p", { class: "private-note", "data-testid": "private-note",
      text: t("manage.private_note") }) : null,
    room.status === "finished" ? rematchControls(room, seat, onRoom) : null);
}
