"""The other server processes on the room channel: each says it is alive, and one that falls
silent is lost (ARCHITECTURE.md "Scale-out"; docs/server.md "When a held match is current").

A process stores an action (COMMIT) and then publishes its ``version`` message. Killed between
the two, it stored an action no other process heard of: their sockets would show the match
without it until a greet, an act or a clock there — the clock being the next seat's, which
could run out on a turn that seat was never shown. So every process posts a ``heartbeat``
message every ``HEARTBEAT_SECONDS`` of its clock, and counts its own heartbeats since it last
heard each other process: one not heard during ``LOST_AFTER`` of them is lost, and ``on_lost``
makes this process's followed rooms current (``LiveRooms.peer_lost``). Counting heartbeats
rather than seconds keeps a clock that jumps (a test's) from losing a live process. A process
heard for the first time is answered with a heartbeat at once (a process started later learns
of the others before their next beat); a process stopped gracefully says so (``"leaving":
true``: everything it stored was announced) and is forgotten without a catch-up. Either way its
sockets are gone: the ``on_gone`` listeners are told (the hub drops their presence). Nothing runs
with a single-process broker.

Messages: ``{"room": None, "kind": "heartbeat", "process": id}`` (and ``"leaving": true``).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from app.rooms.clocks import Clock
from app.rooms.publisher import Publisher

log = logging.getLogger(__name__)

#: Seconds (of the process's clock) between two heartbeats of a process.
HEARTBEAT_SECONDS = 1.0
#: A process not heard during this many of our own heartbeats is lost.
LOST_AFTER = 5

OnLost = Callable[[str], Awaitable[None]]


class Peers:
    """This process's heartbeat and the other processes it has heard.

    Args:
        publisher: the room channel; clock: the time its heartbeats keep;
        on_lost: ``await on_lost(process)`` once a process heard before falls silent.
    """

    def __init__(self, publisher: Publisher, clock: Clock, on_lost: OnLost) -> None:
        self._publisher, self._clock, self._on_lost = publisher, clock, on_lost
        self.process = uuid.uuid4().hex
        #: ``{process: our heartbeats since it was last heard}``
        self.missed: dict[str, int] = {}
        self._task: asyncio.Task | None = None
        self._gone: list[Callable[[str], None]] = []
        publisher.on("heartbeat", self._heard)
        publisher.on("resync", self._heard_resync)

    def on_gone(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(process)`` once a process heard before is lost or says it leaves."""
        self._gone.append(listener)

    def _tell_gone(self, process: str) -> None:
        for listener in self._gone:
            listener(process)

    def start(self) -> None:
        """Say this process is alive now and every ``HEARTBEAT_SECONDS`` (nothing with a
        single-process broker)."""
        if self._publisher.single_process:
            return
        self._post()
        self._task = asyncio.create_task(self._beat_forever())

    async def stop(self) -> None:
        """Stop the heartbeat and tell the others this process leaves (nothing it stored is
        unannounced after a graceful stop)."""
        if self._task is None:
            return
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        self._task = None
        self._post(leaving=True)

    async def _beat_forever(self) -> None:
        while True:
            await self._clock.sleep(HEARTBEAT_SECONDS)
            try:
                await self.beat()
            except Exception:  # keep beating
                log.exception("heartbeat failed")

    async def beat(self) -> None:
        """One heartbeat: count it against every process heard before, lose those not heard
        during ``LOST_AFTER`` heartbeats, then post this one. While the room channel is down
        nobody can be heard, so nobody is counted (the ``resync`` after it catches up)."""
        if self._publisher.connected:
            for process in list(self.missed):
                self.missed[process] += 1
                if self.missed[process] >= LOST_AFTER:
                    del self.missed[process]
                    log.warning("process %s fell silent: catching up its rooms", process)
                    self._tell_gone(process)
                    await self._on_lost(process)
        self._post()

    def _post(self, leaving: bool = False) -> None:
        message: dict[str, Any] = {"room": None, "kind": "heartbeat", "process": self.process}
        if leaving:
            message["leaving"] = True
        self._publisher.post(message)

    async def _heard(self, message: dict[str, Any]) -> None:
        """Another process's heartbeat: it is alive (or gone for good when it says it leaves)."""
        process = message.get("process")
        if not isinstance(process, str) or process == self.process:
            return
        if message.get("leaving"):
            if self.missed.pop(process, None) is not None:
                self._tell_gone(process)
            return
        new = process not in self.missed
        self.missed[process] = 0
        if new and self._task is not None:  # a process started later learns of this one now
            self._post()

    async def _heard_resync(self, message: dict[str, Any]) -> None:
        """After an outage every process is given a fresh count (the resync made every
        followed room current already)."""
        for process in self.missed:
            self.missed[process] = 0
