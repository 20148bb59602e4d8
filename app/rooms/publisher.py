"""The room channel of this process: publish room events, and follow what every process
publishes (one subscription per process, each message handed to the handlers of its kind).

Messages (``{"room": code, "kind": ...}``): ``version`` (``match``, ``version`` = the action
count, and ``step`` = the stored action, ``StoredStep.to_json``, so the others replay it without
reading the log), ``room`` (seats, status or rematch changed), ``chat`` (each also kept: a
room's newest lines, ``app.realtime.chat_log``), ``presence``, ``heartbeat``
(``app.rooms.peers``); and
``lost`` (``LOST``: the broker stopped answering, messages may be lost from now on) and
``resync`` (``RESYNC``, after the subscription came back: messages may have been lost).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from app.bus.base import CHANNEL, LOST, RESYNC, Broker, Keep
from app.rooms.store import StoredStep

log = logging.getLogger(__name__)

#: Seconds between two tries to subscribe again after the subscription broke.
RESUBSCRIBE_SECONDS = 1.0

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Publisher:
    """Publishes on the room channel and dispatches what the channel carries.

    Args:
        broker: the broker (``single_process``: its messages reach only this process).

    ``on(kind, handler)`` registers ``await handler(message)`` for one message kind; handlers of
    a kind run in registration order, one message at a time, and one handler's failure is
    logged without stopping the others.
    """

    def __init__(self, broker: Broker) -> None:
        self._broker = broker
        self._handlers: dict[str, list[Handler]] = defaultdict(list)
        self._task: asyncio.Task | None = None
        self._connected = False

    @property
    def single_process(self) -> bool:
        """Whether the broker's messages reach only this process (``Broker.single_process``)."""
        return self._broker.single_process

    def on(self, kind: str, handler: Handler) -> None:
        """Call ``handler`` with every message of ``kind`` (``"lost"`` and ``"resync"``
        included)."""
        self._handlers[kind].append(handler)

    @property
    def connected(self) -> bool:
        """Whether the room channel's messages reach this process now (subscribed, and no
        ``lost`` since the last ``resync``)."""
        return self._connected

    async def start(self) -> None:
        """Subscribe to the room channel and start dispatching; return once subscribed, or
        once the first try failed (the broker unreachable: ``lost`` is dispatched, and
        ``resync`` once a later try worked)."""
        subscribed = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._follow(subscribed))
        await subscribed

    async def stop(self) -> None:
        """Stop dispatching."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _follow(self, subscribed: asyncio.Future) -> None:
        """Dispatch messages until the broker stops; if subscribing fails or the subscription
        breaks, dispatch ``lost`` and subscribe again every ``RESUBSCRIBE_SECONDS`` until it
        works, then dispatch ``resync``."""
        lost = False
        while True:
            try:
                async with self._broker.subscribe(CHANNEL) as messages:
                    if lost:
                        lost = False
                        await self.dispatch(dict(RESYNC))
                    else:
                        self._connected = True
                    if not subscribed.done():
                        subscribed.set_result(None)
                    async for message in messages:
                        await self.dispatch(message)
                return  # the broker stopped
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not lost:
                    log.warning("room subscription failed; subscribing again",
                                extra={"error": repr(exc)})
                    lost = True
                    await self.dispatch(dict(LOST))
                if not subscribed.done():
                    subscribed.set_result(None)
                await asyncio.sleep(RESUBSCRIBE_SECONDS)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to the handlers of its kind, in order; ``lost`` clears
        ``connected`` first, ``resync`` sets it once its handlers are done (the followed rooms
        are current and the clocks run again: only then is the process ready)."""
        kind = message.get("kind")
        if kind == "lost":
            self._connected = False
        for handler in self._handlers.get(kind, ()) if isinstance(kind, str) else ():
            try:
                await handler(message)
            except Exception:
                log.exception("could not handle %r", message)
        if kind == "resync":
            self._connected = True

    async def kept(self, key: str) -> list[dict[str, Any]]:
        """Return the room-channel messages kept under ``key`` (``Broker.kept``), oldest first.

        Raises:
            the broker's error when it did not answer (``Broker.kept``).
        """
        return await self._broker.kept(key)

    async def version(self, code: str, match_id: int, version: int,
                      step: StoredStep | None = None) -> None:
        """Tell the other processes that room ``code``'s match ``match_id`` is at ``version``
        actions (with ``step``, the action just stored that made it); nothing with a
        single-process broker (every follower here was told already).

        While the room channel works (``connected``) it returns once the broker has sent the
        message (or dropped it: a Redis that fails within its command timeout): the callers
        announce a stored change before this process's sockets are told of it, so a process
        killed right after it acknowledged an action has told the others. During an outage
        the message is only queued (``post``: the caller is not held up; every process makes
        its followed rooms current after the ``resync``)."""
        if self.single_process:
            return
        message: dict[str, Any] = {"room": code, "kind": "version", "match": match_id,
                                   "version": version}
        if step is not None:
            message["step"] = step.to_json()
        if not self._connected:  # an outage: only queued (every process resyncs after it)
            self.post(message)
            return
        try:
            await self._broker.publish(CHANNEL, message)
        except Exception as exc:
            log.warning("could not publish a room message", extra={
                "room": code, "kind": "version", "error": repr(exc)})

    async def room(self, code: str) -> None:
        """Tell every process (this one included) that room ``code`` changed (seats, status,
        rematch)."""
        self.post({"room": code, "kind": "room"})

    async def publish(self, message: dict[str, Any]) -> None:
        """``post`` ``message`` (kept awaitable for callers that await a publish)."""
        self.post(message)

    def post(self, message: dict[str, Any], keep: Keep | None = None) -> None:
        """Queue ``message`` for the room channel and return at once (``Broker.post``: the
        broker's outages never hold up the caller); with ``keep``, keep it there too
        (``Broker.post_kept``). A failure is logged, not raised: what it announced is stored
        already, and every process resyncs when its subscription comes back (``resync``)."""
        try:
            if keep is None:
                self._broker.post(CHANNEL, message)
            else:
                self._broker.post_kept(CHANNEL, message, keep)
        except Exception as exc:
            log.warning("could not publish a room message", extra={
                "room": message.get("room"), "kind": message.get("kind"), "error": repr(exc)})
