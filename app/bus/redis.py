"""The Redis broker: ``redis.asyncio`` pub/sub, for several server processes (REDIS_URL set)."""

from __future__ import annotations

import json
from typing import Any, AsyncIterator

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from app.bus.base import RESYNC, Broker


class RedisBroker(Broker):
    """Publishes JSON text on a Redis channel; each subscription is its own pub/sub connection.

    ``subscribe`` returns once Redis has confirmed the subscription. When Redis restarts
    between two reads, redis-py reconnects and subscribes again by itself: the new
    confirmation is yielded as ``RESYNC`` (messages published meanwhile are lost). When Redis
    is still down, the iterator raises ``ConnectionError`` (the subscriber subscribes again).
    """

    def __init__(self, url: str) -> None:
        self._redis = Redis.from_url(url, decode_responses=True)
        self._stopping = False

    async def start(self) -> None:
        await self._redis.ping()

    async def stop(self) -> None:
        self._stopping = True
        await self._redis.aclose()

    async def ping(self) -> None:
        await self._redis.ping()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self._redis.publish(channel, json.dumps(message))

    async def subscribe(self, channel: str) -> AsyncIterator[dict[str, Any]]:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(channel)
        for _ in range(20):  # wait for the subscribe confirmation (up to 10 s)
            if await pubsub.get_message(timeout=0.5) is not None:
                return self._iterate(pubsub)
        await pubsub.aclose()
        raise ConnectionError(f"Redis did not confirm the subscription to {channel!r}.")

    async def _iterate(self, pubsub: PubSub) -> AsyncIterator[dict[str, Any]]:
        try:
            while not self._stopping:
                message = await pubsub.get_message(timeout=0.5)
                if message is None:
                    continue
                if message["type"] == "message":
                    yield json.loads(message["data"])
                elif message["type"] == "subscribe":  # reconnected after a Redis restart
                    yield dict(RESYNC)
        finally:
            await pubsub.aclose()
