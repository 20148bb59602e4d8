// Leaderboard page (/ladders?game=<id>, default Reverse Curse): GET /api/ladders/{game} — players by
// rating (one number; its detail in the cell's tooltip: rating.js), matches, wins, and K.O. wins
// for Reverse Curse. Each name links to the player page /players/{id} and carries the player's
// short id, so two players of the same name are told apart.

import { api, getGames, query } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { gameTitle, t } from "./i18n.js";
import { initPage } from "./page.js";
import { playerTag, ratingCell } from "./rating.js";
import { toastError } from "./ui.js";

const KO_GAMES = new Set(["reverse_curse"]);
const DEFAULT_GAME = "reverse_curse"; // the site's ladder game, shown without ?game=

function columns(game) {
  const cols = ["rank", "player", "rating", "matches", "wins"];
  return KO_GAMES.has(game) ? [...cols, "kos"] : cols;
}

function cell(col, row) {
  if (col === "player") {
    return h("td", { "data-col": "player" }, h("a", { href: `/players/${row.player.id}`, "data-testid": "ladder-player" },
      h("span", { class: "ladder-name", text: row.player.name }), " ",
      h("span", { class: "player-id muted small", "data-testid": "player-id", text: playerTag(row.player.id) })));
  }
  if (col === "rating") return ratingCell(row);
  return h("td", { "data-col": col, text: String(row[col]) });
}

async function load(game) {
  const cols = columns(game);
  replace(byId("leaderboard-head"), cols.map((col) => h("th", { scope: "col", "data-col": col,
    text: t(`ladders.col_${col}`) })));
  const body = byId("leaderboard-rows");
  replace(body);
  try {
    const board = await api(`/api/ladders/${encodeURIComponent(game)}${query({ limit: 100 })}`);
    body.append(...board.players.map((row) => h("tr", { "data-testid": "ladder-row", "data-player": row.player.id },
      cols.map((col) => cell(col, row)))));
    byId("empty").hidden = board.players.length > 0;
  } catch (error) {
    toastError(error);
  }
}

async function main() {
  await initPage();
  const games = await getGames().catch(() => []);
  const wanted = new URLSearchParams(window.location.search).get("game");
  const known = (id) => games.some((entry) => entry.id === id);
  const game = known(wanted) ? wanted : known(DEFAULT_GAME) || !games.length ? DEFAULT_GAME : games[0].id;
  const select = byId("ladder-game");
  replace(select, games.map((entry) => h("option", { value: entry.id, selected: entry.id === game,
    text: gameTitle(entry.titles, entry.id) })));
  select.addEventListener("change", () => {
    window.history.replaceState(null, "", `/ladders?game=${encodeURIComponent(select.value)}`);
    load(select.value);
  });
  await load(game);
}

main();
