"""The player name accepted by the API (``POST /api/players``, a claim's new name).

A name is 1–32 characters as sent; it is NFKC-normalised and surrounding whitespace is stripped
before it is stored; what is left must hold at least one visible character, no control character
(Unicode ``Cc``), no other character that shows nothing (``app.text.refused_char``: format
characters — zero-width and bidi controls —, private use, unassigned, separators, the blank
fillers), and must not be a
bot's display name (``BOT_DISPLAY_NAMES``, case-insensitively) so nobody can pass for a bot
(docs/security.md). ``NAME_PATTERN`` says the same about characters in the OpenAPI schema (Python
``re`` syntax), so a client (or schemathesis) can tell a valid name before sending it;
``visible_name`` enforces it with a message a player can read (422 ``validation_error``, e.g.
``body.name: A name needs at least one visible character.``); the frontend shows each of these
messages in the page's language by its exact text (``frontend/js/identity.js``
``NAME_REFUSALS``), so a changed message needs a changed entry there.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from app.text import refused_char

#: Longest name as sent (characters).
NAME_MAX = 32
#: The bots' display names in every locale (frontend/i18n ``bots.name.*``; app.rooms.bots),
#: case-folded.
BOT_DISPLAY_NAMES = frozenset(name.casefold() for name in (
    "Easy bot", "Normal bot", "Hard bot", "Expert bot",
    "简单电脑", "普通电脑", "困难电脑", "专家电脑",
    "やさしいCPU", "ふつうCPU", "むずかしいCPU", "エキスパートCPU"))


def _refused_ranges() -> list[tuple[int, int]]:
    """Return the refused code points as sorted inclusive ``(first, last)`` ranges."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x110000):
        if refused_char(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return ranges


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


#: The refused characters as a regex class body (Python ``re`` escapes).
_REFUSED = "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}"
                   for a, b in _refused_ranges())
#: No refused character anywhere, and at least one character that is not whitespace.
NAME_PATTERN = rf"^[^{_REFUSED}]*[^\s{_REFUSED}][^{_REFUSED}]*$"


def visible_name(value: str) -> str:
    """Return ``value`` NFKC-normalised and stripped of surrounding whitespace.

    Raises:
        PydanticCustomError: ``control_character`` when ``value`` holds a control character
            (``Cc``); ``invisible_character`` when it holds another refused character
            (``refused_char``); ``blank_name`` when nothing but whitespace is
            left; ``name_normal_form`` when the NFKC form is longer than ``NAME_MAX`` or holds a
            refused character; ``bot_name`` when it equals a bot's display name, case-insensitively (all
            become 422 ``validation_error`` answers carrying the message).
    """
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise PydanticCustomError("control_character",
                                  "A name may not contain control characters.")
    if any(refused_char(ch) for ch in value):
        raise PydanticCustomError("invisible_character",
                                  "A name may not contain invisible or format characters.")
    stripped = unicodedata.normalize("NFKC", value).strip()
    if any(refused_char(ch) for ch in stripped) or len(stripped) > NAME_MAX:
        raise PydanticCustomError("name_normal_form",
                                  "This name changes into an invalid one when normalised (NFKC).")
    if not stripped:
        raise PydanticCustomError("blank_name", "A name needs at least one visible character.")
    if stripped.casefold() in BOT_DISPLAY_NAMES:
        raise PydanticCustomError("bot_name", "That name belongs to the computer players.")
    return stripped


#: The name field: schema ``{type: string, minLength: 1, maxLength: 32, pattern: NAME_PATTERN}``.
PlayerName = Annotated[str, Field(min_length=1, max_length=NAME_MAX,
                                  json_schema_extra={"pattern": NAME_PATTERN}),
                       AfterValidator(visible_name)]
