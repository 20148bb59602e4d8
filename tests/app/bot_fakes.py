"""Decision functions and executors that misbehave, for the bot worker tests.

The decide functions have ``engine.bots.decide``'s signature and are named to a ``Thinker`` (or
the ``bot_decide`` setting) as ``tests.app.bot_fakes:<name>``, so worker processes import them.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Executor, Future
from typing import Any

#: The seed on which ``crash_on_zero_seed`` kills its worker.
CRASH_SEED = bytes(32)


def crash_on_zero_seed(game_id, level, view, legal, seed, should_stop=None) -> dict[str, Any]:
    """Kill the worker process outright for ``CRASH_SEED``; else return ``{"worker": pid}``."""
    if seed == CRASH_SEED:
        os._exit(3)
    return {"worker": os.getpid()}


def spin_until_stopped(game_id, level, view, legal, seed, should_stop=None) -> dict[str, Any]:
    """Burn CPU until ``should_stop()`` says stop; return the last legal action."""
    while not should_stop():
        pass
    return dict(legal[-1])


def first_legal(game_id, level, view, legal, seed, should_stop=None) -> dict[str, Any]:
    """Return the first legal action at once."""
    return dict(legal[0])


class HangingExecutor(Executor):
    """An executor whose jobs never start: ``submit`` returns a future nobody completes.

    ``submitted`` is set on the first submission; ``futures`` holds every future handed out.
    """

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.futures: list[Future] = []
        self.submitted = threading.Event()
        self.shut = False

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        self.futures.append(future)
        self.submitted.set()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True
        if cancel_futures:
            for future in self.futures:
                future.cancel()
