"""Waiting in tests: for a condition, bounded by a timeout — never for a fixed time.

A test that must see something happen waits for it here (or on an event, a frame, a ``Gate``);
a test that must see something *not* happen drives the time itself (``ManualClock`` /
``FileClock``) and waits on a barrier of the code under test (``PolledClock.looked``, a
``ping`` answered after every frame already queued) before it asserts.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable

#: Real seconds between two looks at a condition.
EVERY = 0.005


async def wait_until(condition: Callable[[], bool | Awaitable[bool]], what: str = "the condition",
                     timeout: float = 5.0, every: float = EVERY) -> None:
    """Return once ``condition()`` (a bool, or an awaitable of one) is true; it is asked at once,
    then every ``every`` s of real time.

    Raises:
        AssertionError: it was not true within ``timeout`` s (``what`` names it).
    """
    limit = asyncio.timeout(timeout)
    try:
        async with limit:
            while True:
                held = condition()
                if inspect.isawaitable(held):
                    held = await held
                if held:
                    return
                await asyncio.sleep(every)
    except TimeoutError:
        if not limit.expired():
            raise  # the condition's own timeout
        raise AssertionError(f"{what} did not happen within {timeout:g} s") from None


def wait_until_sync(condition: Callable[[], bool], what: str = "the condition",
                    timeout: float = 5.0, every: float = EVERY) -> None:
    """``wait_until`` for code outside an event loop (a thread, a child process): block until
    ``condition()`` is true.

    Raises:
        AssertionError: it was not true within ``timeout`` s (``what`` names it).
    """
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{what} did not happen within {timeout:g} s")
        time.sleep(every)
