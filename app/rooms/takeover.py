"""Seats that keep timing out: after ``TIMEOUT_STREAK`` (3) decisions in a
row played by a seat's clock, the room's ``on_timeouts`` rule applies so the others can finish.

- ``"bot"`` (the default): a new ``TAKEOVER_LEVEL`` bot player (``app.rooms.bots``) takes the
  seat of the room, and of the match from the next action on (``match_takeovers``: the match's
  record keeps the replaced player in ``match_seats`` for the actions before) — the
  ``BotDriver`` plays the seats a bot holds now (``repositories.with_holders``). The match then
  counts as one with a bot (unrated, ``app.rooms.ratings``); the replaced player's socket
  becomes a spectator's.
- ``"forfeit"``: the room resigns the seat (its side loses). The resign is stored marked as
  the room's (``match_actions.forfeit``: ``timeouts_forfeit``) and told as a ``forfeit`` event,
  so clients word it as a forfeit on time, not as the player's own resignation.

``TimeoutRule.observe`` is an observer of the room service (``RoomService.observe``): it is told
of every action this process stored, and checks the streak after each clock-played one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.auth import hash_token, new_token
from app.db import bots_repo
from app.db import repositories as repo
from app.rooms.bots import BOT_NAMES
from app.rooms.clocks import Clock
from app.rooms.live import Forfeit
from app.rooms.observe import Applied
from app.rooms.service import RoomService
from app.rooms.store import to_datetime

log = logging.getLogger(__name__)

TIMEOUT_STREAK = 3
#: The level of the bot that takes over a seat that keeps timing out.
TAKEOVER_LEVEL = "normal"
#: Seconds ``TimeoutRule.close`` waits for the running checks to finish (a forfeit or a
#: takeover partway through is completed) before it cancels what remains.
CLOSE_WAIT_SECONDS = 2.0


def timeouts_forfeit(streak: int) -> Forfeit:
    """Return the ``Forfeit`` of a seat resigned after its clock played its last ``streak``
    decisions in a row: ``{"reason": "timeouts", "timeouts": streak}``."""
    return {"reason": "timeouts", "timeouts": streak}


class TimeoutRule:
    """Applies ``on_timeouts`` to seats that time out ``TIMEOUT_STREAK`` decisions in a row.

    Args:
        sessions: the session factory; clock: the time source; service: the room service;
        publish: ``publish(code)`` announces a room change.

    Attributes:
        close_wait: the most seconds ``close`` waits for the running checks before it
            cancels them (``CLOSE_WAIT_SECONDS``; real time, not the ``clock``'s).
    """

    def __init__(self, sessions: async_sessionmaker, clock: Clock, service: RoomService,
                 publish: Callable[[str], Awaitable[None]]) -> None:
        self._sessions, self._clock, self._service = sessions, clock, service
        self._publish = publish
        self.tasks: set[asyncio.Task] = set()
        self.close_wait = CLOSE_WAIT_SECONDS
        self._closed = False

    def observe(self, applied: Applied) -> None:
        """Observer: after a clock-played action, check the seat's streak."""
        if not applied.timeout:
            return
        self.track(self.after_timeout(applied.code, applied.match_id, applied.seat))

    def track(self, check: Coroutine[Any, Any, object]) -> None:
        """Run ``check`` (``after_timeout`` or ``recheck``) as a task of this rule's
        (``settle`` waits for it, ``close`` cancels it); its failure is logged.

        Once ``close`` has begun, ``check`` is dropped unrun: the clocks, the room channel and
        the store still run for a while during a graceful shutdown, and a check started then
        would outlive its canceller. A streak left unchecked so is applied by ``recheck``: at
        this process's next start, or by another process when it hears this one leave.
        """
        if self._closed:
            check.close()
            log.info("the timeout rule is stopping: a check is left to the next recheck")
            return
        task = asyncio.create_task(check)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("the timeout rule's check failed", exc_info=task.exception())

    async def settle(self) -> None:
        """Wait until every check started so far has finished."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def close(self) -> None:
        """Start no check from now on (``track``); wait up to ``close_wait`` seconds for the
        running ones to finish (a forfeit or a takeover partway through is completed, not
        left to the next recheck), then cancel those still running and wait for them to end.
        Calling it again does nothing more."""
        self._closed = True
        tasks = list(self.tasks)
        if tasks and self.close_wait > 0:
            await asyncio.wait(tasks, timeout=self.close_wait)
        left = [task for task in tasks if not task.done()]
        if left:
            log.warning("the timeout rule is stopping: %d check(s) still running after %.1f s "
                        "cancelled, left to the next recheck", len(left), self.close_wait)
        for task in left:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def after_timeout(self, code: str, match_id: int, seat: int) -> str | None:
        """Apply the room's ``on_timeouts`` rule if ``seat`` just timed out ``TIMEOUT_STREAK``
        decisions in a row; return ``"bot"``, ``"forfeit"`` or ``None`` (no streak yet, or a
        bot holds the seat already)."""
        async with self._sessions() as session:
            rows = await repo.last_seat_actions(session, match_id, seat, TIMEOUT_STREAK)
            room = await repo.room_by_code(session, code)
        if room is None:
            raise LookupError(f"no room has the code {code!r}")
        if len(rows) < TIMEOUT_STREAK or not all(row.timeout for row in rows):
            return None
        if room.on_timeouts == "bot":
            return "bot" if await self._seat_bot(code, match_id, seat) else None
        await self._service.port(code).forfeit(seat, timeouts_forfeit(len(rows)))
        return "forfeit"

    async def recheck(self) -> list[tuple[str, int, int, str]]:
        """Apply the rule to every seat of a playing match whose clock played its newest
        ``TIMEOUT_STREAK`` decisions in a row: a process that stored the last of them stopped
        (or was killed) before its check applied the rule, and nothing else would apply it
        until the seat's clock ran out once more. Run once the playing matches are resumed
        (``app.main.resume_matches``) and when another process is gone
        (``RoomManager.recheck_timeouts``); a seat whose rule applied already is left alone
        (``after_timeout``: a bot holds it, or the match is over). Return ``(code, match id,
        seat, "bot" or "forfeit")`` of each rule applied here."""
        async with self._sessions() as session:
            streaks = await repo.timeout_streaks(session, TIMEOUT_STREAK)
        applied = []
        for code, match_id, seat in streaks:
            done = await self.after_timeout(code, match_id, seat)
            if done is not None:
                applied.append((code, match_id, seat, done))
        return applied

    async def _seat_bot(self, code: str, match_id: int, seat: int) -> bool:
        """Put a new ``TAKEOVER_LEVEL`` bot in ``seat`` of the room, and of match ``match_id``
        from its next action on (``repo.take_over_seat``); ``False`` when a bot holds the seat
        already. Publishes the room change (the ``BotDriver`` and the sockets hear of it)."""
        now = to_datetime(self._clock.now())
        async with self._service.seat_lock(code):
            async with self._sessions() as session, session.begin():
                room = await repo.room_by_code(session, code, lock=True)
                if room is None:
                    raise LookupError(f"no room has the code {code!r}")
                holders = await repo.seat_holders(session, match_id)
                if holders.get(seat) in await repo.bot_player_ids(session, list(holders.values())):
                    return False
                bot = await bots_repo.add_bot_player(session, BOT_NAMES[TAKEOVER_LEVEL],
                                                     TAKEOVER_LEVEL, hash_token(new_token()),
                                                     now)
                await repo.take_over_seat(session, room.id, match_id, seat, bot.id)
        await self._publish(code)
        return True
