// Lobby page (/): create a room from the game catalog, list open rooms to join and live rooms
// to watch (refreshed every few seconds).

import { api, getGames, getPlayer } from "./api.js";
import { byId, dataKey, h, patchChildren, replace } from "./dom.js";
import { ensurePlayer } from "./identity.js";
import { formatClock, gameTitle, listText, t } from "./i18n.js";
import { optionFields, optionsSummary, readOptions, showApplicable } from "./options.js";
import { initPage } from "./page.js";
import { toastError } from "./ui.js";
import { botChoiceRow, claimFirstSeat, fillWithBots, seatName } from "./bots.js";
import { myRooms, readRoomSettings, renderMyGames, roomSettingsRows } from "./my_games.js";
import { teamSeatsText } from "./teams.js";
import { PressGate } from "./press_gate.js";

const REFRESH_MS = 4000;
const LAST_GAME_KEY = "arena.lastGame";
let games = [];
/** Holds the room lists' redraws while a press is held on them: the lists are newest first, so
 * a room opened under a held Join would push the pressed row down and the release would land on
 * another (`PressGate`). */
const gate = new PressGate(byId("room-lists"));

function selectedGame() {
  return games.find((game) => game.id === byId("game-select").value);
}

function renderGameOptions() {
  const game = selectedGame();
  if (!game) return;
  const fieldset = byId("options");
  const legend = fieldset.querySelector("legend");
  replace(fieldset, legend, optionFields(game.options, game.id));
  showApplicable(fieldset, game.options);
  byId("game-facts").textContent = playersText(game);
  const rules = byId("game-rules");
  rules.href = `/rules/${encodeURIComponent(game.id)}`;
  rules.setAttribute("aria-label", t("rules.of", { game: gameTitle(game.titles, game.id) }));
}

function playersText(game) {
  return game.min_players === game.max_players
    ? t("lobby.players_exact", { n: game.min_players })
    : t("lobby.players_range", { min: game.min_players, max: game.max_players });
}

/** Every game with its player count and a "Rules" link (rules reachable from the lobby). */
function renderGameList() {
  replace(byId("game-list"), games.map((game) => {
    const title = gameTitle(game.titles, game.id);
    return h("li", { class: "game-item", "data-game": game.id },
      h("span", { class: "game-name" }, h("strong", { text: title }), " ", h("span", { class: "muted small", text: playersText(game) })),
      h("a", { class: "button button-small", href: `/rules/${encodeURIComponent(game.id)}`,
        "data-testid": `rules-${game.id}`, "aria-label": t("rules.of", { game: title }), text: t("lobby.rules") }));
  }));
}

async function createRoom(event) {
  event.preventDefault();
  const game = selectedGame();
  if (!game || !(await ensurePlayer())) return;
  const button = event.submitter || byId("create-form").querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const room = await api("/api/rooms", {
      method: "POST", auth: true, body: { game: game.id, options: readOptions(byId("options"), game.options), ...readRoomSettings() },
    });
    // The creator plays: seat 1 is theirs at once (they may leave it on the room page to
    // watch); then the bots, if chosen, fill the other seats.
    await claimFirstSeat(room.code);
    const bots = byId("bots-select").value;
    if (bots !== "none") await fillWithBots(room.code, bots);
    window.location.assign(`/room/${encodeURIComponent(room.code)}`);
  } catch (error) {
    toastError(error, { rate_limited: "lobby.too_many_rooms" });
    button.disabled = false;
  }
}

function seatsText(room) {
  const taken = room.seats.filter((seat) => seat.player_id !== null);
  const names = listText(taken.map((seat) => seatName(seat)));
  const count = t("lobby.seats_count", { taken: taken.length, total: room.seats.length });
  const teams = teamSeatsText(room, t, (entry) => seatName(entry));
  if (teams) return `${count} — ${teams}`;
  return names ? `${count} — ${names}` : count;
}

function roomItem(room, verb) {
  const game = games.find((entry) => entry.id === room.game);
  const me = getPlayer();
  if (verb === "join" && me && room.seats.some((seat) => seat.player_id === me.id)) verb = "open";
  return h("li", { class: "room-item", "data-code": room.code },
    h("div", { class: "room-item-main" },
      h("strong", { text: gameTitle(game && game.titles, room.game) }),
      h("span", { class: "code", text: room.code }),
      h("span", { class: "muted small", text: optionsSummary(room.options, game ? game.options : [], { game: room.game }) }),
      h("span", { class: "small", text: seatsText(room) })),
    // "Join" takes a free seat on arrival (the room page reads `?seat=any`); "Watch" only opens
    // it, and so does "Open" on a room where the player already holds a seat.
    h("a", { class: "button", href: `/room/${encodeURIComponent(room.code)}${verb === "join" ? "?seat=any" : ""}`,
      text: t({ join: "lobby.join", watch: "lobby.watch", open: "mine.open" }[verb]) }));
}

const lastJson = {};

function renderRooms(listId, rooms, verb, emptyKey) {
  const me = getPlayer();
  const json = JSON.stringify([rooms, me && me.id]);  // "Join" or "Open" is the player's
  if (lastJson[listId] === json) return;
  lastJson[listId] = json;
  // Rows stay by room code (their links have no listeners: equal markup, equal link), so a
  // press on a Join/Watch link held across a refresh still clicks.
  patchChildren(byId(listId), rooms.length
    ? rooms.map((room) => roomItem(room, verb))
    : h("li", { class: "muted empty", text: t(emptyKey) }), dataKey("code"));
}

/** Fetch the open and live rooms and show them (through the press gate). */
async function refreshRooms() {
  try {
    const [open, live] = await Promise.all([
      api("/api/rooms?status=open"), api("/api/rooms?status=playing")]);
    const at = new Date();
    gate.run(() => {
      renderRooms("open-rooms", open.items, "join", "lobby.no_open");
      renderRooms("live-rooms", live.items, "watch", "lobby.no_live");
      byId("refreshed").textContent = t("lobby.refreshed", { time: formatClock(at, true) });
    }, "rooms");
  } catch (error) {
    byId("refreshed").textContent = t(`error.${error.code}`);
  }
}

/** Fetch my rooms and show them (through the press gate). */
async function refreshMine() {
  const rooms = await myRooms();
  gate.run(() => renderMyGames(byId("my-rooms"), rooms, games), "mine");
}

async function main() {
  await initPage();
  try {
    games = await getGames();
  } catch (error) {
    toastError(error);
    games = [];
  }
  const select = byId("game-select");
  replace(select, games.map((game) => h("option", { value: game.id, text: gameTitle(game.titles, game.id) })));
  const last = localStorage.getItem(LAST_GAME_KEY);
  if (games.some((game) => game.id === last)) select.value = last;
  select.addEventListener("change", () => {
    localStorage.setItem(LAST_GAME_KEY, select.value);
    renderGameOptions();
  });
  renderGameOptions();
  byId("options").addEventListener("change", () => {
    const game = selectedGame();
    if (game) showApplicable(byId("options"), game.options);
  });
  byId("options").after(botChoiceRow());
  byId("options").after(roomSettingsRows());
  renderGameList();
  byId("create-form").addEventListener("submit", createRoom);
  await refreshRooms();
  setInterval(refreshRooms, REFRESH_MS);
  const refreshMineQuietly = () => refreshMine().catch(() => {});
  await refreshMineQuietly();
  setInterval(refreshMineQuietly, REFRESH_MS);
}

main();
