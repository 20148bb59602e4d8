// Team seats of Reverse Curse 2v2 / 3v3 rooms (rulings "Formats"): a side is every other seat
// (seats 1, 3, 5 together and seats 2, 4, 6 together); which of the two teams is UP is the
// coin toss at the match start, so before it the teams are "Team 1" / "Team 2" and after it
// each team shows its side (the room's seats carry `side` once the match started).

import { h } from "/static/js/dom.js";

/**
 * The two teams of a team room as [{index: 0|1, side: "UP"|"DOWN"|null, seats: [seat entry]}]
 * (seat entry = the room's {seat, player_id, name, side}), or null when the room is not a team
 * room (another game, or 1v1).
 */
export function seatTeams(room) {
  if (!room || room.game !== "reverse_curse" || room.seats.length <= 2) return null;
  return [0, 1].map((index) => {
    const seats = room.seats.filter((entry) => entry.seat % 2 === index);
    const side = seats.length && seats[0].side ? seats[0].side : null;
    return { index, side, seats };
  });
}

function teamTitle(team, t) {
  const seats = team.seats.map((entry) => entry.seat + 1).join(", ");
  return team.side ? t("rc.team_side", { side: t(`rc.side.${team.side}`), seats })
    : t("rc.team_n", { n: team.index + 1, seats });
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

/** The lobby's seat text of a team room ("Team 1: Ann, Cat · Team 2: Bob"), or null. */
export function teamSeatsText(room, t) {
  const teams = seatTeams(room);
  if (!teams) return null;
  return teams.map((team) => {
    const names = team.seats.filter((e) => e.player_id !== null).map((e) => e.name);
    return `${t("rc.team_short", { n: team.index + 1 })}: ${names.length ? names.join(", ") : "—"}`;
  }).join(" · ");
}
