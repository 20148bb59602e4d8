"""The Redis broker: ``redis.asyncio`` pub/sub, for several server processes (REDIS_URL set)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.bus.base import END, RESYNC, Broker, Subscriber

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5  # between reads of a subscription whose Redis is unreachable


class _Feed:
    """The one pub/sub connection of a channel in this process and its subscribers here: each
    message is read and decoded once, then queued for each of them (bench/HISTORY.md §5).

    Attributes:
        pubsub: the subscribed redis-py ``PubSub``; subscribers: one per subscription;
        task: the reader (``RedisBroker._read``), or ``None`` before it starts.
    """

    def __init__(self, pubsub: PubSub) -> None:
        self.pubsub = pubsub
        self.subscribers: set[Subscriber] = set()
        self.task: asyncio.Task | None = None

    def deliver(self, item: Any) -> None:
        """Queue ``item`` (a message dict, ``RESYNC`` or ``END``) for every subscriber: the
        same dict for each (subscribers only read it)."""
        for subscriber in self.subscribers:
            subscriber.deliver(item)

    async def close(self) -> None:
        """End every subscription, stop the reader and close the connection."""
        self.deliver(END)
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await self.pubsub.aclose()


class RedisBroker(Broker):
    """Publishes JSON text on a Redis channel, in call order (those queued while a batch is
    being sent go out together in one pipeline); the subscriptions of one channel in this
    process share one pub/sub connection (``_Feed``), so a message is read and decoded once per
    process, not once per subscription.

    ``subscribe`` enters its block once Redis has confirmed the subscription (at once when the channel's
    connection is already open). A subscription survives a Redis restart: while Redis is
    unreachable the reader retries every ``RETRY_SECONDS``; redis-py then reconnects and
    subscribes again, and that new confirmation is yielded as ``RESYNC`` (messages published
    meanwhile are lost; ``publish`` drops them with a warning).
    """

    def __init__(self, url: str) -> None:
        self._redis = Redis.from_url(url, decode_responses=True)
        self._stopping = False
        self._feeds: dict[str, _Feed] = {}
        self._opening = asyncio.Lock()
        self._outbox: list[tuple[str, str, asyncio.Future]] = []
        self._sender: asyncio.Task | None = None

    async def start(self) -> None:
        await self._redis.ping()

    async def stop(self) -> None:
        self._stopping = True
        feeds, self._feeds = list(self._feeds.values()), {}
        for feed in feeds:
            await feed.close()
        await self._redis.aclose()

    async def ping(self) -> None:
        await self._redis.ping()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Publish; return once Redis has it. While Redis is unreachable the message is dropped
        with a warning (pub/sub keeps nothing anyway: subscribers get ``RESYNC`` once Redis is
        back).

        Every message published while others are being sent goes out with the others queued
        meanwhile in the next pipeline (``_send_queued``): one connection and one round trip
        per batch, in the order ``publish`` was called. (One connection per publish hit
        redis-py's pool limit of 100 in a burst — a group commit resuming hundreds of acts —
        and dropped version messages: bench/HISTORY.md §5.)
        """
        sent = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, json.dumps(message), sent))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_queued())
        await sent

    async def _send_queued(self) -> None:
        """Send the queued messages, a pipeline per batch, until none is left; then let each
        batch's publishers go on (also when it was dropped)."""
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                await self._send(batch)
            finally:
                for _, _, sent in batch:
                    if not sent.done():
                        sent.set_result(None)

    async def _send(self, batch: list[tuple[str, str, asyncio.Future]]) -> None:
        """Send ``batch`` in one pipeline; a failed attempt is retried once at once (after a
        Redis restart the first command on a pooled connection fails although Redis is back:
        the pool then opens a new one); then it is dropped with a warning. Any other error
        (Redis refused it) drops it with a warning at once: raised, it would end the sender
        and leave the publishes queued meanwhile waiting for the next ``publish``."""
        for _ in range(2):
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, text, _ in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
                return
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                error = exc
            except Exception as exc:
                error = exc
                break
        log.warning("redis publish dropped", extra={
            "channel": batch[0][0], "messages": len(batch), "error": repr(error)})

    async def _add(self, channel: str, subscriber: Subscriber) -> None:
        """Subscribe ``subscriber`` (sharing the channel's connection if it is open).

        Raises:
            ConnectionError: Redis did not confirm a new subscription within 10 s.
        """
        async with self._opening:
            feed = self._feeds.get(channel)
            if feed is None:
                feed = self._feeds[channel] = await self._open(channel)
            feed.subscribers.add(subscriber)

    async def _remove(self, channel: str, subscriber: Subscriber) -> None:
        """Unsubscribe ``subscriber``; the last subscription of a channel to end closes its
        connection."""
        feed = self._feeds.get(channel)
        if feed is None:
            return
        feed.subscribers.discard(subscriber)
        if not feed.subscribers:
            del self._feeds[channel]
            await feed.close()

    async def _open(self, channel: str) -> _Feed:
        """Return the channel's ``_Feed`` once Redis confirmed the subscription; its reader
        starts at the caller's next pause (after it added its subscriber)."""
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(channel)
        for _ in range(20):  # wait for the subscribe confirmation (up to 10 s)
            if await pubsub.get_message(timeout=0.5) is not None:
                feed = _Feed(pubsub)
                feed.task = asyncio.create_task(self._read(feed))
                return feed
        await pubsub.aclose()
        raise ConnectionError(f"Redis did not confirm the subscription to {channel!r}.")

    async def _read(self, feed: _Feed) -> None:
        """Read the feed's connection until the broker stops; deliver each message."""
        down = False
        while not self._stopping:
            try:
                message = await feed.pubsub.get_message(timeout=0.5)
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
                feed.deliver(json.loads(message["data"]))
            elif message["type"] == "subscribe":  # redis-py reconnected and subscribed
                down = False
                feed.deliver(dict(RESYNC))
        feed.deliver(END)
