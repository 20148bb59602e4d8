"""Player tokens: creation, hashing, lookup (docs/protocol.md "Identity").

A token is 256 random bits (url-safe text); the server stores only its SHA-256 hex.
"""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.db import repositories as repo
from app.db.models import Player


def new_token() -> str:
    """Return a fresh bearer token (32 random bytes, url-safe base64)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Return the SHA-256 hex of ``token`` (what ``players.token_hash`` holds).

    A lone surrogate (``"\\ud800"`` in a JSON frame) is encoded with ``surrogatepass`` instead
    of raising ``UnicodeEncodeError``: such a token matches no issued (ASCII) token, so it is
    treated like any unknown token (docs/security.md).
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


async def player_for_token(sessions: async_sessionmaker, token: str | None) -> Player | None:
    """Return the player holding ``token``, or ``None`` (no token, or unknown)."""
    if not token:
        return None
    async with sessions() as session:
        return await repo.player_by_token_hash(session, hash_token(token))
