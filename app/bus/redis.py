"""The Redis broker: ``redis.asyncio`` pub/sub, for several server processes (REDIS_URL set)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.bus.base import END, LOST, RESYNC, Broker, Keep, Subscriber

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5  # between reads of a subscription whose Redis is unreachable
#: Seconds any one Redis command (or connection attempt) may take before it counts as failed.
COMMAND_TIMEOUT = 1.0
#: Seconds between two ``PING``s of the probe that notices a Redis that stopped answering
#: without closing its connections (frozen, partitioned).
PROBE_SECONDS = 0.5
#: Seconds ``stop`` waits for the messages still queued to go out.
FLUSH_SECONDS = 2.0
NETWORK_ERRORS = (RedisConnectionError, RedisTimeoutError, OSError)


def channel_prefix(redis: Redis) -> str:
    """Return what this broker's channel names start with on the Redis server: ``""`` for
    database 0, ``"db<N>."`` for database N. Redis pub/sub ignores the database number (a
    message published while database 1 is selected reaches subscribers of every database), so
    two deployments sharing one Redis server through different database numbers would hear
    each other's room messages without it."""
    db = int(redis.connection_pool.connection_kwargs.get("db") or 0)
    return f"db{db}." if db else ""


def connect(url: str) -> Redis:
    """Return a client of ``url`` whose commands fail within ``COMMAND_TIMEOUT`` seconds
    (connecting included) and are retried once at once (after a Redis restart the first
    command on a pooled connection fails although Redis is back)."""
    return Redis.from_url(url, decode_responses=True, socket_timeout=COMMAND_TIMEOUT,
                          socket_connect_timeout=COMMAND_TIMEOUT, retry=Retry(NoBackoff(), 1))


class _Feed:
    """The one pub/sub connection of a channel in this process and its subscribers here: each
    message is read and decoded once, then queued for each of them (bench/HISTORY.md §5).

    Attributes:
        pubsub: the redis-py ``PubSub``; subscribers: one per subscription;
        task: the reader (``RedisBroker._read``), or ``None`` before it starts;
        reading: the connection's last read worked (its subscription is in place);
        flowing: messages reach the subscribers (no ``LOST`` without its ``RESYNC`` since).
    """

    def __init__(self, pubsub: PubSub, flowing: bool) -> None:
        self.pubsub = pubsub
        self.subscribers: set[Subscriber] = set()
        self.task: asyncio.Task | None = None
        self.reading = flowing
        self.flowing = flowing

    def deliver(self, item: Any) -> None:
        """Queue ``item`` (a message dict, ``LOST``, ``RESYNC`` or ``END``) for every
        subscriber: the same dict for each (subscribers only read it)."""
        for subscriber in self.subscribers:
            subscriber.deliver(item)

    def lost(self) -> None:
        """Tell the subscribers (once per outage) that messages may be lost from now on."""
        if self.flowing:
            self.flowing = False
            self.deliver(dict(LOST))

    def resumed(self) -> None:
        """Tell the subscribers (once per outage) that messages flow again."""
        if not self.flowing:
            self.flowing = True
            self.deliver(dict(RESYNC))

    async def close(self) -> None:
        """End every subscription, stop the reader and close the connection."""
        self.deliver(END)
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        with contextlib.suppress(*NETWORK_ERRORS):
            await self.pubsub.aclose()


class RedisBroker(Broker):
    """Publishes JSON text on a Redis channel, in call order (those queued while a batch is
    being sent go out together in one pipeline); the subscriptions of one channel in this
    process share one pub/sub connection (``_Feed``), so a message is read and decoded once per
    process, not once per subscription.

    Outages: every command fails within ``COMMAND_TIMEOUT`` seconds, and ``post`` never waits
    (a batch that cannot be sent is dropped with a warning: pub/sub keeps nothing anyway).
    ``start`` and ``subscribe`` work while Redis is down. A subscription yields ``LOST`` when
    its connection fails or the probe (a ``PING`` every ``PROBE_SECONDS``) gets no answer, and
    ``RESYNC`` once messages flow again: after redis-py reconnected and subscribed again (its
    reader retries every ``RETRY_SECONDS``), or when a Redis that had stopped answering answers
    again on the same connection. Messages published in between are lost. Channel names on
    the server carry the URL's database number (``channel_prefix``).

    Kept lists (``post_kept``) are Redis lists of the messages' JSON text, in the URL's
    database: ``RPUSH``, ``LTRIM`` to the newest ``Keep.last`` and ``EXPIRE`` right before the
    message's ``PUBLISH``, in one ``MULTI`` with the rest of its batch (so the list's order is
    the channel's, whichever processes post). A failed batch loses its messages, kept or not.
    """

    def __init__(self, url: str) -> None:
        self._redis = connect(url)
        self._prefix = channel_prefix(self._redis)
        self._stopping = False
        self._up = True  # the probe's last PING was answered
        self._feeds: dict[str, _Feed] = {}
        self._opening = asyncio.Lock()
        #: ``(channel, message text, set once sent or dropped, where it is kept too)``
        self._outbox: list[tuple[str, str, asyncio.Future, Keep | None]] = []
        self._sender: asyncio.Task | None = None
        self._probe: asyncio.Task | None = None

    async def start(self) -> None:
        """Start the probe (whether Redis answers or not)."""
        self._probe = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        """Send what is queued (at most ``FLUSH_SECONDS``), end every subscription, close."""
        if self._sender is not None and not self._sender.done():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._sender), FLUSH_SECONDS)
        self._stopping = True
        if self._probe is not None:
            self._probe.cancel()
            await asyncio.gather(self._probe, return_exceptions=True)
        feeds, self._feeds = list(self._feeds.values()), {}
        for feed in feeds:
            await feed.close()
        if self._sender is not None:
            self._sender.cancel()
            await asyncio.gather(self._sender, return_exceptions=True)
        await self._redis.aclose()

    async def ping(self) -> None:
        await self._redis.ping()

    def post(self, channel: str, message: dict[str, Any]) -> None:
        """Queue ``message``; the sender task sends it (see ``publish``)."""
        self._queue(channel, message)

    def post_kept(self, channel: str, message: dict[str, Any], keep: Keep) -> None:
        """Queue ``message`` and its keeping (``Broker.post_kept``; sent as ``post``)."""
        self._queue(channel, message, keep)

    async def kept(self, key: str) -> list[dict[str, Any]]:
        """Read the list ``key`` (``LRANGE``): Redis expired it ``Keep.seconds`` after its
        newest message."""
        return [json.loads(text) for text in await self._redis.lrange(key, 0, -1)]

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Publish; return once Redis has it, or once it was dropped (Redis unreachable: a
        warning; subscribers get ``RESYNC`` once Redis is back).

        Every message queued while others are being sent goes out with the others queued
        meanwhile in the next pipeline (``_send_queued``): one connection and one round trip
        per batch, in the order ``post``/``publish`` was called. (One connection per publish hit
        redis-py's pool limit of 100 in a burst — a group commit resuming hundreds of acts —
        and dropped version messages: bench/HISTORY.md §5.)
        """
        await self._queue(channel, message)

    def _queue(self, channel: str, message: dict[str, Any],
               keep: Keep | None = None) -> asyncio.Future:
        """Queue ``message`` (kept as ``keep`` says, if given) and make sure the sender runs;
        return the future set once its batch was sent or dropped.

        Raises:
            TypeError: ``message`` is not JSON-ready.
        """
        text = json.dumps(message)
        sent = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, text, sent, keep))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_queued())
        return sent

    async def _send_queued(self) -> None:
        """Send the queued messages, a pipeline per batch, until none is left; then let each
        batch's publishers go on (also when it was dropped)."""
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                await self._send(batch)
            finally:
                for _, _, sent, _ in batch:
                    if not sent.done():
                        sent.set_result(None)

    async def _send(self, batch: list[tuple[str, str, asyncio.Future, Keep | None]]) -> None:
        """Send ``batch`` in one pipeline (the client retries a failed attempt once: a kept
        message may then be kept twice); a batch that fails is dropped with a warning. A batch
        with a kept message is one ``MULTI`` (class docstring). Any error is caught: raised, it
        would end the sender and leave the messages queued meanwhile waiting for the next
        ``post``."""
        kept = any(keep is not None for *_, keep in batch)
        try:
            async with self._redis.pipeline(transaction=kept) as pipe:
                for channel, text, _, keep in batch:
                    if keep is not None:
                        pipe.rpush(keep.key, text)
                        pipe.ltrim(keep.key, -keep.last, -1)
                        pipe.expire(keep.key, math.ceil(keep.seconds))
                    pipe.publish(self._prefix + channel, text)
                await pipe.execute()
        except Exception as exc:
            log.warning("redis publish dropped", extra={
                "channel": batch[0][0], "messages": len(batch), "error": repr(exc)})

    async def _add(self, channel: str, subscriber: Subscriber) -> None:
        """Subscribe ``subscriber`` (sharing the channel's connection if it is open). While
        Redis is unreachable the subscription starts with ``LOST`` queued; its ``RESYNC``
        follows once Redis confirmed it."""
        async with self._opening:
            feed = self._feeds.get(channel)
            if feed is None:
                feed = self._feeds[channel] = await self._open(channel)
            feed.subscribers.add(subscriber)
            if not feed.flowing:
                subscriber.deliver(dict(LOST))

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
        """Return the channel's ``_Feed``, subscribed when Redis confirmed within
        ``COMMAND_TIMEOUT`` (else not flowing yet: its reader subscribes once Redis answers);
        its reader starts at the caller's next pause (after it added its subscriber)."""
        pubsub = self._redis.pubsub()
        confirmed = False
        try:
            await pubsub.subscribe(self._prefix + channel)
            confirmed = await pubsub.get_message(timeout=COMMAND_TIMEOUT) is not None
        except NETWORK_ERRORS as exc:
            log.warning("redis unreachable; subscribing once it answers",
                        extra={"channel": channel, "error": repr(exc)})
        feed = _Feed(pubsub, flowing=confirmed)
        feed.task = asyncio.create_task(self._read(feed, channel))
        return feed

    async def _read(self, feed: _Feed, channel: str) -> None:
        """Read the feed's connection until the broker stops; deliver each message."""
        while not self._stopping:
            try:
                if not feed.pubsub.subscribed:  # the first subscribe never reached Redis
                    await feed.pubsub.subscribe(self._prefix + channel)
                message = await feed.pubsub.get_message(timeout=RETRY_SECONDS)
            except NETWORK_ERRORS as exc:
                if feed.reading:
                    log.warning("redis subscription interrupted; reconnecting",
                                extra={"error": repr(exc)})
                feed.reading = False
                feed.lost()
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if message is None:
                continue
            if message["type"] == "message":
                feed.deliver(json.loads(message["data"]))
            elif message["type"] == "subscribe":  # (re)subscribed: redis-py reconnected
                feed.reading, self._up = True, True
                feed.lost()  # a reconnection means messages were lost, even unnoticed
                feed.resumed()
        feed.deliver(END)

    async def _watch(self) -> None:
        """Probe Redis every ``PROBE_SECONDS``: no answer marks every feed ``lost``; an
        answer again resumes the feeds whose connection kept its subscription."""
        while not self._stopping:
            try:
                await asyncio.wait_for(self._redis.ping(), COMMAND_TIMEOUT * 2)
                up = True
            except (TimeoutError, *NETWORK_ERRORS):
                up = False
            except Exception:  # another failure: keep probing
                log.exception("redis probe failed")
                up = False
            if up != self._up:
                log.warning("redis %s", "answers again" if up else "does not answer")
            self._up = up
            for feed in list(self._feeds.values()):
                if not up:
                    feed.lost()
                elif feed.reading:
                    feed.resumed()
            await asyncio.sleep(PROBE_SECONDS)
