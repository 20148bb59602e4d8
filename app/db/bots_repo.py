"""Queries of the computer players: bot player rows and a match's bot seats.

Like ``app.db.repositories``, every function takes an ``AsyncSession`` and never commits: the
caller owns the transaction.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, MatchAction, MatchSeat, Player, Room
from app.db.repositories import with_holders


async def add_bot_player(session: AsyncSession, name: str, level: str, token_hash: str,
                         now: datetime) -> Player:
    """Insert a bot player named ``name`` of ``level`` (``engine.bots.LEVELS``; never rated:
    ``app.rooms.ratings``); return it."""
    player = Player(name=name, token_hash=token_hash, created_at=now, bot=True,
                    bot_level=level)
    session.add(player)
    await session.flush()
    return player


async def newest_match_bots(session: AsyncSession, code: str
                            ) -> tuple[int | None, dict[int, str]]:
    """Return ``(match id, {seat: bot level})`` of room ``code``'s newest match: the seats a bot
    holds now (seated at the start or taken over since: ``repositories.with_holders``;
    ``normal`` for a bot row without a level).

    ``(None, {})`` when the room has no match (or does not exist); no seats when that match is
    not being played any more (nothing left for a bot to answer).
    """
    row = (await session.execute(_NEWEST_MATCH, {"code": code})).first()
    if row is None:
        return None, {}
    match_id, status = row
    if status != "playing":
        return match_id, {}
    rows = await session.execute(_BOT_SEATS, {"match_id": match_id})
    return match_id, {seat: level or "normal" for seat, level in rows}


#: ``newest_match_bots``' statements, built once (building them cost more than running them):
#: the newest match of room ``code``, and the seats a bot holds now in match ``match_id``.
_NEWEST_MATCH = (select(Match.id, Match.status).join(Room, Room.id == Match.room_id)
                 .where(Room.code == bindparam("code")).order_by(Match.id.desc()).limit(1))
_BOT_SEATS = (with_holders(select(MatchSeat.seat, Player.bot_level).select_from(MatchSeat))
              .where(MatchSeat.match_id == bindparam("match_id"), Player.bot.is_(True)))


async def playing_bot_seats(session: AsyncSession
                            ) -> dict[str, tuple[int, int, dict[int, str]]]:
    """Return ``{room code: (match id, its highest seq or 0, {seat: bot level})}`` of every
    room whose newest match is being played and has seats a bot holds now (``normal`` for a
    bot row without a level), in one query (``newest_match_bots`` of all of them at once, with each
    match's stored head)."""
    newest = (select(Match.room_id, func.max(Match.id).label("match_id"))
              .group_by(Match.room_id).subquery())
    head = (select(func.max(MatchAction.seq)).where(MatchAction.match_id == Match.id)
            .correlate(Match).scalar_subquery())
    query = (with_holders(select(Room.code, Match.id, head, MatchSeat.seat, Player.bot_level)
                          .select_from(Room)
                          .join(newest, newest.c.room_id == Room.id)
                          .join(Match, Match.id == newest.c.match_id)
                          .join(MatchSeat, MatchSeat.match_id == Match.id))
             .where(Match.status == "playing", Player.bot.is_(True))
             .order_by(Room.code, MatchSeat.seat))
    out: dict[str, tuple[int, int, dict[int, str]]] = {}
    for code, match_id, seq, seat, level in await session.execute(query):
        out.setdefault(code, (match_id, int(seq or 0), {}))[2][seat] = level or "normal"
    return out
