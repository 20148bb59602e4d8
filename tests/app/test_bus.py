"""The broker twins: in-memory and Redis pub/sub deliver the same messages the same way."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.bus import make_broker
from app.bus.memory import MemoryBroker


async def roundtrip(broker) -> None:
    """Two subscribers each get every message published after they subscribed, in order."""
    channel = f"test.{uuid.uuid4().hex}"
    await broker.start()
    try:
        first, second = await broker.subscribe(channel), await broker.subscribe(channel)
        messages = [{"room": "ABC", "kind": "version", "version": v} for v in range(3)]
        for message in messages:
            await broker.publish(channel, message)
        for subscription in (first, second):
            got = [await asyncio.wait_for(anext(subscription), 5) for _ in messages]
            assert got == messages
    finally:
        await broker.stop()


async def test_memory_broker_roundtrip():
    broker = make_broker(None)
    assert isinstance(broker, MemoryBroker)
    await roundtrip(broker)


async def test_memory_broker_refuses_what_is_not_json():
    broker = MemoryBroker()
    with pytest.raises(TypeError):
        await broker.publish("c", {"room": object()})


async def test_memory_broker_stop_ends_subscriptions():
    broker = MemoryBroker()
    subscription = await broker.subscribe("c")
    await broker.stop()
    assert [m async for m in subscription] == []


@pytest.mark.redis
async def test_redis_broker_roundtrip(redis_url):
    from app.bus.redis import RedisBroker
    broker = make_broker(redis_url)
    assert isinstance(broker, RedisBroker)
    await roundtrip(broker)
