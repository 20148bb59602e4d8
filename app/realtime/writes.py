"""Socket writes in the caller's task: a frame to a socket with nothing queued is written at
once, without a task per frame (what Python 3.12's eager tasks do for any coroutine).

A websocket frame's send (Starlette's ``send_text`` → uvicorn's ASGI ``send``) completes without
waiting unless the transport is paused (a slow reader): ``write_now`` runs the send coroutine until it finishes or first waits, and only
a send that waits is finished in a task (``Waiting.finish``). Measured: bench/RESULTS.md "Fast
paths".
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class Waiting:
    """A send coroutine stopped at its first wait: ``future``, what it yielded (an asyncio
    future, or ``None`` for a bare yield)."""

    __slots__ = ("coroutine", "future")

    def __init__(self, coroutine: Coroutine[Any, Any, None], future: Any) -> None:
        self.coroutine, self.future = coroutine, future

    async def finish(self) -> None:
        """Wait for what the send waits for and run it on, until it returns; an exception of
        the wait (a cancellation) is thrown into it.

        Raises:
            Exception: what the send raises (the socket closed).
        """
        coroutine, future = self.coroutine, self.future
        while True:
            try:
                if future is None:
                    await asyncio.sleep(0)
                else:  # taken over from the send, as a task's step does with what it yields
                    future._asyncio_future_blocking = False
                    await future
            except BaseException as exc:  # noqa: BLE001 - handed to the send, as a task would
                try:
                    future = coroutine.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                future = coroutine.send(None)
            except StopIteration:
                return


def write_now(coroutine: Coroutine[Any, Any, None]) -> Waiting | None:
    """Run a send coroutine until it returns (``None``) or first waits (its ``Waiting``).

    Raises:
        Exception: what the send raised before it returned or waited.
    """
    try:
        future = coroutine.send(None)
    except StopIteration:
        return None
    return Waiting(coroutine, future)
