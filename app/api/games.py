"""``GET /api/games``: the catalog (asked of the room service, the only engine importer)."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import ServiceDep
from app.api.schemas import GameOut

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("", response_model=list[GameOut], response_model_exclude_unset=True)
async def list_games(service: ServiceDep) -> list[dict]:
    """Return every hosted game's spec: ids, titles, player counts, option schema."""
    return service.catalog.specs()
