"""Queries of the computer players: bot player rows and a match's bot seats.

Like ``app.db.repositories``, every function takes an ``AsyncSession`` and never commits: the
caller owns the transaction.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, MatchSeat, Player, Room


async def add_bot_player(session: AsyncSession, name: str, token_hash: str,
                         now: datetime) -> Player:
    """Insert a player marked ``bot`` (never rated: ``app.rooms.ratings``); return it."""
    player = Player(name=name, token_hash=token_hash, created_at=now, bot=True)
    session.add(player)
    await session.flush()
    return player


async def newest_match_bots(session: AsyncSession, code: str
                            ) -> tuple[int | None, dict[int, str]]:
    """Return ``(match id, {seat: bot player name})`` of room ``code``'s newest match.

    ``(None, {})`` when the room has no match (or does not exist); no seats when that match is
    not being played any more (nothing left for a bot to answer).
    """
    newest = (select(Match.id, Match.status).join(Room, Room.id == Match.room_id)
              .where(Room.code == code).order_by(Match.id.desc()).limit(1))
    row = (await session.execute(newest)).first()
    if row is None:
        return None, {}
    match_id, status = row
    if status != "playing":
        return match_id, {}
    query = (select(MatchSeat.seat, Player.name)
             .join(Player, Player.id == MatchSeat.player_id)
             .where(MatchSeat.match_id == match_id, Player.bot.is_(True)))
    return match_id, {seat: name for seat, name in await session.execute(query)}


async def playing_room_codes(session: AsyncSession) -> list[str]:
    """Return the codes of the rooms whose newest match is being played."""
    query = (select(Room.code).join(Match, Match.room_id == Room.id)
             .where(Match.status == "playing").distinct())
    return list(await session.scalars(query))
