// Room chat: keep the last messages and draw them (names and text as plain text only).
// Message frame: {id: str, seat: int|null, name: str, text: str, team: bool, at: unix
// seconds|ISO}; a `chat_history` frame (after a welcome) carries earlier ones in `lines`, oldest
// first, drawn like live ones; the room's own system lines (presence_lines.js) are
// {system: true, text, at}. A line given twice (live and in a history: one `id`) is kept once.
// The form's "team only" checkbox (a seat with teammates who read) stays checked after a line is sent,
// and the form says so ("Send to team").

import { byId, h, replace } from "./dom.js";
import { formatClock, t } from "./i18n.js";
import { isBot } from "./bots.js";
import { teammatesOf } from "./teams.js";

const KEEP = 200;

function keepNewest(log) {
  if (log.length > KEEP) log.splice(0, log.length - KEEP);
}

/** Append a chat frame to `log` (an array), dropping the oldest beyond 200; a line already in
 * it (the same `id`) is not added again. */
export function addChatMessage(log, frame) {
  if (frame.id !== undefined && log.some((line) => line.id === frame.id)) return;
  log.push(frame);
  keepNewest(log);
}

/** Add a `chat_history` frame's `lines` (oldest first) to `log`, dropping the oldest beyond
 * 200: each line not in it yet (by `id`) goes right before the next history line it already
 * has (at the end when none), so the lines stay in the server's order around what the page
 * showed before (a reconnect's history repeats lines already shown; a spectator seated again
 * also gets its team's earlier lines). */
export function addChatHistory(log, lines) {
  let next = log.length;
  for (const line of [...lines].reverse()) {
    const index = log.findIndex((shown) => shown.id === line.id);
    if (index >= 0) next = index;
    else log.splice(next, 0, line);
  }
  keepNewest(log);
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

/** What tells one drawn log from another: its length and its first and last lines (a history
 * may add lines in the middle, and drop the oldest beyond 200). */
function logKey(log) {
  const mark = (line) => (line ? line.id ?? String(line.at) : "");
  return `${log.length}|${mark(log[0])}|${mark(log.at(-1))}`;
}

/** Redraw the chat log (only when it changed), keeping it scrolled to the newest message. */
export function renderChat(list, log) {
  const key = logKey(log);
  if (list.dataset.key === key) return;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  replace(list, log.length ? log.map(messageItem) : h("li", { class: "muted", text: t("chat.empty") }));
  list.dataset.key = key;
  if (atBottom) list.scrollTop = list.scrollHeight;
}

/** Whether a team line from `seat` (null: a spectator) has a reader in `room`: a teammate seat
 * (`teammatesOf`: a seat of a 2v2 / 3v3 room, before the start too — the server delivers team
 * lines then) held by a person, or empty (whoever sits there gets the line in its chat
 * history); a bot reads nothing. */
export function teamLineHasReader(room, seat) {
  const holder = (mate) => room.seats.find((entry) => entry.seat === mate);
  return teammatesOf(room, seat).some((mate) => !isBot(holder(mate)));
}

/** Show the "team only" checkbox when a team line has a reader (`teamLineHasReader`), never
 * to a spectator; then say on the form who will read the next line (`paintChatAudience`). */
export function renderChatToggle(room, seat) {
  byId("team-label").hidden = !teamLineHasReader(room, seat);
  paintChatAudience();
}

/** Whether the next line goes to the own team only: the checkbox is shown and checked. */
export function teamChosen() {
  return !byId("team-label").hidden && byId("chat-team").checked;
}

/** Say on the chat form who reads the next line: while "team only" is chosen the button reads
 * "Send to team", the empty field "Message your team…" and the form is outlined; else "Send"
 * and "Say something…". The choice stays after a line is sent (a second team line never
 * leaks to the other side), so the form must keep saying it. */
export function paintChatAudience() {
  const team = teamChosen();
  byId("chat-form").classList.toggle("chat-form-team", team);
  byId("chat-send").textContent = t(team ? "chat.send_team" : "chat.send");
  byId("chat-input").placeholder = t(team ? "chat.placeholder_team" : "chat.placeholder");
}
