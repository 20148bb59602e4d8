"""Time for the room service: a ``Clock`` (real or fake) and the per-room deadline loop."""

from __future__ import annotations

import asyncio
import time
from typing import Awaitable, Callable, Protocol


class Clock(Protocol):
    """Where the service reads the time (unix seconds) and waits."""

    def now(self) -> float:
        """Return the current unix time in seconds."""

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock's time."""


class SystemClock:
    """The real clock: ``time.time`` and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class ManualClock:
    """A clock that moves only when ``advance`` or ``set`` is called (tests).

    ``sleep`` polls every 5 ms of real time, so ``advance`` may be called from any thread.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds``."""
        self._now += seconds

    async def sleep(self, seconds: float) -> None:
        target = self._now + seconds
        while self._now < target:
            await asyncio.sleep(0.005)


async def run_deadlines(clock: Clock, next_deadline: Callable[[], float | None],
                        changed: asyncio.Event, fire: Callable[[], Awaitable[bool]]) -> None:
    """Fire ``fire()`` whenever the earliest deadline has passed, until it returns ``False``.

    Args:
        clock: the time source.
        next_deadline: returns the earliest pending deadline (unix s), or ``None`` for none.
        changed: set by the room whenever its deadlines change (the wait restarts).
        fire: plays the due deadline actions; returns ``False`` once the match is over.

    Implements ARCHITECTURE.md "every decision has a clock": one loop per live room.
    """
    while True:
        changed.clear()
        due = next_deadline()
        delay = None if due is None else due - clock.now()
        if delay is not None and delay <= 0:
            if not await fire():
                return
            continue
        waits = {asyncio.ensure_future(changed.wait())}
        if delay is not None:
            waits.add(asyncio.ensure_future(clock.sleep(delay)))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                task.cancel()
