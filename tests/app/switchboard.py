"""An in-memory room channel between several apps of one test process, standing for Redis
between server processes: every app gets its own ``Line`` (a broker that is not
``single_process``), and a test can hold what reaches one line (a process that has not heard
yet) and release it later, or drop it (messages lost), deterministically.
"""

from __future__ import annotations

import json
from typing import Any

from app.bus.base import END, Broker, Subscriber


class Switchboard:
    """The lines of one test; a message published on any line reaches every line."""

    def __init__(self) -> None:
        self.lines: list[Line] = []

    def line(self) -> Line:
        """Return a new line (one app's broker)."""
        line = Line(self)
        self.lines.append(line)
        return line

    def carry(self, message: dict[str, Any]) -> None:
        """Deliver ``message`` (as JSON would carry it) to every line."""
        carried = json.loads(json.dumps(message))
        for line in self.lines:
            line.deliver(carried)


class Line(Broker):
    """One app's broker on a ``Switchboard``.

    Attributes:
        held: messages are kept back (``hold``) until ``release`` (or ``drop``).
        waiting: the messages kept back, in order.
    """

    single_process = False

    def __init__(self, board: Switchboard) -> None:
        self._board = board
        self._subscribers: set[Subscriber] = set()
        self.held = False
        self.waiting: list[dict[str, Any]] = []

    def post(self, channel: str, message: dict[str, Any]) -> None:
        self._board.carry(message)

    async def stop(self) -> None:
        for subscriber in self._subscribers:
            subscriber.deliver(END)

    def deliver(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to this line's subscribers, or keep it back while ``held``."""
        if self.held:
            self.waiting.append(message)
            return
        for subscriber in self._subscribers:
            subscriber.deliver(message)

    def hold(self) -> None:
        """Keep back every message from now on."""
        self.held = True

    def release(self) -> None:
        """Deliver the messages kept back, in order, and the later ones as they come."""
        self.held = False
        waiting, self.waiting = self.waiting, []
        for message in waiting:
            self.deliver(message)

    def drop(self) -> int:
        """Forget the messages kept back (they were lost); return how many."""
        lost, self.waiting = len(self.waiting), []
        return lost

    async def _add(self, channel: str, subscriber: Subscriber) -> None:
        self._subscribers.add(subscriber)

    async def _remove(self, channel: str, subscriber: Subscriber) -> None:
        self._subscribers.discard(subscriber)
