"""Rebuilding whole ``update`` frames from patched ones, as a client does (docs/protocol.md
"Patched updates"), with the ``jsonpatch`` library (RFC 6902): the tests' independent reading
of the server's patches (the server tests' ``PatchClient``, the browser tests' frame readers).
"""

from __future__ import annotations

import json
from typing import Any

import jsonpatch

#: The document a patch addresses (``version`` comes at the top of every update).
DOC = ("view", "prompt", "legal", "deadline", "clocks")
#: The fields a patched update carries whole at its top when they changed.
TOP = DOC[1:]


class Rebuilder:
    """The document, ``seq`` and room of one patching socket; ``take`` turns each received
    frame into the one a socket without patches gets."""

    def __init__(self) -> None:
        self.seq = -1
        self.doc: dict[str, Any] = {}
        self.room: dict[str, Any] | None = None

    def take(self, frame: dict[str, Any]) -> dict[str, Any]:
        """Return the whole frame a received one stands for (``welcome``/``update`` without
        ``seq``; other frames as they are, a ``room`` frame's room kept).

        Raises:
            AssertionError: a ``seq`` that is not the last one + 1 (0 for a ``welcome``), or
                a patch frame with other keys than docs/protocol.md lists.
            jsonpatch.JsonPatchException: a patch that does not apply.
        """
        if frame["type"] == "room":
            self.room = frame["room"]
        if frame["type"] not in ("welcome", "update"):
            return frame
        frame = dict(frame)
        seq = frame.pop("seq")
        assert seq == (0 if frame["type"] == "welcome" else self.seq + 1), (seq, self.seq)
        self.seq = seq
        if "patch" in frame:
            assert set(frame) <= {"type", "version", "patch", "events", "room", *TOP}, frame
            self.doc = jsonpatch.apply_patch(self.doc, frame.pop("patch"))
            self.doc.update((key, frame[key]) for key in TOP if key in frame)
            self.room = frame.get("room", self.room)
            return {"type": "update", "version": frame["version"], **self.doc,
                    "events": frame["events"], "room": self.room}
        self.doc = {key: frame[key] for key in DOC}
        self.room = frame["room"]
        return frame


def exact(value: Any) -> str:
    """Return ``value``'s canonical JSON (sorted keys): equal texts are the same JSON value,
    ``true`` and ``1`` or ``1`` and ``1.0`` included."""
    return json.dumps(value, sort_keys=True)
