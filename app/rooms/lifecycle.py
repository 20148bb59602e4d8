"""The room (and match) status machine: open → playing → finished, or → abandoned; a finished
room goes back to playing for a rematch.

ARCHITECTURE.md "Room lifecycle": every transition is explicit and raises on an illegal one.
"""

from __future__ import annotations

from enum import Enum

from app.rooms.errors import RoomError


class RoomStatus(str, Enum):
    """A room's status; a match uses the same names from ``playing`` on."""

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


TRANSITIONS: dict[RoomStatus, frozenset[RoomStatus]] = {
    RoomStatus.OPEN: frozenset({RoomStatus.PLAYING, RoomStatus.ABANDONED}),
    RoomStatus.PLAYING: frozenset({RoomStatus.FINISHED, RoomStatus.ABANDONED}),
    # "play again": a rematch opens a new match in the same room (ARCHITECTURE.md "Room
    # lifecycle"; app.rooms.management). A match itself never restarts.
    RoomStatus.FINISHED: frozenset({RoomStatus.PLAYING}),
    RoomStatus.ABANDONED: frozenset(),
}


class IllegalTransition(RuntimeError):
    """Raised for a status change the lifecycle does not allow (a programming error)."""


def transition(current: str | RoomStatus, target: RoomStatus) -> RoomStatus:
    """Return ``target`` if ``current → target`` is allowed.

    Raises:
        IllegalTransition: e.g. ``finished → playing`` or ``open → finished``.
        ValueError: ``current`` is not a status name.
    """
    status = RoomStatus(current)
    if target not in TRANSITIONS[status]:
        raise IllegalTransition(f"A room cannot go from {status.value} to {target.value}.")
    return target


def check_seats_open(status: str | RoomStatus) -> None:
    """Check that the seats of a room in ``status`` may still be left: only while it is open
    (a room's seats are its match's from the start on).

    Raises:
        RoomError: ``room_not_open`` (409) while its match is played ("The match has already
            started.") or once the room was abandoned; ``match_ended`` (409) once its match is
            over (a finished room).
    """
    status = RoomStatus(status)
    if status is RoomStatus.PLAYING:
        raise RoomError("room_not_open", "The match has already started.")
    if status is RoomStatus.FINISHED:
        raise RoomError("match_ended", "The match has ended.")
    if status is not RoomStatus.OPEN:
        raise RoomError("room_not_open", "The room is not open any more.")
