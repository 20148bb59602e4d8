"""Scripted websocket clients of a load run: players that act, spectators that watch.

They speak docs/protocol.md "Websocket": ``hello`` first, then a player answers its current
``prompt`` with a random entry of ``legal`` after a think time. A player's move round-trip is
``act`` sent -> its next ``update`` (the server always sends the acting seat one: its prompt
changed). Its ``version`` may equal the one before: a hidden answer in a simultaneous decision
(the Reverse Curse mulligan) does not advance the public version (docs/protocol.md).

When a player sees its match over it asks to play again (``POST /api/rooms/{code}/rematch``,
through ``Pace.rematch``), as real players would, so a room keeps playing for the whole run;
once every seat asked, the room's sockets get the new match from its version 0 (a new
``room.match_id``), and every client follows it: versions and fan-out times are kept per match
(``RoomWatch``).

Every client asks for patched updates (``hello`` ``"patches": true``; docs/protocol.md "Patched
updates") and rebuilds whole frames from them (``Rebuilt``), so ``frame_bytes`` are the sizes
sent; a frame that cannot be rebuilt is counted (``patch_dropped``) and answered by ``sync``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets

from bench.metrics import Recorder, RoomTrace

#: Largest frame a client accepts (the server's views are a few KiB).
MAX_FRAME = 1 << 20

#: ``rematch(code, token)``: ask to play again in room ``code`` as the player of ``token``.
Rematch = Callable[[str, str | None], Awaitable[None]]


#: Before the players start (``Pace.go``: the idle phase) a player answers a prompt only when
#: its clock would run out within this many seconds, as a real player would: with a set-up
#: longer than the turn clock, clocks would otherwise run out just as the players start, and
#: their first acts be refused (``already_played``, ``stale_prompt``).
CLOCK_MARGIN = 15.0

#: A match id as frames carry it (``room.match_id``; ``None`` before a match).
MatchId = int | None

@dataclass
class Pace:
    """How the clients of a run behave.

    Attributes:
        think: mean seconds a player waits before answering (uniform in 0.5..1.5 × think;
            0 = answer at once, the peak-throughput mode).
        go: set when players may start acting (before it they only listen: the idle phase).
        stop: set when every client should close.
        rematch: called by a player that saw its match over (``None``: the room stops there).
        patches: the clients ask for patched updates (``hello`` ``"patches": true``).
    """

    think: float
    go: asyncio.Event
    stop: asyncio.Event
    rematch: Rematch | None = None
    patches: bool = True


@dataclass
class RoomWatch:
    """What the clients of one room measured, one ``RoomTrace`` per match it played.

    Versions start again at 0 with each match (a rematch), so the act times and spectator
    arrivals of different matches are kept apart, keyed by ``room.match_id`` of the frames
    (``None`` for a server that sends no ``room``: the ceiling).

    Attributes:
        traces: ``{match: its trace}``, in the order the room's clients first saw them.
        ended: ``{match: perf time a player of the room first saw it over}``.
        restarts: seconds from a match seen over to the first frame of the room's next match
            (the rematch requests and the new match's start), one per rematch.
    """

    traces: dict[MatchId, RoomTrace] = field(default_factory=dict)
    ended: dict[MatchId, float] = field(default_factory=dict)
    restarts: list[float] = field(default_factory=list)

    def trace(self, match: MatchId) -> RoomTrace:
        """Return the trace of ``match`` (a new empty one the first time)."""
        found = self.traces.get(match)
        if found is None:
            found = self.traces[match] = RoomTrace()
        return found

    def saw(self, match: MatchId, at: float) -> None:
        """A client got a frame of ``match`` at ``at``: the first one of a match after an ended
        one starts a rematch (its restart time is kept)."""
        if match in self.traces:
            return
        if self.traces:
            ended = self.ended.get(next(reversed(self.traces)))
            if ended is not None:
                self.restarts.append(at - ended)
        self.trace(match)

    def over(self, match: MatchId, at: float) -> None:
        """A player saw ``match`` over at ``at`` (the first sighting counts)."""
        self.ended.setdefault(match, at)


def match_of(data: dict[str, Any]) -> MatchId:
    """Return the match a ``welcome``/``update`` counts its version in (its ``room.match_id``)."""
    room = data.get("room")
    return room.get("match_id") if room else None


def _decode(raw: bytes, recorder: Recorder, role: str) -> dict[str, Any]:
    """Return the frame (UTF-8 JSON) as a dict and record its size (bytes) under its ``type``
    (and an ``update``'s under ``role`` too, when it arrives inside the window)."""
    data = orjson.loads(raw)
    recorder.frame(data.get("type", "?"), len(raw), role, time.perf_counter())
    return data


#: A whole frame's document (``version`` aside): what a patched update changes.
DOC = ("view", "prompt", "legal", "deadline", "clocks")
SYNC = orjson.dumps({"type": "sync"})


#: The most key templates a socket is given (docs/protocol.md "Patched updates").
MAX_TEMPLATES = 256


class Templates:
    """A patching socket's key templates since its last full update: ``keys[id]`` is
    ``(kind, keys)`` (``kind`` ``None`` but for an event's data)."""

    __slots__ = ("ids", "keys")

    def __init__(self) -> None:
        self.ids: dict[Any, int] = {}
        self.keys: list[tuple[str | None, tuple[str, ...]]] = []

    def learn(self, value: Any, kind: str | None = None) -> None:
        """Make the next template of a dict sent plain in a templated place (an event's data
        when ``kind`` is given), unless its key tuple has one, it is empty (but for an
        event's), one of its keys is all digits, or ``MAX_TEMPLATES`` exist."""
        if type(value) is not dict or not (value or kind is not None) or len(self.keys) \
                >= MAX_TEMPLATES or any(key.isdigit() and key.isascii() for key in value):
            return
        keys = tuple(value)
        key = keys if kind is None else (kind, keys)
        if key not in self.ids:
            self.ids[key] = len(self.keys)
            self.keys.append((kind, keys))

    def unpack(self, at: Any, values: list[Any], event: bool = False) -> dict[str, Any]:
        """Return the dict template ``at`` (an event's if ``event``) and ``values`` stand for.

        Raises:
            IndexError, ValueError: no such template, or not one value per key.
        """
        if type(at) is not int or at < 0:
            raise ValueError(f"template {at}")
        kind, keys = self.keys[at]
        if (kind is not None) != event or len(values) != len(keys):
            raise ValueError(f"template {at}")
        return dict(zip(keys, values))

    def event(self, sent: list[Any]) -> dict[str, Any]:
        """Return an event as a whole frame has it from ``[kind, data]`` (learnt) or
        ``[id, *values]``."""
        if type(sent[0]) is str and len(sent) == 2:
            self.learn(sent[1], sent[0])
            return {"kind": sent[0], "data": sent[1]}
        return {"kind": self.keys[sent[0]][0], "data": self.unpack(sent[0], sent[1:], True)}

    def entry(self, entry: Any) -> Any:
        """Return a list entry that must be a dict from ``[id, *values]`` or itself (learnt)."""
        if type(entry) is list:
            return self.unpack(entry[0], entry[1:])
        self.learn(entry)
        return entry


def apply_patch(doc: Any, ops: list[Any], events: list[dict[str, Any]] | None = None,
                templates: Templates | None = None, legal: list[Any] | None = None) -> Any:
    """Apply the ops of a patched update (docs/protocol.md "Patched updates": ``["=", path,
    value]`` replace, ``["+", path, value]`` add, ``["-", path]`` remove, ``["&", path, i]``
    add a copy of ``events[i]``, ``{path: value}`` or a template's ``[id, *values]``:
    replaces, ``[op, path, id, *values]`` a dict value by a template; paths relative to
    ``doc``, or with ``~l/`` first to ``legal``) to ``doc`` and ``legal`` in place, learning
    the templates of the plain dicts; return ``doc``. The clients own their decoded frames,
    so only an event's data is copied.

    Raises:
        KeyError, IndexError, ValueError, TypeError: an op that does not apply.
    """
    templates = templates if templates is not None else Templates()
    for op in ops:
        if type(op) is dict:
            templates.learn(op)
            _replace(doc, legal, op.items())
            continue
        kind = op[0]
        if type(kind) is int:
            _replace(doc, legal, templates.unpack(kind, op[1:]).items())
        elif kind == "-":
            if len(op) != 2:
                raise ValueError(op)
            _apply(doc, legal, kind, op[1], None)
        elif kind == "&":
            if len(op) != 3 or events is None:
                raise ValueError(op)
            _apply(doc, legal, "+", op[1], orjson.loads(orjson.dumps(events[op[2]])))
        elif kind == "=" or kind == "+":
            if len(op) == 3:
                value = op[2]
                if type(value) is dict:
                    templates.learn(value)
            else:
                value = templates.unpack(op[2], op[3:])
            _apply(doc, legal, kind, op[1], value)
        else:
            raise ValueError(kind)
    return doc


def _replace(doc: Any, legal: list[Any] | None, changes: Iterable[tuple[str, Any]]) -> None:
    """Apply replaces ``(path, value)`` (a view's own key without a lookup of ``_apply``)."""
    for path, value in changes:
        if "/" in path or "~" in path or type(doc) is not dict:
            _apply(doc, legal, "=", path, value)
        elif path in doc:
            doc[path] = value
        else:
            raise KeyError(path)


def _apply(doc: Any, legal: list[Any] | None, kind: str, path: str, value: Any) -> None:
    """Apply one replace (``=``), add (``+``) or remove (``-``) at ``path`` inside ``doc``
    (or, for a path starting ``~l/``, inside ``legal``)."""
    if path[:3] == "~l/":
        if legal is None:
            raise KeyError(path)
        doc, path = legal, path[3:]
    if "/" in path:
        tokens = path.split("/")
        if "~" in path:
            tokens = [t.replace("~1", "/").replace("~0", "~") for t in tokens]
        for token in tokens[:-1]:
            doc = doc[int(token)] if type(doc) is list else doc[token]
        last = tokens[-1]
    else:
        last = path.replace("~1", "/").replace("~0", "~") if "~" in path else path
    if type(doc) is dict:
        if kind == "=":
            if last not in doc:
                raise KeyError(path)
            doc[last] = value
        elif kind == "+":
            doc[last] = value
        else:
            del doc[last]
    elif type(doc) is list:
        at = int(last)
        if at < 0 or at > len(doc) or (kind != "+" and at == len(doc)):
            raise IndexError(path)
        if kind == "+":
            doc.insert(at, value)
        elif kind == "-":
            del doc[at]
        else:
            doc[at] = value
    else:
        raise TypeError(path)


class Rebuilt:
    """One patching socket's ``seq``, version, document (its legal list the kept one), key
    templates and room: ``take`` returns each frame whole."""

    __slots__ = ("seq", "version", "doc", "templates", "room", "syncing")

    def __init__(self) -> None:
        self.seq = -1
        self.version = 0
        self.doc: dict[str, Any] = {}
        self.templates = Templates()
        self.room: dict[str, Any] | None = None
        self.syncing = False

    def take(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """Return ``data`` whole (an ``update`` rebuilt from its patch), or ``None`` when it
        cannot be (a ``seq`` gap or a patch that does not apply: send ``sync``; until its full
        answer every patch is dropped). Frames without ``seq`` (the ceiling's) are whole."""
        kind = data.get("type")
        if kind == "room":
            self.room = data["room"]
        if kind not in ("welcome", "update"):
            return data
        if "view" in data:
            self.seq, self.syncing, self.room = data.get("seq", -1), False, data.get("room")
            self.version, self.templates = data.get("version", 0), Templates()
            self.doc = {key: data[key] for key in DOC if key in data}
            return data
        if self.syncing or data["seq"] != self.seq + 1:
            return None
        doc, templates = self.doc, self.templates
        try:
            events = [templates.event(sent) for sent in data["events"]]
            if "legal" in data:
                doc["legal"] = [templates.entry(entry) for entry in data["legal"]]
            if "patch" in data:
                apply_patch(doc["view"], data["patch"], [one["data"] for one in events],
                            templates, doc["legal"])
        except (KeyError, IndexError, ValueError, TypeError):
            return None
        if "prompt" in data:
            doc["prompt"] = data["prompt"]
        if "clocks" in data or "deadline" in data:  # ms after the last deadline
            base = round(doc["deadline"] * 1000) if doc["deadline"] is not None else 0
            if "clocks" in data:
                doc["clocks"] = {seat: (base + at) / 1000 for seat, at in data["clocks"].items()}
            if "deadline" in data:
                doc["deadline"] = None if data["deadline"] is None else \
                    (base + data["deadline"]) / 1000
        clocks = doc["clocks"]
        if "deadline" not in data:
            doc["deadline"] = next(iter(clocks.values())) if len(clocks) == 1 else None
        self.seq = data["seq"]
        self.version = data.get("version", self.version + 1)
        self.room = data.get("room", self.room)
        return {"type": "update", "version": self.version, "view": doc["view"],
                "prompt": doc["prompt"], "legal": doc["legal"] if doc["prompt"] is not None
                else [], "deadline": doc["deadline"], "clocks": clocks, "events": events,
                "room": self.room}


async def _open(url: str, token: str | None, recorder: Recorder, patches: bool):
    """Return an open socket that has sent ``hello`` (asking for patches if ``patches``), or
    ``None`` (counted ``connect_failed``)."""
    try:
        socket = await websockets.connect(url, max_size=MAX_FRAME, open_timeout=60,
                                          ping_interval=None, compression=None)
        hello = {"type": "hello", "token": token, **({"patches": True} if patches else {})}
        await socket.send(orjson.dumps(hello), text=True)
        return socket
    except (TimeoutError, OSError, websockets.WebSocketException):
        recorder.errors["connect_failed"] += 1
        return None


async def _close_on_stop(socket, pace: Pace) -> None:
    await pace.stop.wait()
    await socket.close()


async def _listen(socket, pace: Pace, recorder: Recorder, role: str,
                  handle: Callable[[dict[str, Any], float], None]) -> None:
    """Pass every frame of ``socket`` (rebuilt whole: ``Rebuilt``) and its arrival (perf
    seconds) to ``handle`` until the socket closes; close it when the run stops. A close by
    the server before the stop is counted ``connection_closed``. Text frames are read
    undecoded (orjson reads the bytes); sizes are recorded under ``role`` too."""
    closer = asyncio.ensure_future(_close_on_stop(socket, pace))
    rebuilt = Rebuilt()
    try:
        while True:
            raw = await socket.recv(decode=False)
            data = rebuilt.take(_decode(raw, recorder, role))
            if data is None:
                recorder.errors["patch_dropped"] += 1
                if not rebuilt.syncing:
                    rebuilt.syncing = True
                    await socket.send(SYNC, text=True)
                continue
            handle(data, time.perf_counter())
    except websockets.ConnectionClosedOK:
        pass
    except websockets.ConnectionClosedError:
        if not pace.stop.is_set():
            recorder.errors["connection_closed"] += 1
    finally:
        closer.cancel()


class Player:
    """One seated player: answers its prompts with random legal actions, and asks for a
    rematch when its match is over."""

    def __init__(self, url: str, token: str | None, code: str, room: RoomWatch, recorder: Recorder,
                 pace: Pace, rng: random.Random) -> None:
        self.url, self.token, self.code = url, token, code
        self.room, self.recorder, self.pace, self.rng = room, recorder, pace, rng
        self.match: MatchId = None
        self.version = 0
        self.prompt: str | None = None
        self.legal: list[Any] = []
        self.answered: str | None = None
        self.deadline: float | None = None  # unix seconds: this seat's clock runs out
        self.pending: tuple[float, int, MatchId] | None = None  # (sent at, version, match)
        self.again: tuple[MatchId, asyncio.Future | None] | None = None  # rematch asked
        self.socket: Any = None
        self.changed = asyncio.Event()  # set when a frame may have given a new prompt

    async def run(self) -> None:
        """Connect, then handle frames until the run stops or the server closes the socket."""
        self.socket = await _open(self.url, self.token, self.recorder, self.pace.patches)
        if self.socket is None:
            return
        actor = asyncio.ensure_future(self._act_loop())
        try:
            await _listen(self.socket, self.pace, self.recorder, "player", self._on_frame)
        finally:
            actor.cancel()
            if self.again is not None and self.again[1] is not None:
                self.again[1].cancel()

    def _on_frame(self, data: dict[str, Any], now: float) -> None:
        kind = data.get("type")
        if kind == "error":
            # A refused act is answered by a fresh update (docs/protocol.md ``stale_prompt``,
            # ``already_played``) whose prompt differs from every prompt this player answered,
            # so ``answered`` stays: forgetting it let a late refusal of an older act send a
            # second act on a prompt already answered (one refusal became two).
            self.recorder.errors[data.get("code", "?")] += 1
            self.pending = None
            self.changed.set()
            return
        if kind not in ("welcome", "update"):
            return
        match, version = match_of(data), data["version"]
        self.room.saw(match, now)
        if self.pending is not None and kind == "update":
            sent, seen, asked_in = self.pending
            if match == asked_in:  # (an update of another match closes no move)
                self.recorder.move(sent, now)
                if self.recorder.in_window(sent) and version > seen:
                    self.room.trace(match).caused.setdefault(version, sent)
            self.pending = None
        self.match, self.version = match, version
        self.prompt, self.legal = data["prompt"], data["legal"]
        self.deadline = data.get("deadline")
        view = data.get("view")
        if view and view.get("outcome") is not None:
            self.recorder.finished.add((self.code, match))
            self.room.over(match, now)
            self._play_again(match)
        self.changed.set()

    def _play_again(self, match: MatchId) -> None:
        """Ask once per finished match for a rematch (in a task; ``Pace.rematch``)."""
        if self.again is not None and self.again[0] == match:
            return
        ask = None
        if self.pace.rematch is not None and not self.pace.stop.is_set():
            ask = asyncio.ensure_future(self.pace.rematch(self.code, self.token))
        self.again = (match, ask)

    def _wants_to_act(self) -> bool:
        return bool(self.legal) and self.pending is None and self.prompt != self.answered

    def _clock_left(self) -> float:
        """Seconds until this seat's clock runs out (``inf`` when it has none running)."""
        return float("inf") if self.deadline is None else self.deadline - time.time()

    async def _act_loop(self) -> None:
        """Whenever a new prompt is pending: think, then send ``act`` with a random legal action
        (before ``Pace.go``: ``_until_go``)."""
        if not await self._until_go():
            return
        while not self.pace.stop.is_set():
            await self.changed.wait()
            self.changed.clear()
            if not self._wants_to_act():
                continue
            if self.pace.think:
                await asyncio.sleep(self.pace.think * self.rng.uniform(0.5, 1.5))
            if not self._wants_to_act():
                continue
            if not await self._send_act():
                return

    async def _until_go(self) -> bool:
        """Until ``Pace.go``, answer only a prompt whose clock runs out within ``CLOCK_MARGIN``
        seconds, at once; return ``False`` if the socket closed."""
        go = asyncio.ensure_future(self.pace.go.wait())
        try:
            while not go.done():
                self.changed.clear()
                left = self._clock_left() - CLOCK_MARGIN
                if left <= 0 and self._wants_to_act():
                    if not await self._send_act():
                        return False
                    continue
                changed = asyncio.ensure_future(self.changed.wait())
                await asyncio.wait({go, changed}, timeout=None if left == float("inf") else left,
                                   return_when=asyncio.FIRST_COMPLETED)
                changed.cancel()
        finally:
            go.cancel()
        self.changed.set()  # the prompt of the last frame is still to answer
        return True

    async def _send_act(self) -> bool:
        """Answer the current prompt (``_act_frame``), noting it pending; ``False`` if the
        socket closed."""
        self.answered = self.prompt
        self.pending = (time.perf_counter(), self.version, self.match)
        try:
            await self.socket.send(orjson.dumps(self._act_frame()), text=True)
        except websockets.ConnectionClosed:
            return False
        return True


    def _act_frame(self) -> dict[str, Any]:
        """Return the ``act`` frame answering the current prompt (a random legal action)."""
        return {"type": "act", "prompt": self.prompt, "action": self.rng.choice(self.legal)}


class Spectator:
    """One spectator: records when it first holds each version of each match of its room."""

    def __init__(self, url: str, room: RoomWatch, recorder: Recorder, pace: Pace) -> None:
        self.url, self.room, self.recorder, self.pace = url, room, recorder, pace
        self.match: MatchId = None
        self.version = 0

    async def run(self) -> None:
        """Connect as a spectator (no token) and watch until the run stops."""
        socket = await _open(self.url, None, self.recorder, self.pace.patches)
        if socket is not None:
            await _listen(socket, self.pace, self.recorder, "spectator", self._on_frame)

    def _on_frame(self, data: dict[str, Any], now: float) -> None:
        if data.get("type") not in ("welcome", "update"):
            return
        match, version = match_of(data), data["version"]
        self.room.saw(match, now)
        if match != self.match:  # a rematch: its versions count from 0
            self.match, self.version = match, 0
        if version > self.version:
            self.room.trace(match).spectator_reached(self.version, version, now)
            self.version = version
