"""One fan-out of a room's change: each distinct ``update`` encoded once.

Within one fan-out every socket of one viewer (all the spectators; the sockets of one seat)
that was last shown the same version gets the same data from the room core
(``RoomPort.update``), so its encoded text is shared. The frame is built as a plain dict
(server-made data, already JSON-ready) whose keys are ``app.realtime.schemas.Update``'s fields,
in their order (``UPDATE_FIELDS``), and encoded the way Starlette's ``send_json`` does.
"""

from __future__ import annotations

from typing import Any

import orjson

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


class Fanout:
    """The encoded ``update`` frames of one fan-out, shared by the sockets given the same data.

    Args:
        room: the ``Room`` JSON every frame of this fan-out carries.
    """

    def __init__(self, room: dict[str, Any]) -> None:
        self.room = room
        self._texts: dict[int, tuple[dict[str, Any], str]] = {}

    def text(self, data: dict[str, Any]) -> str:
        """Return the encoded ``update`` frame of ``data`` (encoded once per data object)."""
        kept = self._texts.get(id(data))
        if kept is None:  # the data is kept with its text, so its id stays its own
            kept = self._texts[id(data)] = (data, encode(update_frame(data, self.room)))
        return kept[1]
