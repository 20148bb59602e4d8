"""Per-client-address limits: request rates and open sockets per IP.

Two small, clock-driven counters, kept in memory by each server process (a limit therefore
applies per process: with N processes an address may get up to N times the budget):

- ``RateByKey``: at most ``count`` events per ``window`` seconds per key (a token bucket that
  refills continuously), used for ``POST /api/players`` and ``POST /api/rooms``;
- ``ConnectionCounter``: at most ``limit`` websockets open at once per key.

A limit of ``0`` disables the counter. The key is the client's IP address as the ASGI server
reports it (``client_ip``); behind a reverse proxy run uvicorn with ``--proxy-headers`` and
``--forwarded-allow-ips`` so that this is the real client's address, not the proxy's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import HTTPConnection

#: How many idle keys a ``RateByKey`` keeps before it forgets the full buckets.
PRUNE_AT = 10_000


def client_ip(connection: HTTPConnection) -> str:
    """Return the client's IP address of a request or websocket (``"unknown"`` if none)."""
    client = connection.client
    return client.host if client is not None and client.host else "unknown"


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateByKey:
    """At most ``count`` events per ``window`` seconds per key (bursts of ``count``).

    Args:
        count: events allowed per window (``0`` = no limit).
        window: the window in seconds.
        now: the time source in seconds (the app's clock, so tests can move time).
    """

    def __init__(self, count: int, window: float, now: Callable[[], float]) -> None:
        self.count, self.window, self._now = count, window, now
        self._buckets: dict[str, _Bucket] = {}

    @property
    def enabled(self) -> bool:
        """Whether the limit applies at all."""
        return self.count > 0

    def take(self, key: str) -> float:
        """Count one event of ``key``; return ``0.0`` if it may pass, else the seconds to wait.

        A refused event is not counted.
        """
        if not self.enabled:
            return 0.0
        now = self._now()
        bucket = self._refilled(key, now)
        if bucket.tokens < 1:
            return (1 - bucket.tokens) * self.window / self.count
        bucket.tokens -= 1
        return 0.0

    def _refilled(self, key: str, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= PRUNE_AT:
                self._prune(now)
            bucket = self._buckets[key] = _Bucket(float(self.count), now)
        rate = self.count / self.window
        bucket.tokens = min(float(self.count), bucket.tokens + max(now - bucket.at, 0.0) * rate)
        bucket.at = now
        return bucket

    def _prune(self, now: float) -> None:
        """Forget every key whose bucket has refilled (it would start full anyway)."""
        rate = self.count / self.window
        self._buckets = {key: b for key, b in self._buckets.items()
                         if b.tokens + (now - b.at) * rate < self.count}


class ConnectionCounter:
    """At most ``limit`` open connections per key (``0`` = no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def acquire(self, key: str) -> bool:
        """Count a new connection of ``key``; return ``False`` (and count nothing) when full."""
        held = self._open.get(key, 0)
        if self.limit > 0 and held >= self.limit:
            return False
        self._open[key] = held + 1
        return True

    def release(self, key: str) -> None:
        """Forget one connection of ``key`` (one ``acquire`` that returned ``True``)."""
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)

    def open(self, key: str) -> int:
        """Return how many connections ``key`` holds now."""
        return self._open.get(key, 0)


@dataclass
class Limits:
    """The app's per-address limits (``app.state.limits``): see ``make_limits``."""

    players: RateByKey
    rooms: RateByKey
    sockets: ConnectionCounter


def make_limits(settings, now: Callable[[], float]) -> Limits:
    """Return the limits configured by ``settings`` (``app.settings.Settings``), timed by ``now``.

    Settings used: ``players_per_minute``, ``rooms_per_minute`` (per IP, 60 s windows) and
    ``max_connections_per_ip``.
    """
    return Limits(players=RateByKey(settings.players_per_minute, 60.0, now),
                  rooms=RateByKey(settings.rooms_per_minute, 60.0, now),
                  sockets=ConnectionCounter(settings.max_connections_per_ip))
