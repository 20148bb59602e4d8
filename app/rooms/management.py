"""Rooms that manage themselves (issue 11 part 4): rematch, idle rooms, seats that time out.

- **Play again** (``rematch``): once a room's match is finished, every seated person asks to
  play again; when the last one has asked (seats held by bots agree by themselves), a new match
  starts in the same room with the same seats (``finished → playing``, a fresh secret seed).
  Chosen over "the creator starts it" because the creator need not be seated, and nobody is
  pulled into a new match they did not ask for.
- **Idle rooms**: an ``open`` room with no seat change for ``IDLE_SECONDS`` (30 minutes) is
  ``abandoned`` by a background sweep driven by the injectable clock (``SWEEP_SECONDS``).
- **Timeouts**: a seat whose last ``TIMEOUT_STREAK`` (3) actions were all played by its clock is
  replaced by a bot (room option ``on_timeouts = "bot"``, the default) or resigns for its side
  (``"forfeit"``), so the others can finish. The bot is a new greedy bot player
  (``app.rooms.bots``) put in the seat of the room *and* of the match, which is how the
  ``BotDriver`` knows which seats it plays; the match then counts as one with a bot (unrated,
  ``app.rooms.ratings``), and the replaced player watches as a spectator.

Removing a seated player before the start (the creator) is ``RoomService.leave_seat``; private
rooms are ``app.rooms.codes`` plus the listing filters in ``app.db.repositories``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.auth import hash_token, new_token
from app.bus.base import CHANNEL, Broker
from app.db import bots_repo, repositories as repo
from app.rooms.bots import BOT_NAMES
from app.rooms.clocks import Clock
from app.rooms.errors import RoomError
from app.rooms.lifecycle import RoomStatus, transition
from app.rooms.live import RESIGN
from app.rooms.observe import Applied
from app.rooms.play import to_datetime
from app.rooms.service import RoomService

log = logging.getLogger(__name__)

IDLE_SECONDS = 30 * 60
SWEEP_SECONDS = 60.0
TIMEOUT_STREAK = 3

#: The level of the bot that takes over a seat that keeps timing out.
TAKEOVER_LEVEL = "greedy"


class RoomManager:
    """Rematches, the idle-room sweep and the timeout rule of one server process.

    Args:
        sessions: the session factory; broker: where ``room`` changes are published.
        clock: the time source (a ``ManualClock`` in tests: the sweep needs no real waiting).
        service: the room service (seats, match start, the match runner).
    """

    def __init__(self, sessions: async_sessionmaker, broker: Broker, clock: Clock,
                 service: RoomService) -> None:
        self._sessions, self._broker, self._clock = sessions, broker, clock
        self._service = service
        self._sweeper: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()
        service.matches.observers.append(self.observe)

    async def start(self) -> None:
        """Start the idle-room sweep."""
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def stop(self) -> None:
        """Stop the sweep and any timeout handling still running."""
        tasks = [t for t in (self._sweeper, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def settle(self) -> None:
        """Wait until every timeout check started so far has finished (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _publish_room(self, code: str) -> None:
        await self._broker.publish(CHANNEL, {"room": code, "kind": "room"})

    # ------------------------------------------------------------------ play again

    async def rematch(self, code: str, player_id: int) -> dict[str, Any]:
        """Record that ``player_id`` wants to play again; start the rematch when every seat
        held by a person agreed. Returns the ``Room`` JSON (``rematch``: the seats that agreed;
        ``[]`` again once the new match started).

        Raises:
            RoomError: ``room_not_found`` (404); ``room_not_finished`` (409) while the room is
                open or playing, or abandoned; ``not_seated`` (409) for a player without a seat.
        """
        async with self._service.seat_lock(code):
            live = None
            async with self._sessions() as session, session.begin():
                room = await repo.room_by_code(session, code, lock=True)
                if room is None:
                    raise RoomError("room_not_found", f"No room has the code {code!r}.", 404)
                if room.status != RoomStatus.FINISHED.value:
                    raise RoomError("room_not_finished", "Play again once the match is over.")
                seats = {s: pid for s, pid, _ in (await repo.room_seats(session, [room.id]))[room.id]}
                mine = {s for s, pid in seats.items() if pid == player_id}
                if not mine:
                    raise RoomError("not_seated", "Only a seated player can ask to play again.")
                agreed = set(room.rematch or []) | mine
                bots = await repo.bot_player_ids(session, list(seats.values()))
                people = {s for s, pid in seats.items() if pid not in bots}
                if people <= agreed:
                    live = await self._service.start_match(session, room, seats)
                    room.rematch = None
                else:
                    room.rematch = sorted(agreed)
            if live is not None:
                await self._service.matches.started(live)
            await self._publish_room(code)
        return await self._service.room(code)

    # ------------------------------------------------------------------ idle rooms

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
            await self._publish_room(code)
        return closed

    async def _abandon_if_idle(self, code: str, before) -> bool:
        async with self._sessions() as session, session.begin():
            room = await repo.room_by_code(session, code, lock=True)
            last = room.active_at or room.created_at
            if room.status != RoomStatus.OPEN.value or last >= before:
                return False
            status = transition(room.status, RoomStatus.ABANDONED)
            await repo.set_room_status(session, room.id, status.value)
            return True

    async def _sweep_forever(self) -> None:
        while True:
            await self._clock.sleep(SWEEP_SECONDS)
            try:
                await self.close_idle()
            except Exception:  # keep sweeping; the next round retries
                log.exception("idle-room sweep failed")

    # ------------------------------------------------------------------ timeouts

    async def _seat_bot(self, code: str, match_id: int, seat: int) -> bool:
        """Put a new ``TAKEOVER_LEVEL`` bot in ``seat`` of the room and of match ``match_id``;
        return ``False`` when a bot holds the seat already. Publishes the room change (the
        ``BotDriver`` and the sockets hear of it)."""
        now = to_datetime(self._clock.now())
        async with self._service.seat_lock(code):
            async with self._sessions() as session, session.begin():
                room = await repo.room_by_code(session, code, lock=True)
                seats = (await repo.match_seats(session, [match_id]))[match_id]
                holders = {s: pid for s, pid, _ in seats}
                if holders.get(seat) in await repo.bot_player_ids(session, list(holders.values())):
                    return False
                bot = await bots_repo.add_bot_player(session, BOT_NAMES[TAKEOVER_LEVEL],
                                                     hash_token(new_token()), now)
                await repo.reassign_seat(session, room.id, match_id, seat, bot.id)
        await self._publish_room(code)
        return True

    def observe(self, applied: Applied) -> None:
        """``MatchRunner`` observer: after a clock-played action, check the seat's streak."""
        if not applied.timeout:
            return
        task = asyncio.create_task(self.after_timeout(applied.code, applied.match_id,
                                                      applied.seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def after_timeout(self, code: str, match_id: int, seat: int) -> str | None:
        """Apply the room's ``on_timeouts`` rule if ``seat`` just timed out ``TIMEOUT_STREAK``
        decisions in a row; return ``"bot"``, ``"forfeit"`` or ``None`` (no streak yet).

        A seat already held by a bot is left alone.
        """
        async with self._sessions() as session:
            rows = await repo.last_seat_actions(session, match_id, seat, TIMEOUT_STREAK)
            room = await repo.room_by_code(session, code)
        if len(rows) < TIMEOUT_STREAK or not all(row.timeout for row in rows):
            return None
        if room.on_timeouts == "bot":
            return "bot" if await self._seat_bot(code, match_id, seat) else None
        try:
            await self._service.matches.act(code, seat, None, RESIGN)
        except RoomError as exc:
            if exc.code != "game_over":
                raise
        return "forfeit"
