// History page (/history): finished matches newest first from GET /api/matches with cursor
// pagination ("More"), optionally only the stored player's; each links to /matches/{id}.

import { api, getGames, getPlayer, query } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { formatTime, gameTitle, t } from "./i18n.js";
import { resultText } from "./outcome.js";
import { matchSeatName } from "./bots.js";
import { initPage } from "./page.js";
import { toastError } from "./ui.js";

const PAGE = 20;
let games = [];
let cursor = null;

function matchItem(match) {
  const game = games.find((entry) => entry.id === match.game);
  const names = match.seats.map(matchSeatName).join(t("history.versus"));
  return h("li", { class: "match-item", "data-match": match.id },
    h("a", { href: `/matches/${match.id}`, class: "match-link", "data-testid": "match-link" },
      h("strong", { text: gameTitle(game && game.titles, match.game) }),
      h("span", { class: "code", text: match.room_code ?? t("manage.private") })),
    h("span", { class: "match-names", text: names }),
    h("span", { class: "match-result", text: resultText(match) }),
    h("span", { class: "muted small", text: formatTime(match.finished_at || match.started_at) }));
}

async function loadPage(reset) {
  const mine = byId("mine-only").checked && getPlayer();
  const list = byId("matches");
  if (reset) {
    cursor = null;
    replace(list);
  }
  const more = byId("more");
  more.disabled = true;
  try {
    const page = await api(`/api/matches${query({
      status: "finished", limit: PAGE, cursor, player: mine ? mine.id : null })}`);
    list.append(...page.items.map(matchItem));
    cursor = page.next_cursor;
    more.hidden = !cursor;
    byId("empty").hidden = list.children.length > 0;
  } catch (error) {
    toastError(error);
  }
  more.disabled = false;
}

async function main() {
  await initPage();
  games = await getGames().catch(() => []);
  const mineOnly = byId("mine-only");
  mineOnly.disabled = !getPlayer();
  mineOnly.addEventListener("change", () => loadPage(true));
  byId("more").addEventListener("click", () => loadPage(false));
  await loadPage(true);
}

main();
