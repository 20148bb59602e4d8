"""A room's recent chat lines, for the sockets greeted after they were said (a page reloaded,
a spectator who opens the link later): the ``chat_history`` frame of docs/protocol.md.

Where the lines live (several processes may serve a room: ARCHITECTURE.md "Scale-out"):
- the **broker** keeps each room's newest ``CHAT_HISTORY_LINES`` lines for
  ``CHAT_HISTORY_SECONDS`` after its newest (``Broker.post_kept``: a Redis list shared by every
  process, or the in-memory broker's twin of it in the single process);
- each **process** keeps, for each room it has sockets in or is greeting one in, the same
  lines in memory (``ChatLog``), each as the ``chat`` frame text its sockets were sent: read
  from the broker when the room's first socket here is greeted, then followed on the room
  channel, so later greets read nothing, and nothing is kept here for a room once its last
  socket here has left.

No line is lost by a greet that reads the broker while lines are said: the process follows
the channel before it reads, and the broker keeps a line before it publishes it, so each line
is in what was read, or comes on the channel during the read or after it (a line in both is
taken once, by its ``id``); a line heard before the read was sent is in what was read. After
the room channel lost messages (``resync``) the lines kept here may miss some: the next greet
of each room reads the broker again (``stale``).

Who may see a line, live or in a history: ``reaches``, the one rule for both.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.bus.base import Keep
from app.realtime.fanout import encode
from app.realtime.schemas import ChatFrame, frame
from app.rooms.publisher import Publisher

log = logging.getLogger(__name__)

#: Lines of a room given to a socket greeted later. 50 is a few minutes of a lively table's
#: talk, enough to follow the conversation on arrival, and bounds a room's keeping: at most
#: 50 lines of at most 300 characters (``chat_max_length``) each, here and in the broker.
CHAT_HISTORY_LINES = 50
#: Seconds the broker keeps a room's lines after its newest: one hour. A reload or a late
#: spectator within the hour sees the conversation; a room silent for an hour is forgotten,
#: so rooms that stopped talking cost the broker nothing.
CHAT_HISTORY_SECONDS = 3600.0

#: A line kept here: its ``id``, the seats it reaches (``to``: ``None`` = everyone;
#: ``reaches``) and its ``chat`` frame's JSON text.
Line = tuple[str, list[int] | None, str]


def chat_keep(code: str) -> Keep:
    """Return where the broker keeps room ``code``'s chat lines (``arena.chat.<code>``)."""
    return Keep(f"arena.chat.{code}", CHAT_HISTORY_LINES, CHAT_HISTORY_SECONDS)


def reaches(to: list[int] | None, seat: int | None) -> bool:
    """Whether a chat line said to ``to`` (a room-channel ``chat`` message's ``to``) may be
    shown to a socket watching as ``seat`` (``None``: a spectator): a room line (``to`` null)
    reaches everyone; a team line reaches only the seats of the sender's team when it was said
    (``to``, from ``Room.teams``), never a spectator nor the other side (docs/protocol.md
    ``chat``)."""
    return to is None or seat in to


def chat_line(message: Mapping[str, Any]) -> Line:
    """Return the ``Line`` of a room-channel ``chat`` message: its ``chat`` frame encoded
    once, for its live sending and for every history it is in. A message without an ``id``
    (posted by a process of a version before ids, during a rolling deploy) gets
    ``derived_id``'s, the same in every process."""
    ident = message.get("id") or derived_id(message)
    text = encode(frame(ChatFrame(id=ident, seat=message["seat"], name=message["name"],
                                  text=message["text"], team=message["team"],
                                  at=message["at"])))
    return ident, message["to"], text


def derived_id(message: Mapping[str, Any]) -> str:
    """Return an id for a room-channel ``chat`` message that carries none: 16 hex digits of
    the SHA-256 of its room, seat, name, text, team flag and time (``at``, unix s), so every
    process names the line alike and a socket shows it once."""
    said = [message["room"], message["seat"], message["name"], message["text"],
            message["team"], message["at"]]
    return hashlib.sha256(json.dumps(said).encode()).hexdigest()[:16]


def history_text(texts: list[str]) -> str:
    """Return the ``chat_history`` frame's JSON text, ``{"type": "chat_history", "lines":
    [chat frame…]}``, of the ``chat`` frame texts ``texts`` (oldest first): each line is the
    very frame its sockets were sent live, so it is not encoded again."""
    return '{"type":"chat_history","lines":[' + ",".join(texts) + "]}"


def newest(lines: Iterable[Line]) -> list[Line]:
    """Return the newest ``CHAT_HISTORY_LINES`` of ``lines`` (in order), each ``id`` once
    (where it first stands)."""
    by_id: dict[str, Line] = {}
    for line in lines:
        by_id.setdefault(line[0], line)
    return list(by_id.values())[-CHAT_HISTORY_LINES:]


@dataclass(eq=False, slots=True)
class _Room:
    """What this process keeps of a room's chat: its newest ``lines`` (oldest first), how many
    were ``heard`` in all, how many ``holders`` need them (its sockets here, greets under way),
    whether they hold the broker's lines (``loaded``; not since a ``stale``), and the
    ``loading`` task."""

    lines: list[Line] = field(default_factory=list)
    heard: int = 0
    holders: int = 0
    loaded: bool = False
    loading: asyncio.Task | None = None


class ChatLog:
    """The newest chat lines of the rooms this process holds (module docstring).

    Args:
        publisher: the room channel (``Publisher.kept`` reads what the broker kept; while the
            channel is down nothing is read: the greet is not held up by a broker that does
            not answer).

    A room's lines are kept from the first ``hold`` (or ``recording``) to the last
    ``release``; ``heard`` adds the room channel's lines to them.
    """

    def __init__(self, publisher: Publisher) -> None:
        self._publisher = publisher
        self._rooms: dict[str, _Room] = {}

    def retained(self) -> int:
        """Return how many rooms' lines are kept here."""
        return len(self._rooms)

    def hold(self, code: str) -> None:
        """Keep room ``code``'s lines until a matching ``release`` (one per socket here)."""
        self._rooms.setdefault(code, _Room()).holders += 1

    def release(self, code: str) -> None:
        """End one ``hold``; the last one drops the room's lines."""
        room = self._rooms.get(code)
        if room is not None:
            room.holders -= 1
            if room.holders <= 0:
                del self._rooms[code]

    @contextlib.asynccontextmanager
    async def recording(self, code: str) -> AsyncIterator[None]:
        """Hold room ``code``'s lines for the ``async with`` block (a greet), entered once
        they hold what the broker kept (read once per room while it is held here; other
        greets of the room wait for that read)."""
        self.hold(code)
        try:
            room = self._rooms[code]
            if not room.loaded:
                if room.loading is None:
                    room.loading = asyncio.create_task(self._load(code, room))
                await asyncio.shield(room.loading)
            yield
        finally:
            self.release(code)

    async def _load(self, code: str, room: _Room) -> None:
        """Make room ``code``'s lines the broker's, then those heard during the read (those
        heard before it are in what the broker gave: module docstring). When the broker is not
        read (the room channel is down) or the read fails (logged), the lines stay those heard
        here."""
        mark = room.heard
        stored = None
        if self._publisher.connected:
            try:
                kept = await self._publisher.kept(chat_keep(code).key)
                stored = newest(chat_line(message) for message in kept)
            except Exception as exc:
                log.warning("could not read the room's chat history",
                            extra={"room": code, "error": repr(exc)})
        if stored is not None:
            during = room.lines[max(0, len(room.lines) - (room.heard - mark)):]
            room.lines = newest([*stored, *during])
        room.loaded, room.loading = True, None

    def stale(self) -> None:
        """The room channel lost messages (``resync``): the lines kept here may miss some, so
        the next greet of each room reads the broker's again."""
        for room in self._rooms.values():
            room.loaded = False

    def heard(self, code: str, line: Line) -> None:
        """Add ``line`` (a room channel's ``chat``: ``chat_line``) to room ``code``'s lines, if
        the room is held here and does not hold its ``id`` already (a message the broker
        delivered twice: a publish retried after a connection error)."""
        room = self._rooms.get(code)
        if room is not None and all(kept[0] != line[0] for kept in room.lines):
            room.heard += 1
            room.lines.append(line)
            if len(room.lines) > CHAT_HISTORY_LINES:
                del room.lines[0]

    def lines(self, code: str, seat: int | None) -> list[str]:
        """Return the ``chat`` frame texts of room ``code``'s lines that a socket watching as
        ``seat`` may see (``reaches``), oldest first (``[]`` when the room is not held here)."""
        room = self._rooms.get(code)
        if room is None:
            return []
        return [text for _, to, text in room.lines if reaches(to, seat)]
