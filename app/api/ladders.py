"""``GET /api/ladders/{game}``: the leaderboard of a game; ``profile`` for ``/api/players/{id}``.

Ratings are openskill Plackett-Luce (``app.rooms.ratings``), one per player and game.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import ServiceDep, SessionDep
from app.api.errors import ERRORS
from app.api.games import check_hosted
from app.api.json_body import JsonRoute
from app.api.ladder_schemas import LeaderboardOut
from app.api.matches import summaries
from app.api.params import IN_DIGITS
from app.db import ratings_repo
from app.db import repositories as repo
from app.db.models import Player, Rating
from app.rooms.catalog import Catalog
from app.rooms.ratings import ordinal

router = APIRouter(route_class=JsonRoute, prefix="/api/ladders", tags=["ladders"], responses=ERRORS)

RECENT_MATCHES = 10  # how many matches a player profile lists, newest first


def rating_json(row: Rating) -> dict[str, Any]:
    """Return a ``RatingOut`` dict of a ratings row."""
    return {"game": row.game, "rating": ordinal(row.mu, row.sigma), "mu": row.mu,
            "sigma": row.sigma, "matches": row.matches, "wins": row.wins, "kos": row.kos or 0}


@router.get("/{game}", response_model=LeaderboardOut)
async def get_leaderboard(game: str, session: SessionDep, service: ServiceDep,
                          limit: Annotated[int, Query(ge=1, le=200), IN_DIGITS] = 50,
                          offset: Annotated[int, Query(ge=0, le=repo.MAX_ID), IN_DIGITS] = 0
                          ) -> dict:
    """Return ``{game, players: [{rank, player: {id, name}, rating, mu, sigma, matches, wins,
    kos}]}`` best rating first (equal ratings share a rank: 1, 1, 3); 404 ``unknown_game`` (the path names no hosted game); 422 for
    ``offset`` outside 0 … 2^31-1 (an unbounded one overflowed the database integer: 500)."""
    check_hosted(service.catalog, game)
    rows = await ratings_repo.leaderboard(session, game, limit, offset)
    return {"game": game, "players": [
        {"rank": rank, "player": {"id": row.player_id, "name": name},
         **rating_json(row)} for row, name, rank in rows]}


async def profile(session, player: Player, catalog: Catalog) -> dict[str, Any]:
    """Return a ``PlayerProfile`` dict: id, name, ratings by game, the newest matches (their
    ``teams`` from ``catalog``)."""
    ratings = await ratings_repo.player_ratings(session, player.id)
    matches = await repo.list_matches(session, game=None, player=player.id, status=None,
                                      before_id=None, limit=RECENT_MATCHES)
    return {"id": player.id, "name": player.name,
            "ratings": [rating_json(row) for row in ratings],
            "recent_matches": await summaries(session, matches, catalog)}
