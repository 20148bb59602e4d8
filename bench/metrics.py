"""What a load run records, and the summary figures it prints.

Times are ``time.perf_counter()`` seconds inside the generator process; summaries are in ms.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def percentile(values: Sequence[float], q: float) -> float | None:
    """Return the nearest-rank ``q``-th percentile (0 < q <= 100) of ``values``; ``None`` if empty.

    Nearest rank: the smallest value such that at least ``q`` % of the values are <= it.
    """
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summary_ms(values: Sequence[float]) -> dict[str, float | None]:
    """Return ``{"n", "p50", "p95", "p99", "max"}`` of durations in seconds, as milliseconds."""
    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 2)
    return {"n": len(values), "p50": ms(percentile(values, 50)), "p95": ms(percentile(values, 95)),
            "p99": ms(percentile(values, 99)), "max": ms(max(values, default=None))}


@dataclass
class RoomTrace:
    """When each version of one room was caused and when its spectators first saw it.

    Attributes:
        caused: ``{version: perf time of the act that the acting player's update closed}``.
        seen: ``{version: [perf time each spectator first held a version >= it]}``.
    """

    caused: dict[int, float] = field(default_factory=dict)
    seen: dict[int, list[float]] = field(default_factory=dict)

    def spectator_reached(self, old: int, new: int, at: float) -> None:
        """A spectator went from version ``old`` to ``new`` at ``at`` (skipped versions count)."""
        for version in range(old + 1, new + 1):
            self.seen.setdefault(version, []).append(at)

    def fan_out_delays(self, spectators: int) -> list[float]:
        """Return, per caused version every spectator saw, last spectator time - act time (s)."""
        return [max(self.seen[v]) - sent for v, sent in self.caused.items()
                if len(self.seen.get(v, ())) >= spectators > 0]


@dataclass
class Recorder:
    """Everything measured during the window ``[start, end)`` of a run.

    Attributes:
        start, end: the measurement window (perf seconds); ``end`` is ``inf`` while running.
        rtts: move round-trips (s): ``act`` sent -> the acting player's next ``update``.
        errors: error frames (and failed connections) by code, over the whole run.
        frame_bytes: ``{frame kind: [sizes]}`` (a sample of received frames).
        update_bytes: ``{"player"|"spectator": [sizes]}`` of the ``update`` frames received.
        finished: matches seen over by a player (counted once per room).
        welcomed: ``welcome`` frames received (one per connected client).
    """

    start: float = math.inf
    end: float = math.inf
    rtts: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    frame_bytes: dict[str, list[int]] = field(default_factory=dict)
    update_bytes: dict[str, list[int]] = field(default_factory=dict)
    finished: set[tuple[str, int | None]] = field(default_factory=set)
    welcomed: int = 0

    def in_window(self, at: float) -> bool:
        """Return whether ``at`` falls in the measurement window."""
        return self.start <= at < self.end

    def move(self, sent: float, received: float) -> None:
        """Count one move whose act left at ``sent`` and whose update arrived at ``received``."""
        if self.in_window(sent):
            self.rtts.append(received - sent)

    def frame(self, kind: str, size: int, role: str | None = None, cap: int = 20_000) -> None:
        """Keep the size of a received frame (at most ``cap`` per kind, and per ``role`` for
        an ``update``); count welcomes."""
        if kind == "welcome":
            self.welcomed += 1
        sizes = self.frame_bytes.setdefault(kind, [])
        if len(sizes) < cap:
            sizes.append(size)
        if kind == "update" and role is not None:
            sizes = self.update_bytes.setdefault(role, [])
            if len(sizes) < cap:
                sizes.append(size)

    def median_update_bytes(self) -> dict[str, int]:
        """Return the median ``update`` size per role (``player``, ``spectator``), in bytes."""
        return {role: round(statistics.median(sizes))
                for role, sizes in sorted(self.update_bytes.items()) if sizes}

    def mean_frame_bytes(self) -> dict[str, int]:
        """Return the mean received size per frame kind, in bytes."""
        return {k: round(sum(v) / len(v)) for k, v in sorted(self.frame_bytes.items()) if v}

    def result(self, traces: Sequence[RoomTrace], spectators: int) -> dict[str, Any]:
        """Return the client-side figures: moves, moves/s, round-trips, fan-out, errors, sizes."""
        seconds = self.end - self.start
        fan_out = [d for t in traces for d in t.fan_out_delays(spectators)]
        return {
            "window_s": round(seconds, 2), "moves": len(self.rtts),
            "moves_per_s": round(len(self.rtts) / seconds, 1) if seconds > 0 else None,
            "rtt_ms": summary_ms(self.rtts), "spectator_ms": summary_ms(fan_out),
            "errors": dict(self.errors), "error_count": sum(self.errors.values()),
            "frame_bytes": self.mean_frame_bytes(),
            "update_bytes_median": self.median_update_bytes(), "finished_matches": len(self.finished),
        }
