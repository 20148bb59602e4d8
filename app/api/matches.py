"""``/api/matches``: history list (filters, newest first, cursor pages), detail, ladder.

The seed and the action log are secret while a match runs (ARCHITECTURE.md "Fairness"): the
detail shows them only once the match is finished. So is how many actions were played: a seat's
occupants (a bot that took a seat over mid-match, ``app.rooms.takeover``) say from which action
each played only once the match is finished.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from app.api.deps import ServiceDep, SessionDep
from app.api.errors import ERRORS
from app.api.games import check_hosted
from app.api.json_body import JsonRoute
from app.api.params import IN_DIGITS, CursorQuery, IdPath, IdQuery, parse_cursor
from app.api.schemas import LadderOut, MatchDetail, MatchPage
from app.db import repositories as repo
from app.db.models import Match
from app.rooms.catalog import Catalog
from app.rooms.errors import RoomError
from app.rooms.ladder import LADDER_GAMES
from app.rooms.service import iso

router = APIRouter(route_class=JsonRoute, prefix="/api/matches", tags=["matches"], responses=ERRORS)


def seat_json(row: repo.SeatRow, takeover: repo.TakeoverRow | None, finished: bool
              ) -> dict[str, Any]:
    """Return the ``MatchSeatOut`` of a seat: ``row`` (who sat there at the start) with its
    ``occupants``, ``row`` from step 1, then ``takeover``'s player from its ``from_step``
    (``null`` unless ``finished``)."""
    occupants = [{**_person(row), "from_step": 1}]
    if takeover is not None:
        occupants.append({**_person(takeover.player),
                          "from_step": takeover.from_step if finished else None})
    return {**row.to_json(), "occupants": occupants}


def _person(row: repo.SeatRow) -> dict[str, Any]:
    return {"player_id": row.player_id, "name": row.name, "bot_level": row.bot_level}


def player_at(seat: dict[str, Any], seq: int) -> int:
    """Return the id of the player who played action ``seq`` for ``seat`` (a ``MatchSeatOut``
    of a finished match): its last occupant whose ``from_step`` is at most ``seq``."""
    return [o for o in seat["occupants"] if o["from_step"] <= seq][-1]["player_id"]


def match_teams(catalog: Catalog, match: Match, seats: int) -> list[list[int]]:
    """Return the ``teams`` of ``match`` with ``seats`` seats: the seats that play as one side,
    in side order (``Catalog.teams``, as a room's ``teams``); one seat per team for a game the
    server no longer hosts."""
    try:
        return catalog.teams(match.game, match.options, seats)
    except RoomError:
        return [[seat] for seat in range(seats)]


async def summaries(session, matches: Sequence[Match], catalog: Catalog) -> list[dict[str, Any]]:
    """Return ``MatchSummary`` dicts for ``matches`` (four queries for all of them); their
    ``teams`` come from ``catalog`` (``match_teams``); a match the room ended by resigning a
    seat (``repo.match_forfeits``) says so in ``forfeit``."""
    ids = [m.id for m in matches]
    seats = await repo.match_seats(session, ids)
    takeovers = await repo.match_takeovers(session, ids)
    forfeits = await repo.match_forfeits(session, ids)
    codes = await repo.public_room_codes(session, [m.room_id for m in matches])  # private: None
    return [{
        "id": m.id, "game": m.game, "room_code": codes[m.room_id], "status": m.status,
        "options": m.options,
        "seats": [seat_json(row, takeovers[m.id].get(row.seat), m.status == "finished")
                  for row in seats[m.id]],
        "teams": match_teams(catalog, m, len(seats[m.id])),
        "outcome": m.outcome,
        "forfeit": forfeits[m.id].to_json() if m.id in forfeits else None,
        "started_at": iso(m.started_at), "finished_at": iso(m.finished_at),
    } for m in matches]


@router.get("", response_model=MatchPage)
async def list_matches(session: SessionDep, service: ServiceDep,
                       game: str | None = Query(None, description="a hosted game's id "
                                                "(GET /api/games); another: 404 unknown_game"),
                       player: IdQuery = None,
                       status: Literal["playing", "finished", "abandoned"] | None = None,
                       cursor: CursorQuery = None,
                       limit: Annotated[int, Query(ge=1, le=100), IN_DIGITS] = 20) -> dict:
    """Return ``{items, next_cursor}``: matches newest first, filtered by game, player id and
    status; ``next_cursor`` is ``null`` on the last page.

    Raises:
        RoomError: ``unknown_game`` (404, as ``/api/ladders/{game}``: ``check_hosted``) for a
            ``game`` the server does not host; ``bad_cursor`` (422).
    """
    if game is not None:
        check_hosted(service.catalog, game)
    rows = await repo.list_matches(session, game=game, player=player, status=status,
                                   before_id=parse_cursor(cursor), limit=limit + 1)
    page = rows[:limit]
    next_cursor = str(page[-1].id) if len(rows) > limit else None
    return {"items": await summaries(session, page, service.catalog), "next_cursor": next_cursor}


async def find_match(session, match_id: int) -> Match:
    """Return the match row ``match_id``.

    Raises:
        RoomError: ``match_not_found`` (404), also for an id no row can have (0, -1, 2^31:
            ``repo.get_match``).
    """
    match = await repo.get_match(session, match_id)
    if match is None:
        raise RoomError("match_not_found", f"No match has the id {match_id}.", 404)
    return match


@router.get("/{match_id}", response_model=MatchDetail)
async def get_match(match_id: IdPath, session: SessionDep, service: ServiceDep) -> dict:
    """Return the ``MatchDetail``; ``seed`` and ``actions`` are ``null`` until it is finished
    (404 ``match_not_found``, also for an id no row can have: ``find_match``).
    Each action names who played it (``player_at``: a seat taken over has two players)."""
    match = await find_match(session, match_id)
    detail = (await summaries(session, [match], service.catalog))[0]
    finished = match.status == "finished"
    actions = None
    if finished:
        seats = {seat["seat"]: seat for seat in detail["seats"]}
        actions = [{"seq": a.seq, "seat": a.seat, "player_id": player_at(seats[a.seat], a.seq),
                    "action": a.action, "at": iso(a.at)}
                   for a in await repo.match_actions(session, match_id)]
    return {**detail, "seed_commitment": match.seed_commitment,
            "seed": match.seed if finished else None, "actions": actions}


@router.get("/{match_id}/ladder", response_model=LadderOut)
async def get_ladder(match_id: IdPath, session: SessionDep) -> dict:
    """Return the resolved Reverse Curse sets (from ``rc_sets``); 404 ``no_ladder`` for other
    games."""
    match = await find_match(session, match_id)
    if match.game not in LADDER_GAMES:
        raise RoomError("no_ladder", f"{match.game} matches have no ladder.", 404)
    sets = await repo.rc_sets(session, match_id)
    return {"match_id": match_id, "sets": [
        {"set": s.set_no, "first_side": s.first_side, "field": s.field, "result": s.result,
         "position_after": s.position_after} for s in sets]}
