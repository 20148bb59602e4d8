// Match page (/matches/{id}): seats (and a bot that replaced a player mid-match), outcome, seed
// commitment and revealed seed, the action count, and for Reverse Curse the ladder
// (GET /api/matches/{id}/ladder): per set its number, first side, the 12 field cards in play
// order with who played each, result, position after; for mahjong the final ranking and every
// hand's score sheet (GET /api/matches/{id}/final).

import { api, getGames } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { formatTime, gameTitle, t } from "./i18n.js";
import { optionsSummary } from "./options.js";
import { resultText } from "./outcome.js";
import { replacedNotes, seatName, seatNames } from "./bots.js";
import { initPage, setTitle } from "./page.js";
import { verifySection } from "./verify.js";
import { cardLabel, signed } from "/static/games/rc_cards.js";
import { regulationLimits, stairsChart } from "/static/games/rc_stairs_chart.js";
import { matchSheetsEl } from "/static/games/mj_sheet.js";

const matchId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");

function fact(term, ...value) {
  return [h("dt", { text: term }), h("dd", {}, ...value)];
}

function factsList(match, game) {
  return h("dl", { class: "facts" },
    fact(t("match.game"), gameTitle(game && game.titles, match.game)),
    fact(t("match.room"), h("span", { class: "code", text: match.room_code ?? t("manage.private") })),
    fact(t("match.options"), h("span", { "data-testid": "match-options",
      text: optionsSummary(match.options, game ? game.options : [], { clocks: true, game: match.game }) || "—" })),
    fact(t("match.result"), h("strong", { "data-testid": "match-result", text: resultText(match) })),
    fact(t("match.started"), formatTime(match.started_at)),
    fact(t("match.finished"), match.finished_at ? formatTime(match.finished_at) : "—"),
    fact(t("match.commitment"), h("code", { class: "hex", "data-testid": "match-commitment", text: match.seed_commitment || "—" })),
    fact(t("match.seed"), h("code", { class: "hex", "data-testid": "match-seed",
      text: match.seed || t("match.seed_hidden") })),
    fact(t("match.actions"), String((match.actions || []).length)));
}

function seatsTable(match) {
  const ranks = match.outcome ? match.outcome.ranks : [];
  return h("table", { class: "table-plain match-seats", "data-testid": "match-seats" },
    h("caption", { text: t("match.seats") }),
    h("thead", {}, h("tr", {}, [t("match.col_seat"), t("match.col_player"), t("match.col_rank")]
      .map((text) => h("th", { scope: "col", text })))),
    h("tbody", {}, match.seats.map((seat) => h("tr", {},
      h("td", { text: t("room.seat_n", { n: seat.seat + 1 }) }),
      h("td", {}, h("a", { href: `/players/${seat.player_id}`, text: seatName(seat) }),
        ...replacedNotes(seat).map((note) => h("span", { class: "muted small",
          "data-testid": "seat-replaced", text: ` · ${note}` }))),
      h("td", { text: ranks[seat.seat] !== undefined ? String(ranks[seat.seat]) : "—" })))));
}

function fieldCell(entry, match) {
  const seat = match.seats.find((s) => s.seat === entry.seat);
  return h("li", { class: ["ladder-card", `side-${entry.side}`] },
    h("span", { class: "ladder-code", text: cardLabel(entry.card, t) }),
    h("span", { class: "muted small", text: `${entry.side === "UP" ? "▲" : "▼"} ${seat ? seatNames(seat) : entry.seat + 1}` }));
}

function ladderSet(entry, match) {
  return h("section", { class: "ladder-set", "data-testid": "ladder-set" },
    h("h3", { text: t("ladder.set", { n: entry.set }) }),
    h("p", { class: "small" },
      t("ladder.first", { side: t(`rc.side.${entry.first_side}`) }), " · ",
      h("strong", { text: t("ladder.result", { n: signed(entry.result) }) }), " · ",
      t("ladder.after", { n: signed(entry.position_after) })),
    h("ol", { class: "ladder-field", "aria-label": t("ladder.field") },
      entry.field.map((card) => fieldCell(card, match))));
}

async function ladderSection(match) {
  const ladder = await api(`/api/matches/${encodeURIComponent(matchId)}/ladder`);
  return h("section", { class: "panel ladder", "data-testid": "ladder" },
    h("h2", { text: t("ladder.title") }),
    h("p", { class: "muted small", text: t("ladder.help") }),
    ladder.sets.length ? h("figure", { class: "rc-chart" },
      stairsChart(ladder.sets, { ...regulationLimits(match.options), t }),
      h("figcaption", { class: "muted small", text: t("rc.chart_title") })) : null,
    ladder.sets.length ? ladder.sets.map((entry) => ladderSet(entry, match))
      : h("p", { class: "muted", text: t("ladder.empty") }));
}

/** A finished mahjong match's ranking and score sheets, from its final view. */
async function mahjongSection(match) {
  const final = await api(`/api/matches/${encodeURIComponent(matchId)}/final`);
  const name = (seat) => {
    const entry = match.seats.find((s) => s.seat === seat);
    return entry ? `${seatNames(entry)} · ${t("room.seat_n", { n: seat + 1 })}` : t("room.seat_n", { n: seat + 1 });
  };
  return matchSheetsEl(final.view, { t, name, rules: final.view.rules });
}

async function main() {
  await initPage();
  let match;
  try {
    match = await api(`/api/matches/${encodeURIComponent(matchId)}`);
  } catch (error) {
    const reason = t(error.status === 404 ? "match.not_found" : `error.${error.code}`);
    byId("match-title").textContent = reason;
    setTitle(reason);
    return;
  }
  const game = (await getGames().catch(() => [])).find((entry) => entry.id === match.game);
  byId("match-title").textContent = t("match.title", { id: match.id });
  setTitle(t("match.title", { id: match.id }));
  const body = byId("match-body");
  replace(body, h("section", { class: "panel" }, factsList(match, game), seatsTable(match),
    match.status === "finished" ? h("p", {}, h("a", { class: "button", href: `/replay/${match.id}`,
      "data-testid": "replay-link", text: t("replay.open") })) : null));
  if (match.seed) body.append(verifySection(match));
  if (match.game === "mahjong" && match.status === "finished") {
    try {
      body.append(await mahjongSection(match));
    } catch (error) {
      body.append(h("p", { class: "error", text: t(`error.${error.code}`) }));
    }
  }
  if (match.game === "reverse_curse") {
    try {
      body.append(await ladderSection(match));
    } catch (error) {
      body.append(h("p", { class: "error", text: t(`error.${error.code}`) }));
    }
  }
}

main();
