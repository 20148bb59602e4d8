"""One fan-out of a room's change: each distinct ``update`` encoded once.

Within one fan-out every socket of one viewer (all the spectators; the sockets of one seat)
that was last shown the same version gets the same data from the room core
(``RoomPort.update``), so its encoded text is shared. A socket that asked for patches
(``Stream``; docs/protocol.md "Patched updates") gets the JSON Patch from the document it was
sent last to the new one: computed and encoded once per (last document, new data, room sent
or not) within the fan-out, and only the socket's own ``seq`` is written per socket. The frame is built as a plain dict
(server-made data, already JSON-ready) whose keys are ``app.realtime.schemas.Update``'s fields,
in their order (``UPDATE_FIELDS``), and encoded the way Starlette's ``send_json`` does.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.realtime.patch import diff_fields
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


#: The document of a patching socket, the keys its patches address (``version`` comes at the
#: top of every update instead: it changes with nearly every frame).
DOC_FIELDS = ("view", "prompt", "legal", "deadline", "clocks")

#: The fields a patched update carries at its top, whole, when they changed whole (a
#: ``replace`` of the field would cost 30 bytes more): ``"/prompt"`` → ``"prompt"``, …
TOP_FIELDS = {f"/{name}": name for name in DOC_FIELDS if name != "view"}

#: A patch that replaces the view whole is sent as a full update instead (a new match, a seat's
#: socket turned spectator's: the patch would hold the whole view and more).
WHOLE = "/view"


class Stream:
    """What a socket that asked for patches was sent last: the ``seq`` of its last ``welcome``
    or ``update``, the data that frame showed (``doc``: an ``update``'s render, held as given —
    shared, never copied or mutated — or the welcome's document) and the last ``Room`` JSON it
    was sent (``room``, compared by identity: ``RoomPort.room`` keeps one dict while
    unchanged; ``None``: not known, the next update carries it).
    """

    __slots__ = ("seq", "doc", "room")

    def __init__(self, doc: dict[str, Any], room: dict[str, Any] | None = None) -> None:
        self.seq, self.doc, self.room = 0, doc, room


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


def patch_body(doc: dict[str, Any], data: dict[str, Any], room: dict[str, Any] | None
               ) -> str | None:
    """Return the fields after ``type`` of the update turning ``doc`` into ``data``, encoded
    without the opening brace: ``version``, each of ``TOP_FIELDS`` replaced whole, ``patch``
    (the other RFC 6902 ops on ``DOC_FIELDS``), ``events``, and ``room`` when given; ``None``
    when the patch would replace the view whole (``WHOLE``: a full update is then smaller)."""
    frame: dict[str, Any] = {"version": data["version"]}
    ops = []
    for op in diff_fields(doc, data, DOC_FIELDS):
        path = op["path"]
        if path == WHOLE:
            return None
        top = TOP_FIELDS.get(path)
        if top is None:
            ops.append(op)
        else:  # only a replace has the field's own path
            frame[top] = op["value"]
    frame["patch"] = ops
    frame["events"] = data["events"]
    if room is not None:
        frame["room"] = room
    return encode(frame)[1:]


class Fanout:
    """The encoded ``update`` frames of one fan-out, shared by the sockets given the same data.

    Args:
        room: the ``Room`` JSON every frame of this fan-out carries.
    """

    def __init__(self, room: dict[str, Any]) -> None:
        self.room = room
        self._texts: dict[int, tuple[dict[str, Any], str]] = {}
        self._patches: dict[tuple[int, int, bool], tuple[dict[str, Any], dict[str, Any], str]] = {}

    def text(self, data: dict[str, Any]) -> str:
        """Return the encoded ``update`` frame of ``data`` (encoded once per data object)."""
        kept = self._texts.get(id(data))
        if kept is None:  # the data is kept with its text, so its id stays its own
            kept = self._texts[id(data)] = (data, encode(update_frame(data, self.room)))
        return kept[1]

    def patched(self, stream: Stream, data: dict[str, Any], full: bool = False) -> str:
        """Return the next ``update`` text of a patching socket (``stream``, advanced to it):
        the patch from its last document to ``data`` (``patch_body``), or with ``full`` (a
        ``sync``) the full update. Each (last document, data, room sent) is diffed and
        encoded once per fan-out."""
        doc, fresh = stream.doc, stream.room is not self.room
        key = (id(doc), id(data), fresh)
        kept = None if full else self._patches.get(key)
        if kept is None:  # both data are kept with the text, so their ids stay their own
            body = None if full else patch_body(doc, data, self.room if fresh else None)
            kept = (doc, data, body if body is not None else full_body(data, self.room))
            if not full:
                self._patches[key] = kept
        stream.seq += 1
        stream.doc, stream.room = data, self.room
        return _framed(stream.seq, kept[2])
