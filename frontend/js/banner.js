// The game-over banner: who won, why, and links to the match record and the lobby.
// Reads Outcome {ranks, reason, winners: [seat], draw, detail} from view.outcome.

import { h, replace } from "./dom.js";
import { has, t } from "./i18n.js";

function headline(outcome, seat, seats) {
  if (outcome.draw) return t("outcome.draw");
  if (seat !== null && seat !== undefined) {
    return t(outcome.winners.includes(seat) ? "outcome.you_won" : "outcome.you_lost");
  }
  const names = outcome.winners.map((winner) => {
    const entry = seats.find((s) => s.seat === winner);
    return entry && entry.name ? entry.name : t("room.seat_n", { n: winner + 1 });
  });
  return t("outcome.winners", { names: names.join(", ") });
}

/** Fill (or hide) `el` for {view, room, seat, held}; shown once the view has an outcome, unless
 * the table still `held` it back (a playback of the last set that has not reached its end). */
export function renderBanner(el, { view, room, seat, held = false }) {
  const outcome = view && view.outcome;
  const over = !held && (Boolean(outcome) || room.status === "finished" || room.status === "abandoned");
  el.hidden = !over;
  if (!over) return;
  const title = outcome ? headline(outcome, seat, room.seats) : t(`room.status.${room.status}`);
  const reasonKey = outcome && `outcome.reason.${outcome.reason}`;
  el.dataset.result = !outcome ? "over" : outcome.draw ? "draw"
    : seat === null ? "over" : outcome.winners.includes(seat) ? "won" : "lost";
  replace(el,
    h("p", { class: "banner-title", text: title }),
    outcome ? h("p", { class: "banner-reason", text: has(reasonKey) ? t(reasonKey) : outcome.reason }) : null,
    h("p", { class: "banner-links" },
      room.match_id !== null && room.match_id !== undefined
        ? h("a", { class: "button", href: `/matches/${room.match_id}`, text: t("outcome.details") }) : null,
      outcome && room.match_id !== null && room.match_id !== undefined  // issue 11 part 6
        ? h("a", { class: "button", href: `/replay/${room.match_id}`, "data-testid": "replay-link",
          text: t("replay.open") }) : null,
      h("a", { class: "button", href: "/", text: t("outcome.lobby") })));
}
