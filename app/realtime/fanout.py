"""One fan-out of a room's change: each distinct ``update`` encoded once.

Within one fan-out every socket of one viewer (all the spectators; the sockets of one seat)
that was last shown the same version gets the same data from the room core
(``RoomPort.update``), so its encoded text is shared. A socket that asked for patches
(``Stream``; docs/protocol.md "Patched updates") gets the compact patch from the document it
was sent last to the new one: computed and encoded once per (last document, kept legal list,
key templates, new data, room sent or not) within the fan-out, and only the socket's own
``seq`` is written per socket. The templates are a function of what a stream was sent since
its last full update, one shared table object per such history: sockets given the same frames
keep sharing (a spectator that joined later has its own table, so its own diff, until the
next full update — the next match). The full frame is built as a plain dict
(server-made data, already JSON-ready) whose keys are ``app.realtime.schemas.Update``'s fields,
in their order (``UPDATE_FIELDS``), and encoded the way Starlette's ``send_json`` does.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.realtime.patch import NO_TEMPLATES, Compactor, Op, Templates, diff
from app.realtime.schemas import Update


def encode(data: dict[str, Any]) -> str:
    """Return the JSON text of a frame, as ``WebSocket.send_json`` would send it (compact, not
    ASCII-escaped; integer keys become strings), with orjson: about 10 times faster than
    ``json.dumps`` on an ``update`` frame (bench/HISTORY.md section 3).

    Frames with string keys only (every frame the games make) are encoded without orjson's
    ``OPT_NON_STR_KEYS``, which makes a whole encoding 2.7 times slower even when no key needs
    it (11.5 → 4.3 µs per Reverse Curse ``update``, §3b); orjson refuses a non-string key
    without that option, and the frame is then encoded again with it.

    Raises:
        TypeError: a value JSON cannot hold (orjson's ``JSONEncodeError``).
    """
    try:
        return orjson.dumps(data).decode()
    except orjson.JSONEncodeError:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


#: ``Update``'s ``type`` and its other fields, in order (the render's keys and ``room``).
UPDATE_TYPE = Update.model_fields["type"].default
UPDATE_FIELDS = tuple(name for name in Update.model_fields if name != "type")


def update_frame(render: dict[str, Any], room: dict[str, Any]) -> dict[str, Any]:
    """Return the ``update`` frame (docs/protocol.md) of a render (``RoomPort.update``'s data)
    and the room JSON: what ``frame(Update(**render, room=room))`` gives, without validating
    or copying the server-made values. Removing this fast path raises CPU per move by 12 %
    (bench/RESULTS.md "Fast paths").

    Raises:
        KeyError: a field of ``Update`` missing from ``render``.
    """
    data: dict[str, Any] = {"type": UPDATE_TYPE}
    for name in UPDATE_FIELDS:
        data[name] = room if name == "room" else render[name]
    return data


#: A full update's fields that a patched one carries at its top when they changed
#: (``version`` only when not the previous frame's + 1; the view is patched instead).
TOP_FIELDS = ("prompt", "legal", "deadline", "clocks")


#: The kept legal list of a socket never sent one (one object: equal streams stay equal).
NO_LEGAL: list[Any] = []


class Stream:
    """What a socket that asked for patches was sent last: the ``seq`` of its last ``welcome``
    or ``update``, the data that frame showed (``doc``: an ``update``'s render, held as given —
    shared, never copied or mutated — or the welcome's document), its kept legal list
    (``legal``: the last one sent while a prompt was shown; kept while the prompt is null) and
    the last ``Room`` JSON it was sent (``room``, compared by identity: ``RoomPort.room`` keeps
    one dict while unchanged; ``None``: not known, the next update carries it).
    """

    __slots__ = ("seq", "doc", "legal", "templates", "room")

    def __init__(self, doc: dict[str, Any], room: dict[str, Any] | None = None) -> None:
        self.seq, self.doc, self.room = 0, doc, room
        self.legal: list[Any] = doc["legal"] or NO_LEGAL
        self.templates = NO_TEMPLATES


def _framed(seq: int, body: str) -> str:
    """Return an ``update`` text: its type and ``seq``, then ``body`` (the other fields,
    encoded without their opening brace)."""
    return f'{{"type":"{UPDATE_TYPE}","seq":{seq},{body}'


def full_body(data: dict[str, Any], room: dict[str, Any]) -> str:
    """Return the fields of a full ``update`` of ``data`` and ``room`` after ``type``, encoded
    without the opening brace (``_framed`` adds ``type`` and ``seq``)."""
    frame = update_frame(data, room)
    del frame["type"]
    return encode(frame)[1:]


def millis(seconds: float | None) -> int | None:
    """Return a unix time in seconds as whole milliseconds (``None`` stays ``None``)."""
    return None if seconds is None else round(seconds * 1000)


def patch_body(doc: dict[str, Any], kept: list[Any], table: Templates, data: dict[str, Any],
               room: dict[str, Any] | None) -> tuple[str, list[Any], Templates] | None:
    """Return the fields after ``type`` of the patched update turning the document ``doc``
    (with the kept legal list ``kept`` and the key templates ``table``) into ``data``, encoded
    without the opening brace, then the kept legal list and the templates after it; ``None``
    when a full update must be sent instead (the view replaced whole; a null prompt with a
    legal list).

    The fields, each only when needed (docs/protocol.md "Patched updates"): ``version`` (when
    not ``doc``'s + 1), ``prompt``, ``legal`` (whole; else its ops are in ``patch``, paths
    ``~l/…``), ``deadline`` (when not the one derived from the clocks) and ``clocks`` in ms
    after ``doc``'s deadline, ``patch`` (``Compactor.ops``), ``events`` (``[kind, data]`` or a
    template's ``[id, *values]``), ``room`` when given. The templates are made in the order
    the client reads the places: events, ``legal``, ``patch``."""
    was, view = doc["view"], data["view"]
    if was is None or view is None:
        if was is not view:
            return None
        ops: list[Op] | None = []
    else:
        ops = diff(was, view)
        if ops is None:
            return None
    prompt, legal = data["prompt"], data["legal"]
    if prompt is None and legal:
        return None
    compact = Compactor(table)
    frame: dict[str, Any] = {}
    version = data["version"]
    if version != doc["version"] + 1:
        frame["version"] = version
    if prompt != doc["prompt"]:
        frame["prompt"] = prompt
    events = data["events"]
    sent = [compact.event(event["kind"], event["data"]) for event in events]
    if prompt is not None and legal is not kept and legal != kept:
        changes = diff(kept, legal)
        if changes is None:
            frame["legal"] = [compact.entry(action) for action in legal]
        else:
            for op in changes:
                op[1] = LEGAL + op[1]
            ops = ops + changes if ops else changes
        kept = legal or NO_LEGAL
    clocks, deadline = data["clocks"], millis(data["deadline"])
    base = millis(doc["deadline"]) or 0  # sent times count from the last deadline
    if deadline != (round(next(iter(clocks.values())) * 1000) if len(clocks) == 1 else None):
        frame["deadline"] = None if deadline is None else deadline - base
    if clocks is not doc["clocks"] and clocks != doc["clocks"]:
        frame["clocks"] = {seat: round(at * 1000) - base for seat, at in clocks.items()}
    if ops:
        frame["patch"] = compact.ops(ops, [event["data"] for event in events])
    frame["events"] = sent
    if room is not None:
        frame["room"] = room
    return encode(frame)[1:], kept, compact.table


#: The first token of a path into the kept legal list (never a view's: RFC 6901 escapes ``~``).
LEGAL = "~l/"


class Fanout:
    """The encoded ``update`` frames of one fan-out, shared by the sockets given the same data.

    Args:
        room: the ``Room`` JSON every frame of this fan-out carries.
    """

    def __init__(self, room: dict[str, Any]) -> None:
        self.room = room
        self._texts: dict[int, tuple[dict[str, Any], str]] = {}
        self._patches: dict[tuple[int, int, int, int, bool], tuple[Any, ...]] = {}

    def text(self, data: dict[str, Any]) -> str:
        """Return the encoded ``update`` frame of ``data`` (encoded once per data object)."""
        kept = self._texts.get(id(data))
        if kept is None:  # the data is kept with its text, so its id stays its own
            kept = self._texts[id(data)] = (data, encode(update_frame(data, self.room)))
        return kept[1]

    def patched(self, stream: Stream, data: dict[str, Any], full: bool = False) -> str:
        """Return the next ``update`` text of a patching socket (``stream``, advanced to it):
        the patch from its last document to ``data`` (``patch_body``), or with ``full`` (a
        ``sync``) the full update. Each (last document, kept legal list, templates, data,
        room sent) is diffed and encoded once per fan-out."""
        doc, kept, table = stream.doc, stream.legal, stream.templates
        fresh = stream.room is not self.room
        key = (id(doc), id(kept), id(table), id(data), fresh)
        found = None if full else self._patches.get(key)
        if found is None:  # the objects are kept with the text, so their ids stay their own
            made = None if full else patch_body(doc, kept, table, data,
                                                self.room if fresh else None)
            if made is None:
                made = full_body(data, self.room), data["legal"] or NO_LEGAL, NO_TEMPLATES
            found = (doc, kept, table, data, *made)
            if not full:
                self._patches[key] = found
        stream.seq += 1
        stream.doc, stream.room = data, self.room
        stream.legal, stream.templates = found[5], found[6]
        return _framed(stream.seq, found[4])
