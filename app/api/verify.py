"""``GET /api/matches/{id}/verify``: replay a finished match on the server.

The answer is what ``python -m tools.verify MATCH.json`` prints, as JSON: the commitment, the
deal from the revealed seed, every logged action and the outcome are checked. It is a
convenience for the match page; a player who does not trust the server runs the command line on
the exported ``GET /api/matches/{id}`` instead (docs/security.md).
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import ServiceDep, SessionDep
from app.api.errors import ERRORS
from app.api.json_body import JsonRoute
from app.api.matches import get_match
from app.api.params import IdPath
from app.rooms.errors import RoomError
from app.rooms.verify import verify_detail

router = APIRouter(route_class=JsonRoute, prefix="/api/matches", tags=["matches"], responses=ERRORS)


class VerifyOut(BaseModel):
    """The replay check of one match.

    ``checks`` are the passed checks in order; ``failure`` the first failed one (``null`` when
    ``ok``); ``actions`` how many logged actions replayed.
    """

    match_id: int
    ok: bool
    checks: list[str]
    failure: str | None
    actions: int


@router.get("/{match_id}/verify", response_model=VerifyOut)
async def verify_match_route(match_id: IdPath, session: SessionDep,
                             service: ServiceDep) -> dict:
    """Replay match ``match_id`` from its revealed seed and compare with what was recorded.

    Raises:
        RoomError: ``match_not_found`` (404); ``match_not_finished`` (409) while the seed and
            the log are still secret.
    """
    detail = await get_match(match_id, session, service)
    if detail["status"] != "finished":
        raise RoomError("match_not_finished",
                        "The seed and the log are revealed when the match is finished.", 409)
    report = await verify_detail(service.catalog, detail)
    return {"match_id": match_id, "ok": report.ok, "checks": list(report.checks),
            "failure": report.failure, "actions": report.actions}
