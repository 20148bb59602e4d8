"""Bot decisions off the event loop: search levels think in a bounded pool of worker processes.

``Thinker.decide(game_id, level, view, legal, seed)`` returns the action a bot of ``level`` plays
for one seat, from that seat's ``view`` and ``legal`` actions only (what is sent to a worker is
exactly those, plus the game id, level and seed — never a state).

- ``easy`` and ``normal`` (a random pick; a one-ply greedy score of each legal action) are
  decided inline, on the event loop: they cost about as much as pickling the view to a worker
  would (``bench/RESULTS.md``), and they are the fallback, which must not depend on the pool.
  The games of ``THREADED_INLINE_GAMES``, whose greedy decision costs milliseconds, decide them
  in a thread instead: the event loop then waits at most a GIL switch interval at a time.
- ``hard`` and ``expert`` (``engine.bots.BUDGETS``: searches) go to the pool. A decision's
  wall-clock budget (``budgets[level]`` seconds) counts from the call, queueing included; past
  ``2 × budget`` the greedy (``normal``) action is returned instead and a warning is logged (the
  worker, if still queued, is not started). A worker that dies (``BrokenProcessPool``) makes the
  decision greedy too, logged, and the pool is rebuilt for the next one.
- In the worker, ``engine.bots.decide`` gets a ``should_stop`` that fires once the search has
  used ``cpu_cap_factor × budget`` seconds of CPU (``time.process_time``): a safety net freeing
  the worker, logged (warning) when its answer comes back. It also fires ``STOP_MARGIN`` of the
  deadline before the deadline itself (``time.monotonic``, one clock for the processes of a
  host), so an answer still arrives in time, and a search whose deadline passed while it was
  queued is not started: a worker never spends CPU on an answer nobody waits for.

The pool has ``workers`` processes (``default_workers()``: one per CPU this process may use),
started on the first search decision (``forkserver``: no copy of the server's threads), each at
the idle scheduling class (``SCHED_IDLE``; elsewhere ``os.nice(WORKER_NICENESS)``) so the event
loop gets the CPU the moment it needs it.
``close()`` shuts it down (queued searches dropped).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from importlib import import_module
from typing import Any

log = logging.getLogger(__name__)

#: The levels decided inline on the event loop (the others go to the worker pool).
INLINE_LEVELS = frozenset({"easy", "normal"})
#: The level whose action is played when a search is late or its worker died.
FALLBACK_LEVEL = "normal"
#: Games whose greedy decision takes milliseconds of CPU (mahjong: the shanten of every discard;
#: up to ≈ 11 ms, bench/HISTORY.md 2026-12-06), decided in a thread rather than on the loop.
THREADED_INLINE_GAMES = frozenset({"mahjong"})
#: Wall-clock seconds a search level's decision may take before counting as late (twice this).
DEFAULT_BUDGETS: dict[str, float] = {"hard": 0.5, "expert": 2.5}
#: How much nicer (lower priority) than the server a worker process runs.
WORKER_NICENESS = 10
#: The part of a deadline kept free for the answer to travel back (a search stops before it).
STOP_MARGIN = 0.05
#: ``module:function`` of the decision function (``engine.bots.decide``'s signature).
DEFAULT_DECIDE = "engine.bots:decide"

Decide = Callable[..., dict[str, Any]]
ExecutorFactory = Callable[[int], Executor]


def default_workers() -> int:
    """Return the number of CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def load_decide(path: str) -> Decide:
    """Return the function named by ``"module:function"``.

    Raises:
        ValueError: ``path`` has no ``:``; ImportError, AttributeError: no such module/function.
    """
    module, sep, name = path.partition(":")
    if not sep:
        raise ValueError(f"A decide function is named 'module:function', not {path!r}.")
    return getattr(import_module(module), name)


def _lower_priority() -> None:
    """Worker initializer: run only when the server does not need the CPU (Linux's
    ``SCHED_IDLE``: a server thread that wakes up preempts a worker at once), else nicer than
    the server (best effort)."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    except (AttributeError, OSError):
        pass
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass


def process_pool(workers: int) -> Executor:
    """Return a ``ProcessPoolExecutor`` of ``workers`` low-priority ``forkserver`` processes."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"),
                               initializer=_lower_priority)


@dataclass(frozen=True)
class Thought:
    """A worker's answer: the action (``None``: not started, its deadline had passed), the CPU
    seconds it took, and what cut the search short: ``"cpu"`` (the cap), ``"deadline"`` or
    ``None``."""

    action: dict[str, Any] | None
    cpu_seconds: float
    cut: str | None


def think(decide_path: str, cpu_cap: float, stop_at: float, game_id: str, level: str,
          view: Mapping[str, Any], legal: Sequence[dict[str, Any]], seed: bytes) -> Thought:
    """Run in a worker: ``decide(game_id, level, view, legal, seed, should_stop)`` where
    ``should_stop`` fires after ``cpu_cap`` seconds of this process's CPU time or once
    ``time.monotonic()`` reaches ``stop_at``; nothing is decided if it has already."""
    if time.monotonic() >= stop_at:
        return Thought(None, 0.0, "deadline")
    start = time.process_time()
    cut: str | None = None

    def should_stop() -> bool:
        nonlocal cut
        if cut is None and time.process_time() - start >= cpu_cap:
            cut = "cpu"
        elif cut is None and time.monotonic() >= stop_at:
            cut = "deadline"
        return cut is not None

    action = load_decide(decide_path)(game_id, level, view, legal, seed, should_stop)
    return Thought(action, time.process_time() - start, cut)


class Thinker:
    """Decides bot actions (see the module docstring).

    Args:
        workers: the pool's size (``0``: ``default_workers()``).
        budgets: ``{level: seconds}`` for the pooled levels (a level missing here: the
            ``DEFAULT_BUDGETS`` one).
        cpu_cap_factor: a worker's CPU-time cap, in budgets.
        decide_path: ``module:function`` the workers run (``engine.bots.decide``'s signature;
            tests name a crashing or slow one).
        executor_factory: ``executor_factory(workers)`` makes the pool (``process_pool``; tests
            pass one that hangs).
    """

    def __init__(self, workers: int = 0, budgets: Mapping[str, float] | None = None,
                 cpu_cap_factor: float = 2.0, decide_path: str = DEFAULT_DECIDE,
                 executor_factory: ExecutorFactory = process_pool) -> None:
        self.workers = workers or default_workers()
        self._budgets = {**DEFAULT_BUDGETS, **(budgets or {})}
        self._cap_factor = cpu_cap_factor
        self._decide_path = decide_path
        self._factory = executor_factory
        self._pool: Executor | None = None
        self._inline = load_decide(DEFAULT_DECIDE)
        #: counts of decisions by outcome (``searched``, ``late``, ``crashed``, ``failed``).
        self.counts: dict[str, int] = {"searched": 0, "late": 0, "crashed": 0, "failed": 0}

    def budget(self, level: str) -> float:
        """Return the wall-clock budget of a pooled ``level`` in seconds (its deadline is twice
        this)."""
        return self._budgets[level]

    async def decide(self, game_id: str, level: str, view: Mapping[str, Any],
                     legal: Sequence[dict[str, Any]], seed: bytes) -> dict[str, Any]:
        """Return the action of ``legal`` a bot of ``level`` plays (module docstring).

        Raises:
            ValueError: (inline levels) an unknown level or an empty ``legal``.
        """
        if level in INLINE_LEVELS or level not in self._budgets:
            return await self._decide_inline(game_id, level, view, legal, seed)
        asked = time.monotonic()
        deadline = 2 * self._budgets[level]
        pool = self._ensure_pool()
        stop_at = asked + deadline * (1 - STOP_MARGIN)
        try:
            job = pool.submit(think, self._decide_path, self._cap_factor * self._budgets[level],
                              stop_at, game_id, level, view, legal, seed)
        except BrokenProcessPool:  # broke since the last decision
            return await self._crashed(pool, game_id, level, view, legal, seed)
        job.add_done_callback(lambda done: self._report_cut(done, game_id, level))
        try:
            thought = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job)), deadline)
        except TimeoutError:
            job.cancel()  # not started yet: never run it
            return await self._late(asked, deadline, game_id, level, view, legal, seed)
        except BrokenProcessPool:
            return await self._crashed(pool, game_id, level, view, legal, seed)
        except Exception:  # a bug in the search: the greedy bot still answers
            self.counts["failed"] += 1
            log.exception("bot search failed: greedy action played",
                          extra={"game": game_id, "level": level})
            return await self._fallback(game_id, view, legal, seed)
        if thought.action is None:  # queued past its deadline
            return await self._late(asked, deadline, game_id, level, view, legal, seed)
        self.counts["searched"] += 1
        return thought.action

    async def _decide_inline(self, game_id: str, level: str, view: Mapping[str, Any],
                             legal: Sequence[dict[str, Any]], seed: bytes) -> dict[str, Any]:
        """Return the inline level's action: on the loop, or in a thread for the games of
        ``THREADED_INLINE_GAMES``."""
        if game_id in THREADED_INLINE_GAMES:
            return await asyncio.to_thread(self._inline, game_id, level, view, legal, seed)
        return self._inline(game_id, level, view, legal, seed)

    async def _late(self, asked: float, deadline: float, game_id: str, level: str,
              view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
              seed: bytes) -> dict[str, Any]:
        """No answer within the deadline: log it and answer greedily."""
        self.counts["late"] += 1
        log.warning("bot search late: greedy action played",
                    extra={"game": game_id, "level": level, "deadline": deadline,
                           "waited": round(time.monotonic() - asked, 3)})
        return await self._fallback(game_id, view, legal, seed)

    async def _fallback(self, game_id: str, view: Mapping[str, Any],
                        legal: Sequence[dict[str, Any]], seed: bytes) -> dict[str, Any]:
        return await self._decide_inline(game_id, FALLBACK_LEVEL, view, legal, seed)

    async def _crashed(self, pool: Executor, game_id: str, level: str, view: Mapping[str, Any],
                 legal: Sequence[dict[str, Any]], seed: bytes) -> dict[str, Any]:
        """A worker died: rebuild the pool (once per broken pool) and answer greedily."""
        self.counts["crashed"] += 1
        log.error("bot worker crashed: greedy action played, pool rebuilt",
                  extra={"game": game_id, "level": level})
        if self._pool is pool:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
        return await self._fallback(game_id, view, legal, seed)

    @staticmethod
    def _report_cut(job: Future, game_id: str, level: str) -> None:
        """Log a search the CPU-time cap cut (told when the worker's answer comes back)."""
        if job.cancelled() or job.exception() is not None:
            return
        thought: Thought = job.result()
        if thought.cut == "cpu":
            log.warning("bot search cut by its CPU-time cap",
                        extra={"game": game_id, "level": level,
                               "cpu_seconds": round(thought.cpu_seconds, 3)})

    def _ensure_pool(self) -> Executor:
        if self._pool is None:
            self._pool = self._factory(self.workers)
        return self._pool

    def running(self) -> bool:
        """Return whether a pool is up (it starts on the first search decision)."""
        return self._pool is not None

    async def close(self) -> None:
        """Shut the pool down: queued searches are dropped; returns once the workers have
        exited (a search in flight finishes first: at most its CPU-time cap). The wait runs
        in a thread, off the event loop."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
