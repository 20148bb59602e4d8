"""Room codes: the share link's key (docs/protocol.md ``Room.code``; issue 11 part 4).

A public room is listed in the lobby, so its code only needs to be short and unique: 6 random
bytes (48 bits, 8 url-safe characters). A private room is reachable only by its link, so its
code is the secret: 12 random bytes (96 bits ≥ 64, 16 url-safe characters, the column's width).
"""

from __future__ import annotations

import secrets

PUBLIC_CODE_BYTES = 6
PRIVATE_CODE_BYTES = 12


def room_code(private: bool) -> str:
    """Return a fresh random room code: 8 characters (48 bits) for a public room, 16
    characters (96 bits) for a private one (url-safe base64 from ``secrets``)."""
    return secrets.token_urlsafe(PRIVATE_CODE_BYTES if private else PUBLIC_CODE_BYTES)
