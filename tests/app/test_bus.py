"""The broker twins: in-memory and Redis pub/sub deliver the same messages the same way."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.bus import make_broker
from app.bus.base import Keep
from app.bus.memory import MemoryBroker
from tests.waiting import wait_until


async def roundtrip(broker) -> None:
    """Two subscribers each get every message published after they subscribed, in order; one
    that left its block gets nothing more."""
    channel = f"test.{uuid.uuid4().hex}"
    await broker.start()
    try:
        async with broker.subscribe(channel) as first:
            async with broker.subscribe(channel) as second:
                messages = [{"room": "ABC", "kind": "version", "version": v} for v in range(3)]
                for message in messages:
                    await broker.publish(channel, message)
                for subscription in (first, second):
                    got = [await asyncio.wait_for(anext(subscription), 5) for _ in messages]
                    assert got == messages
            await broker.publish(channel, {"room": "ABC", "kind": "version", "version": 3})
            assert await asyncio.wait_for(anext(first), 5) == {
                "room": "ABC", "kind": "version", "version": 3}
            assert second.queue.empty()  # left its block: unsubscribed
    finally:
        await broker.stop()


async def test_memory_broker_roundtrip():
    broker = make_broker(None)
    assert isinstance(broker, MemoryBroker) and broker.single_process is True
    await roundtrip(broker)


async def test_memory_broker_forgets_a_channel_whose_last_subscriber_left():
    broker = MemoryBroker()
    async with broker.subscribe("c"):
        assert set(broker._subscribers) == {"c"}
    assert broker._subscribers == {}


async def test_memory_broker_refuses_what_is_not_json():
    broker = MemoryBroker()
    with pytest.raises(TypeError):
        await broker.publish("c", {"room": object()})


async def test_memory_broker_stop_ends_subscriptions():
    broker = MemoryBroker()
    async with broker.subscribe("c") as subscription:
        await broker.stop()
        assert [m async for m in subscription] == []


@pytest.mark.redis
async def test_redis_broker_roundtrip(redis_url):
    from app.bus.redis import RedisBroker
    broker = make_broker(redis_url)
    assert isinstance(broker, RedisBroker) and broker.single_process is False
    await roundtrip(broker)


async def kept_roundtrip(broker) -> str:
    """Five kept messages between plain ones: every one reaches the subscriber, in order; the
    list holds the newest three kept, oldest first. Return the list's key."""
    channel, key = f"test.{uuid.uuid4().hex}", f"test.kept.{uuid.uuid4().hex}"
    keep = Keep(key, 3, 60.0)
    await broker.start()
    try:
        assert await broker.kept(key) == []
        async with broker.subscribe(channel) as subscription:
            sent = []
            for n in range(5):
                sent += [{"kept": n}, {"plain": n}]
                broker.post_kept(channel, sent[-2], keep)
                broker.post(channel, sent[-1])
            got = [await asyncio.wait_for(anext(subscription), 5) for _ in sent]
        assert got == sent
        assert await broker.kept(key) == [{"kept": 2}, {"kept": 3}, {"kept": 4}]
    finally:
        await broker.stop()
    return key


async def test_memory_broker_keeps_the_newest_kept_messages():
    await kept_roundtrip(MemoryBroker())


@pytest.mark.redis
async def test_redis_broker_keeps_the_newest_kept_messages_for_their_time(redis_url):
    from redis.asyncio import Redis

    key = await kept_roundtrip(make_broker(redis_url))
    probe = Redis.from_url(redis_url, decode_responses=True)
    try:
        assert 0 < await probe.ttl(key) <= 60
        assert await probe.lrange(key, 0, -1) == ['{"kept": 2}', '{"kept": 3}', '{"kept": 4}']
    finally:
        await probe.delete(key)
        await probe.aclose()


@pytest.mark.redis
async def test_redis_subscriptions_of_a_channel_share_one_connection(redis_url):
    """The hub and the bot driver of one process read each message once (bench/RESULTS.md
    §5): Redis sees one subscriber connection per channel and process; the last subscription
    to end closes it."""
    from redis.asyncio import Redis

    channel = f"test.{uuid.uuid4().hex}"
    broker, probe = make_broker(redis_url), Redis.from_url(redis_url, decode_responses=True)

    async def connections(want: int) -> int:
        """Return ``want`` once Redis counts that many subscribers of the channel (it drops a
        closed connection's subscription soon after the close)."""
        async def counted() -> bool:
            [(_, count)] = await probe.pubsub_numsub(channel)
            return count == want

        await wait_until(counted, f"{want} subscriber connection(s)", every=0.01)
        return want

    message = {"room": "A", "kind": "version", "version": 1}
    await broker.start()
    try:
        async with broker.subscribe(channel) as first:
            async with broker.subscribe(channel) as second:
                assert await connections(1) == 1
                await broker.publish(channel, message)
                assert [await asyncio.wait_for(anext(s), 5) for s in (first, second)] == [
                    message] * 2
            assert await connections(1) == 1
        assert await connections(0) == 0
        async with broker.subscribe(channel) as third:  # a new connection
            assert await connections(1) == 1
            await broker.publish(channel, message)
            assert await asyncio.wait_for(anext(third), 5) == message
            await broker.stop()  # ends the subscription and closes its connection
            assert [m async for m in third] == []
        assert await connections(0) == 0
    finally:
        await broker.stop()
        await probe.aclose()


@pytest.mark.redis
async def test_brokers_on_different_redis_databases_do_not_hear_each_other(redis_url):
    """Redis pub/sub ignores the database number, so a broker names its channels after its
    database (``"db<N>."`` before the name; none for database 0): two deployments sharing one
    Redis server through databases 14 and 15 keep their room messages apart."""
    from redis.asyncio import Redis

    base = redis_url.rsplit("/", 1)[0]
    channel = f"test.{uuid.uuid4().hex}"
    ours, theirs, peer = (make_broker(f"{base}/{db}") for db in (14, 15, 14))
    probe = Redis.from_url(f"{base}/0", decode_responses=True)
    for broker in (ours, theirs, peer):
        await broker.start()
    try:
        async with peer.subscribe(channel) as heard, theirs.subscribe(channel) as other:
            counts = await probe.pubsub_numsub(f"db14.{channel}", f"db15.{channel}", channel)
            assert counts == [(f"db14.{channel}", 1), (f"db15.{channel}", 1), (channel, 0)]
            await ours.publish(channel, {"room": "A", "kind": "version", "version": 1})
            assert await asyncio.wait_for(anext(heard), 5) == {
                "room": "A", "kind": "version", "version": 1}
            await theirs.publish(channel, {"room": "B", "kind": "version", "version": 2})
            # database 15's first message is its own: database 14's never reached it
            assert await asyncio.wait_for(anext(other), 5) == {
                "room": "B", "kind": "version", "version": 2}
    finally:
        for broker in (ours, theirs, peer):
            await broker.stop()
        await probe.aclose()


@pytest.mark.redis
async def test_a_burst_of_publishes_is_sent_in_order_and_none_is_dropped(redis_url):
    """300 publishes at once (a group commit resuming its acts): one connection per publish
    hit redis-py's pool limit of 100 and dropped the rest; now they go out in pipelines, in
    the order ``publish`` was called."""
    channel = f"test.{uuid.uuid4().hex}"
    broker = make_broker(redis_url)
    await broker.start()
    try:
        async with broker.subscribe(channel) as subscription:
            await asyncio.gather(*(broker.publish(channel, {"room": "A", "kind": "version",
                                                            "version": v}) for v in range(300)))
            got = [await asyncio.wait_for(anext(subscription), 5) for _ in range(300)]
        assert [m["version"] for m in got] == list(range(300))
    finally:
        await broker.stop()


class _FailingFirstPipeline:
    """A stand-in for redis-py's pipeline: the first ``execute`` raises ``ResponseError``
    (e.g. an ACL refusing PUBLISH), later ones record what they publish."""

    def __init__(self, log: list, fail: list) -> None:
        self._log, self._fail, self._queued = log, fail, []

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        return None

    def publish(self, channel: str, text: str) -> None:
        self._queued.append(text)

    async def execute(self) -> None:
        await asyncio.sleep(0)  # the round trip: publishes called meanwhile wait for the next
        if self._fail:
            self._fail.pop()
            from redis.exceptions import ResponseError
            raise ResponseError("NOPERM")
        self._log.extend(self._queued)


async def test_a_publish_queued_behind_a_batch_that_failed_is_still_sent():
    """A batch refused by Redis with an error other than a lost connection is dropped with a
    warning; the publishes queued behind it still go out and return (they used to wait for
    the next publish, forever if none came: the sender task had died with the error)."""
    from app.bus.redis import RedisBroker

    broker = RedisBroker("redis://localhost:1/0")  # never connected: the pipeline is stubbed
    sent: list[str] = []
    fail = [True]
    broker._redis.pipeline = lambda transaction=False: _FailingFirstPipeline(sent, fail)
    first = asyncio.create_task(broker.publish("c", {"n": 1}))
    await asyncio.sleep(0)  # the first batch is being sent
    second = asyncio.create_task(broker.publish("c", {"n": 2}))
    await first
    await asyncio.gather(broker._sender, return_exceptions=True)  # the sender ended
    await asyncio.wait_for(second, 5)
    assert sent == ['{"n": 2}']


async def test_the_room_channel_counts_as_connected_only_once_a_resync_was_handled():
    from app.rooms.publisher import LOST, RESYNC, Publisher

    publisher = Publisher(MemoryBroker())
    seen: list[bool] = []

    async def handler(message: dict) -> None:
        seen.append(publisher.connected)

    publisher.on("lost", handler)
    publisher.on("resync", handler)
    await publisher.dispatch(dict(LOST))
    await publisher.dispatch(dict(RESYNC))
    assert (seen, publisher.connected) == ([False, False], True)
