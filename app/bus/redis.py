"""The Redis broker: ``redis.asyncio`` pub/sub, for several server processes (REDIS_URL set)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, AsyncIterator

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.bus.base import RESYNC, Broker

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5  # between reads of a subscription whose Redis is unreachable


class RedisBroker(Broker):
    """Publishes JSON text on a Redis channel; each subscription is its own pub/sub connection.

    ``subscribe`` returns once Redis has confirmed the subscription. A subscription survives
    a Redis restart: while Redis is unreachable it retries every ``RETRY_SECONDS``; redis-py
    then reconnects and subscribes again, and that new confirmation is yielded as ``RESYNC``
    (messages published meanwhile are lost; ``publish`` drops them with a warning).
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
        """Publish; while Redis is unreachable the message is dropped with a warning (pub/sub
        keeps nothing anyway: subscribers get ``RESYNC`` once Redis is back).

        A failed attempt is retried once at once: after a Redis restart the first command on a
        pooled connection fails although Redis is back (the pool then opens a new one).
        """
        text = json.dumps(message)
        for _ in range(2):
            try:
                await self._redis.publish(channel, text)
                return
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                error = exc
        log.warning("redis publish dropped", extra={"channel": channel, "error": repr(error)})

    async def subscribe(self, channel: str) -> AsyncIterator[dict[str, Any]]:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(channel)
        for _ in range(20):  # wait for the subscribe confirmation (up to 10 s)
            if await pubsub.get_message(timeout=0.5) is not None:
                return self._iterate(pubsub)
        await pubsub.aclose()
        raise ConnectionError(f"Redis did not confirm the subscription to {channel!r}.")

    async def _iterate(self, pubsub: PubSub) -> AsyncIterator[dict[str, Any]]:
        down = False
        try:
            while not self._stopping:
                try:
                    message = await pubsub.get_message(timeout=0.5)
                except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                    if not down:
                        log.warning("redis subscription interrupted; reconnecting",
                                    extra={"error": repr(exc)})
                    down = True
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                if message is None:
                    continue
                if message["type"] == "message":
                    yield json.loads(message["data"])
                elif message["type"] == "subscribe":  # redis-py reconnected and subscribed
                    down = False
                    yield dict(RESYNC)
        finally:
            await pubsub.aclose()
