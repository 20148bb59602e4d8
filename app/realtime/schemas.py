"""Pydantic models of every websocket frame (docs/protocol.md "Websocket").

Inbound frames forbid extra keys, so no frame can name a seat: the seat comes only from the
token given in ``hello``. Outbound frames are built through their models (``frame``).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool
from pydantic_core import PydanticCustomError

from app.text import has_visible


class Inbound(BaseModel):
    """Base of client → server frames: unknown keys are refused (``bad_frame``)."""

    model_config = ConfigDict(extra="forbid")


class Hello(Inbound):
    """``{"type":"hello","token":str|null,"patches":bool?}`` — the first frame; a seated token
    acts for its seat. ``patches`` (a JSON boolean, default false) asks for numbered, patched
    ``update`` frames (docs/protocol.md "Patched updates")."""

    type: Literal["hello"]
    token: str | None = None
    patches: StrictBool = False


class Act(Inbound):
    """``{"type":"act","prompt":str,"action":{...}}`` — answer the seat's current prompt."""

    type: Literal["act"]
    prompt: str | None = None
    action: dict[str, Any]


#: Bidi embedding/override/isolate controls and marks removed from chat text (they can reverse
#: how the rest of a line, or the next line, reads).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")


def clean_chat(text: str) -> str:
    """Return ``text`` without control characters (Unicode ``Cc``, newlines included) and bidi
    controls (``BIDI_CONTROLS``); ``PydanticCustomError`` ``blank_chat`` (→ ``bad_frame``) when
    no character that shows is left (``app.text.has_visible``: a line of zero-width spaces or
    blank fillers is blank too).
    Source: docs/security.md (chat spoofing)."""
    kept = "".join(ch for ch in text
                   if ch not in BIDI_CONTROLS and unicodedata.category(ch) != "Cc")
    if not has_visible(kept):
        raise PydanticCustomError("blank_chat", "A chat line needs at least one visible character.")
    return kept


class Chat(Inbound):
    """``{"type":"chat","text":str,"team":bool?}`` — ``team`` reaches only the sender's side.

    ``text`` is cleaned by ``clean_chat``; ``team`` must be a JSON boolean (``"yes"`` is a
    ``bad_frame``)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1), AfterValidator(clean_chat)]
    team: StrictBool = False


class Ping(Inbound):
    """``{"type":"ping"}`` — answered by ``pong``."""

    type: Literal["ping"]


class Sync(Inbound):
    """``{"type":"sync"}`` — from a socket that asked for patches: answered by a full ``update``
    (its next ``seq``); sent when a frame's ``seq`` is not the last one + 1 or a patch does not
    apply."""

    type: Literal["sync"]


INBOUND: dict[str, type[Inbound]] = {"hello": Hello, "act": Act, "chat": Chat, "ping": Ping,
                                     "sync": Sync}


class Outbound(BaseModel):
    """Base of server → client frames."""


class Welcome(Outbound):
    """Sent once after ``hello``: the seat (``null`` = spectator), room and current render."""

    type: Literal["welcome"] = "welcome"
    seat: int | None
    room: dict[str, Any]
    version: int
    view: dict[str, Any] | None
    prompt: str | None
    legal: list[dict[str, Any]]
    deadline: float | None
    clocks: dict[str, float]


class Update(Outbound):
    """Sent after every applied action: the viewer's render and the events it may see."""

    type: Literal["update"] = "update"
    version: int
    view: dict[str, Any] | None
    prompt: str | None
    legal: list[dict[str, Any]]
    deadline: float | None
    clocks: dict[str, float]
    events: list[dict[str, Any]]
    room: dict[str, Any]


class RoomFrame(Outbound):
    """Sent when seats change before the start."""

    type: Literal["room"] = "room"
    room: dict[str, Any]


class ErrorFrame(Outbound):
    """A refused frame: a stable ``code`` and an English ``message``."""

    type: Literal["error"] = "error"
    code: str
    message: str


class ChatFrame(Outbound):
    """A chat line: ``id`` names it (opaque; the same line in a ``chat_history`` has the same
    id), ``seat`` is ``null`` for a spectator, ``team`` marks a line to the sender's side only,
    ``at`` is unix seconds. A ``chat_history`` frame lists earlier ones
    (``app.realtime.chat_log.history_text``)."""

    type: Literal["chat"] = "chat"
    id: str
    seat: int | None
    name: str
    text: str
    team: bool
    at: float


class Presence(Outbound):
    """Who is connected to this room (summed over the server processes): seats online,
    spectator count."""

    type: Literal["presence"] = "presence"
    online: list[int]
    spectators: int


class Pong(Outbound):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"


def frame(model: Outbound) -> dict[str, Any]:
    """Return an outbound frame as a JSON-ready dict."""
    return model.model_dump()
