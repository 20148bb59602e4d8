"""The Redis broker across a Redis restart: publishing while Redis is down drops the
message without raising, and a subscription that reconnected says so with ``RESYNC``."""

from __future__ import annotations

import asyncio

import pytest
import redis.exceptions

from app.bus.base import RESYNC
from app.bus.redis import RedisBroker
from tests.app.prod import redis_server  # noqa: F401

pytestmark = pytest.mark.redis


async def test_a_redis_restart_yields_resync_then_messages_flow_again(redis_server):
    broker = RedisBroker(redis_server.url)
    await broker.start()
    try:
        async with broker.subscribe("test.rooms") as subscription:
            await broker.publish("test.rooms", {"room": "A", "kind": "version", "version": 1})
            assert await asyncio.wait_for(anext(subscription), 5) == {
                "room": "A", "kind": "version", "version": 1}
            redis_server.stop()
            await broker.publish("test.rooms", {"room": "A", "kind": "version", "version": 2})
            with pytest.raises(redis.exceptions.ConnectionError):
                await broker.ping()
            redis_server.start()
            assert await asyncio.wait_for(anext(subscription), 5) == RESYNC  # 2 was lost
            await broker.publish("test.rooms", {"room": "A", "kind": "version", "version": 3})
            assert await asyncio.wait_for(anext(subscription), 5) == {
                "room": "A", "kind": "version", "version": 3}
    finally:
        await broker.stop()
