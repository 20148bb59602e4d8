// Rules page (/rules and /rules/{game}): every game's rules in the page's language, rendered on
// the server from docs/rules/<game>.<lang>.md (GET /api/rules/{game}/{lang}: markdown-it-py, raw
// HTML off). English is shown, with a note, when the language has no text yet.

import { api, getGames } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { HTML_LANG, currentLang, gameTitle, t } from "./i18n.js";
import { initPage, setTitle } from "./page.js";

const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
/** Pages of the rules section that are no game (docs/rules/<topic>.<lang>.md, app/api/rules.py
 * TOPICS), with the i18n key of their title. */
const TOPICS = { fair_play: "rules.topic.fair_play" };
/** Games whose rules text the game's own module finishes drawing (its `enhanceRules(body)`),
 * e.g. mahjong's tile rows. */
const ENHANCERS = { mahjong: "/static/games/mj_rules.js" };

/** The body nodes of `html` (the server's rendered Markdown), parsed inertly by DOMParser. */
export function htmlNodes(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return [...doc.body.childNodes].map((node) => document.adoptNode(node));
}

function link(id, text) {
  return h("li", {}, h("a", { href: `/rules/${encodeURIComponent(id)}`, "data-testid": `rules-link-${id}`,
    "aria-current": id === gameId ? "page" : null, text }));
}

function gameLinks(games) {
  return [...games.map((game) => link(game.id, gameTitle(game.titles, game.id))),
    ...Object.entries(TOPICS).map(([id, key]) => link(id, t(key)))];
}

async function showRules(id, heading) {
  byId("rules-title").textContent = heading;
  setTitle(heading);
  const rules = await api(`/api/rules/${encodeURIComponent(id)}/${currentLang()}`);
  const note = byId("rules-note");
  note.hidden = !rules.fallback;
  note.textContent = rules.fallback ? t("rules.fallback") : "";
  const body = byId("rules-body");
  body.lang = HTML_LANG[rules.lang] || rules.lang;
  replace(body, htmlNodes(rules.html));
  if (Object.hasOwn(ENHANCERS, id)) (await import(ENHANCERS[id])).enhanceRules(body);
}

async function main() {
  await initPage();
  const games = await getGames().catch(() => []);
  replace(byId("rules-games"), gameLinks(games));
  const game = games.find((entry) => entry.id === gameId);
  if (!gameId) {
    byId("rules-body").append(h("p", { class: "muted", text: t("rules.pick") }));
    return;
  }
  if (!game && !Object.hasOwn(TOPICS, gameId)) {
    byId("rules-title").textContent = t("error.unknown_game");
    setTitle(t("error.unknown_game"));
    return;
  }
  const heading = game ? t("rules.of", { game: gameTitle(game.titles, game.id) }) : t(TOPICS[gameId]);
  try {
    await showRules(gameId, heading);
  } catch (error) {
    replace(byId("rules-body"), h("p", { class: "error", text: t(`error.${error.code || "unknown"}`) }));
  }
}

main();
