// Room page (/room/{code}): the game-agnostic shell around a per-game module.
// Handles seats (claim / leave via REST), the websocket (status, reconnect), spectator mode,
// clocks, error toasts, chat, presence, resign with confirm and the game-over banner; the table
// itself is drawn by frontend/games/<game>.js (interface: frontend/games/README.md).

import { api, clearPlayer, getGames, getPlayer, withRetries } from "./api.js";
import { byId, h, patchChildren, replace } from "./dom.js";
import { ensurePlayer } from "./identity.js";
import { foldable } from "./fold.js";
import { gameTitle, has, t } from "./i18n.js";
import { optionsSummary } from "./options.js";
import { initPage, renderIdentity, setTitle } from "./page.js";
import { addChatHistory, addChatMessage, paintChatAudience, renderChat, renderChatToggle,
  teamChosen } from "./chat.js";
import { RoomSocket } from "./socket.js";
import { confirmDialog, countdown, startClockTicker, toast, toastError } from "./ui.js";
import { renderBanner } from "./banner.js";
import { renderCommitment } from "./fairness.js";
import { installLongPress } from "./explain.js";
import { teamSeatItems } from "./teams.js";
import { fillButton, isBot, seatName } from "./bots.js";
import { kickButton, lostMySeat, olderRoom, renderManage } from "./room_manage.js";
import { soundToggle, updateTurnAlert } from "./turn_alert.js";
import { ReceivedEvents, logEntries, memoOf, namedBatches, renderLog } from "./move_log.js";
import { fetchReplay, replayPast } from "./replay_steps.js";
import { PresenceWatch, seatLines } from "./presence_lines.js";
import { PressGate } from "./press_gate.js";

const PENDING_TIMEOUT_MS = 8000;
const code = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");

const state = {
  room: null, game: null, seat: null, version: 0, view: null, prompt: null, legal: [],
  deadline: null, clocks: {}, events: [], online: [], spectators: 0, status: "connecting",
  pending: false, chat: [], welcomed: false,
};
/** The events this viewer received in the room's match (the move log, the last move). */
const received = new ReceivedEvents();
/** The past of a finished match this page did not see whole (`pastFromReplay`), read from the
 * match's replay seen from this page's seat (`replay_steps.js` `replayPast`: the move log and
 * the events the table derives "what just happened" from), for `key` (match and seat); `past`
 * is null until the replay came. */
const replayed = { key: null, past: null };
/** Who is away (presence frames), posting "disconnected" / "is back" lines in the chat. */
const presenceWatch = new PresenceWatch((lines) => {
  postSystem(lines);
  renderPresence();
});
let socket = null;
let gameModule = null;
let pendingTimer = null;
/** Shows the "More" button of the options line while a phone cuts it (`foldable`). */
let refreshSub = null;
/** Holds the page's redraws while a press is held on it (`render`). */
const gate = new PressGate(byId("main"));

// ------------------------------------------------------------------ who am I

/** My seat: the server's answer once welcomed, else the room's seat list (before the welcome). */
function mySeat() {
  if (state.welcomed || (state.seat !== null && state.seat !== undefined)) return state.seat;
  const player = getPlayer();
  const mine = player && state.room && state.room.seats.find((seat) => seat.player_id === player.id);
  return mine ? mine.seat : null;
}

function matchRunning() {
  return Boolean(state.view) && !state.view.outcome && state.room.status === "playing";
}

// ------------------------------------------------------------------ actions

function setPending(value) {
  state.pending = value;
  clearTimeout(pendingTimer);
  if (value) pendingTimer = setTimeout(() => {
    setPending(false);
    render();
  }, PENDING_TIMEOUT_MS);
}

/** Send `action` answering `prompt` (the decision of the table that offered it: a table drawn
 * before a newer frame came, while a press held the redraw back, answers its own, and the
 * server refuses it as `stale_prompt` when the decision moved on); false when an action is
 * already on its way or the page is offline. */
function act(action, prompt = state.prompt) {
  if (state.pending || !socket) return false;
  if (!socket.send({ type: "act", prompt, action })) {
    toast(t("error.not_connected"), "error");
    return false;
  }
  setPending(true);
  render();
  return true;
}

async function resign() {
  const ok = await confirmDialog({
    title: t("room.resign_title"), body: t("room.resign_body"), confirm: t("room.resign_confirm"),
  });
  if (ok && !socket.send({ type: "act", prompt: state.prompt, action: { type: "resign" } })) {
    toast(t("error.not_connected"), "error");
  }
}

async function claimSeat(seat) {
  if (!(await ensurePlayer())) return;
  try {
    takeRoom(await api(`/api/rooms/${encodeURIComponent(code)}/seats/${seat}`, { method: "POST", auth: true }));
    state.welcomed = false;  // the room's seat list speaks until the new welcome
    socket.restart();
  } catch (error) {
    toastError(error);
  }
  render();
}

/** The lobby's "Join" link (`?seat=any`): take the first free seat the way "Take seat" does
 * (the name dialog first for a page without a player), or show the refusal (`room_not_open`,
 * `no_free_seat`: without a dialog when it is known before) and stay a spectator. The
 * parameter leaves the address first, so a reload does not sit again. */
async function joinFromLink() {
  const params = new URLSearchParams(location.search);
  if (params.get("seat") !== "any") return;
  params.delete("seat");
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
  const free = () => state.room.seats.find((seat) => seat.player_id === null);
  const refusal = () => (state.room.status !== "open" ? "room_not_open" : free() ? null : "no_free_seat");
  if (mySeat() !== null) return;
  if (!refusal() && !(await ensurePlayer())) return;  // the name dialog was dismissed
  if (mySeat() !== null) return;
  if (refusal()) toastError({ code: refusal() });
  else await claimSeat(free().seat);
}

async function leaveSeat(seat) {
  try {
    takeRoom(await api(`/api/rooms/${encodeURIComponent(code)}/seats/${seat}`, { method: "DELETE", auth: true }));
    state.seat = null;
    socket.restart();
  } catch (error) {
    toastError(error);
  }
  render();
}

// ------------------------------------------------------------------ frames

/** Toast each `timeout {seat}` event: the server acted for a seat whose clock ran out. */
function announceTimeouts(events) {
  for (const event of events.filter((e) => e.kind === "timeout")) {
    const seat = event.data.seat;
    if (seat === mySeat()) toast(t("room.timeout_mine"));
    else {
      const entry = state.room.seats.find((s) => s.seat === seat);
      toast(t("room.timeout_other", { name: entry && entry.name ? entry.name : t("room.seat_n", { n: seat + 1 }) }));
    }
  }
}

/** Post a system line (presence, seats) in the chat. */
function postSystem(lines) {
  for (const text of lines) addChatMessage(state.chat, { system: true, text, at: Date.now() / 1000 });
}

/** Take the room of a frame: post what changed in its seats, keep it. */
function takeRoom(room) {
  if (!room) return;
  postSystem(seatLines(state.room, room));
  state.room = room;
}

const HANDLERS = {
  welcome(frame) {
    takeRoom(frame.room);
    Object.assign(state, {
      welcomed: true, seat: frame.seat ?? null, version: frame.version ?? 0,
      view: frame.view ?? null, prompt: frame.prompt ?? null, legal: frame.legal || [],
      deadline: frame.deadline ?? null, clocks: frame.clocks || {}, events: [],
    });
    received.open(state.room.match_id, state.seat);
    if (state.view) received.greet(state.version);
    setPending(false);
  },
  update(frame) {
    takeRoom(frame.room);
    Object.assign(state, {
      version: frame.version, view: frame.view ?? null, prompt: frame.prompt ?? null,
      legal: frame.legal || [], deadline: frame.deadline ?? null, clocks: frame.clocks || {},
      events: [...state.events, ...(frame.events || [])],  // with those a held redraw has not drawn
    });
    const events = frame.events || [];
    received.open(state.room.match_id, state.seat);
    received.add(events, state.version, memoOf(gameModule, state.view), gameContext().players);
    setPending(false);
    announceTimeouts(events);
  },
  room(frame) {
    const started = state.room && state.room.status === "open" && frame.room.status !== "open";
    takeRoom(frame.room);
    // Removed by the creator, or replaced by a bot: greet again (as a spectator).
    if (lostMySeat(frame.room, state.seat)) socket.restart();
    // A match that starts without an update to this socket: ask for a fresh welcome.
    if (started && !state.view) setTimeout(() => !state.view && socket.restart(), 1500);
  },
  error(frame) {
    setPending(false);
    toastError(frame);
    if (frame.code === "unauthorized") {  // hello's token is no player's: watching from now on
      clearPlayer();
      renderIdentity();
    }
  },
  chat(frame) {
    addChatMessage(state.chat, frame);
  },
  chat_history(frame) {
    addChatHistory(state.chat, frame.lines || []);
  },
  presence(frame) {
    state.online = frame.online || [];
    presenceWatch.change(state.room, state.online);
    state.spectators = frame.spectators || 0;
  },
  pong() {},
};

/** The frames that leave the match as it was (chat lines, who is online or watching, a pong)
 * and what each redraws instead of the whole page: not the table, whose buttons must stay in
 * the document (Chromium drops a click whose button left it between press and release). Every
 * other frame redraws the page, through the press gate (`render`). */
const PANELS_ONLY = {
  chat: renderChatLog,
  chat_history: renderChatLog,
  presence: renderPresence,
  pong: () => {},
};

function onFrame(frame) {
  const handler = HANDLERS[frame.type];
  if (!handler) return;
  handler(frame);
  (PANELS_ONLY[frame.type] || render)();
}

function onStatus(status) {
  state.status = status;
  if (status !== "connected") setPending(false);
  renderStatus();
  gate.run(renderTable);
}

// ------------------------------------------------------------------ rendering

/** Whether the game module keeps the result to itself for now (an optional module export
 * `holdsOutcome(root)`, e.g. while Reverse Curse plays back the set that ended the match). */
function outcomeHeld() {
  return Boolean(gameModule && gameModule.holdsOutcome && gameModule.holdsOutcome(byId("table")));
}

/** The invite link stays open while seats are free and folds away once they are all taken (the
 * table then starts higher on a phone); the reader may open it again. */
let seatsWereFull = null;
function renderShare() {
  const full = !state.room.seats.some((entry) => entry.player_id === null);
  if (full !== seatsWereFull) byId("share").open = !full;
  seatsWereFull = full;
}

function renderHead() {
  const title = gameTitle(state.game && state.game.titles, state.room.game);
  replace(byId("room-title"), title, " ",
    h("span", { class: "room-code", text: t("room.code", { code: state.room.code }) }));
  setTitle(title, state.room.code);
  const rules = byId("rules-link");
  rules.href = `/rules/${encodeURIComponent(state.room.game)}`;
  rules.title = t("rules.of", { game: title });
  const status = outcomeHeld() ? "playing" : state.room.status;
  byId("main").dataset.status = status;
  const options = optionsSummary(state.room.options, state.game ? state.game.options : [], { game: state.room.game });
  const sub = byId("room-sub");
  const text = [t(`room.status.${status}`), options].filter(Boolean).join(" · ");
  if (sub.textContent !== text) {
    sub.textContent = text;
    refreshSub();  // "Playing" became "Finished": the line may be cut now, or fit
  }
  renderShare();
}

function renderStatus() {
  const el = byId("conn-status");
  el.dataset.status = state.status;
  replace(el, h("span", { class: "conn-dot", "aria-hidden": "true" }), t(`conn.${state.status}`));
}

function seatRow(entry) {
  const me = mySeat() === entry.seat;
  const free = entry.player_id === null;
  const open = state.room.status === "open";
  const online = state.online.includes(entry.seat);
  const clock = state.clocks[entry.seat] ?? state.clocks[String(entry.seat)];
  let button = null;
  if (open && free && mySeat() === null) {
    button = h("button", { class: "button button-small button-primary", "data-testid": `take-seat-${entry.seat}`,
      text: t("room.take_seat"), onclick: () => claimSeat(entry.seat) });
  } else if (open && me) {
    button = h("button", { class: "button button-small", "data-testid": `leave-seat-${entry.seat}`,
      text: t("room.leave_seat"), onclick: () => leaveSeat(entry.seat) });
  }
  button = button || kickButton(state.room, entry, adoptRoom);
  const side = entry.side && (has(`side.${entry.side}`) ? t(`side.${entry.side}`) : entry.side);
  return h("li", { class: ["seat", me && "seat-me", free && "seat-free"], "data-seat": entry.seat },
    h("span", { class: "seat-label", text: t("room.seat_n", { n: entry.seat + 1 }) }),
    side ? h("span", { class: ["side-tag", `side-${entry.side}`], text: side }) : null,
    h("span", { class: "seat-name", text: free ? t("room.free_seat") : seatName(entry) }),
    me ? h("span", { class: "you-tag", text: t("room.you") }) : null,
    isBot(entry) ? h("span", { class: "bot-tag", text: t("bots.tag") }) : null,
    !free && state.room.status !== "open" && !isBot(entry)
      ? h("span", { class: ["presence-tag", online ? "online" : "offline"],
        text: t(online ? "room.online" : "room.offline") }) : null,
    clock !== undefined && matchRunning() ? seatClock(clock, presenceWatch.away(entry.seat)) : null,
    button);
}

/** A seat's countdown; a disconnected seat's clock says so (it keeps running: the server plays
 * for the seat when it runs out). */
function seatClock(deadline, away) {
  const clock = countdown(deadline);
  if (!away) return clock;
  clock.classList.add("clock-away");
  return h("span", { class: "seat-clock-away", "data-testid": "clock-away" }, clock, " ",
    h("span", { class: "small", text: t("room.clock_away") }));
}

/** Redraw the seats panel in place (`patchChildren`): a seat's buttons act on that seat, which
 * their markup names, so a kept button acts as its redraw would. */
function renderSeats() {
  patchChildren(byId("seats"), teamSeatItems(state.room, seatRow, t) || state.room.seats.map(seatRow));
  renderBotFill();
  byId("presence").textContent = t("room.spectators", { n: state.spectators });
  const resignButton = byId("resign");
  resignButton.hidden = !(matchRunning() && state.seat !== null);
}

/** The creator's "fill empty seats with bots" controls in an open room. */
function renderBotFill() {
  let slot = document.getElementById("bots-fill-slot");
  if (!slot) {
    slot = h("div", { id: "bots-fill-slot" });
    byId("seats").after(slot);
  }
  const player = getPlayer();
  const key = JSON.stringify([state.room.status, state.room.seats.map((s) => s.player_id), player && player.id]);
  if (slot.dataset.key === key) return;
  slot.dataset.key = key;
  replace(slot, fillButton(state.room, player && player.id, (room) => {
    takeRoom(room);
    socket.restart();
    render();
  }, toastError));
}

function renderMode() {
  const seat = mySeat();
  const text = seat === null
    ? t(state.room.status === "open" ? "room.mode_choose" : "room.mode_spectator")
    : t("room.mode_player", { n: seat + 1 });
  byId("mode").textContent = text;
  byId("mode").dataset.mode = seat === null ? "spectator" : "player";
}

function waitingPanel() {
  const taken = state.room.seats.filter((seat) => seat.player_id !== null).length;
  const key = state.room.status === "open" ? "room.waiting" : `room.status.${state.room.status}`;
  return h("div", { class: "waiting" },
    h("p", { class: "waiting-title", text: t(key) }),
    h("p", { class: "muted", text: t("room.seats_filled", { taken, total: state.room.seats.length }) }));
}

function gameContext() {
  const prompt = state.prompt;
  const players = state.room.seats.map((entry) => ({ ...entry, name: seatName(entry) }));
  const past = replayedPast();
  return {
    view: state.view, legal: state.legal, seat: state.seat, prompt,
    deadline: state.deadline, clocks: state.clocks, events: state.events, room: state.room,
    lastEvents: past ? past.lastEvents : received.last(), history: past ? past.history : received.all(),
    batches: past ? past.batches : namedBatches(received, { players }), players,
    connected: state.status === "connected", pending: state.pending,
    act: (action) => act(action, prompt), t, countdown, refresh: render,
  };
}

function renderTable() {
  const root = byId("table");
  if (!state.room) return;
  const ctx = gameContext();
  state.events = [];  // drawn: a later redraw brings no new events
  if (!state.view || !gameModule) {
    if (root.dataset.game && gameModule && gameModule.dispose) gameModule.dispose(root);
    root.dataset.game = "";
    replace(root, waitingPanel());
    return;
  }
  root.dataset.game = state.room.game;
  try {
    gameModule.render(root, ctx);
  } catch (error) {
    console.error(error);
    replace(root, h("p", { class: "error", text: t("room.render_failed") }));
  }
}

/** Take a Room from a REST answer (removal, rematch) and redraw; an answer naming an older
 * match than the one the socket already brought is left out (`olderRoom`). */
function adoptRoom(room) {
  if (olderRoom(state.room, room)) return;
  takeRoom(room);
  render();
}

/** Redraw the page, or, while a press is held on it, right after that press's click (the
 * `PressGate`: a redraw under a held press would drop its click or move what it pressed). */
function render() {
  gate.run(draw);
}

/** Draw the whole page from `state` (`render` calls it through the press gate). */
function draw() {
  if (!state.room) return;
  renderTable();
  const held = outcomeHeld();
  renderHead();
  renderStatus();
  renderMode();
  renderSeats();
  renderCommitment(state.room);
  renderBanner(byId("banner"), { view: state.view, room: state.room, seat: mySeat(), held });
  byId("manage").hidden = held;
  renderManage(byId("manage"), { room: state.room, seat: mySeat(), onRoom: adoptRoom });
  updateTurnAlert(matchRunning() && state.legal.length > 0);
  renderChatToggle(state.room, mySeat());
  renderChatLog();
  renderMoveLog();
}

function renderChatLog() {
  renderChat(byId("chat-log"), state.chat);
}

/** The panels who is online changes: the seats (online tags, away clocks, the watching count)
 * and the chat (its "disconnected" / "is back" lines). */
function renderPresence() {
  if (!state.room) return;
  renderSeats();
  renderChatLog();
}

function renderMoveLog() {
  const panel = byId("log-panel");
  panel.hidden = !state.view;
  if (!state.view || !gameModule) return;
  const past = replayedPast();
  renderLog(byId("move-log"), past ? past.entries : logEntries(received, gameModule, gameContext()));
}

/** Whether the page takes the match's past (its move log; the events its table derives "what
 * just happened" from) from the match's replay rather than from the updates it kept: the match
 * is over and this page did not see all of it — it kept no update of it (it opened after the
 * end) or a gap (it joined or reconnected partway through, or a very long match outgrew the
 * batches the log keeps and its oldest were dropped). The replay then has every step, so
 * it replaces the kept updates whole: nothing to merge, no line twice, and no update of that
 * match comes any more. While the match is played its replay is not served (409
 * `match_not_finished`: it is built from the seed, secret until the end, any seat's view of it
 * can be asked for without a token, and its steps would count the hidden answers), so a page
 * that missed moves shows the gap line until the end. */
function pastFromReplay() {
  return state.room.status === "finished" && Boolean(state.room.match_id)
    && received.matchId === state.room.match_id
    && (!received.batches.length || received.hasGap());
}

/** The match's past read from its replay for this page's seat when the page takes it from
 * there (`pastFromReplay`) and it came, else null. Asks for it once per match and seat (the
 * page redraws when it comes), again after 1 s and 3 s when the server could not answer (a
 * network error or a 5xx: `withRetries`); when it cannot be loaded the kept updates show,
 * gap line and all. */
function replayedPast() {
  if (!pastFromReplay()) return null;
  const key = `${state.room.match_id}.${state.seat}`;
  if (replayed.key !== key) {
    Object.assign(replayed, { key, past: null });
    withRetries(() => fetchReplay(state.room.match_id, state.seat)).then((data) => {
      if (replayed.key !== key) return;
      replayed.past = replayPast(gameModule, data);
      render();
    }, (error) => console.warn("the move log stays as received: no replay", error));
  }
  return replayed.past;
}

// ------------------------------------------------------------------ start-up

async function loadGameModule(game) {
  try {
    return await import(`/static/games/${encodeURIComponent(game)}.js`);
  } catch (error) {
    console.warn(`no module for ${game}; using the generic table`, error);
    return import("/static/games/_generic.js");
  }
}

function setUpShare() {
  const link = `${window.location.origin}/room/${encodeURIComponent(code)}`;
  const input = byId("share-link");
  input.value = link;
  byId("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    toast(t("room.copied"));
  });
}

function setUpChat() {
  byId("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = byId("chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (socket.send({ type: "chat", text, team: teamChosen() })) input.value = "";
    else toast(t("error.not_connected"), "error");
  });
  byId("chat-team").addEventListener("change", paintChatAudience);
}

/** A room that cannot be loaded: only the message and a link back to the lobby (no invite
 * link, seats, table or chat of a room that is not there). */
function showMissingRoom(error) {
  const reason = t(error.status === 404 ? "room.not_found" : `error.${error.code}`);
  setTitle(reason);
  replace(byId("main"),
    h("h1", { id: "room-title", "data-testid": "room-missing", text: reason }),
    h("p", {}, h("a", { class: "button button-primary", href: "/", "data-testid": "back-to-lobby",
      text: t("outcome.lobby") })));
}

async function main() {
  await initPage();
  startClockTicker();
  try {
    state.room = await api(`/api/rooms/${encodeURIComponent(code)}`);
  } catch (error) {
    showMissingRoom(error);
    return;
  }
  setUpShare();
  refreshSub = foldable(byId("room-sub"), byId("room-sub-toggle"));
  state.game = (await getGames().catch(() => [])).find((game) => game.id === state.room.game) || null;
  gameModule = await loadGameModule(state.room.game);
  setUpChat();
  installLongPress(byId("table"));
  byId("resign").addEventListener("click", resign);
  byId("conn-status").before(soundToggle(), " ");
  socket = new RoomSocket(state.room.ws || `/ws/rooms/${encodeURIComponent(code)}`, {
    getToken: () => (getPlayer() ? getPlayer().token : null), onFrame, onStatus,
  });
  socket.start();
  render();
  joinFromLink();
}

main();
