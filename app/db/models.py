"""SQLAlchemy 2.0 models of every table (Alembic migrations ``0001_initial`` … create them).

Times are timezone-aware UTC datetimes (``UTCDateTime`` keeps them aware on SQLite too);
clock deadlines are unix seconds (floats) in ``matches.deadlines``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator):
    """A ``DateTime(timezone=True)`` that always returns aware UTC datetimes (SQLite drops tz)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    """Declarative base with a stable constraint naming convention (for migrations)."""

    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    """A player identity: a display name and the SHA-256 hex of its bearer token."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    #: set for a bot player; a match with a bot seat is not rated (migration 0002).
    bot: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    #: a bot player's level (``engine.bots.LEVELS``: how it plays), ``None`` for a person
    #: (migration 0004).
    bot_level: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)
    #: a claimed profile's login (its name, case-folded; unique) and argon2 password hash
    #: (``app.rooms.accounts``, migration 0003); ``None`` for a guest.
    login: Mapped[str | None] = mapped_column(String(32), unique=True, nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)


class Room(Base):
    """A room: a game with options, seats to fill, and a status (see ``app.rooms.lifecycle``)."""

    __tablename__ = "rooms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    creator_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    #: room management (``app.rooms.management``, migration 0003): a private room is never
    #: listed; ``on_timeouts`` is what happens to a seat after three timeouts in a row
    #: (``"bot"`` or ``"forfeit"``); ``active_at`` is the last seat change (idle rooms close);
    #: ``rematch`` lists the seats that asked to play again after the newest match.
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    on_timeouts: Mapped[str] = mapped_column(String(8), default="bot", server_default="bot")
    active_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    rematch: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)


class PlayerToken(Base):
    """A further bearer token of a player (a log-in from another browser), SHA-256 hex."""

    __tablename__ = "player_tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RoomSeat(Base):
    """A claimed seat of a room (a free seat has no row)."""

    __tablename__ = "room_seats"
    __table_args__ = (UniqueConstraint("room_id", "player_id", name="uq_room_seats_room_player"),)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))


class Match(Base):
    """One match of a room: the secret seed, its public commitment, status, outcome, clocks.

    ``deadlines`` maps a seat (as a string key) to the unix second its clock runs out.
    """

    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed_commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadlines: Mapped[dict[str, float]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class MatchSeat(Base):
    """Who sat in which seat when a match started (never rewritten: a seat taken over later
    keeps its first player here, the one who took over is in ``match_takeovers``)."""

    __tablename__ = "match_seats"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)


class MatchTakeover(Base):
    """A seat of a match taken over while it was played (``app.rooms.takeover``: a bot replaces
    a seat that keeps timing out): ``player_id`` plays the seat from action ``from_step``
    (``match_actions.seq``) on, the ``match_seats`` player the actions before (migration 0005).

    At most one per seat (the key): a bot that took a seat over keeps it to the end.
    """

    __tablename__ = "match_takeovers"
    __table_args__ = (ForeignKeyConstraint(["match_id", "seat"],
                                           ["match_seats.match_id", "match_seats.seat"],
                                           ondelete="CASCADE"),)
    match_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    from_step: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)


class MatchAction(Base):
    """One applied action; ``seq`` is 1-based and unique per match (the database orders actions).

    ``timeout`` marks an action the clock played (``GAME.deadline_action``). ``forfeit`` marks
    a ``{"type": "resign"}`` the room played for a seat under its ``on_timeouts: "forfeit"``
    rule (``app.rooms.takeover``): ``{"reason": "timeouts", "timeouts": n}``, the seat's clock
    having played its last ``n`` decisions in a row; ``NULL`` for every other action
    (migration 0006). The engine never reads it: the action replays as any resign.
    """

    __tablename__ = "match_actions"
    __table_args__ = (UniqueConstraint("match_id", "seq", name="uq_match_actions_match_seq"),
                      Index("ix_match_actions_forfeit", "match_id",
                            sqlite_where=text("forfeit IS NOT NULL"),
                            postgresql_where=text("forfeit IS NOT NULL")))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    timeout: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    forfeit: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True),
                                                           nullable=True, default=None)


class RcSet(Base):
    """One resolved Reverse Curse set (the ladder): field T1 first, result, position after."""

    __tablename__ = "rc_sets"
    __table_args__ = (UniqueConstraint("match_id", "set_no", name="uq_rc_sets_match_set"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    set_no: Mapped[int] = mapped_column(Integer)
    first_side: Mapped[str] = mapped_column(String(4))
    field: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    result: Mapped[int] = mapped_column(Integer)
    position_after: Mapped[int] = mapped_column(Integer)


class Rating(Base):
    """A player's openskill rating in one game (``app.rooms.ratings``): ``mu``, ``sigma``,
    rated matches, wins, and (Reverse Curse) wins by KO."""

    __tablename__ = "ratings"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    kos: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


Index("ix_matches_started", Match.started_at)
Index("ix_ratings_game", Rating.game)
