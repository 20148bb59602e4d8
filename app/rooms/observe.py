"""What the room service tells observers (metrics, logs) about each action it stored.

Each observer given to ``RoomService.observe`` gets an ``Applied`` after the action was stored
and published by this process (another process's actions are reported there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Applied:
    """One action this process stored (``match_actions`` row ``(match_id, version)``).

    Attributes:
        game: the engine id; code: the room code; match_id: the match.
        version: the seq it was stored at (the match's version after it).
        seat: who played it; timeout: whether the clock played it (``deadline_action``);
        forfeit: whether the room resigned the seat (a seat that kept timing out).
        seconds: wall-clock seconds from the ``act`` call to the publish (``None`` for a clock).
    """

    game: str
    code: str
    match_id: int
    version: int
    seat: int
    timeout: bool
    forfeit: bool
    seconds: float | None


Observer = Callable[[Applied], None]
