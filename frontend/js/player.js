// Player page (/players/{id}): GET /api/players/{id} — the player's rating in each game
// (one number, its detail in the tooltip; matches, wins, K.O. wins) and their recent matches.

import { api, getGames } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { gameTitle, t } from "./i18n.js";
import { matchItem } from "./match_list.js";
import { initPage, setTitle } from "./page.js";
import { playerTag, ratingCell } from "./rating.js";

const playerId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");

function ratingsTable(ratings, games) {
  if (!ratings.length) return h("p", { class: "muted", text: t("player.unrated") });
  const cols = ["game", "rating", "matches", "wins", "kos"];
  // the leaderboard's columns (css: numbers on the right, the game's name on the left)
  return h("table", { class: "table-plain leaderboard player-ratings", "data-testid": "player-ratings" },
    h("caption", { text: t("player.ratings") }),
    h("thead", {}, h("tr", {}, cols.map((col) => h("th", { scope: "col", "data-col": col,
      text: t(`ladders.col_${col}`) })))),
    h("tbody", {}, ratings.map((row) => {
      const game = games.find((entry) => entry.id === row.game);
      return h("tr", { "data-game": row.game },
        h("td", { "data-col": "game" }, h("a", { href: `/ladders?game=${encodeURIComponent(row.game)}`,
          text: gameTitle(game && game.titles, row.game) })),
        ratingCell(row),
        ["matches", "wins", "kos"].map((col) => h("td", { "data-col": col, text: String(row[col]) })));
    })));
}

function matchesList(matches, games) {
  if (!matches.length) return h("p", { class: "muted", text: t("player.no_matches") });
  return h("ul", { class: "match-list", "data-testid": "player-matches" },
    matches.map((match) => matchItem(match, games)));
}

async function main() {
  await initPage();
  let player;
  try {
    player = await api(`/api/players/${encodeURIComponent(playerId)}`);
  } catch (error) {
    const reason = t(error.status === 404 ? "player.not_found" : `error.${error.code}`);
    byId("player-title").textContent = reason;
    setTitle(reason);
    return;
  }
  const games = await getGames().catch(() => []);
  replace(byId("player-title"), player.name, " ", h("span", { class: "player-id muted small", text: playerTag(player.id) }));
  setTitle(player.name);
  replace(byId("player-body"),
    h("section", { class: "panel" }, ratingsTable(player.ratings, games)),
    h("section", { class: "panel" }, h("h2", { text: t("player.recent") }), matchesList(player.recent_matches, games)));
}

main();
