"""Validation of inbound websocket frames, before anything reaches a room.

Order of checks (docs/protocol.md error codes): size (``frame_too_large``), JSON (``bad_json``),
nesting depth (``bad_frame``), an object with a string ``type`` (``bad_frame``), a known type
(``unknown_type``), the type's schema (``bad_frame``), chat length (``chat_too_long``).
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


def json_depth(text: str) -> int:
    """Return the deepest nesting of ``[``/``{`` in JSON ``text`` (brackets in strings skipped).

    Counted on the text, before parsing, so a deeply nested frame never reaches the recursive
    JSON parser (which would raise ``RecursionError`` past about a thousand levels).
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _may_nest_deeper(text: str, depth: int) -> bool:
    """Return whether ``text`` has more than ``depth`` opening brackets (counted by the C string
    methods): else it cannot nest deeper, and the character loop of ``json_depth`` is skipped
    (an ``act`` frame has about 3; bench/HISTORY.md section 3)."""
    return text.count("[") + text.count("{") > depth


def parse_frame(text: str, max_bytes: int, chat_max: int, max_depth: int = 16) -> Inbound:
    """Return the validated frame model of ``text``.

    Args:
        text: the frame as received; max_bytes: the size limit in UTF-8 bytes;
        chat_max: the longest chat text in characters; max_depth: the deepest nesting of
        arrays and objects allowed (the frame itself is depth 1).

    Raises:
        FrameError: ``frame_too_large``, ``bad_json``, ``bad_frame``, ``unknown_type`` or
            ``chat_too_long``.
    """
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise FrameError("frame_too_large", f"A frame may be at most {max_bytes} bytes.")
    if _may_nest_deeper(text, max_depth) and json_depth(text) > max_depth:
        raise FrameError("bad_frame", f"A frame may nest arrays and objects at most {max_depth} "
                                      "deep.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
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
        message = f"Bad {data['type']} frame: {where}: {first['msg'].rstrip('.')}."
        raise FrameError("bad_frame", message) from exc
    if isinstance(parsed, Chat) and len(parsed.text) > chat_max:
        raise FrameError("chat_too_long", f"A chat message may be at most {chat_max} characters.")
    return parsed


class RateLimiter:
    """A token bucket: ``rate`` frames per second, bursts of ``2 × rate`` (real time)."""

    __slots__ = ("_rate", "_capacity", "_tokens", "_last")

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


class FloodGuard:
    """The per-socket inbound budget: a ``RateLimiter`` plus a pile of refused frames.

    Every refused frame adds one to the pile, which drains at ``rate`` frames per second; when
    the pile passes ``close_after`` the socket is flooding and must be closed (1008). A client
    that only bursts now and then gets ``rate_limited`` errors and stays connected.
    """

    PASS, REFUSE, CLOSE = "pass", "refuse", "close"
    __slots__ = ("_limiter", "_rate", "_close_after", "_pile", "_last")

    def __init__(self, rate: float, close_after: int) -> None:
        self._limiter = RateLimiter(rate)
        self._rate, self._close_after = rate, close_after
        self._pile = 0.0
        self._last = time.monotonic()

    def check(self) -> str:
        """Return ``PASS``, ``REFUSE`` (send ``rate_limited``) or ``CLOSE`` for one more frame."""
        if self._limiter.allow():
            return self.PASS
        now = time.monotonic()
        self._pile = max(0.0, self._pile - (now - self._last) * self._rate) + 1
        self._last = now
        return self.CLOSE if self._pile > self._close_after else self.REFUSE
