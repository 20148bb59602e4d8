// Outcome sentences shared by the history and match pages.
// Outcome = {ranks: [int per seat], reason, winners: [seat], draw: bool, detail}.

import { has, t } from "./i18n.js";

/** The translated reason code ("ko" -> "by K.O."), or the raw code when unknown. */
export function reasonText(reason) {
  return has(`outcome.reason.${reason}`) ? t(`outcome.reason.${reason}`) : reason;
}

/** "Alice won (by K.O.)" / "Draw" / "In progress" for a match summary. */
export function resultText(match) {
  const outcome = match.outcome;
  if (!outcome) return t(`match.status.${match.status}`);
  if (outcome.draw) return `${t("outcome.draw")} (${reasonText(outcome.reason)})`;
  const names = outcome.winners.map((seat) => {
    const entry = match.seats.find((s) => s.seat === seat);
    return entry ? entry.name : t("room.seat_n", { n: seat + 1 });
  });
  return t("outcome.won_by", { names: names.join(", "), reason: reasonText(outcome.reason) });
}
