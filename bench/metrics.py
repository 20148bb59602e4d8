"""What a load run records, and the summary figures it prints.

Times are ``time.perf_counter()`` seconds inside the generator process; summaries are in ms.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
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

    def frame(self, kind: str, size: int, role: str | None = None, at: float | None = None,
              cap: int = 20_000, update_cap: int = 500_000) -> None:
        """Keep the size of a received frame (bytes; at most ``cap`` per kind) and count
        welcomes; an ``update`` of ``role`` received at ``at`` (perf seconds) inside the window
        is kept under ``role`` too (at most ``update_cap`` per role): the update medians are
        those of the window's steady play, as the peer's ``load.mjs`` counts its patches (the
        warm-up's frames are the matches' first steps, not a sample of the play)."""
        if kind == "welcome":
            self.welcomed += 1
        sizes = self.frame_bytes.setdefault(kind, [])
        if len(sizes) < cap:
            sizes.append(size)
        if kind == "update" and role is not None and at is not None and self.in_window(at):
            sizes = self.update_bytes.setdefault(role, [])
            if len(sizes) < update_cap:
                sizes.append(size)

    def samples(self, traces: Sequence[RoomTrace], spectators: int,
                restarts: Sequence[float] = (), cpu_seconds: float = 0.0) -> Samples:
        """Return what was recorded as ``Samples``, with the fan-out delays of ``traces`` (rooms
        of ``spectators`` spectators each), the rematch times ``restarts`` (s) and this
        process's CPU seconds over the window."""
        return Samples(rtts=list(self.rtts),
                       fan_out=[d for t in traces for d in t.fan_out_delays(spectators)],
                       restarts=list(restarts), errors=dict(self.errors),
                       frame_bytes={k: list(v) for k, v in self.frame_bytes.items()},
                       update_bytes={k: list(v) for k, v in self.update_bytes.items()},
                       finished=len(self.finished), welcomed=self.welcomed,
                       cpu_seconds=cpu_seconds)

    def result(self, traces: Sequence[RoomTrace], spectators: int) -> dict[str, Any]:
        """Return the client-side figures of the window (``Samples.figures``)."""
        return self.samples(traces, spectators).figures(self.end - self.start)


@dataclass
class Samples:
    """What the clients of one generator process measured, as raw samples (JSON-ready:
    ``to_json``, ``from_json``), so that the figures of several processes come from their
    merged samples (``merged``: lists joined, counts added), never from averaged summaries.

    Attributes:
        rtts: move round-trips in the window (s); fan_out: per caused version that every
            spectator saw, last spectator's arrival - act (s); restarts: rematch times (s).
        errors: counts by code; frame_bytes, update_bytes: the sizes kept (``Recorder.frame``).
        finished: matches seen over (counted once per room and match; each room is played by
            one process, so the counts of processes add up).
        welcomed: welcomes received; cpu_seconds: the process's CPU time over the window.
    """

    rtts: list[float] = field(default_factory=list)
    fan_out: list[float] = field(default_factory=list)
    restarts: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    frame_bytes: dict[str, list[int]] = field(default_factory=dict)
    update_bytes: dict[str, list[int]] = field(default_factory=dict)
    finished: int = 0
    welcomed: int = 0
    cpu_seconds: float = 0.0

    @classmethod
    def merged(cls, parts: Sequence[Samples]) -> Samples:
        """Return the samples of all ``parts`` together (in order; codes and kinds in the
        order they first appear)."""
        out = cls()
        for part in parts:
            out.rtts += part.rtts
            out.fan_out += part.fan_out
            out.restarts += part.restarts
            for code, count in part.errors.items():
                out.errors[code] = out.errors.get(code, 0) + count
            for mine, theirs in ((out.frame_bytes, part.frame_bytes),
                                 (out.update_bytes, part.update_bytes)):
                for kind, sizes in theirs.items():
                    mine.setdefault(kind, []).extend(sizes)
            out.finished += part.finished
            out.welcomed += part.welcomed
            out.cpu_seconds += part.cpu_seconds
        return out

    def to_json(self) -> dict[str, Any]:
        """Return the samples as a JSON-ready dict (``from_json`` reads it back)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Samples:
        """Return the samples of ``to_json``'s dict."""
        return cls(**data)

    def median_update_bytes(self) -> dict[str, int]:
        """Return the median ``update`` size per role (``player``, ``spectator``), in bytes."""
        return {role: round(statistics.median(sizes))
                for role, sizes in sorted(self.update_bytes.items()) if sizes}

    def mean_frame_bytes(self) -> dict[str, int]:
        """Return the mean received size per frame kind, in bytes."""
        return {k: round(sum(v) / len(v)) for k, v in sorted(self.frame_bytes.items()) if v}

    def figures(self, seconds: float) -> dict[str, Any]:
        """Return the client-side figures of a window of ``seconds``: moves, moves/s,
        round-trips, fan-out, errors, sizes, finished matches."""
        return {
            "window_s": round(seconds, 2), "moves": len(self.rtts),
            "moves_per_s": round(len(self.rtts) / seconds, 1) if seconds > 0 else None,
            "rtt_ms": summary_ms(self.rtts), "spectator_ms": summary_ms(self.fan_out),
            "errors": dict(self.errors), "error_count": sum(self.errors.values()),
            "frame_bytes": self.mean_frame_bytes(),
            "update_bytes_median": self.median_update_bytes(), "finished_matches": self.finished,
        }
