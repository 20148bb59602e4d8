"""Queries of the ratings and leaderboards: one ``ratings`` row per player and game.

Like ``app.db.repositories``, every function takes an ``AsyncSession`` and never commits: the
caller owns the transaction (ratings are written in the one that stores a match's outcome).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import MatchSeat, Player, Rating
from app.db.repositories import with_holders

#: the conservative rating shown and sorted by: openskill's ``ordinal`` (mu - 3 sigma).
ORDINAL = Rating.mu - 3 * Rating.sigma


async def seat_players(session: AsyncSession, match_id: int) -> list[tuple[int, int, bool]]:
    """Return ``[(seat, player_id, is_bot)]`` of a match, by seat: the player holding each seat
    now (a bot that took a seat over, else who sat there at the start:
    ``repositories.with_holders``)."""
    query = (with_holders(select(MatchSeat.seat, Player.id, Player.bot).select_from(MatchSeat))
             .where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat))
    return [(seat, pid, bool(bot)) for seat, pid, bot in await session.execute(query)]


async def ratings_of(session: AsyncSession, game: str, player_ids: Sequence[int]
                     ) -> dict[int, Rating]:
    """Return ``{player_id: Rating}`` of the players that already have a rating in ``game``."""
    rows = await session.scalars(_RATINGS_OF, {"game": game, "ids": list(player_ids)})
    return {row.player_id: row for row in rows}


#: ``ratings_of``' statement (``game``, ``ids``: the player ids), built once: one built per call
#: with an ``IN`` list leaves a garbage cycle (``app.db.repositories``).
_RATINGS_OF = select(Rating).where(Rating.game == bindparam("game"),
                                   Rating.player_id.in_(bindparam("ids", expanding=True)))


async def put_rating(session: AsyncSession, row: Rating | None, *, player_id: int, game: str,
                     mu: float, sigma: float, won: bool, ko: bool) -> None:
    """Store a player's new ``mu``/``sigma`` and count one more rated match (and win, KO).

    ``row`` is the player's current row (from ``ratings_of``) or ``None`` for a first match.
    """
    if row is None:
        row = Rating(player_id=player_id, game=game, matches=0, wins=0, kos=0)
        session.add(row)
    row.mu, row.sigma = mu, sigma
    row.matches = (row.matches or 0) + 1
    row.wins = (row.wins or 0) + int(won)
    row.kos = (row.kos or 0) + int(ko)
    await session.flush()


async def leaderboard(session: AsyncSession, game: str, limit: int, offset: int = 0
                      ) -> list[tuple[Rating, str, int]]:
    """Return ``[(Rating, player name, rank)]`` of ``game``, best ordinal first (then more
    matches, then the older player). Equal ordinals share a rank, one more than the number of
    players rated above them (standard competition ranking: 1, 1, 3), on every page."""
    query = (select(Rating, Player.name, ORDINAL.label("ordinal"))
             .join(Player, Player.id == Rating.player_id)
             .where(Rating.game == game)
             .order_by(ORDINAL.desc(), Rating.matches.desc(), Rating.player_id)
             .offset(offset).limit(limit))
    rows = (await session.execute(query)).all()
    ranked: list[tuple[Rating, str, int]] = []
    for i, (row, name, value) in enumerate(rows):
        if i and value == rows[i - 1][2]:
            rank = ranked[-1][2]
        elif i == 0 and offset:
            above = select(func.count()).select_from(Rating).where(Rating.game == game,
                                                                   ORDINAL > value)
            rank = 1 + (await session.scalar(above) or 0)
        else:
            rank = offset + i + 1
        ranked.append((row, name, rank))
    return ranked


async def player_ratings(session: AsyncSession, player_id: int) -> Sequence[Rating]:
    """Return every rating of a player, by game id."""
    query = select(Rating).where(Rating.player_id == player_id).order_by(Rating.game)
    return (await session.scalars(query)).all()
