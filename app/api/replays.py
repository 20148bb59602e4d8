"""Replays: ``GET /api/matches/{id}/replay`` (the page ``/replay/{id}`` is ``app.api.pages``).

Only a finished match has a replay (its seed is public then: ARCHITECTURE.md "Fairness"); the
views come from the engine replaying the log (``app.rooms.replay``), through the room service's
catalog (the only way into ``engine``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.account_schemas import FinalViewOut, ReplayOut
from app.api.deps import ServiceDep, SessionDep
from app.api.errors import ERRORS
from app.api.json_body import JsonRoute
from app.api.matches import find_match, player_at, summaries
from app.api.params import IN_DIGITS, IdPath
from app.db import repositories as repo
from app.db.models import Match
from app.rooms.errors import RoomError
from app.rooms.replay import replay_steps

router = APIRouter(route_class=JsonRoute, tags=["replays"])


async def _finished(session: AsyncSession, match_id: int) -> Match:
    """Return the finished match row.

    Raises:
        RoomError: ``match_not_found`` (404); ``match_not_finished`` (409) while it is played
            or when it was abandoned.
    """
    match = await find_match(session, match_id)
    if match.status != "finished":
        raise RoomError("match_not_finished", "A replay opens once the match is over.")
    return match


@router.get("/api/matches/{match_id}/replay", response_model=ReplayOut, responses=ERRORS)
async def get_replay(match_id: IdPath, session: SessionDep, service: ServiceDep,
                     viewer: Annotated[int | None, Query(ge=0, le=63), IN_DIGITS] = None
                     ) -> dict:
    """Return the finished match (``MatchSummary`` + ``seed``) and its ``steps``: the view of
    ``viewer`` (a seat; omitted = the spectator's) after every action, the deal first; each
    step names who played its action (``player_id``: the seat's occupant at that step,
    ``player_at``; ``null`` for the deal).

    Raises:
        RoomError: ``match_not_found`` (404), ``no_such_seat`` (404) for a viewer that is not a
            seat, ``match_not_finished`` (409) while it is played or when it was abandoned.
    """
    match = await _finished(session, match_id)
    summary = (await summaries(session, [match], service.catalog))[0]
    if viewer is not None and not 0 <= viewer < len(summary["seats"]):
        raise RoomError("no_such_seat", f"The match has no seat {viewer}.", 404)
    actions = await repo.match_actions(session, match_id)
    steps = replay_steps(service.catalog.game(match.game), match.id, match.options,
                         len(summary["seats"]), bytes.fromhex(match.seed), actions, viewer)
    seats = {seat["seat"]: seat for seat in summary["seats"]}
    for step in steps:
        step["player_id"] = (None if step["seat"] is None
                             else player_at(seats[step["seat"]], step["step"]))
    return {**summary, "seed": match.seed, "viewer": viewer, "steps": steps}


@router.get("/api/matches/{match_id}/final", response_model=FinalViewOut, responses=ERRORS)
async def get_final_view(match_id: IdPath, session: SessionDep, service: ServiceDep) -> dict:
    """Return ``{match_id, view}``: the spectator's view after the finished match's last action
    (the last step of its replay, without the others), e.g. for the match page's mahjong
    score sheets.

    Raises:
        RoomError: ``match_not_found`` (404), ``match_not_finished`` (409).
    """
    match = await _finished(session, match_id)
    seats = len((await summaries(session, [match], service.catalog))[0]["seats"])
    actions = await repo.match_actions(session, match_id)
    steps = replay_steps(service.catalog.game(match.game), match.id, match.options, seats,
                         bytes.fromhex(match.seed), actions, None)
    return {"match_id": match.id, "view": steps[-1]["view"]}

