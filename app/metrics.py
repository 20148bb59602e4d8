"""Prometheus metrics of one app (``GET /metrics``), in the app's own ``CollectorRegistry``.

A registry per app (not the global one) lets a test process create many apps without
"Duplicated timeseries" errors. Exported:

- ``arena_open_rooms`` gauge: rooms with at least one socket on this process;
- ``arena_live_matches`` gauge: unfinished matches held in memory by this process;
- ``arena_connections{role}`` gauge: this process's websockets, ``role`` = player|spectator;
- ``arena_actions_applied_total{game,by}`` counter: actions this process stored, ``by`` =
  player|clock;
- ``arena_action_latency_seconds{game}`` histogram: from the ``act`` call to the publish
  (database commit included), seconds;
- ``arena_errors_total{code,channel}`` counter: refusals by stable code, ``channel`` = ws (error
  frames) | http (REST error answers);
- ``arena_gc_pause_seconds{generation}`` histogram: how long each of the garbage collector's
  runs held the process (wall seconds; ``generation`` 0, 1 or 2), while ``watch_collector``
  is on: every collection in the process counts, whichever app's objects it walks.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from app.rooms.observe import Applied

#: Histogram buckets of the action latency, seconds (a commit on PostgreSQL takes milliseconds).
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

#: Histogram buckets of a collector pause, seconds (a young collection takes about a
#: millisecond on a small heap, a full one can take a second on a large one).
GC_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Metrics:
    """The metrics of one app; ``bind`` connects the gauges to the running hub and runner."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.open_rooms = Gauge("arena_open_rooms",
                                "Rooms with at least one websocket on this process.", registry=r)
        self.live_matches = Gauge("arena_live_matches",
                                  "Unfinished matches held in memory by this process.",
                                  registry=r)
        self.connections = Gauge("arena_connections", "Websockets on this process, by role.",
                                 ["role"], registry=r)
        self.actions = Counter("arena_actions_applied",
                               "Actions this process stored, by game and by who played them "
                               "(player, clock, or room: a forfeit).",
                               ["game", "by"], registry=r)
        self.latency = Histogram("arena_action_latency_seconds",
                                 "Seconds from an act to its publish (database commit included).",
                                 ["game"], buckets=LATENCY_BUCKETS, registry=r)
        self.errors = Counter("arena_errors", "Refusals by stable error code and channel.",
                              ["code", "channel"], registry=r)
        self.gc_pauses = Histogram("arena_gc_pause_seconds",
                                   "Wall seconds each garbage collection held the process, by "
                                   "generation.", ["generation"], buckets=GC_BUCKETS, registry=r)
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}

    def bind(self, counts: Callable[[], dict[str, int]], held: Callable[[], int]) -> None:
        """Read the gauges from ``counts()`` (``Hub.counts``) and ``held()`` at each scrape."""
        def gauge(key: str) -> Callable[[], float]:
            return lambda: counts()[key]

        self.open_rooms.set_function(gauge("rooms"))
        for role, key in (("player", "players"), ("spectator", "spectators")):
            self.connections.labels(role).set_function(gauge(key))
        self.live_matches.set_function(held)

    def applied(self, applied: Applied) -> None:
        """Count one stored action (an observer of ``RoomService.observe``)."""
        self._child(self.actions, applied.game, played_by(applied)).inc()
        if applied.seconds is not None:
            self._child(self.latency, applied.game).observe(applied.seconds)

    def _child(self, metric: Any, *labels: str) -> Any:
        """Return ``metric.labels(*labels)``, kept after the first call (``labels`` checks and
        locks on every call: 1.5 % of the server's CPU under load, bench/HISTORY.md §3)."""
        key = (id(metric), labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def watch_collector(self) -> Callable[[], None]:
        """Observe every garbage collection of this process in ``arena_gc_pause_seconds``
        from now on (a ``gc.callbacks`` entry); return the function that stops it."""
        began: list[float] = [0.0]
        pauses = [self.gc_pauses.labels(str(generation)) for generation in range(3)]

        def timed(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                began[0] = time.perf_counter()
            else:
                pauses[info["generation"]].observe(time.perf_counter() - began[0])

        gc.callbacks.append(timed)
        return lambda: gc.callbacks.remove(timed)

    def error(self, code: str, channel: str) -> None:
        """Count one refusal with ``code`` on ``channel`` (``"ws"`` or ``"http"``)."""
        self.errors.labels(code, channel).inc()

    def exposition(self) -> bytes:
        """Return the Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


def played_by(applied: Applied) -> str:
    """Return the ``by`` label of a stored action: ``"clock"`` (its deadline action),
    ``"room"`` (the room resigned a seat that kept timing out) or ``"player"``."""
    if applied.timeout:
        return "clock"
    return "room" if applied.forfeit else "player"


def count_error(app: Any, code: str, channel: str) -> None:
    """Count a refusal on ``app``'s metrics (does nothing for an app without metrics)."""
    metrics = getattr(app.state, "metrics", None)
    if metrics is not None:
        metrics.error(code, channel)
