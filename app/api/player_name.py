"""The player name accepted by the API (``POST /api/players``, a claim's new name).

A name is 1–32 characters as sent; surrounding whitespace is stripped before it is stored; what is
left must hold at least one visible character and no control character (Unicode ``Cc``:
U+0000–U+001F, U+007F–U+009F). ``NAME_PATTERN`` says the same in the OpenAPI schema, so a client
(or schemathesis) can tell a valid name before sending it; ``visible_name`` enforces it with a
message a player can read (422 ``validation_error``, e.g. ``body.name: A name needs at least one
visible character.``).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

#: Longest name as sent (characters).
NAME_MAX = 32
#: Control characters (Unicode category Cc) as a regex class body.
_CONTROL = r"\x00-\x1f\x7f-\x9f"
#: No control character anywhere, and at least one character that is not whitespace.
NAME_PATTERN = rf"^[^{_CONTROL}]*[^\s{_CONTROL}][^{_CONTROL}]*$"


def visible_name(value: str) -> str:
    """Return ``value`` stripped of surrounding whitespace.

    Raises:
        PydanticCustomError: ``control_character`` when ``value`` holds a control character;
            ``blank_name`` when nothing but whitespace is left (both become 422
            ``validation_error`` answers carrying the message).
    """
    if any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in value):
        raise PydanticCustomError("control_character",
                                  "A name may not contain control characters.")
    stripped = value.strip()
    if not stripped:
        raise PydanticCustomError("blank_name", "A name needs at least one visible character.")
    return stripped


#: The name field: schema ``{type: string, minLength: 1, maxLength: 32, pattern: NAME_PATTERN}``.
PlayerName = Annotated[str, Field(min_length=1, max_length=NAME_MAX,
                                  json_schema_extra={"pattern": NAME_PATTERN}),
                       AfterValidator(visible_name)]
