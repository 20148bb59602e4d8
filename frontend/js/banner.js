// The game-over banner: who won (or, when the outcome has three or more distinct ranks, the viewer's place
// and points), why in words, and links to the match record, the replay and the lobby.
// Reads Outcome {ranks, reason, winners: [seat], draw, detail} from view.outcome; a game with
// scores puts them in detail.totals (one per seat). A seat the room resigned (room.forfeit: it
// kept timing out) is told as the forfeit, not as a resignation.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { endReason, isRanking, rankHeadline, winnersText } from "./outcome.js";

function seated(seat) {
  return seat !== null && seat !== undefined;
}

function points(outcome, seat) {
  const totals = outcome.detail && outcome.detail.totals;
  return Array.isArray(totals) ? totals[seat] : null;
}

function headline(outcome, seat, seats) {
  if (outcome.draw) return t("outcome.draw");
  if (seated(seat) && isRanking(outcome)) return rankHeadline(outcome, seat, points(outcome, seat));
  if (seated(seat)) return t(outcome.winners.includes(seat) ? "outcome.you_won" : "outcome.you_lost");
  return t("outcome.winners", { names: winnersText(outcome, seats) });
}

/** won / lost / placed (a middle rank) / draw / over (a spectator, or no outcome). */
function resultOf(outcome, seat) {
  if (!outcome) return "over";
  if (outcome.draw) return "draw";
  if (!seated(seat)) return "over";
  if (outcome.winners.includes(seat)) return "won";
  const last = Math.max(...outcome.ranks);
  return isRanking(outcome) && outcome.ranks[seat] < last ? "placed" : "lost";
}

/** Fill (or hide) `el` for {view, room, seat, held}; shown once the view has an outcome, unless
 * the table still `held` it back (a playback of the last set that has not reached its end).
 * The reason line says why (`endReason`: a forfeit of `room.forfeit` as such). */
export function renderBanner(el, { view, room, seat, held = false }) {
  const outcome = view && view.outcome;
  const over = !held && (Boolean(outcome) || room.status === "finished" || room.status === "abandoned");
  el.hidden = !over;
  if (!over) return;
  const title = outcome ? headline(outcome, seat, room.seats) : t(`room.status.${room.status}`);
  el.dataset.result = resultOf(outcome, seat);
  const record = room.match_id !== null && room.match_id !== undefined;
  replace(el,
    h("p", { class: "banner-title", "data-testid": "banner-title", text: title }),
    outcome ? h("p", { class: "banner-reason", "data-testid": "banner-reason", "data-reason": outcome.reason,
      "data-forfeit": room.forfeit ? room.forfeit.reason : null,
      text: endReason(room.game, outcome, room.forfeit, room.seats) }) : null,
    h("p", { class: "banner-links" },
      record ? h("a", { class: "button", href: `/matches/${room.match_id}`, text: t("outcome.details") }) : null,
      outcome && record ? h("a", { class: "button", href: `/replay/${room.match_id}`, "data-testid": "replay-link",
        text: t("replay.open") }) : null,
      h("a", { class: "button", href: "/", text: t("outcome.lobby") })));
}
