"""The real app with an event-loop lag probe, for ``bench.bot_lag``.

``app`` is ``app.main.create_app()`` plus two routes (nothing in ``app/`` changes):

- ``POST /bench/lag/start``: start (or restart) the probe: a task that sleeps ``PROBE_SECONDS``
  again and again and records how much later than asked it woke up (the loop's lag, seconds).
- ``GET /bench/lag``: ``{"lag_ms": {n, p50, p95, p99, max}, "thinker": {outcome: count},
  "workers": int}`` since the last start (``bench.metrics.summary_ms``).

Usage: ``python -m uvicorn bench.lag_app:app --port 8150`` (what ``bench.servers`` kind
``app-lag`` runs).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import Request

from app.main import create_app
from bench.metrics import summary_ms

#: How long each probe sleep asks for (seconds).
PROBE_SECONDS = 0.005


class LagProbe:
    """Records the event loop's lag: how late each ``asyncio.sleep(PROBE_SECONDS)`` returns."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        """Forget what was recorded and (re)start probing."""
        if self._task is not None:
            self._task.cancel()
        self.lags = []
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(PROBE_SECONDS)
            self.lags.append(max(0.0, time.perf_counter() - asked - PROBE_SECONDS))


app = create_app()
probe = LagProbe()


async def start_probe() -> dict[str, bool]:
    """Start the lag probe."""
    probe.start()
    return {"started": True}


async def lag(request: Request) -> dict[str, Any]:
    """Return the lag recorded since the probe started, and the bots' decision counts."""
    thinker = request.app.state.arena.thinker
    return {"lag_ms": summary_ms(probe.lags), "thinker": dict(thinker.counts),
            "workers": thinker.workers}


app.add_api_route("/bench/lag/start", start_probe, methods=["POST"], include_in_schema=False)
app.add_api_route("/bench/lag", lag, methods=["GET"], include_in_schema=False)
