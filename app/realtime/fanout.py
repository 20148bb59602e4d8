"""One fan-out of a room's new version: each distinct render made once, each frame encoded once.

bench/RESULTS.md section 3, fix 6: the hub used to render, build a pydantic ``Update``, dump it
and JSON-encode it again for every socket. Within one fan-out every socket of one viewer (all
the spectators; the sockets of one seat) that last saw the same version gets the same frame,
so the render is keyed by ``(viewer, since)`` and the encoded text by the same key. The frame
is built as a plain dict (server-made data, already JSON-ready) with the fields and order of
``app.realtime.schemas.Update`` and encoded the way Starlette's ``send_json`` does.
"""

from __future__ import annotations

from typing import Any, Callable

import orjson

#: ``(viewer seat or None, since version) -> LiveMatch.render`` of the room's match.
Render = Callable[[int | None, int], dict[str, Any]]


def encode(data: dict[str, Any]) -> str:
    """Return the JSON text of a frame, as ``WebSocket.send_json`` would send it (compact, not
    ASCII-escaped; integer keys become strings), with orjson: about 10 times faster than
    ``json.dumps`` on an ``update`` frame (bench/RESULTS.md section 3).

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


def update_frame(render: dict[str, Any], room: dict[str, Any]) -> dict[str, Any]:
    """Return the ``update`` frame (docs/protocol.md) of a render and the room JSON."""
    return {"type": "update", "version": render["version"], "view": render["view"],
            "prompt": render["prompt"], "legal": render["legal"],
            "deadline": render["deadline"], "clocks": render["clocks"],
            "events": render["events"], "room": room}


class Fanout:
    """The renders and encoded ``update`` frames of one room version, shared by its sockets.

    Args:
        render: renders the room's match for ``(viewer, since)`` (``MatchRunner.render``
            bound to the room code).
        room: the ``Room`` JSON every frame of this fan-out carries.
    """

    def __init__(self, render: Render, room: dict[str, Any]) -> None:
        self._render, self.room = render, room
        self._renders: dict[tuple[int | None, int], dict[str, Any]] = {}
        self._texts: dict[tuple[int | None, int], str] = {}

    def render(self, viewer: int | None, since: int) -> dict[str, Any]:
        """Return the render for ``viewer`` since ``since`` (made on first use; do not mutate)."""
        key = (viewer, since)
        if key not in self._renders:
            self._renders[key] = self._render(viewer, since)
        return self._renders[key]

    def update_text(self, viewer: int | None, since: int) -> str:
        """Return the encoded ``update`` frame of ``render(viewer, since)`` (encoded once)."""
        key = (viewer, since)
        if key not in self._texts:
            self._texts[key] = encode(update_frame(self.render(viewer, since), self.room))
        return self._texts[key]
