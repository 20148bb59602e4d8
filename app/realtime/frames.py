"""Validation of inbound websocket frames, before anything reaches a room.

Order of checks (docs/protocol.md error codes): size (``frame_too_large``), JSON (``bad_json``),
an object with a string ``type`` (``bad_frame``), a known type (``unknown_type``), the type's
schema (``bad_frame``), chat length (``chat_too_long``).
"""

from __future__ import annotations

import json
import time

from pydantic import ValidationError

from app.realtime.schemas import INBOUND, Chat, Inbound


class FrameError(Exception):
    """A refused inbound frame: ``code`` and ``message`` go into an ``error`` frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_frame(text: str, max_bytes: int, chat_max: int) -> Inbound:
    """Return the validated frame model of ``text``.

    Args:
        text: the frame as received; max_bytes: the size limit in UTF-8 bytes;
        chat_max: the longest chat text in characters.

    Raises:
        FrameError: ``frame_too_large``, ``bad_json``, ``bad_frame``, ``unknown_type`` or
            ``chat_too_long``.
    """
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise FrameError("frame_too_large", f"A frame may be at most {max_bytes} bytes.")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FrameError("bad_json", "The frame is not valid JSON.") from exc
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise FrameError("bad_frame", "A frame must be a JSON object with a string 'type'.")
    model = INBOUND.get(data["type"])
    if model is None:
        raise FrameError("unknown_type", f"Unknown frame type {data['type']!r}.")
    try:
        parsed = model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "frame"
        message = f"Bad {data['type']} frame: {where}: {first['msg']}."
        raise FrameError("bad_frame", message) from exc
    if isinstance(parsed, Chat) and len(parsed.text) > chat_max:
        raise FrameError("chat_too_long", f"A chat message may be at most {chat_max} characters.")
    return parsed


class RateLimiter:
    """A token bucket: ``rate`` frames per second, bursts of ``2 × rate`` (real time)."""

    def __init__(self, rate: float) -> None:
        self._rate = rate
        self._capacity = 2 * rate
        self._tokens = self._capacity
        self._last = time.monotonic()

    def allow(self) -> bool:
        """Return whether one more frame may pass now (and count it)."""
        now = time.monotonic()
        self._tokens = min(self._capacity, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True
