"""Process-wide runtime tuning of a server process: the garbage collector.

A server holds every playing match's state, views and sent documents — about 800,000
GC-tracked objects at 1,000 rooms — and each move replaces a room's part of them. CPython's
young-collection count is allocations *minus* deallocations, so a move that frees an old state
and builds a new one leaves the count where it was while the young list grows by a whole state:
every young collection then walked about one state per room (100-200 ms at 1,000 rooms), and
the pauses set the round-trip p99 (bench/HISTORY.md, "the collector frozen each second").

Reference counting frees almost everything here: playing makes no garbage cycles, nor do room
sockets (their upgrade and their end: ``app.realtime.edge``) or the HTTP requests of the
product's pages (statements built once: ``app.db.repositories``); a match's end leaves a few
objects (openskill's). So ``Collector`` moves every tracked object into the permanent
generation once a second (``gc.freeze``: no object is walked, the cost does not grow with the
heap) and collects everything, frozen objects included, every ``full_seconds`` (a full
collection walks the whole heap: ≈ 0.4 s at 1,000 rooms, 2 s at 4,500).
The thresholds stay as the safety net of a loop too busy to freeze on time.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

#: ``gc.set_threshold`` arguments: a young collection every 50,000 net allocations, a middle
#: one after each young one (so it walks the survivors of at most 2 × 50,000 allocations; a
#: ``threshold1`` of 20 let ≈ 1 M objects wait and cost one 300 ms pause), a full one every
#: 101 middle ones. Between two freezes of ``Collector`` they seldom fire.
GC_THRESHOLDS = (50_000, 0, 100)


def tune_gc() -> None:
    """Set the collector's thresholds to ``GC_THRESHOLDS`` (for this whole process)."""
    gc.set_threshold(*GC_THRESHOLDS)


class Collector:
    """The collector's schedule in a running server: every ``freeze_seconds`` a freeze, after a
    full collection when one is due — at the first tick, then once ``full_seconds`` have passed
    since the last one. A garbage cycle waits at most ``full_seconds`` + ``freeze_seconds``
    (longer if the event loop is held). All periods in seconds.

    ``start`` begins it on the running event loop; ``stop`` ends it and unfreezes, so the
    process's collector works as before. Freezing is process-wide: several apps in one
    process (tests) each run a schedule over the one heap.

    Raises:
        ValueError: ``freeze_seconds`` or ``full_seconds`` not > 0.
    """

    def __init__(self, freeze_seconds: float, full_seconds: float) -> None:
        if freeze_seconds <= 0 or full_seconds <= 0:
            raise ValueError("freeze_seconds and full_seconds must be > 0")
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self._task: asyncio.Task[None] | None = None
        self._last_full: float | None = None  # when the last full collection ran

    def start(self) -> None:
        """Begin the schedule (a task of the running loop)."""
        self._task = asyncio.create_task(self._run(), name="collector")

    async def stop(self) -> None:
        """End the schedule and hand every frozen object back to the collector."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        gc.unfreeze()

    def due(self, now: float) -> bool:
        """Whether a full collection is due at ``now`` (``time.monotonic`` seconds)."""
        return self._last_full is None or now - self._last_full >= self.full_seconds

    def tick(self, now: float) -> None:
        """One step of the schedule at ``now`` (``time.monotonic`` seconds): a full collection
        when one is due, then a freeze."""
        if self.due(now):
            full_collection()
            self._last_full = now
        gc.freeze()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.freeze_seconds)
            try:
                self.tick(time.monotonic())
            except Exception:  # a schedule that stopped would leave everything frozen
                log.exception("collector tick failed")


def full_collection() -> int:
    """Unfreeze and collect every generation; return the number of unreachable objects found.
    Logs the pause (ms) and the count at INFO."""
    began = time.perf_counter()
    gc.unfreeze()
    found = gc.collect()
    log.info("full collection", extra={"ms": round((time.perf_counter() - began) * 1000, 2),
                                        "found": found})
    return found
