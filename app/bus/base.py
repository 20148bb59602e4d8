"""The broker interface: publish JSON messages on a channel, iterate over a subscription."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, AsyncIterator

CHANNEL = "arena.rooms"
#: Yielded by a subscription that was re-established after the broker went away: messages may
#: have been lost meanwhile, so the subscriber should refresh everything it shows.
RESYNC = {"room": None, "kind": "resync"}


class Broker(ABC):
    """Carries small JSON messages (``{"room": code, "kind": ...}``) to every process.

    Usage: ``await broker.start()``; ``sub = await broker.subscribe(CHANNEL)``;
    ``async for msg in sub``; ``await broker.publish(CHANNEL, msg)``; ``await broker.stop()``.
    Every message published after ``subscribe`` returned reaches that subscription.
    """

    async def start(self) -> None:
        """Open connections (no-op by default)."""

    async def stop(self) -> None:
        """Close connections and end every subscription."""

    async def ping(self) -> None:
        """Return when the broker is reachable; raise (``ConnectionError``…) when it is not."""

    @abstractmethod
    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` (JSON-ready dict) to every subscriber of ``channel``."""

    @abstractmethod
    async def subscribe(self, channel: str) -> AsyncIterator[dict[str, Any]]:
        """Subscribe now; return an async iterator of the messages published from now on.

        The iterator ends when the broker stops.
        """
