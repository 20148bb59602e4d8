// Ratings as players read them, on the leaderboard and player pages. The server's `rating` is
// the cautious skill estimate (openskill: mu − 3 sigma, docs/protocol.md "Rating"); the page
// shows that one number, and the estimate with its uncertainty in the cell's tooltip.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { minus } from "./numbers.js";

/** A rating number with one decimal ("21.4", "−3.2"). */
export function ratingText(value) {
  return minus(Number(value), Number(value).toFixed(1));
}

/** The rating cell: the number, with "skill about 27.3 ± 6.1 …" as its title. */
export function ratingCell(row) {
  const detail = t("ladders.rating_detail", { mu: ratingText(row.mu), sigma: ratingText(3 * row.sigma) });
  return h("td", { "data-col": "rating", title: detail },
    h("span", { class: "rating-value", text: ratingText(row.rating) }),
    h("span", { class: "visually-hidden", text: ` (${detail})` }));
}

/** "#12": the short id that tells two players of one name apart. */
export function playerTag(id) {
  return t("ladders.player_id", { id });
}
