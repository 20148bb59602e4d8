"""Rebuilding whole ``update`` frames from patched ones, as a client does (docs/protocol.md
"Patched updates"): the tests' independent reading of the server's patches (the server tests'
``PatchClient``, the browser tests' frame readers). Each compact op is turned into its RFC 6902
operation on the whole document and applied with the ``jsonpatch`` library.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import jsonpatch

#: A whole frame's document (``version`` aside): what a patched update changes.
DOC = ("view", "prompt", "legal", "deadline", "clocks")
#: The keys a patched update may have.
PATCH_KEYS = {"type", "seq", "version", "prompt", "legal", "deadline", "clocks", "patch",
              "events", "room"}
#: RFC 6902 names of the compact ops.
NAMES = {"=": "replace", "+": "add", "-": "remove", "&": "add"}


#: The most key templates a socket is given.
MAX_TEMPLATES = 256


class Templates:
    """A socket's key templates: ``made[id]`` is ``(kind or None, keys)``."""

    def __init__(self) -> None:
        self.made: list[tuple[str | None, list[str]]] = []

    def learn(self, value: Any, kind: str | None = None) -> None:
        """A dict sent plain in a templated place makes the next template of its keys when
        none has them (an empty dict only as an event's data; none with an all-digit key)."""
        if not isinstance(value, dict) or (not value and kind is None):
            return
        if any(re.fullmatch("[0-9]+", key) for key in value) or len(self.made) >= MAX_TEMPLATES:
            return
        if (kind, list(value)) not in self.made:
            self.made.append((kind, list(value)))

    def unpack(self, at: Any, values: list[Any], event: bool = False) -> dict[str, Any]:
        """Return the dict template ``at`` and ``values`` stand for (one value per key)."""
        assert type(at) is int and 0 <= at < len(self.made), (at, self.made)
        kind, keys = self.made[at]
        assert (kind is not None) == event and len(keys) == len(values), (at, values)
        return dict(zip(keys, values))


def rfc6902(ops: list[Any], events: list[dict[str, Any]], templates: Templates | None = None,
            under: str = "view") -> list[dict[str, Any]]:
    """Return the JSON Patch of compact ``ops`` whose paths are relative to the document's
    member ``under`` — ``legal`` for a path that starts ``~l/`` (``["&", path, i]``: an add of
    a copy of ``events[i]``; ``{path: value}`` and a template's ``[id, *values]``: replaces;
    ``[op, path, id, *values]``: a dict value by its template), learning ``templates``."""
    templates = templates if templates is not None else Templates()

    def pointer(path: str) -> str:
        return f"/legal/{path[3:]}" if path.startswith("~l/") else f"/{under}/{path}"

    out = []
    for op in ops:
        if isinstance(op, dict) or type(op[0]) is int:
            if isinstance(op, dict):
                templates.learn(op)
            changes = op if isinstance(op, dict) else templates.unpack(op[0], op[1:])
            out.extend({"op": "replace", "path": pointer(path), "value": value}
                       for path, value in changes.items())
            continue
        assert op[0] in NAMES and isinstance(op[1], str), op
        one: dict[str, Any] = {"op": NAMES[op[0]], "path": pointer(op[1])}
        if op[0] == "&":
            assert len(op) == 3, op
            one["value"] = copy.deepcopy(events[op[2]])
        elif op[0] == "-":
            assert len(op) == 2, op
        elif len(op) == 3:
            one["value"] = op[2]
            templates.learn(op[2])
        else:
            one["value"] = templates.unpack(op[2], op[3:])
        out.append(one)
    return out


class Rebuilder:
    """The document (its ``legal`` the kept list), ``seq``, version and room of one patching
    socket; ``take`` turns each received frame into the one a socket without patches gets."""

    def __init__(self) -> None:
        self.seq = -1
        self.version = 0
        self.doc: dict[str, Any] = {}
        self.room: dict[str, Any] | None = None
        self.templates = Templates()

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
        if "view" in frame:
            self.doc = {key: frame[key] for key in DOC}
            self.room = frame["room"]
            self.version = frame["version"]
            self.templates = Templates()
            return frame
        assert set(frame) <= PATCH_KEYS, frame
        events = []
        for event in frame["events"]:
            if isinstance(event[0], str):
                assert len(event) == 2, event
                self.templates.learn(event[1], event[0])
                events.append({"kind": event[0], "data": event[1]})
            else:
                events.append({"kind": self.templates.made[event[0]][0],
                               "data": self.templates.unpack(event[0], event[1:], True)})
        if "legal" in frame:
            legal = []
            for entry in frame["legal"]:
                if isinstance(entry, list):
                    entry = self.templates.unpack(entry[0], entry[1:])
                else:
                    self.templates.learn(entry)
                legal.append(entry)
            self.doc = {**self.doc, "legal": legal}
        ops = rfc6902(frame.get("patch", []), [event["data"] for event in events],
                      self.templates)
        doc = jsonpatch.apply_patch(self.doc, ops)
        if "prompt" in frame:
            doc["prompt"] = frame["prompt"]
        # sent times are whole ms after the last deadline (0 when it was null)
        base = 0 if self.doc["deadline"] is None else round(self.doc["deadline"] * 1000)
        if "clocks" in frame:
            doc["clocks"] = {seat: (base + at) / 1000 for seat, at in frame["clocks"].items()}
        clocks = doc["clocks"]
        if "deadline" in frame:
            doc["deadline"] = None if frame["deadline"] is None else \
                (base + frame["deadline"]) / 1000
        else:
            doc["deadline"] = next(iter(clocks.values())) if len(clocks) == 1 else None
        self.doc = doc
        self.version = frame.get("version", self.version + 1)
        self.room = frame.get("room", self.room)
        return {"type": "update", "version": self.version, "view": doc["view"],
                "prompt": doc["prompt"], "legal": doc["legal"] if doc["prompt"] is not None
                else [], "deadline": doc["deadline"], "clocks": clocks,
                "events": events, "room": self.room}


def _millis(value: Any) -> Any:
    return None if value is None else round(value * 1000) / 1000


def exact(value: Any) -> str:
    """Return ``value``'s canonical JSON (sorted keys): equal texts are the same JSON value,
    ``true`` and ``1`` or ``1`` and ``1.0`` included. A frame's ``deadline`` and ``clocks``
    are taken to whole milliseconds first (the precision of patched frames)."""
    if isinstance(value, dict) and "clocks" in value and "deadline" in value:
        value = {**value, "deadline": _millis(value["deadline"]),
                 "clocks": {seat: _millis(at) for seat, at in value["clocks"].items()}}
    return json.dumps(value, sort_keys=True)
