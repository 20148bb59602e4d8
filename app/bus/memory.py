"""The in-memory broker: one process, asyncio queues (the default when REDIS_URL is unset)."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from typing import Any, AsyncIterator

from app.bus.base import Broker

_STOP = object()


class MemoryBroker(Broker):
    """Delivers each published message to every current subscriber of the channel, in order.

    Messages go through ``json`` both ways so the memory twin rejects what Redis would.
    """

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue]] = defaultdict(set)

    async def stop(self) -> None:
        for queues in self._queues.values():
            for queue in queues:
                queue.put_nowait(_STOP)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        for queue in list(self._queues[channel]):
            queue.put_nowait(text)

    async def subscribe(self, channel: str) -> AsyncIterator[dict[str, Any]]:
        queue: asyncio.Queue = asyncio.Queue()
        self._queues[channel].add(queue)
        return self._iterate(channel, queue)

    async def _iterate(self, channel: str, queue: asyncio.Queue) -> AsyncIterator[dict[str, Any]]:
        try:
            while (item := await queue.get()) is not _STOP:
                yield json.loads(item)
        finally:
            self._queues[channel].discard(queue)
