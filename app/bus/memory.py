"""The in-memory broker: one process, asyncio queues (the default when REDIS_URL is unset)."""

from __future__ import annotations

import json
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any

from app.bus.base import END, Broker, Keep, Subscriber


class MemoryBroker(Broker):
    """Delivers each published message to every current subscriber of the channel, in order.

    Messages go through ``json`` (once per publish) so the memory twin rejects what Redis would.
    ``single_process``: its messages never leave this process.

    Kept lists (``post_kept``) are held here as Redis holds them: the newest ``Keep.last``
    messages of a key as JSON text (a fraction of the dicts' size), until ``Keep.seconds``
    after the newest, read on ``now`` (monotonic seconds; a test passes its own). A key past
    its time reads as empty and is dropped at the next ``post_kept`` of any key (keys are
    checked oldest addition first, up to the first one still in time: with one
    ``Keep.seconds`` for every key, as the chat has, every key past its time is dropped).
    """

    single_process = True

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._subscribers: dict[str, set[Subscriber]] = defaultdict(set)
        self._now = now
        #: ``{key: (its newest messages' JSON texts, when they expire: now() seconds)}``, the
        #: key added to last at the end
        self._kept: dict[str, tuple[deque[str], float]] = {}

    async def stop(self) -> None:
        for subscribers in self._subscribers.values():
            for subscriber in subscribers:
                subscriber.deliver(END)

    def post(self, channel: str, message: dict[str, Any]) -> None:
        self._deliver(channel, json.loads(json.dumps(message)))

    def post_kept(self, channel: str, message: dict[str, Any], keep: Keep) -> None:
        text = json.dumps(message)
        now = self._now()
        held = self._kept.pop(keep.key, None)
        messages = held[0] if held is not None and held[1] > now else deque(maxlen=keep.last)
        messages.append(text)
        self._kept[keep.key] = (messages, now + keep.seconds)
        while self._kept:  # the oldest additions first, up to one still in time
            oldest = next(iter(self._kept))
            if self._kept[oldest][1] > now:
                break
            del self._kept[oldest]
        self._deliver(channel, json.loads(text))

    async def kept(self, key: str) -> list[dict[str, Any]]:
        held = self._kept.get(key)
        if held is None or held[1] <= self._now():
            return []
        return [json.loads(text) for text in held[0]]

    def _deliver(self, channel: str, carried: dict[str, Any]) -> None:
        for subscriber in list(self._subscribers.get(channel, ())):
            subscriber.deliver(carried)

    async def _add(self, channel: str, subscriber: Subscriber) -> None:
        self._subscribers[channel].add(subscriber)

    async def _remove(self, channel: str, subscriber: Subscriber) -> None:
        subscribers = self._subscribers.get(channel)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self._subscribers[channel]
