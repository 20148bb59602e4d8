"""Clock firing: when a seat's clock runs out, its ``deadline_action`` is played for it
(ARCHITECTURE.md "every decision has a clock"), for every match this process holds, from one
``DeadlineScheduler``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from app.rooms.clocks import Clock, DeadlineScheduler
from app.rooms.live import LiveMatch, Step

log = logging.getLogger(__name__)

#: Seconds a room's clock waits after its firing failed (the next change retries too).
RETRY_SECONDS = 0.5

#: ``decide(live) -> Step | None``: what to play on ``live`` now (``None``: nothing).
Decide = Callable[[LiveMatch], "Step | None"]


def overdue_step(live: LiveMatch, now: float) -> Step | None:
    """Return the step of the earliest overdue seat's deadline action (the lower seat on a
    tie), played by the clock at ``now`` (unix s) as the seat ``GAME.deadline_seat`` names (a
    teammate when a timeout draws from the whole side); ``None`` when none is due or it is
    over."""
    due = sorted((deadline, seat) for seat, deadline in live.deadlines.items() if deadline <= now)
    if live.over or not due:
        return None
    seat = live.game.deadline_seat(live.state, due[0][1])
    return live.propose(seat, live.game.deadline_action(live.state, seat), now, timeout=True)


class ClockFiring:
    """Fires the due deadline actions of the rooms watched here.

    Args:
        clock: the time source.
        held: ``held(code)`` returns the room's match held here, or ``None``.
        play: ``await play(code, decide)`` plays what ``decide`` returns on the room's match
            (made current first, stored, announced) — the room core's path for every action.

    A watched room's earliest deadline sits in the scheduler; ``changed(code)`` after its
    deadlines changed; ``drop(code)`` once its match is over or no longer held.
    """

    def __init__(self, clock: Clock, held: Callable[[str], LiveMatch | None],
                 play: Callable[[str, Decide], Awaitable[Step | None]]) -> None:
        self._clock, self._held, self._play = clock, held, play
        self._scheduler = DeadlineScheduler(clock, self._next_deadline, self._fire)
        self.watch, self.drop = self._scheduler.watch, self._scheduler.drop
        self.changed, self.watched = self._scheduler.changed, self._scheduler.watched

    async def stop(self) -> None:
        """Stop every clock (a deadline action being fired is cancelled)."""
        await self._scheduler.stop()

    def _next_deadline(self, code: str) -> float | None:
        live = self._held(code)
        return live.next_deadline() if live is not None else None

    def _decide(self, live: LiveMatch) -> Step | None:
        return overdue_step(live, self._clock.now())

    async def _fire(self, code: str) -> bool:
        """Play the room's earliest overdue deadline action; ``False`` once it is over or not
        held here any more."""
        try:
            await self._play(code, self._decide)
        except Exception:  # keep the clock alive; the next change retries
            log.exception("clock of room %s failed", code)
            await asyncio.sleep(RETRY_SECONDS)
        live = self._held(code)
        return live is not None and not live.over
