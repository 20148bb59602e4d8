// A match in a list, as the history page (/history) and a player's page (/players/{id}) show it:
// the game and the room's code (a private room says so) linking to the match page, who played
// (side against side in a team game: teams.js `matchPlayersText`), the result and when it ended.

import { h } from "./dom.js";
import { formatTime, gameTitle, t } from "./i18n.js";
import { resultText } from "./outcome.js";
import { matchPlayersText } from "./teams.js";

/** The list item of `match` (a `MatchSummary`); `games` is the catalog (GET /api/games) for the
 * game's title in the page's language. */
export function matchItem(match, games) {
  const game = games.find((entry) => entry.id === match.game);
  return h("li", { class: "match-item", "data-match": match.id },
    h("a", { href: `/matches/${match.id}`, class: "match-link", "data-testid": "match-link" },
      h("strong", { text: gameTitle(game && game.titles, match.game) }),
      h("span", { class: "code", text: match.room_code ?? t("manage.private") })),
    h("span", { class: "match-names", text: matchPlayersText(match) }),
    h("span", { class: "match-result", text: resultText(match) }),
    h("span", { class: "match-time muted small", text: formatTime(match.finished_at || match.started_at) }));
}
