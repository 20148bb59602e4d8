"""The in-memory broker: one process, asyncio queues (the default when REDIS_URL is unset)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from app.bus.base import END, Broker, Subscriber


class MemoryBroker(Broker):
    """Delivers each published message to every current subscriber of the channel, in order.

    Messages go through ``json`` (once per publish) so the memory twin rejects what Redis would.
    ``single_process``: its messages never leave this process.
    """

    single_process = True

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscriber]] = defaultdict(set)

    async def stop(self) -> None:
        for subscribers in self._subscribers.values():
            for subscriber in subscribers:
                subscriber.deliver(END)

    def post(self, channel: str, message: dict[str, Any]) -> None:
        carried = json.loads(json.dumps(message))
        for subscriber in list(self._subscribers.get(channel, ())):
            subscriber.deliver(carried)

    async def _add(self, channel: str, subscriber: Subscriber) -> None:
        self._subscribers[channel].add(subscriber)

    async def _remove(self, channel: str, subscriber: Subscriber) -> None:
        subscribers = self._subscribers.get(channel)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self._subscribers[channel]
