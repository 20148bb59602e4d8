"""Room codes: the share link's key (docs/protocol.md ``Room.code``).

A public room is listed in the lobby, so its code only needs to be short and unique: 6 random
bytes (48 bits, 8 url-safe characters). A private room is reachable only by its link, so its
code is the secret: 12 random bytes (96 bits ≥ 64, 16 url-safe characters, the column's width).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from app.rooms.errors import RoomError

PUBLIC_CODE_BYTES = 6
PRIVATE_CODE_BYTES = 12
#: How many fresh codes ``unused_code`` draws before it gives up.
CODE_TRIES = 5


def room_code(private: bool) -> str:
    """Return a fresh random room code: 8 characters (48 bits) for a public room, 16
    characters (96 bits) for a private one (url-safe base64 from ``secrets``)."""
    return secrets.token_urlsafe(PRIVATE_CODE_BYTES if private else PUBLIC_CODE_BYTES)


async def unused_code(private: bool, taken: Callable[[str], Awaitable[bool]],
                      draw: Callable[[bool], str] | None = None, tries: int = CODE_TRIES) -> str:
    """Return a code from ``draw(private)`` (default ``room_code``) that ``await taken(code)``
    says no room has.

    Raises:
        RoomError: ``no_free_code`` (503) when ``tries`` codes in a row were taken (with 48
            random bits that means something is wrong: a broken random source, a full table).
    """
    draw = draw or room_code
    for _ in range(tries):
        code = draw(private)
        if not await taken(code):
            return code
    raise RoomError("no_free_code", f"No unused room code in {tries} tries; try again.", 503)
