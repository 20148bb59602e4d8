// Room chat: keep the last messages and draw them (names and text as plain text only).
// Message frame: {seat: int|null, name: str, text: str, team: bool, at: unix seconds|ISO}; the
// room's own system lines (presence_lines.js) are {system: true, text, at}.

import { byId, h, replace } from "./dom.js";
import { formatClock, t } from "./i18n.js";

const KEEP = 200;

/** Append a chat frame to `log` (an array), dropping the oldest beyond 200. */
export function addChatMessage(log, frame) {
  log.push(frame);
  if (log.length > KEEP) log.splice(0, log.length - KEEP);
}

function timeText(at) {
  return formatClock(at);
}

function systemItem(message) {
  return h("li", { class: "chat-system", "data-testid": "system-line" },
    h("span", { class: "chat-time muted", text: timeText(message.at) }),
    h("span", { class: "chat-text", text: message.text }));
}

function messageItem(message) {
  if (message.system) return systemItem(message);
  const who = message.seat === null || message.seat === undefined ? t("chat.spectator") : message.name;
  return h("li", { class: ["chat-message", message.team && "chat-team"] },
    h("span", { class: "chat-time muted", text: timeText(message.at) }),
    message.team ? h("span", { class: "team-tag", text: t("chat.team_tag") }) : null,
    h("strong", { class: "chat-name", text: who }),
    h("span", { class: "chat-text", text: message.text }));
}

/** Redraw the chat log (only when it changed), keeping it scrolled to the newest message. */
export function renderChat(list, log) {
  if (list.dataset.count === String(log.length) && list.dataset.last === String(log.at(-1)?.at)) return;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  replace(list, log.length ? log.map(messageItem) : h("li", { class: "muted", text: t("chat.empty") }));
  list.dataset.count = String(log.length);
  list.dataset.last = String(log.at(-1)?.at);
  if (atBottom) list.scrollTop = list.scrollHeight;
}

/** Show the "team only" checkbox when my side has more than one seat. */
export function renderChatToggle(side, seats) {
  const mates = side === null ? 0 : seats.filter((seat) => seat.side === side).length;
  byId("team-label").hidden = mates < 2;
}
