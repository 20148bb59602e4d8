"""Time for the room service: a ``Clock`` (real, or a test's ``ManualClock`` / ``FileClock``)
and one deadline scheduler for every room of the process (``DeadlineScheduler``)."""

from __future__ import annotations

import asyncio
import heapq
import math
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

#: Real seconds between two looks at a ``ManualClock`` by a timer waiting for it.
MANUAL_POLL = 0.005


class Timer(Protocol):
    """A pending ``Clock.call_at`` callback."""

    def cancel(self) -> None:
        """Make sure the callback does not run (nothing happens if it already ran)."""


class Clock(Protocol):
    """Where the service reads the time (unix seconds), waits, and sets timers."""

    def now(self) -> float:
        """Return the current unix time in seconds."""

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock's time."""

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback()`` in the running event loop once ``now() >= when`` (unix s; soon
        when it already is); the returned ``Timer`` cancels it."""


class SystemClock:
    """The real clock: ``time.time``, ``asyncio.sleep`` and the event loop's timers."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """``loop.call_later`` of the seconds left until ``when`` (0 if past)."""
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)


class PolledClock:
    """A clock that moves by itself only when told (tests): its timers and ``sleep`` look at
    ``now()`` every ``MANUAL_POLL`` s of real time. Subclasses define ``now``.

    ``looked`` is the barrier a test awaits after moving the time: once it returns, every
    timer has seen the new time, so whatever is due has been started and whatever is not due
    will not start until the time moves again.
    """

    def __init__(self) -> None:
        self._pending: set[_PolledTimer] = set()  # timers that have not fired nor been cancelled
        self._rounds: list[tuple[set[_PolledTimer], asyncio.Future[None]]] = []

    def now(self) -> float:
        raise NotImplementedError

    async def looked(self) -> None:
        """Return once every timer pending at the call has looked at ``now()`` again: it fired
        (its callback has returned), it will look again later (not due), or it was cancelled.
        Returns at once when no timer is pending. Await it in the event loop that runs the
        timers (the time itself may be moved from any thread)."""
        waiting = set(self._pending)
        if not waiting:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._rounds.append((waiting, done))
        try:
            await done
        finally:
            self._rounds = [(w, f) for w, f in self._rounds if f is not done]

    def _looked(self, timer: _PolledTimer) -> None:
        """Note that ``timer`` looked at the time (or was cancelled)."""
        for waiting, done in self._rounds:
            waiting.discard(timer)
            if not waiting and not done.done():
                done.set_result(None)

    async def sleep(self, seconds: float) -> None:
        await self.until(self.now() + seconds)

    async def until(self, when: float) -> None:
        """Return once ``now() >= when`` (at once if it already is)."""
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self.call_at(when, wake)
        try:
            await woken
        finally:
            timer.cancel()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        return _PolledTimer(self, when, callback)


class ManualClock(PolledClock):
    """A clock that moves only when ``advance`` is called (tests).

    Its timers look at the clock every ``MANUAL_POLL`` s of real time, so ``advance`` may be
    called from any thread.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        super().__init__()
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds``."""
        self._now += seconds


class FileClock(PolledClock):
    """A clock whose time is the number (unix s) written in a text file: several server
    processes of a test share one, moved by the test (``FileClock.advance``, which replaces the
    file in one rename so a reader never sees half a number).

    Args:
        path: the file; it must exist (``FileClock.create``).
    """

    def __init__(self, path: str | os.PathLike) -> None:
        super().__init__()
        self.path = Path(path)

    @classmethod
    def create(cls, path: str | os.PathLike, start: float) -> FileClock:
        """Write ``start`` to ``path``; return the clock."""
        clock = cls(path)
        clock.set(start)
        return clock

    def now(self) -> float:
        return float(self.path.read_text())

    def set(self, when: float) -> None:
        """Make the time ``when`` (unix s)."""
        fresh = self.path.with_name(f"{self.path.name}.{os.getpid()}.new")
        fresh.write_text(repr(float(when)))
        os.replace(fresh, self.path)

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds``."""
        self.set(self.now() + seconds)


class _PolledTimer:
    """Runs ``callback()`` at the first look (one now, then every ``MANUAL_POLL`` s) at which
    ``clock.now() >= when``."""

    __slots__ = ("_clock", "_when", "_callback", "_handle")

    def __init__(self, clock: PolledClock, when: float, callback: Callable[[], None]) -> None:
        self._clock, self._when, self._callback = clock, when, callback
        self._handle: asyncio.Handle = asyncio.get_running_loop().call_soon(self._look)
        clock._pending.add(self)

    def _look(self) -> None:
        try:
            if self._clock.now() >= self._when:
                self._clock._pending.discard(self)
                self._callback()
            else:
                self._handle = asyncio.get_running_loop().call_later(MANUAL_POLL, self._look)
        finally:
            self._clock._looked(self)

    def cancel(self) -> None:
        self._handle.cancel()
        if self in self._clock._pending:
            self._clock._pending.discard(self)
            self._clock._looked(self)


class DeadlineScheduler:
    """Fires the due deadline actions of every watched room from one ``Clock`` timer.

    Args:
        clock: the time source (``call_at`` drives the one timer).
        due: ``due(code)`` returns the room's earliest pending deadline (unix s), ``None`` for
            none (also for a room this process does not hold).
        fire: ``await fire(code)`` plays the room's due deadline actions; ``False`` once its
            match is over (the room is then no longer watched).

    A watched room is either *armed* (its earliest deadline sits in one heap shared by every
    room; the timer is set for the heap's earliest entry) or *firing* (one task runs ``fire``
    until nothing is due, then the room is armed again). A room whose deadlines change calls
    ``changed``: an earlier deadline is armed at once; a later one is found when the old entry
    comes up (so a move usually costs one comparison, no timer and no task). A room's actions
    fire one at a time, in deadline order (``fire`` picks the seat), as long as any is due.

    Implements ARCHITECTURE.md "every decision has a clock" (one scheduler for all
    rooms instead of one loop and two waiter tasks per room and move).
    """

    def __init__(self, clock: Clock, due: Callable[[str], float | None],
                 fire: Callable[[str], Awaitable[bool]]) -> None:
        self._clock, self._due, self._fire = clock, due, fire
        self._armed: dict[str, float] = {}  # code -> when its heap entry is due (inf: none)
        self._firing: dict[str, asyncio.Task[None]] = {}
        self._heap: list[tuple[float, str]] = []  # (when, code); stale if _armed differs
        self._timer: Timer | None = None
        self._timer_at = math.inf
        self._stopped = False

    def watched(self) -> int:
        """Return how many rooms are watched (armed or firing)."""
        return len(self._armed) + len(self._firing)

    def firing(self) -> frozenset[str]:
        """Return the codes of the rooms whose fire is in flight now."""
        return frozenset(self._firing)

    def watch(self, code: str) -> None:
        """Start watching ``code`` afresh (``drop`` first): its due actions fire from now on."""
        self.drop(code)
        self._arm(code)
        self._set_timer()

    def changed(self, code: str) -> None:
        """Note that ``code``'s deadlines changed (nothing if it is not watched; a firing
        room reads its deadlines again after its fire)."""
        armed = self._armed.get(code)
        if armed is None:
            return
        due = self._due(code)
        if due is not None and due < armed:
            self._push(code, due)
            self._set_timer()

    def rearm(self) -> None:
        """Read every armed room's earliest deadline again (after ``due`` changed for all of
        them at once, e.g. the clocks resumed after a pause)."""
        for code in list(self._armed):
            self._arm(code)
        self._set_timer()

    def drop(self, code: str) -> None:
        """Stop watching ``code``; cancel its fire in flight unless the caller is that fire."""
        self._armed.pop(code, None)
        task = self._firing.pop(code, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def stop(self) -> None:
        """Stop watching every room, cancel the timer and every fire in flight, and wait for
        those fires to end. Nothing is armed afterwards: a room watched later (a match loaded
        while the process shuts down) never fires."""
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_at = None, math.inf
        self._armed.clear()
        self._heap.clear()
        tasks = list(self._firing.values())
        self._firing.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _arm(self, code: str) -> None:
        if self._stopped:
            return
        due = self._due(code)
        if due is None:
            self._armed[code] = math.inf
        else:
            self._push(code, due)

    def _push(self, code: str, when: float) -> None:
        self._armed[code] = when
        heapq.heappush(self._heap, (when, code))

    def _set_timer(self) -> None:
        """Set the timer for the heap's earliest entry (unless it is set for that already)."""
        when = self._heap[0][0] if self._heap else math.inf
        if when == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_at = None, when
        if self._heap:
            self._timer = self._clock.call_at(when, self._wake)

    def _wake(self) -> None:
        """The timer: start firing every armed room that is due; re-arm the others."""
        self._timer, self._timer_at = None, math.inf
        try:
            now = self._clock.now()
            while self._heap and self._heap[0][0] <= now:
                when, code = heapq.heappop(self._heap)
                if self._armed.get(code) == when:
                    self._start(code, now)
        finally:
            self._set_timer()

    def _start(self, code: str, now: float) -> None:
        due = self._due(code)
        if due is None:
            self._armed[code] = math.inf
        elif due > now:  # it moved later since it was armed
            self._push(code, due)
        else:
            del self._armed[code]
            self._firing[code] = asyncio.create_task(self._run(code))

    async def _run(self, code: str) -> None:
        """Fire ``code`` until nothing is due, then arm it again (unless its match is over,
        or it was dropped or watched afresh meanwhile)."""
        task = asyncio.current_task()
        try:
            alive = await self._fire_while_due(code)
        except BaseException:
            if self._firing.get(code) is task:
                del self._firing[code]
            raise
        if self._firing.get(code) is task:
            del self._firing[code]
            if alive:
                self._arm(code)
                self._set_timer()

    async def _fire_while_due(self, code: str) -> bool:
        """``fire(code)`` while its earliest deadline has passed; ``False`` once it is over."""
        while await self._fire(code):
            due = self._due(code)
            if due is None or due > self._clock.now():
                return True
        return False
