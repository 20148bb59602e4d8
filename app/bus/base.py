"""The broker interface: post or publish JSON messages on a channel; ``async with
subscribe(channel)`` gives the messages published from then on, and leaving the block
unsubscribes. A posted message may also be kept (``post_kept``: the newest few of a list, for a
while), so a process that starts following late can read what it missed (``kept``)."""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

CHANNEL = "arena.rooms"
#: Yielded by a subscription that was re-established after the broker went away: messages may
#: have been lost meanwhile, so the subscriber should refresh everything it shows.
RESYNC = {"room": None, "kind": "resync"}
#: Yielded by a subscription when the broker stopped answering (before the ``RESYNC`` that ends
#: the outage): messages published from then on may be lost.
LOST = {"room": None, "kind": "lost"}

#: Ends a subscription's queue (the broker stopped).
END = object()


@dataclass(frozen=True, slots=True)
class Keep:
    """Where ``Broker.post_kept`` also keeps a message: the list ``key``, of which only the
    newest ``last`` entries stay, for ``seconds`` after the newest was added (Redis counts whole
    seconds: rounded up). Every message kept under one key is posted on one channel."""

    key: str
    last: int
    seconds: float


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
    async for message in messages: ...``; ``broker.post(CHANNEL, message)`` (queued, never
    waits) or ``await broker.publish(CHANNEL, message)`` (returns once sent or dropped);
    ``await broker.stop()``. Every message published after ``subscribe`` entered its block
    reaches that subscription, until the block is left (which unsubscribes).

    ``single_process``: whether a message reaches only this process (the in-memory broker). The
    room core then knows it is the only process storing actions (docs/server.md "When a held
    match is current").
    """

    single_process: bool = False

    async def start(self) -> None:
        """Start (no-op by default). Never fails because the broker is unreachable: a
        subscription then yields ``LOST`` and, once the broker answers, ``RESYNC``."""

    async def stop(self) -> None:
        """Close connections and end every subscription."""

    async def ping(self) -> None:
        """Return when the broker is reachable; raise (``ConnectionError``…) when it is not."""

    @abstractmethod
    def post(self, channel: str, message: dict[str, Any]) -> None:
        """Queue ``message`` (JSON-ready dict) for every subscriber of ``channel`` and return at
        once (messages posted by one process go out in call order).

        Raises:
            TypeError: ``message`` is not JSON-ready (nothing is queued).
        """

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """``post`` ``message``; return once the broker has it (or dropped it)."""
        self.post(channel, message)

    def post_kept(self, channel: str, message: dict[str, Any], keep: Keep) -> None:
        """``post`` ``message`` and append it to the list ``keep.key`` (``Keep``), the append
        taking place before the publish and in the same order as the channel's messages. So a
        process that subscribed to ``channel`` before reading the list (``kept``) misses no
        message: each is in what it read or reaches it afterwards (or both).

        The base broker keeps nothing (it only posts): a test's stand-in broker. The memory
        and Redis brokers keep.

        Raises:
            TypeError: ``message`` is not JSON-ready (nothing is queued).
        """
        self.post(channel, message)

    async def kept(self, key: str) -> list[dict[str, Any]]:
        """Return the messages kept under ``key`` (``post_kept``), oldest first; ``[]`` when
        none, or when the newest was added more than its ``Keep.seconds`` ago.

        Raises:
            the broker client's error when it did not answer: Redis's ``RedisError`` (its
                ``ConnectionError``, ``TimeoutError``: within ``COMMAND_TIMEOUT``) or ``OSError``.
        """
        return []

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
