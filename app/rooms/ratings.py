"""Ratings of every game with openskill's Plackett-Luce model.

One rating per player and game. A finished match is rated once, in the transaction that stores
its outcome (``MatchStore.append``): the teams are the game's sides (``Game.sides``: Reverse
Curse 2v2/3v3: a side is a team; 1v1: two teams of one; a game without teams: every seat is its
own team, free-for-all, e.g. 3-player zipai); a team's rank is its members' ``Outcome.ranks`` (1 = best,
equal ranks tie). A match with a bot in any seat (``players.bot``) is not rated: seated at the
start, or holding a seat it took over (``app.rooms.takeover``).

A new player starts at openskill's defaults (mu 25, sigma 25/3). The conservative rating shown
on leaderboards is the ordinal ``mu - 3 * sigma``.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ratings_repo
from engine.core import Outcome

MODEL = PlackettLuce()
KO_GAMES = frozenset({"reverse_curse"})  # games whose leaderboard counts wins by KO

MuSigma = tuple[float, float]


def ordinal(mu: float, sigma: float) -> float:
    """Return the conservative rating ``mu - 3 sigma`` (openskill's ``ordinal``)."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def rating_teams(seats: int, sides: Sequence[Sequence[int]]) -> list[list[int]]:
    """Return the teams of seats to rate: the game's sides (``Game.sides``, in side order),
    each sorted; with no sides given, one team per seat.

    Args:
        seats: how many seats the match has; sides: the seat groups of ``Game.sides``.
    """
    if sides:
        return [sorted(side) for side in sides]
    return [[seat] for seat in range(seats)]


def rate(teams: Sequence[Sequence[MuSigma]], ranks: Sequence[int]) -> list[list[MuSigma]]:
    """Return every member's new ``(mu, sigma)`` after one match (openskill Plackett-Luce).

    Args:
        teams: each team's members' current ``(mu, sigma)``; ranks: one per team, 1 = best,
            equal ranks tie.
    """
    prior = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    posterior = MODEL.rate(prior, ranks=list(ranks))
    return [[(r.mu, r.sigma) for r in team] for team in posterior]


async def rate_match(session: AsyncSession, match_id: int, game: str, outcome: Outcome,
                     sides: Sequence[Sequence[int]]) -> bool:
    """Rate a finished match inside the caller's transaction; return whether it was rated.

    Not rated (``False``): a bot in any seat, or fewer than two teams. A win is a seat ranked
    1 when not every seat is; a KO is such a win of a ``KO_GAMES`` match ending by ``"ko"``.
    """
    seats = await ratings_repo.seat_players(session, match_id)
    if any(bot for _, _, bot in seats):
        return False
    teams = rating_teams(len(seats), sides)
    if len(teams) < 2:
        return False
    player = {seat: pid for seat, pid, _ in seats}
    rows = await ratings_repo.ratings_of(session, game, list(player.values()))
    default = (MODEL.mu, MODEL.sigma)
    prior = [[(rows[player[s]].mu, rows[player[s]].sigma) if player[s] in rows else default
              for s in team] for team in teams]
    posterior = rate(prior, [outcome.ranks[team[0]] for team in teams])
    ko = game in KO_GAMES and outcome.reason == "ko"
    for team, new in zip(teams, posterior):
        for seat, (mu, sigma) in zip(team, new):
            won = outcome.ranks[seat] == 1 and not outcome.draw
            await ratings_repo.put_rating(session, rows.get(player[seat]), player_id=player[seat],
                                          game=game, mu=mu, sigma=sigma, won=won, ko=won and ko)
    return True
