// Outcome sentences shared by the game-over banner, the history, match and player pages and the
// tables. Outcome = {ranks: [int per seat], reason, winners: [seat], draw: bool, detail}.
//
// Reason texts are one table keyed by reason code, in frontend/i18n/<lang>.json:
// `outcome.reason.<game>.<code>` (what the code means in that game, e.g. the Reverse Curse K.O.)
// and, for codes every game means alike, `outcome.reason.<code>` (resign, draw, timeout…).
// A match the room ended by resigning a seat (a Room's or MatchSummary's `forfeit` {seat,
// reason, timeouts}: the seat kept timing out) has the engine's reason `resign`, but reads as
// the forfeit it was: `outcome.forfeit.<reason>` ("Bob forfeited: 3 turns timed out in a row.").
// A player's own resign names who resigned: the last-ranked seats of the outcome (`resignedSeats`:
// one seat, or a team game's side), "Ann resigned." / "Bob & Dan's side resigned." (`resignText`,
// also the move log's line for a resign).
// tests/e2e/test_outcome_reasons.py reads every reason each registered engine can produce from
// its source and fails when one has no sentence in a language.

import { has, t } from "./i18n.js";
import { nameOfSeat } from "./bots.js";
import { signed } from "./numbers.js";
import { joinNames } from "./teams.js";

/** The sentence of each forfeit reason (docs/protocol.md `forfeit`). */
const FORFEIT_KEYS = { timeouts: "outcome.forfeit.timeouts" };

/** The key of `reason` in `game` ("outcome.reason.grid_reversal.mother_flipped", else the
 * game-independent "outcome.reason.resign"), or null when neither exists. */
export function reasonKey(game, reason) {
  const own = `outcome.reason.${game}.${reason}`;
  if (has(own)) return own;
  return has(`outcome.reason.${reason}`) ? `outcome.reason.${reason}` : null;
}

/** The sentence saying why a match of `game` ended ("A mother card was flipped."); the raw
 * code only for a code that has no text (the static test keeps that from shipping). */
export function reasonText(game, reason) {
  const key = reasonKey(game, reason);
  return key ? t(key) : reason;
}

/** "Bob forfeited: 3 turns timed out in a row.": the room resigned the seat of `forfeit` {seat,
 * reason, timeouts} (docs/protocol.md), whose player is `name`; a reason this page does not
 * know yet reads "Bob forfeited.". */
export function forfeitText(forfeit, name) {
  const key = FORFEIT_KEYS[forfeit.reason];
  return key ? t(key, { name, n: forfeit.timeouts }) : t("outcome.forfeit.other", { name });
}

/** The seats that resigned in `outcome` (reason `resign`): the last-ranked ones (a resigner
 * ranks below every other seat; in a team game its whole side does); [] for any other outcome. */
export function resignedSeats(outcome) {
  return outcome && outcome.reason === "resign" ? lastRanked(outcome) : [];
}

/** The seats ranked last in `outcome` ({ranks, draw}): the loser, or a team game's losing side;
 * [] for a draw or no ranks. */
export function lastRanked(outcome) {
  if (!outcome || outcome.draw || !Array.isArray(outcome.ranks) || !outcome.ranks.length) return [];
  const last = Math.max(...outcome.ranks);
  if (outcome.ranks.every((rank) => rank === last)) return [];
  return outcome.ranks.flatMap((rank, seat) => (rank === last ? [seat] : []));
}

/** The sentence of `reason` in `game` naming the one seat that lost (`outcome.reason.<game>.<code>.loser`,
 * "Bob's HP fell to 0."), its player named from `seats`; null when the reason has no such
 * sentence or the outcome ({ranks, draw}) has not one loser. */
export function loserReasonText(game, outcome, seats) {
  const key = `${reasonKey(game, outcome.reason)}.loser`;
  const losers = lastRanked(outcome);
  return losers.length === 1 && has(key) ? t(key, { name: nameOfSeat(seats, losers[0]) }) : null;
}

/** "Ann resigned." for one seat of `resigned` ([seat]), "Bob & Dan's side resigned." for a side
 * (its seats named from `seats` [{seat, name, bot_level}], joined as teammates). */
export function resignText(resigned, seats) {
  const names = resigned.map((seat) => nameOfSeat(seats, seat));
  return names.length === 1 ? t("outcome.resigned", { name: names[0] })
    : t("outcome.side_resigned", { names: joinNames(names) });
}

/** Why a match of `game` ended with `outcome`, in words: when the room resigned a seat
 * (`forfeit`, a Room's or MatchSummary's; null otherwise) the forfeit's sentence, its player
 * named from `seats` ([{seat, name, bot_level}]); a player's own resign names who resigned
 * (resignText); else the outcome's reason, naming the loser where the reason has a sentence for
 * that (loserReasonText), else not (reasonText). */
export function endReason(game, outcome, forfeit, seats) {
  if (forfeit) return forfeitText(forfeit, nameOfSeat(seats, forfeit.seat));
  const resigned = resignedSeats(outcome);
  if (resigned.length) return resignText(resigned, seats);
  return loserReasonText(game, outcome, seats) || reasonText(game, outcome.reason);
}

/** The winners of `outcome` named from `seats`, joined as teammates ("Bob & Dan"). */
export function winnersText(outcome, seats) {
  return joinNames(outcome.winners.map((seat) => nameOfSeat(seats, seat)));
}

/** "1st", "2nd"… in the page's language. */
export function ordinal(rank) {
  return has(`outcome.rank.${rank}`) ? t(`outcome.rank.${rank}`) : t("outcome.rank", { n: rank });
}

/** The seat's rank and points as a headline, "2nd of 3, +12", when the outcome has more than
 * two ranks (a ranking rather than won/lost); `points` is the seat's score or null. */
export function rankHeadline(outcome, seat, points = null) {
  const rank = outcome.ranks[seat];
  const of = t("outcome.rank_of", { rank: ordinal(rank), n: outcome.ranks.length });
  if (points === null || points === undefined) return of;
  return t("outcome.rank_points", { place: of, points: signed(points) });
}

/** Whether the outcome reads as a ranking (three or more distinct ranks), not won/lost: a team
 * game seats four but ranks only two sides, its seats won or lost with their side. */
export function isRanking(outcome) {
  return new Set(outcome.ranks).size > 2 && !outcome.draw;
}

/** "Alice won. A mother card was flipped." / "Alice won. Bob forfeited: …" / "Draw. …" /
 * "In progress" for a match summary {game, status, outcome, forfeit, seats: [{seat, name}]}
 * (bot names in the page's language). */
export function resultText(match) {
  const outcome = match.outcome;
  if (!outcome) return t(`match.status.${match.status}`);
  const reason = endReason(match.game, outcome, match.forfeit, match.seats);
  if (outcome.draw) return t("outcome.draw_by", { reason });
  return t("outcome.won_by", { names: winnersText(outcome, match.seats), reason });
}
