"""Which process drives a room's bots: a lease per room, so that with several processes one
answers the bot seats at a time and another takes over once the lease lapses (its holder was
killed, or stopped answering).

``RedisLease`` keeps ``arena.bots.<code>`` = ``"<owner>|<end>"`` in Redis, the end being a
time of the app's ``Clock`` (unix s), taken or renewed (``acquire``) by one Lua script: the
holder renews it whenever it answers; another process gets it only once that end has passed.
The key also carries a Redis expiry (``SAFETY_FACTOR`` times the lease, at least
``SAFETY_MIN_SECONDS``) so a room's key goes away by itself, but the lease's own end decides.
``LocalLease`` (one process: the in-memory broker) is always held.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Protocol

from redis.exceptions import RedisError

from app.rooms.clocks import Clock, SystemClock

log = logging.getLogger(__name__)

KEY = "arena.bots.{code}"
#: Real seconds between two tries to reach Redis while it does not answer.
RETRY_SECONDS = 0.5
SAFETY_FACTOR, SAFETY_MIN_SECONDS = 10, 300.0

#: KEYS[1] the lease; ARGV: owner, now, new end, Redis expiry (ms). Returns nil when the
#: caller holds it now (taken or renewed), else the holder's end (text).
ACQUIRE = """
local held = redis.call('GET', KEYS[1])
if held then
  local bar = string.find(held, '|', 1, true)
  local ends = string.sub(held, bar + 1)
  if string.sub(held, 1, bar - 1) ~= ARGV[1] and tonumber(ends) > tonumber(ARGV[2]) then
    return ends
  end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[3], 'PX', ARGV[4])
return false
"""


class LeaseUnavailable(Exception):
    """The lease store (Redis) did not answer."""


class BotLease(Protocol):
    """A per-room lease on driving the bots (``clock``: the time its ends are counted in)."""

    clock: Clock

    async def acquire(self, code: str) -> float | None:
        """Take or renew room ``code``'s lease; return ``None`` when this process holds it,
        else when the other holder's lease ends (unix s of ``clock``).

        Raises:
            LeaseUnavailable: the lease store did not answer.
        """

    async def close(self) -> None:
        """Release the connections."""


class LocalLease:
    """The lease of a single process: always held."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock if clock is not None else SystemClock()

    async def acquire(self, code: str) -> float | None:
        return None

    async def close(self) -> None:
        return None


class RedisLease:
    """Leases in Redis (see the module docstring).

    Args:
        url: the Redis URL; clock: the time source; seconds: how long a lease lasts once
        taken or renewed; owner: this process (a random id by default).
    """

    def __init__(self, url: str, clock: Clock, seconds: float,
                 owner: str | None = None) -> None:
        from app.bus.redis import connect
        self._redis = connect(url)
        self._script = self._redis.register_script(ACQUIRE)
        self.clock, self.seconds = clock, seconds
        self.owner = owner or uuid.uuid4().hex
        self._expiry_ms = int(max(seconds * SAFETY_FACTOR, SAFETY_MIN_SECONDS) * 1000)

    async def acquire(self, code: str) -> float | None:
        now = self.clock.now()
        try:
            ends = await self._script(keys=[KEY.format(code=code)],
                                      args=[self.owner, repr(now), repr(now + self.seconds),
                                            self._expiry_ms])
        except (RedisError, OSError) as exc:
            raise LeaseUnavailable(repr(exc)) from exc
        return None if ends is None else float(ends)

    async def close(self) -> None:
        await self._redis.aclose()


def make_lease(redis_url: str | None, clock: Clock, seconds: float) -> BotLease:
    """Return ``RedisLease`` when ``redis_url`` is set, else ``LocalLease``."""
    return RedisLease(redis_url, clock, seconds) if redis_url else LocalLease(clock)


async def take_turn(lease: BotLease, code: str, asked: Callable[[], bool]) -> bool:
    """Wait until this process holds room ``code``'s lease, as long as ``asked()`` (the bot
    seat still has the decision to answer); return whether it holds it (``False``: the
    decision was answered or moved on meanwhile).

    While another process holds the lease this waits (on the lease's clock) until its end,
    then tries again; while the lease store is unreachable it tries every ``RETRY_SECONDS``.
    """
    while asked():
        try:
            ends = await lease.acquire(code)
        except LeaseUnavailable as exc:
            log.info("bot lease unreachable", extra={"room": code, "error": repr(exc)})
            await asyncio.sleep(RETRY_SECONDS)
            continue
        if ends is None:
            return True
        await lease.clock.sleep(max(0.0, ends - lease.clock.now()))
    return False
