// History page (/history): finished matches newest first (by start) from GET /api/matches with cursor
// pagination ("More"), optionally only the stored player's; each links to /matches/{id}.

import { api, getGames, getPlayer, query } from "./api.js";
import { byId, replace } from "./dom.js";
import { matchItem } from "./match_list.js";
import { initPage } from "./page.js";
import { toastError } from "./ui.js";

const PAGE = 20;
let games = [];
let cursor = null;

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
    list.append(...page.items.map((match) => matchItem(match, games)));
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
