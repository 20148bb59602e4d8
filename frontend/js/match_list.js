// A match in a list, as the history page (/history) and a player's page (/players/{id}) show it:
// the game and the room's code (a private room says so) linking to the match page, who played
// (side against side in a team game: teams.js `matchPlayersText`), the result and when it
// started — the time both lists are in order of (GET /api/matches and a profile's
// `recent_matches`: newest first by id, given at the start), so the times shown go down the
// list; the match page shows both times.

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
    startTime(match));
}

/** When `match` started ("Started 7 Dec 2026, 09:05" in the page's language), as a <time>. */
function startTime(match) {
  return h("time", { class: "match-time muted small", datetime: match.started_at,
    text: t("match.started_at", { time: formatTime(match.started_at) }) });
}
