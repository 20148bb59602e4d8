"""Request and response models of accounts, "my games", replays."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.api.player_name import PlayerName
from app.api.schemas import BodyIn, MatchSummary


class ClaimIn(BodyIn):
    """``POST /api/players/{id}/claim``: a password (8–128 characters), optionally a new name
    (the login; unique among saved profiles)."""

    password: str = Field(min_length=8, max_length=128)
    name: PlayerName | None = None


class LoginIn(BodyIn):
    """``POST /api/login``: a saved profile's name (any case) and its password."""

    name: str = Field(min_length=1, max_length=32)
    password: str = Field(max_length=128)


class AccountOut(BaseModel):
    """The caller's own profile: whether it is saved with a password (``claimed``)."""

    id: int
    name: str
    claimed: bool


class ReplayStep(BaseModel):
    """One step of a replay: the position after action ``step`` (0 = the deal)."""

    step: int
    seat: int | None
    player_id: int | None = Field(
        description="Who played the step's action: the seat's occupant at this step "
                    "(``MatchSeatOut.occupants``); null for step 0, the deal.")
    action: dict[str, Any] | None
    timeout: bool
    forfeit: dict[str, Any] | None = Field(
        description="``{reason, timeouts}`` when the room resigned the seat (its action is "
                    "``{\"type\": \"resign\"}``; ``MatchSummary.forfeit``), else null.")
    events: list[dict[str, Any]]
    view: dict[str, Any]


class FinalViewOut(BaseModel):
    """``GET /api/matches/{id}/final``: the spectator's view of a finished match's last
    position (every hand revealed: a game's score sheets, its outcome)."""

    match_id: int
    view: dict[str, Any]


class ReplayOut(MatchSummary):
    """``GET /api/matches/{id}/replay``: the finished match and every step's view for
    ``viewer`` (``null`` = spectator; a seat = that player's view, hand included)."""

    seed: str
    viewer: int | None
    steps: list[ReplayStep]
