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
  frames) | http (REST error answers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from app.rooms.observe import Applied

#: Histogram buckets of the action latency, seconds (a commit on PostgreSQL takes milliseconds).
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


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
                               "Actions this process stored, by game and by who played them.",
                               ["game", "by"], registry=r)
        self.latency = Histogram("arena_action_latency_seconds",
                                 "Seconds from an act to its publish (database commit included).",
                                 ["game"], buckets=LATENCY_BUCKETS, registry=r)
        self.errors = Counter("arena_errors", "Refusals by stable error code and channel.",
                              ["code", "channel"], registry=r)
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}

    def bind(self, counts: Callable[[], dict[str, int]], held: Callable[[], int]) -> None:
        """Read the gauges from ``counts()`` (``Hub.counts``) and ``held()`` at each scrape."""
        self.open_rooms.set_function(lambda: counts()["rooms"])
        for role, key in (("player", "players"), ("spectator", "spectators")):
            self.connections.labels(role).set_function(lambda key=key: counts()[key])
        self.live_matches.set_function(held)

    def applied(self, applied: Applied) -> None:
        """Count one stored action (an observer of ``RoomService.observe``)."""
        self._child(self.actions, applied.game, "clock" if applied.timeout else "player").inc()
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

    def error(self, code: str, channel: str) -> None:
        """Count one refusal with ``code`` on ``channel`` (``"ws"`` or ``"http"``)."""
        self.errors.labels(code, channel).inc()

    def exposition(self) -> bytes:
        """Return the Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


def count_error(app: Any, code: str, channel: str) -> None:
    """Count a refusal on ``app``'s metrics (does nothing for an app without metrics)."""
    metrics = getattr(app.state, "metrics", None)
    if metrics is not None:
        metrics.error(code, channel)
