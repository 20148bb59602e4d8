"""The app as ``uvicorn app.main:app`` runs it, plus test-only hooks (``--factory``).

Run by the production-mode tests (``tests/app/test_prod_*.py``) as separate uvicorn processes::

    python -m uvicorn tests.app.prod_server:build --factory --port PORT

Hooks, each only when its environment variable is set (the real app has none of them):

- ``ARENA_TEST_TURN_SECONDS``: every decision's clock, seconds (float; the games' own minimum is
  10 s, too slow for tests that wait for clocks in real time);
- ``ARENA_TEST_STORE_GATE``: a file holding a number (``FileClock``'s format): this process's
  k-th action store (k = 1, 2, …) waits before its database transaction until the number is
  at least k, so a test holds actions in flight (to stop the server meanwhile, or to make two
  processes propose the same seq) and lets them go when it chooses (``tests.app.prod.
  StoreGate``); each wait starts with the line ``STORE_WAITING`` on stdout (the server log),
  which the test waits for;
- ``ARENA_TEST_CLOCK_FILE``: the app's clock is a ``FileClock`` on that file (the test moves
  it: clocks, presence entries and bot leases then run on the test's time);
- ``ARENA_TEST_CRASH_AT``: a named point where the process dies at once (``os._exit``, as a
  ``kill -9`` there would): ``after_commit`` — right after an action's COMMIT, before anyone
  (its actor included) is told or the other processes hear of it; ``after_streak`` — right
  after the COMMIT of a clock-played action that makes ``TIMEOUT_STREAK`` in a row for its
  seat (before the timeout rule's check runs); ``before_room_message`` —
  when it would first tell the others that a room changed (a seat claim's, after its COMMIT);
- always: ``GET /_test/clocks`` → ``{"paused": bool}`` (the clocks stopped for a broker
  outage), and ``GET /_test/rooms/{code}/dump`` → ``{"version", "state"}``, the engine ``dump`` of
  the room's match as this process holds it (rebuilt by replay after a restart). It shows
  hidden information, so it exists only in this test factory.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request

from app.main import create_app
from app.rooms.clocks import FileClock
from app.rooms.live_rooms import LiveRooms
from app.rooms.publisher import Publisher
from app.rooms.store import MatchStore
from app.rooms.takeover import TIMEOUT_STREAK
from engine.registry import GAMES

router = APIRouter()


@router.get("/_test/rooms/{code}/dump")
async def dump(code: str, request: Request) -> dict[str, Any]:
    """Return the room's match state dump as this process holds it (replaying it if needed)."""
    data = await request.app.state.arena.service.dump(code)
    if data is None:
        raise HTTPException(404, "no match")
    return data


@router.get("/_test/clocks")
async def clocks(request: Request) -> dict[str, bool]:
    """Return ``{"paused": …}``: whether this process stopped its clocks for a broker outage."""
    return {"paused": request.app.state.arena.service.clocks_paused}


#: Exit status of a process that died at a ``ARENA_TEST_CRASH_AT`` point.
CRASH_STATUS = 70


def crash_at(point: str) -> None:
    """Make this process die at the named ``point`` (see the module docstring).

    Raises:
        ValueError: an unknown point.
    """
    if point not in ("after_commit", "after_streak", "after_tell", "before_room_message"):
        raise ValueError(f"unknown crash point {point!r}")
    if point == "before_room_message":
        Publisher.room = lambda self, code: os._exit(CRASH_STATUS)  # type: ignore[method-assign]
        return
    commit, settle = LiveRooms._commit, LiveRooms.settle
    committed: set[str] = set()  # rooms with a COMMIT not yet told to this process's sockets
    streaks: dict[tuple[int, int], int] = {}  # (match id, seat): clock plays in a row

    def crashing(self: LiveRooms, room: Any, live: Any, step: Any) -> None:
        commit(self, room, live, step)
        streak = streaks[live.match_id, step.seat] = \
            streaks.get((live.match_id, step.seat), 0) + 1 if step.timeout else 0
        if point == "after_commit" or (point == "after_streak" and streak == TIMEOUT_STREAK):
            os._exit(CRASH_STATUS)
        committed.add(room.code)

    async def told(self: LiveRooms, room: Any) -> None:
        await settle(self, room)
        if room.code in committed:
            os._exit(CRASH_STATUS)

    LiveRooms._commit = crashing  # type: ignore[method-assign]
    if point == "after_tell":
        LiveRooms.settle = told  # type: ignore[method-assign]


class FastClock:
    """A game whose every decision has ``seconds`` on the clock; all else is ``game``'s."""

    def __init__(self, game: Any, seconds: float) -> None:
        self._game, self._seconds = game, seconds

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def clock_seconds(self, state: Any, seat: int) -> float:
        """Return the fixed test clock (seconds)."""
        return self._seconds


#: The line ``gated_stores`` prints when an action starts waiting before its transaction.
STORE_WAITING = "test hook: an action waits before its transaction"


def gated_stores(path: str) -> None:
    """Make this process's k-th action store wait before its transaction until the number in
    the file ``path`` is at least k (see the module docstring)."""
    gate = FileClock(path)
    append = MatchStore.append
    begun = itertools.count(1)

    async def gated(self: MatchStore, live: Any, step: Any, committed: Any) -> None:
        mine = next(begun)
        print(STORE_WAITING, flush=True)
        await gate.until(mine)
        await append(self, live, step, committed)

    MatchStore.append = gated  # type: ignore[method-assign]


def build() -> FastAPI:
    """Return the app with the hooks the environment asks for (see the module docstring)."""
    games = None
    if turn := os.environ.get("ARENA_TEST_TURN_SECONDS"):
        games = {gid: FastClock(game, float(turn)) for gid, game in GAMES.items()}
    if gate := os.environ.get("ARENA_TEST_STORE_GATE"):
        gated_stores(gate)
    if point := os.environ.get("ARENA_TEST_CRASH_AT"):
        crash_at(point)
    clock_file = os.environ.get("ARENA_TEST_CLOCK_FILE")
    app = create_app(games=games, clock=FileClock(clock_file) if clock_file else None)
    app.include_router(router)
    return app
