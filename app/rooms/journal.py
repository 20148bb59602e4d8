"""The events of a held match's latest actions, kept for the ``update`` frames of the sockets
that follow it.

An ``update`` carries the events since the last frame its socket was shown (docs/protocol.md),
so the events of an action are kept until every following socket was shown it (``trim``); a
socket greeted later gets a ``welcome``, which has no events. Memory therefore does not grow
with a match's length.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event


class Journal:
    """``{version: events of that action}`` for the versions after ``floor`` (action counts).

    Attributes:
        floor: the events of versions ``1 .. floor`` are not kept.
    """

    __slots__ = ("floor", "_events")

    def __init__(self, floor: int = 0) -> None:
        self.floor = floor
        self._events: dict[int, tuple[Event, ...]] = {}

    def __len__(self) -> int:
        """Return how many versions' events are kept."""
        return len(self._events)

    def kept(self) -> list[int]:
        """Return the versions whose events are kept, in order."""
        return sorted(self._events)

    def record(self, version: int, events: tuple[Event, ...]) -> None:
        """Keep the events of the action that made ``version``."""
        self._events[version] = events

    def events(self, viewer: int | None, since: int, upto: int) -> list[dict[str, Any]]:
        """Return the events of versions ``since+1 .. upto`` that ``viewer`` may see
        (``Event.visible``), oldest first, as ``{kind, data}`` (``since`` -1 counts as 0).

        Raises:
            ValueError: ``since < floor`` (those events are not kept).
        """
        since = max(since, 0)
        if since < self.floor:
            raise ValueError(f"the events after version {since} are no longer kept "
                             f"(versions up to {self.floor} were dropped)")
        return [e.to_json() for v in range(since + 1, upto + 1)
                for e in self._events.get(v, ()) if e.visible(viewer)]

    def trim(self, seen: int) -> None:
        """Drop the events of versions up to ``seen`` (every follower was shown them)."""
        if seen <= self.floor:
            return
        for version in range(self.floor + 1, seen + 1):
            self._events.pop(version, None)
        self.floor = seen

    def reset(self, floor: int) -> None:
        """Keep nothing; later records start after ``floor`` (a new match, or no follower)."""
        self._events.clear()
        self.floor = floor
