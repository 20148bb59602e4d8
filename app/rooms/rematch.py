""""Play again": a rematch in the same room with the same seats.

Once a room's match is finished, every seated person asks to play again
(``rooms.rematch`` keeps the seats that asked); when the last person asked — seats held by bots
agree by themselves — a new match starts in the same room with the same seats (``finished →
playing``, a fresh secret seed). Chosen over "the creator starts it" because the creator need
not be seated, and nobody is pulled into a new match they did not ask for.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.db import repositories as repo
from app.rooms.errors import RoomError
from app.rooms.lifecycle import RoomStatus
from app.rooms.service import RoomService

Publish = Callable[[str], Awaitable[None]]


async def rematch(service: RoomService, sessions: async_sessionmaker, publish: Publish,
                  code: str, player_id: int) -> dict[str, Any]:
    """Record that ``player_id`` wants to play again; start the rematch when every seat held by
    a person agreed. Returns the ``Room`` JSON (``rematch``: the seats that agreed; ``[]``
    again once the new match started). ``publish(code)`` announces the room change.

    Raises:
        RoomError: ``room_not_found`` (404); ``room_not_finished`` (409) while the room is open
            or playing, or abandoned; ``not_seated`` (409) for a player without a seat.
    """
    async with service.seat_lock(code):
        new = None
        async with sessions() as session, session.begin():
            room = await repo.room_by_code(session, code, lock=True)
            if room is None:
                raise RoomError("room_not_found", f"No room has the code {code!r}.", 404)
            if room.status != RoomStatus.FINISHED.value:
                raise RoomError("room_not_finished", "Play again once the match is over.")
            rows, match_id = (await repo.room_listings(session, [room.id]))[room.id]
            seats = {row.seat: row.player_id for row in rows}
            mine = {s for s, pid in seats.items() if pid == player_id}
            if not mine:
                raise RoomError("not_seated", "Only a seated player can ask to play again.")
            agreed = set(room.rematch or []) | mine
            bots = await repo.bot_player_ids(session, list(seats.values()))
            if {s for s, pid in seats.items() if pid not in bots} <= agreed:
                new = await service.start_match(session, room, seats)
                room.rematch, match_id = None, new.match_id
            else:
                room.rematch = sorted(agreed)
        if new is not None:
            await service.adopt(new)
        await publish(code)
        return service.room_json(room, rows, match_id)  # as committed, read under the lock
