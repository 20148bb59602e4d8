"""The broker interface: publish JSON messages on a channel; ``async with subscribe(channel)``
gives the messages published from then on, and leaving the block unsubscribes."""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from typing import Any

CHANNEL = "arena.rooms"
#: Yielded by a subscription that was re-established after the broker went away: messages may
#: have been lost meanwhile, so the subscriber should refresh everything it shows.
RESYNC = {"room": None, "kind": "resync"}

#: Ends a subscription's queue (the broker stopped).
END = object()


class Subscriber:
    """The messages of one subscription, in publish order (an async iterator).

    Iteration ends when the broker stops. The same message dict may go to every subscriber
    of a process: subscribers only read it.
    """

    __slots__ = ("queue",)

    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()

    def __aiter__(self) -> Subscriber:
        return self

    async def __anext__(self) -> dict[str, Any]:
        item = await self.queue.get()
        if item is END:
            self.queue.put_nowait(END)  # a later read ends too
            raise StopAsyncIteration
        return item

    def deliver(self, item: Any) -> None:
        """Queue a message (or ``RESYNC``, or ``END``)."""
        self.queue.put_nowait(item)


class Broker(ABC):
    """Carries small JSON messages (``{"room": code, "kind": ...}``) to every process.

    Usage: ``await broker.start()``; ``async with broker.subscribe(CHANNEL) as messages:
    async for message in messages: ...``; ``await broker.publish(CHANNEL, message)``;
    ``await broker.stop()``. Every message published after ``subscribe`` entered its block
    reaches that subscription, until the block is left (which unsubscribes).

    ``single_process``: whether a message reaches only this process (the in-memory broker). The
    room core then knows it is the only process storing actions (docs/server.md "When a held
    match is current").
    """

    single_process: bool = False

    async def start(self) -> None:
        """Open connections (no-op by default)."""

    async def stop(self) -> None:
        """Close connections and end every subscription."""

    async def ping(self) -> None:
        """Return when the broker is reachable; raise (``ConnectionError``…) when it is not."""

    @abstractmethod
    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` (JSON-ready dict) to every subscriber of ``channel``."""

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscriber]:
        """Subscribe for the ``async with`` block; yield the ``Subscriber``.

        Raises:
            ConnectionError: the broker could not confirm the subscription (Redis).
        """
        subscriber = Subscriber()
        await self._add(channel, subscriber)
        try:
            yield subscriber
        finally:
            await self._remove(channel, subscriber)

    @abstractmethod
    async def _add(self, channel: str, subscriber: Subscriber) -> None:
        """Start delivering ``channel``'s messages to ``subscriber`` (return once subscribed)."""

    @abstractmethod
    async def _remove(self, channel: str, subscriber: Subscriber) -> None:
        """Stop delivering to ``subscriber``."""
