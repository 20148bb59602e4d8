// Mahjong score sheets (the room's table, its replay and the match page): one finished hand's
// sheet — how it ended, every hand revealed, each MCR fan with its points or the Hebei doublings,
// payments, kong points, scores and running totals per seat — the table of every hand's scores,
// and the match's final ranking. Sheet shape: docs/protocol.md "Mahjong view" (`results`).
//
// `env` = {t, name(seat) → the seat's label, rules: "hebei" | "mcr"}.

import { h } from "/static/js/dom.js";
import { labelText } from "/static/js/i18n.js";
import { ensureStyles, keptDetails } from "./kit.js";
import { tileEl, tileRow } from "./mj_tiles.js";
import { minus, signed } from "/static/js/numbers.js";
import { doublingName, fanName, meldName, tileName, tilesName, windName } from "./mj_text.js";

const THIRTEEN_ORPHANS = "thirteen_orphans";

function row(env, codes, options = {}) {
  return tileRow(codes, { size: "sm", rowLabel: codes.length ? tilesName(env.t, codes) : null,
    name: (code) => tileName(env.t, code), ...options });
}

function headline(sheet, env) {
  const { t } = env;
  if (sheet.result === "draw") return t("mj.sheet.draw");
  const params = { name: env.name(sheet.winner), tile: tileName(t, sheet.win_tile),
    payer: sheet.payer === null ? "" : env.name(sheet.payer) };
  return t(`mj.sheet.win.${sheet.way}`, params);
}

function fansTable(sheet, env) {
  const { t } = env;
  return h("table", { class: "mj-fans", "data-testid": "mj-fans" },
    h("caption", { class: "visually-hidden", text: t("mj.sheet.fans") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("mj.sheet.fan") }),
      h("th", { scope: "col", text: t("mj.sheet.points") }))),
    h("tbody", {}, sheet.fans.map(([id, points]) => h("tr", { "data-fan": id },
      h("td", { text: fanName(t, id) }), h("td", { class: "mj-num-cell", text: String(points) })))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("mj.sheet.total") }),
      h("td", { class: "mj-num-cell", "data-testid": "mj-sheet-total", text: String(sheet.total) }))));
}

/** "1 × 2 × 2 = 4": the Hebei value worked out from its doublings. */
export function hebeiFormula(sheet) {
  const base = sheet.doublings.includes(THIRTEEN_ORPHANS) ? 16 : 1;
  const factors = sheet.doublings.filter((id) => id !== THIRTEEN_ORPHANS).map(() => "2");
  return `${[String(base), ...factors].join(" × ")} = ${sheet.total}`;
}

function doublingsList(sheet, env) {
  const { t } = env;
  return h("div", { class: "mj-doublings" },
    sheet.doublings.length
      ? h("ul", { "data-testid": "mj-doublings" }, sheet.doublings.map((id) => h("li", { "data-doubling": id },
        h("span", { text: doublingName(t, id) }), " ",
        h("strong", { text: id === THIRTEEN_ORPHANS ? t("mj.sheet.worth_16") : "× 2" }))))
      : h("p", { "data-testid": "mj-doublings", text: t("mj.sheet.no_doubling") }),
    h("p", { "data-testid": "mj-sheet-total", text: t("mj.sheet.value", { formula: hebeiFormula(sheet) }) }));
}

function paymentsTable(sheet, env) {
  const { t } = env;
  const hebei = env.rules === "hebei";
  const heads = [t("mj.sheet.seat"), t("mj.sheet.payment"), hebei ? t("mj.sheet.kongs") : null,
    hebei ? t("mj.sheet.score") : null, t("mj.sheet.running")].filter(Boolean);
  return h("div", { class: "scroll-x", tabindex: "0", role: "group", "aria-label": t("mj.sheet.payments") },
    h("table", { class: "mj-payments", "data-testid": "mj-payments" },
      h("caption", { class: "visually-hidden", text: t("mj.sheet.payments") }),
      h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, sheet.payments.map((payment, seat) => h("tr", { "data-seat": seat },
        h("th", { scope: "row" }, env.name(seat), h("span", { class: "mj-seat-wind", text: windName(t, sheet.seat_winds[seat]) })),
        h("td", { class: "mj-num-cell", "data-testid": hebei ? null : "mj-sheet-score", text: signed(payment) }),
        hebei ? h("td", { class: "mj-num-cell", text: signed(sheet.kong_points[seat]) }) : null,
        hebei ? h("td", { class: "mj-num-cell", "data-testid": "mj-sheet-score", text: signed(sheet.scores[seat]) }) : null,
        h("td", { class: "mj-num-cell", text: minus(sheet.totals[seat]) }))))));
}

function meldEl(meld, env) {
  return h("span", { class: "mj-meld" }, row(env, meld.tiles), h("span", { class: "mj-meld-kind", text: meldName(env.t, meld.kind) }));
}

function revealedHand(sheet, seat, env) {
  const hand = sheet.hands[seat];
  const winner = sheet.winner === seat;
  const concealed = [...hand.concealed];
  const at = winner && sheet.win_tile ? concealed.indexOf(sheet.win_tile) : -1;
  if (at >= 0) concealed.splice(at, 1);
  return h("li", { class: ["mj-revealed", winner && "mj-winner"], "data-seat": seat },
    h("div", { class: "mj-revealed-head" }, h("strong", { text: env.name(seat) }),
      h("span", { class: "muted", text: windName(env.t, sheet.seat_winds[seat]) }),
      winner ? h("span", { class: "mj-badge", text: env.t("mj.sheet.winner") }) : null),
    h("div", { class: "mj-revealed-tiles" }, row(env, concealed),
      at >= 0 ? h("span", { class: "mj-win-tile" },
        h("span", { class: "muted small", text: env.t("mj.sheet.win_tile") }),
        tileEl(sheet.win_tile, { size: "sm", name: (code) => tileName(env.t, code) })) : null,
      hand.melds.map((meld) => meldEl(meld, env)),
      hand.flowers.length ? h("span", { class: "mj-meld" }, row(env, hand.flowers),
        h("span", { class: "mj-meld-kind", text: env.t("mj.flowers") })) : null));
}

/** The score sheet of one finished hand (`heading`: with its own title; off under a summary
 * that already says which hand it is). */
export function sheetEl(sheet, env, heading = true) {
  const { t } = env;
  return h("section", { class: "mj-sheet", "data-testid": "mj-sheet", "data-hand": sheet.hand,
    "data-result": sheet.result, "data-winner": sheet.winner === null ? "" : sheet.winner,
    "aria-label": t("mj.sheet.title", { n: sheet.hand }) },
  heading ? h("h3", { text: t("mj.sheet.title", { n: sheet.hand }) }) : null,
  h("p", { class: "mj-headline", "data-testid": "mj-sheet-headline", text: headline(sheet, env) }),
  sheet.result === "win" ? (env.rules === "mcr" ? fansTable(sheet, env) : doublingsList(sheet, env)) : null,
  sheet.result === "win" && env.rules === "mcr" ? h("p", { class: "muted small", text: t("mj.sheet.mcr_pay") }) : null,
  paymentsTable(sheet, env),
  h("ul", { class: "mj-revealed-list", "data-testid": "mj-hands", "aria-label": t("mj.sheet.hands") },
    sheet.hands.map((_, seat) => revealedHand(sheet, seat, env))));
}

/** Every hand's scores and the running totals, each hand's sheet folded under its row.
 * `open`: whether the table starts unfolded; `kept` (a Map, see kit.js keptDetails) keeps what
 * the reader unfolded across redraws, or null on a page drawn once. */
export function scoresEl(results, totals, env, open = false, kept = null) {
  const { t } = env;
  const seats = totals.map((_, seat) => seat);
  return keptDetails(kept, "scores", open, { class: "mj-scores", "data-testid": "mj-scores" },
    h("summary", { text: labelText(t("mj.scores"), seats.map((s) => `${env.name(s)} ${minus(totals[s])}`).join(" · "), t) }),
    h("div", { class: "scroll-x", tabindex: "0", role: "group", "aria-label": t("mj.scores") },
      h("table", { class: "mj-score-table" },
        h("caption", { class: "visually-hidden", text: t("mj.scores") }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("mj.sheet.hand") }),
          seats.map((s) => h("th", { scope: "col", text: env.name(s) })))),
        h("tbody", {}, results.map((sheet) => h("tr", { "data-hand": sheet.hand },
          h("th", { scope: "row", text: String(sheet.hand) }),
          sheet.scores.map((score) => h("td", { class: "mj-num-cell", text: signed(score) }))))),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("mj.total") }),
          totals.map((total, s) => h("td", { class: "mj-num-cell", "data-testid": `mj-total-${s}`, text: minus(total) })))))),
    results.map((sheet) => keptDetails(kept, `sheet-${sheet.hand}`, false, { class: "mj-sheet-fold", "data-testid": "mj-sheet-fold" },
      h("summary", { text: t("mj.sheet.title", { n: sheet.hand }) }), sheetEl(sheet, env, false))));
}

/** The final ranking: place, name and total, best first (equal totals share a place). */
export function rankingEl(outcome, totals, env) {
  const order = totals.map((_, seat) => seat).sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
  return h("section", { class: "mj-ranking", "data-testid": "mj-ranking" },
    h("h3", { text: env.t("mj.ranking") }),
    h("ul", {}, order.map((seat) => h("li", { "data-seat": seat, "data-rank": outcome.ranks[seat] },
      env.t("mj.rank_line", { rank: outcome.ranks[seat], name: env.name(seat), total: minus(totals[seat]) })))));
}

/** The match page's part for a finished mahjong match: the final ranking, every hand's scores
 * (open) and each hand's score sheet, from the final spectator view (GET /api/matches/{id}/final). */
export function matchSheetsEl(view, env) {
  ensureStyles("mahjong.css");
  return h("section", { class: "panel mj", "data-testid": "mj-match-sheets" },
    h("h2", { text: env.t("mj.scores") }),
    view.outcome ? rankingEl(view.outcome, view.totals, env) : null,
    view.results.length ? scoresEl(view.results, view.totals, env, true) : h("p", { class: "muted", text: env.t("mj.no_hands") }));
}
