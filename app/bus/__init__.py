"""Room-event fan-out between server processes: ``memory`` (one process) or ``redis``."""

from __future__ import annotations

from app.bus.base import Broker
from app.bus.memory import MemoryBroker


def make_broker(redis_url: str | None) -> Broker:
    """Return the broker for ``redis_url``: Redis pub/sub when set, else the in-memory twin."""
    if redis_url:
        from app.bus.redis import RedisBroker
        return RedisBroker(redis_url)
    return MemoryBroker()


__all__ = ["Broker", "MemoryBroker", "make_broker"]
