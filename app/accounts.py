"""Lasting identity: a guest claims its profile with a password and logs in
from another browser, keeping its id — so its ratings and history.

Passwords are hashed with argon2id (``argon2-cffi``'s ``PasswordHasher`` defaults) in a worker
thread (hashing is deliberately slow). The login is the profile's name, case-folded
(``players.login``, unique among claimed profiles). A log-in gets a new bearer token of its own
(``player_tokens``), so the first browser stays logged in too.
"""

from __future__ import annotations

import asyncio
import unicodedata
from datetime import datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.auth import hash_token, new_token
from app.db import repositories as repo
from app.db.models import Player
from app.rooms.errors import RoomError

PASSWORD_MIN, PASSWORD_MAX = 8, 128
HASHER = PasswordHasher()
#: Verified when the login is unknown, so a wrong name takes as long as a wrong password.
_DUMMY_HASH = HASHER.hash("not the password of anyone")


def login_of(name: str) -> str:
    """Return the login a name claims: NFKC-normalised, stripped and case-folded (``"Ａｎｎ "``
    → ``"ann"``), so look-alike full-width or compatibility forms cannot save a second profile
    under a taken name (docs/security.md)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).strip().casefold())


def check_password(password: str) -> None:
    """Raise unless ``password`` has ``PASSWORD_MIN``..``PASSWORD_MAX`` characters.

    Raises:
        RoomError: ``bad_password`` (422).
    """
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise RoomError("bad_password", f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} "
                                        "characters.", 422)


def secret_bytes(password: str) -> bytes:
    """Return the bytes a password is hashed as: UTF-8 (a lone surrogate passes through)."""
    return password.encode("utf-8", "surrogatepass")


def hash_password(password: str) -> str:
    """Return the argon2id hash (PHC string) of ``password``."""
    return HASHER.hash(secret_bytes(password))


def verify(password_hash: str, password: str) -> bool:
    """Return whether ``password`` matches the argon2 ``password_hash`` (never raises)."""
    try:
        return HASHER.verify(password_hash, secret_bytes(password))
    except (VerificationError, InvalidHashError):
        return False


async def claim(sessions: async_sessionmaker, player: Player, password: str,
                name: str | None = None) -> dict:
    """Give ``player`` a password (and optionally a new ``name``, which becomes the login).

    Returns ``{"id", "name", "claimed": True}``.

    Raises:
        RoomError: ``bad_password`` (422); ``already_claimed`` (409) for a profile that has a
            password; ``name_taken`` (409) when another claimed profile has that login.
    """
    check_password(password)
    if player.password_hash is not None:
        raise RoomError("already_claimed", "This profile already has a password.")
    name = (name or player.name).strip()
    password_hash = await asyncio.to_thread(hash_password, password)
    try:
        async with sessions() as session, session.begin():
            if await repo.player_by_login(session, login_of(name)) is not None:
                raise RoomError("name_taken", "Another saved profile has that name; pick another.")
            await repo.set_player_password(session, player.id, login_of(name), password_hash)
            await repo.rename_player(session, player.id, name)
    except IntegrityError as exc:  # claimed by someone else at the same moment
        raise RoomError("name_taken", "Another saved profile has that name; pick another.") from exc
    return {"id": player.id, "name": name, "claimed": True}


async def login(sessions: async_sessionmaker, name: str, password: str,
                now: datetime) -> dict:
    """Log in to a claimed profile; return ``{"id", "name", "token"}`` with a new token.

    Raises:
        RoomError: ``bad_login`` (401) for an unknown name or a wrong password (one code for
            both, so names cannot be probed).
    """
    async with sessions() as session:
        player = await repo.player_by_login(session, login_of(name))
    stored = player.password_hash if player is not None else None
    ok = await asyncio.to_thread(verify, stored or _DUMMY_HASH, password)
    if player is None or stored is None or not ok:
        raise RoomError("bad_login", "Wrong name or password.", 401)
    token = new_token()
    async with sessions() as session, session.begin():
        await repo.add_player_token(session, player.id, hash_token(token), now)
    return {"id": player.id, "name": player.name, "token": token}
