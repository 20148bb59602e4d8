"""Run a coroutine in the calling task until it first waits (no task per socket write).

A websocket write to a socket whose transport is not paused never waits: uvicorn frames the
message and hands it to the transport at once. Starting a task for it (and scheduling that task,
and stepping it) cost more than the write's own Python code, for every frame of every socket.
``run_until_wait`` runs such a coroutine right away with the coroutine protocol (PEP 492
``send``/``throw``), as Python 3.12's ``asyncio.eager_task_factory`` does for a whole task; only
a coroutine that does wait (a paused transport) is handed back, to be awaited from a task.
"""

from __future__ import annotations

import functools
from collections.abc import Coroutine, Generator
from typing import Any


class Resumed:
    """The rest of a coroutine that waited once already: awaiting it waits for what the
    coroutine was waiting for, then runs it to its end, exactly as awaiting the coroutine from
    the start would have (a cancellation or exception thrown into the awaiting task goes into
    the coroutine; its result is the coroutine's)."""

    __slots__ = ("_coroutine", "_waiting_for")

    def __init__(self, coroutine: Coroutine[Any, Any, Any], waiting_for: Any) -> None:
        self._coroutine, self._waiting_for = coroutine, waiting_for

    def __await__(self) -> Generator[Any, Any, Any]:
        coroutine, waiting_for = self._coroutine, self._waiting_for
        while True:
            try:
                resume = functools.partial(coroutine.send, (yield waiting_for))
            except GeneratorExit:
                coroutine.close()
                raise
            except BaseException as exc:  # e.g. the awaiting task's cancellation
                resume = functools.partial(coroutine.throw, exc)
            try:
                waiting_for = resume()
            except StopIteration as stop:
                return stop.value


def run_until_wait(coroutine: Coroutine[Any, Any, Any]) -> Resumed | None:
    """Run ``coroutine`` now, in the calling task, up to the first time it waits.

    Returns:
        ``None`` if it finished without waiting (its return value is dropped), else a
        ``Resumed`` to await (from a task) for the rest of it.

    Raises:
        Whatever ``coroutine`` raised before it first waited.
    """
    try:
        waiting_for = coroutine.send(None)
    except StopIteration:
        return None
    return Resumed(coroutine, waiting_for)
