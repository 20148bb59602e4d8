"""Response models of the leaderboards and player profiles."""

from __future__ import annotations

from pydantic import BaseModel

from app.api.schemas import MatchSummary, PlayerOut


class RatingOut(BaseModel):
    """A player's rating in one game: ``rating`` is the conservative ordinal mu - 3 sigma;
    ``kos`` counts wins by KO (Reverse Curse; 0 in other games)."""

    game: str
    rating: float
    mu: float
    sigma: float
    matches: int
    wins: int
    kos: int


class LeaderboardRow(RatingOut):
    """One leaderboard line: 1-based ``rank`` and the player."""

    rank: int
    player: PlayerOut


class LeaderboardOut(BaseModel):
    """``GET /api/ladders/{game}``: players by rating, best first."""

    game: str
    players: list[LeaderboardRow]


class PlayerProfile(PlayerOut):
    """``GET /api/players/{id}``: ``{id, name}`` plus each game's rating and recent matches."""

    ratings: list[RatingOut] = []
    recent_matches: list[MatchSummary] = []
