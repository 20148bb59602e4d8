// Teams of a room or a match, for any game: the seat groups that play as one side (the engine's
// `sides(options, seats)`, sent in the room and match JSON as `teams: [[seat, …], …]`). A room is
// a team room when some group has more than one seat (Reverse Curse 2v2 / 3v3); 1v1 and
// free-for-all games have one seat per group and show a plain seat list. Which side (UP/DOWN…) a
// team plays is known once the match started (the room's seats carry `side` then).

import { h } from "./dom.js";
import { has, labelText, listText, t as translate } from "./i18n.js";
import { matchSeatName } from "./bots.js";

/**
 * The other seats of `seat`'s team in `room` (its `teams`, known from the room's creation, so
 * before the start too), in seat order; [] for a spectator (`seat` null), a seat playing alone
 * (1v1, a game without teams) or a room without `teams`.
 */
export function teammatesOf(room, seat) {
  if (seat === null || seat === undefined || !room || !room.teams) return [];
  const team = room.teams.find((seats) => seats.includes(seat)) || [];
  return team.filter((other) => other !== seat).sort((a, b) => a - b);
}

/**
 * The teams of a team room as [{index: 0-based, side: str|null, seats: [seat entry]}] (seat
 * entry = the room's {seat, player_id, name, side}), in the order of the room's `teams`; null
 * when the room is not a team room (every group holds one seat).
 */
export function seatTeams(room) {
  const teams = room ? room.teams : null;
  if (!teams || teams.every((team) => team.length < 2)) return null;
  return teams.map((seats, index) => {
    const entries = seats.map((seat) => room.seats.find((entry) => entry.seat === seat)).filter(Boolean);
    const side = entries.length && entries[0].side ? entries[0].side : null;
    return { index, side, seats: entries };
  });
}

function sideText(side, t) {
  return has(`side.${side}`) ? t(`side.${side}`) : side;
}

function teamTitle(team, t) {
  const seats = listText(team.seats.map((entry) => entry.seat + 1), t);
  return team.side ? t("room.team_side", { side: sideText(team.side, t), seats })
    : t("room.team_n", { n: team.index + 1, seats });
}

/**
 * The room page's seat list items for a team room: one item per team with its title and its
 * seats drawn by `seatRow(entry)`; null when the room is not a team room.
 */
export function teamSeatItems(room, seatRow, t) {
  const teams = seatTeams(room);
  if (!teams) return null;
  return teams.map((team) => h("li", { class: ["seat-team", team.side && `side-${team.side}`],
    "data-testid": "seat-team", "data-team": team.index, "data-side": team.side },
  h("h3", { class: "seat-team-title", text: teamTitle(team, t) }),
  h("ol", { class: "seats" }, team.seats.map(seatRow))));
}

/** The lobby's seat text of a team room ("Team 1: Ann, Cat · Team 2: Bob"), or null.
 * `name(entry)` gives a seat holder's display name. */
export function teamSeatsText(room, t, name = (entry) => entry.name) {
  const teams = seatTeams(room);
  if (!teams) return null;
  return teams.map((team) => {
    const names = team.seats.filter((e) => e.player_id !== null).map(name);
    return labelText(t("room.team_short", { n: team.index + 1 }), names.length ? listText(names, t) : "—", t);
  }).join(" · ");
}

/** Names said together as one side or as the winners ("Ann & Cat", zh "Ann、Cat", ja "Ann・Cat"):
 * the one joiner of teammates' names (match lists, winners, a side that resigned). */
export function joinNames(names) {
  return names.join(translate("history.teammates"));
}

/** The players of match `match` (a `MatchSummary`) as lists show them: side against side in a
 * team game ("Alice & Carol vs Bob & Dave", in the order of its `teams`), every seat against
 * the others otherwise ("Ann vs Bob vs Cat"); each seat by `matchSeatName` (a seat taken over
 * names the player and the bot). */
export function matchPlayersText(match) {
  const teams = match.teams && match.teams.length ? match.teams : match.seats.map((entry) => [entry.seat]);
  return teams.map((team) => joinNames(team.map((seat) => match.seats.find((entry) => entry.seat === seat))
    .filter(Boolean).map(matchSeatName)))
    .filter((names) => names).join(translate("history.versus"));
}
