"""Idle rooms close: an ``open`` room with no seat change for
``IDLE_SECONDS`` (30 minutes) becomes ``abandoned``.

A sweep runs every ``SWEEP_SECONDS`` of the injected clock (a ``ManualClock`` in tests, so no
test waits half an hour). A room's last activity is ``rooms.active_at`` (set by every seat
claim and release), else its ``created_at``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.db import repositories as repo
from app.rooms.clocks import Clock
from app.rooms.lifecycle import RoomStatus, transition
from app.rooms.service import RoomService
from app.rooms.store import to_datetime

log = logging.getLogger(__name__)

IDLE_SECONDS = 30 * 60
SWEEP_SECONDS = 60.0


class IdleSweeper:
    """Abandons idle open rooms.

    Args:
        sessions: the session factory; clock: the time source; service: the room service (its
            seat locks); publish: ``publish(code)`` announces a room change.
    """

    def __init__(self, sessions: async_sessionmaker, clock: Clock, service: RoomService,
                 publish: Callable[[str], Awaitable[None]]) -> None:
        self._sessions, self._clock, self._service = sessions, clock, service
        self._publish = publish

    async def close_idle(self) -> list[str]:
        """Abandon every open room idle for ``IDLE_SECONDS``; return their codes (oldest first).

        Each room's seat lock is taken so a seat claimed at the same moment is not lost.
        """
        before = to_datetime(self._clock.now() - IDLE_SECONDS)
        async with self._sessions() as session:
            candidates = [room.code for room in await repo.idle_open_rooms(session, before)]
        closed = []
        for code in candidates:
            async with self._service.seat_lock(code):
                if await self._abandon_if_idle(code, before):
                    closed.append(code)
        for code in closed:
            await self._publish(code)
        return closed

    async def _abandon_if_idle(self, code: str, before: datetime) -> bool:
        async with self._sessions() as session, session.begin():
            room = await repo.room_by_code(session, code, lock=True)
            if room is None:
                raise LookupError(f"no room has the code {code!r}")
            last = room.active_at or room.created_at
            if room.status != RoomStatus.OPEN.value or last >= before:
                return False
            status = transition(room.status, RoomStatus.ABANDONED)
            await repo.set_room_status(session, room.id, status.value)
            return True

    async def run(self) -> None:
        """Sweep every ``SWEEP_SECONDS`` (of the clock) until cancelled."""
        while True:
            await self._clock.sleep(SWEEP_SECONDS)
            try:
                await self.close_idle()
            except Exception:  # keep sweeping; the next round retries
                log.exception("idle-room sweep failed")
