"""Rooms that manage themselves: one object per server process that wires
"play again" (``app.rooms.rematch``), the idle-room sweep (``app.rooms.idle``) and the rule for
seats that keep timing out (``app.rooms.takeover``) to the room service and the broker.

Removing a seated player before the start (the creator) is ``RoomService.leave_seat``; private
rooms are ``app.rooms.codes`` plus the listing filters in ``app.db.repositories``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.rooms import rematch
from app.rooms.clocks import Clock
from app.rooms.idle import IDLE_SECONDS, SWEEP_SECONDS, IdleSweeper
from app.rooms.service import RoomService
from app.rooms.takeover import TIMEOUT_STREAK, TimeoutRule

__all__ = ["RoomManager", "IDLE_SECONDS", "SWEEP_SECONDS", "TIMEOUT_STREAK"]


class RoomManager:
    """Rematches, the idle-room sweep and the timeout rule of one server process
    (``app.state.manager``).

    Args:
        sessions: the session factory.
        clock: the time source (a ``ManualClock`` in tests: the sweep needs no real waiting).
        service: the room service (seats, match start, the room ports; it tells the timeout
            rule of every action stored here, and publishes ``room`` changes).
    """

    def __init__(self, sessions: async_sessionmaker, clock: Clock,
                 service: RoomService) -> None:
        self._sessions, self._service = sessions, service
        self.idle = IdleSweeper(sessions, clock, service, self.publish_room)
        self.timeouts = TimeoutRule(sessions, clock, service, self.publish_room)
        self._sweeper: asyncio.Task | None = None
        service.observe(self.timeouts.observe)
        service.peers.on_gone(self._process_gone)

    async def publish_room(self, code: str) -> None:
        """Tell every process that room ``code`` changed (status, seats, rematch)."""
        await self._service.publisher.room(code)

    async def start(self) -> None:
        """Start the idle-room sweep."""
        self._sweeper = asyncio.create_task(self.idle.run())

    async def stop(self) -> None:
        """Stop the sweep and the timeout rule: no timeout check starts from now on (a clock
        that fires later during the shutdown leaves its streak to the next recheck); the
        running ones get up to ``TimeoutRule.close_wait`` seconds to finish, then those left
        are cancelled (``TimeoutRule.close``)."""
        await self.timeouts.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)

    async def rematch(self, code: str, player_id: int) -> dict[str, Any]:
        """See ``app.rooms.rematch.rematch``."""
        return await rematch.rematch(self._service, self._sessions, self.publish_room, code,
                                     player_id)

    async def close_idle(self) -> list[str]:
        """See ``IdleSweeper.close_idle``."""
        return await self.idle.close_idle()

    async def recheck_timeouts(self) -> list[tuple[str, int, int, str]]:
        """See ``TimeoutRule.recheck``: run when this process has resumed the playing
        matches, and each time another process is gone."""
        return await self.timeouts.recheck()

    def _process_gone(self, process: str) -> None:
        """Another process was lost or left (``Peers.on_gone``): a streak it stored last may
        have its rule unapplied (killed between the COMMIT and its check), and no clock would
        apply it before the seat's next one ran out, so the rule is checked again here now
        (every process that hears of it does: the rule applies once, ``after_timeout``)."""
        self.timeouts.track(self.recheck_timeouts())

    async def after_timeout(self, code: str, match_id: int, seat: int) -> str | None:
        """See ``TimeoutRule.after_timeout``."""
        return await self.timeouts.after_timeout(code, match_id, seat)

    async def settle(self) -> None:
        """Wait until every timeout check started so far has finished (tests, shutdown)."""
        await self.timeouts.settle()
