"""Every query of the server, grouped by table (routes and services never build SQL).

All functions take an ``AsyncSession`` and never commit: the caller owns the transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    Executable,
    Select,
    Table,
    and_,
    bindparam,
    case,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    Match,
    MatchAction,
    MatchSeat,
    MatchTakeover,
    Player,
    PlayerToken,
    RcSet,
    Room,
    RoomSeat,
)


class SeatRow(NamedTuple):
    """A held seat: its index, the holder's id and name, and the holder's bot level
    (``engine.bots.LEVELS``; ``None`` for a person)."""

    seat: int
    player_id: int
    name: str
    bot_level: str | None

    def to_json(self) -> dict[str, Any]:
        """Return ``{seat, player_id, name, bot_level}`` (the seat JSON of rooms and matches)."""
        return {"seat": self.seat, "player_id": self.player_id, "name": self.name,
                "bot_level": self.bot_level}


class TakeoverRow(NamedTuple):
    """A seat taken over mid-match: ``player`` plays it from action ``from_step``
    (``match_actions.seq``) on."""

    from_step: int
    player: SeatRow


#: The seat JSON of a free seat of a room (``SeatRow.to_json`` keys).
FREE_SEAT = {"player_id": None, "name": None, "bot_level": None}

#: One row of a Core write: a statement and its parameters. ``execute_writes`` runs the rows
#: of one statement with one parameter shape together (bench/HISTORY.md §3).
Write = tuple[Executable, dict[str, Any]]

# A statement with an ``IN`` list is built once, at import, and run with the list as an
# expanding ``bindparam`` (an empty list matches nothing, on SQLite and PostgreSQL alike): one
# built per call (``column.in_(values)``, or even ``in_`` an expanding ``bindparam`` of its own)
# leaves its bound parameters in a garbage cycle (a ``BindParameter``'s memoized
# ``_cloned_set`` holds itself), ≈ 10 objects a statement (40 a ``GET /api/matches``), which
# wait for the next full collection (``app.runtime``: every 600 s, a walk of the whole heap).


def _ids(name: str = "ids") -> Any:
    """Return an expanding ``bindparam`` ``name``: a list of values for an ``IN``."""
    return bindparam(name, expanding=True)


# (a declarative model's ``__table__`` is typed ``FromClause``; these models map one ``Table``)
_ACTIONS, _RC_SETS, _MATCHES = (cast(Table, model.__table__)
                                for model in (MatchAction, RcSet, Match))
_INSERT_ACTION = insert(_ACTIONS)
_INSERT_RC_SET = insert(_RC_SETS)
#: ``UPDATE matches SET <the row's other keys> WHERE id = :match_key``.
_UPDATE_MATCH = update(_MATCHES).where(_MATCHES.c.id == bindparam("match_key"))
_DEADLINES_ONLY = ("match_key", "deadlines")


#: SQLite: the deadlines of many matches in one statement, from one JSON object
#: ``{"<match id>": deadlines}`` (``UPDATE … FROM``: SQLite 3.33 and later).
_SQLITE_DEADLINES = text(
    "UPDATE matches SET deadlines = j.value FROM json_each(:deadlines) AS j "
    "WHERE matches.id = CAST(j.key AS INTEGER)")


def planned_writes(writes: Iterable[Write], sqlite: bool) -> list[tuple[Executable, Any]]:
    """Return ``writes`` as the statements that run them: grouped by statement and parameter
    shape (its keys), the groups in the order each first appears, each group one
    ``(statement, [params…])`` (an ``executemany`` of a statement compiled once).

    On SQLite (``sqlite``) the deadline updates of several matches become one ``UPDATE … FROM
    json_each(…)`` (and the inserts are one multi-row ``INSERT``: ``session.make_engine``): the
    sqlite3 module hands the GIL over at every row, and under load each hand-over waits for
    the event loop thread (up to the 5 ms switch interval).

    The order between writes of different groups is not kept, so the writes given together
    must not depend on each other (rows of different matches, or one match's insert and
    update).
    """
    groups: dict[tuple[int, tuple[str, ...]], tuple[Executable, list[dict[str, Any]]]] = {}
    for statement, params in writes:
        key = (id(statement), tuple(params))
        groups.setdefault(key, (statement, []))[1].append(params)
    planned: list[tuple[Executable, Any]] = []
    for (_, keys), (statement, rows) in groups.items():
        if sqlite and statement is _UPDATE_MATCH and keys == _DEADLINES_ONLY and len(rows) > 1:
            deadlines = {str(row["match_key"]): row["deadlines"] for row in rows}
            if len(deadlines) == len(rows):  # one row per match
                planned.append((_SQLITE_DEADLINES, {"deadlines": json.dumps(deadlines)}))
                continue
        planned.append((statement, rows))
    return planned


async def execute_writes(session: AsyncSession, writes: Iterable[Write]) -> None:
    """Run ``writes`` in the caller's transaction (``planned_writes``).

    Raises what the database raises (``IntegrityError`` for a taken ``(match_id, seq)``).
    """
    sqlite = session.bind is not None and session.bind.dialect.name == "sqlite"
    for statement, params in planned_writes(writes, sqlite):
        await session.execute(statement, params)


# --------------------------------------------------------------------------- players

async def add_player(session: AsyncSession, name: str, token_hash: str, now: datetime) -> Player:
    """Insert a player; return it with its id."""
    player = Player(name=name, token_hash=token_hash, created_at=now)
    session.add(player)
    await session.flush()
    return player


async def player_by_token_hash(session: AsyncSession, token_hash: str) -> Player | None:
    """Return the player whose token hashes to ``token_hash`` (SHA-256 hex), or ``None``.

    The token is the one the player was created with or one of its log-ins (``player_tokens``).
    """
    return await session.scalar(_PLAYER_BY_TOKEN, {"hash": token_hash})


#: ``player_by_token_hash``'s statement (``hash``), built once.
_PLAYER_BY_TOKEN = select(Player).where(or_(
    Player.token_hash == bindparam("hash"),
    Player.id.in_(select(PlayerToken.player_id)
                  .where(PlayerToken.token_hash == bindparam("hash"))))).limit(1)


#: The largest row id every supported database stores (PostgreSQL ``integer``; SQLite's is
#: 64-bit); ids start at 1.
MAX_ID = 2 ** 31 - 1


def can_be_id(row_id: int) -> bool:
    """Return whether some row could have the id ``row_id`` (1 … ``MAX_ID``). Any other number
    names no row, and must not reach the driver: asyncpg refuses an ``integer`` parameter over
    ``MAX_ID`` and sqlite3 one over 2^63−1 (an error, not an empty answer)."""
    return 1 <= row_id <= MAX_ID


async def get_player(session: AsyncSession, player_id: int) -> Player | None:
    """Return the player ``player_id`` or ``None`` (at once for an id no row can have:
    ``can_be_id``)."""
    return await session.get(Player, player_id) if can_be_id(player_id) else None


# --------------------------------------------------------------------------- rooms

async def add_room(session: AsyncSession, code: str, game: str, options: dict[str, Any],
                   creator_id: int, now: datetime) -> Room:
    """Insert an open room; return it with its id."""
    room = Room(code=code, game=game, options=options, status="open", creator_id=creator_id,
                created_at=now)
    session.add(room)
    await session.flush()
    return room


async def room_by_code(session: AsyncSession, code: str, lock: bool = False) -> Room | None:
    """Return the room ``code`` (``lock=True``: ``SELECT … FOR UPDATE`` where supported)."""
    return await session.scalar(_ROOM_BY_CODE[lock], {"code": code})


#: ``room_by_code``'s statements (``code``), built once: ``{lock: statement}``.
_ROOM_BY_CODE = {False: select(Room).where(Room.code == bindparam("code"))}
_ROOM_BY_CODE[True] = _ROOM_BY_CODE[False].with_for_update()


async def rooms_by_codes(session: AsyncSession, codes: Sequence[str]) -> Sequence[Room]:
    """Return the rooms whose code is one of ``codes`` (those that exist), by id."""
    return (await session.scalars(_ROOMS_BY_CODES, {"codes": list(codes)})).all()


#: ``rooms_by_codes``' statement (``codes``), built once.
_ROOMS_BY_CODES = select(Room).where(Room.code.in_(_ids("codes"))).order_by(Room.id)


async def list_rooms(session: AsyncSession, statuses: Iterable[str], limit: int = 200,
                     before_id: int | None = None) -> Sequence[Room]:
    """Return up to ``limit`` public rooms with one of ``statuses`` and an id below
    ``before_id`` (when given), newest first (a private room is never listed)."""
    params = {"statuses": list(statuses), "limit": limit, "before": before_id}
    return (await session.scalars(_LIST_ROOMS[before_id is not None], params)).all()


def _list_rooms_query(paged: bool) -> Select:
    query = select(Room).where(Room.status.in_(_ids("statuses")), Room.private.is_(False))
    if paged:
        query = query.where(Room.id < bindparam("before"))
    return query.order_by(Room.id.desc()).limit(bindparam("limit"))


#: ``list_rooms``' statements (``statuses``, ``limit``; ``before`` when paged), built once:
#: ``{paged: statement}`` (the lobby's first page, and the pages after a cursor).
_LIST_ROOMS = {paged: _list_rooms_query(paged) for paged in (False, True)}


async def _seats_of(session: AsyncSession, table: type[RoomSeat] | type[MatchSeat],
                    owner_ids: Sequence[int]) -> dict[int, list[SeatRow]]:
    """Return ``{owner id: [SeatRow]}`` by seat for the rows of ``table`` (a seat table) whose
    owner (``room_id``/``match_id``) is in ``owner_ids``."""
    out: dict[int, list[SeatRow]] = {owner_id: [] for owner_id in owner_ids}
    rows = await session.execute(_SEATS_OF[table], {"ids": list(owner_ids)})
    for owner_id, seat, player_id, name, level in rows:
        out[owner_id].append(SeatRow(seat, player_id, name, level))
    return out


def _seats_of_query(table: type[RoomSeat] | type[MatchSeat], owner: Any) -> Select:
    return (select(owner, table.seat, Player.id, Player.name, Player.bot_level)
            .join(Player, Player.id == table.player_id)
            .where(owner.in_(_ids())).order_by(table.seat))


#: ``_seats_of``' statements (``ids``: the owners' ids), built once: ``{seat table: statement}``.
_SEATS_OF: dict[type[RoomSeat] | type[MatchSeat], Select] = {
    RoomSeat: _seats_of_query(RoomSeat, RoomSeat.room_id),
    MatchSeat: _seats_of_query(MatchSeat, MatchSeat.match_id),
}


async def room_seats(session: AsyncSession, room_ids: Sequence[int]) -> dict[int, list[SeatRow]]:
    """Return ``{room_id: [SeatRow]}`` for the claimed seats, by seat."""
    return await _seats_of(session, RoomSeat, room_ids)


def _room_listings_query() -> Select:
    newest = (select(Match.room_id, func.max(Match.id).label("match_id"))
              .where(Match.room_id.in_(_ids()))
              .group_by(Match.room_id).subquery())
    return (select(Room.id, newest.c.match_id, RoomSeat.seat, Player.id, Player.name,
                   Player.bot_level)
            .select_from(Room)
            .outerjoin(newest, newest.c.room_id == Room.id)
            .outerjoin(RoomSeat, RoomSeat.room_id == Room.id)
            .outerjoin(Player, Player.id == RoomSeat.player_id)
            .where(Room.id.in_(_ids()))
            .order_by(Room.id, RoomSeat.seat))


#: ``room_listings``' statement (``ids``: the room ids), built once: building it took ≈ 0.9 ms
#: of CPU a call (its subquery's columns are made anew each time, foreign keys and all), more
#: than running it, and left ≈ 1,000 objects in garbage cycles (bench/HISTORY.md "statements
#: built once").
_ROOM_LISTINGS = _room_listings_query()


async def room_listings(session: AsyncSession, room_ids: Sequence[int]
                        ) -> dict[int, tuple[list[SeatRow], int | None]]:
    """Return ``{room_id: (claimed seats by seat, id of its newest match or None)}`` in one
    query (``room_seats`` and ``latest_match_ids`` together: what a ``Room`` JSON needs besides
    the room row; the newest match is grouped once per room, not looked up per seat row)."""
    out: dict[int, tuple[list[SeatRow], int | None]] = {}
    rows = await session.execute(_ROOM_LISTINGS, {"ids": list(room_ids)})
    for room_id, match_id, seat, player_id, name, level in rows:
        seats, _ = out.setdefault(room_id, ([], match_id))
        if seat is not None:
            seats.append(SeatRow(seat, player_id, name, level))
    return out


async def add_room_seat(session: AsyncSession, room_id: int, seat: int, player_id: int) -> None:
    """Claim ``seat`` for ``player_id`` (the unique keys refuse a taken seat or a 2nd seat)."""
    session.add(RoomSeat(room_id=room_id, seat=seat, player_id=player_id))
    await session.flush()


async def remove_room_seat(session: AsyncSession, room_id: int, seat: int) -> None:
    """Free ``seat`` of the room."""
    row = await session.get(RoomSeat, (room_id, seat))
    if row is not None:
        await session.delete(row)
        await session.flush()


async def latest_match_ids(session: AsyncSession, room_ids: Sequence[int]) -> dict[int, int]:
    """Return ``{room_id: id of its newest match}`` for the rooms that have one."""
    rows = await session.execute(_LATEST_MATCH_IDS, {"ids": list(room_ids)})
    return {room_id: match_id for room_id, match_id in rows}


#: ``latest_match_ids``' statement (``ids``: the room ids), built once.
_LATEST_MATCH_IDS = (select(Match.room_id, func.max(Match.id))
                     .where(Match.room_id.in_(_ids())).group_by(Match.room_id))


async def set_room_status(session: AsyncSession, room_id: int, status: str) -> None:
    """Store a room status (the caller checked the transition)."""
    await session.execute(update(Room).where(Room.id == room_id).values(status=status))


# --------------------------------------------------------------------------- matches

async def add_match(session: AsyncSession, room: Room, seed_hex: str, commitment: str,
                    seats: Sequence[tuple[int, int]], now: datetime) -> Match:
    """Insert a playing match of ``room`` and its seats ``[(seat, player_id)]``."""
    match = Match(room_id=room.id, game=room.game, options=room.options, seed=seed_hex,
                  seed_commitment=commitment, status="playing", outcome=None, deadlines={},
                  started_at=now)
    session.add(match)
    await session.flush()
    session.add_all(MatchSeat(match_id=match.id, seat=seat, player_id=player_id)
                    for seat, player_id in seats)
    await session.flush()
    return match


async def get_match(session: AsyncSession, match_id: int) -> Match | None:
    """Return the match ``match_id`` or ``None`` (at once for an id no row can have:
    ``can_be_id``)."""
    return await session.get(Match, match_id) if can_be_id(match_id) else None


async def playing_rooms(session: AsyncSession) -> list[tuple[int, str]]:
    """Return ``[(room id, code)]`` of every room with a match still being played, by room id
    (to resume their clocks at start)."""
    query = (select(Room.id, Room.code).join(Match, Match.room_id == Room.id)
             .where(Match.status == "playing").distinct().order_by(Room.id))
    return [(room_id, code) for room_id, code in await session.execute(query)]


async def matches_by_id(session: AsyncSession, match_ids: Sequence[int]) -> dict[int, Match]:
    """Return ``{match_id: Match}`` of the ones that exist (one query)."""
    matches = await session.scalars(_MATCHES_BY_ID, {"ids": list(match_ids)})
    return {match.id: match for match in matches}


#: ``matches_by_id``' statement (``ids``), built once.
_MATCHES_BY_ID = select(Match).where(Match.id.in_(_ids()))


async def match_seats(session: AsyncSession, match_ids: Sequence[int]
                      ) -> dict[int, list[SeatRow]]:
    """Return ``{match_id: [SeatRow]}`` by seat: who sat in each seat when the match started
    (a seat taken over since keeps its first player here: ``match_takeovers``)."""
    return await _seats_of(session, MatchSeat, match_ids)


async def match_takeovers(session: AsyncSession, match_ids: Sequence[int]
                          ) -> dict[int, dict[int, TakeoverRow]]:
    """Return ``{match_id: {seat: TakeoverRow}}`` of the seats taken over mid-match (a match
    without any maps to ``{}``)."""
    out: dict[int, dict[int, TakeoverRow]] = {match_id: {} for match_id in match_ids}
    rows = await session.execute(_MATCH_TAKEOVERS, {"ids": list(match_ids)})
    for match_id, seat, from_step, player_id, name, level in rows:
        out[match_id][seat] = TakeoverRow(from_step, SeatRow(seat, player_id, name, level))
    return out


#: ``match_takeovers``' statement (``ids``: the match ids), built once.
_MATCH_TAKEOVERS = (select(MatchTakeover.match_id, MatchTakeover.seat, MatchTakeover.from_step,
                           Player.id, Player.name, Player.bot_level)
                    .join(Player, Player.id == MatchTakeover.player_id)
                    .where(MatchTakeover.match_id.in_(_ids())))


class ForfeitRow(NamedTuple):
    """A resign the room played for ``seat`` at action ``step`` (``match_actions.seq``), and why
    (``MatchAction.forfeit``: ``{"reason", "timeouts"}``)."""

    seat: int
    step: int
    forfeit: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """Return ``{seat, step, reason, timeouts}`` (a ``MatchSummary``'s ``forfeit``)."""
        return {"seat": self.seat, "step": self.step, **self.forfeit}


async def match_forfeits(session: AsyncSession, match_ids: Sequence[int]
                         ) -> dict[int, ForfeitRow]:
    """Return ``{match_id: ForfeitRow}`` of the matches among ``match_ids`` in which the room
    resigned a seat (one query on the partial index ``ix_match_actions_forfeit``; a match has at
    most one: the resign ends it)."""
    rows = await session.execute(_MATCH_FORFEITS, {"ids": list(match_ids)})
    return {match_id: ForfeitRow(seat, seq, forfeit) for match_id, seat, seq, forfeit in rows}


#: ``match_forfeits``' statement (``ids``: the match ids), built once.
_MATCH_FORFEITS = (select(MatchAction.match_id, MatchAction.seat, MatchAction.seq,
                          MatchAction.forfeit)
                   .where(MatchAction.match_id.in_(_ids()), MatchAction.forfeit.isnot(None)))


def with_holders(query: Select) -> Select:
    """Return ``query`` (a select over ``match_seats``) joined to ``players`` as the player who
    holds each seat now: the one who took it over (``match_takeovers``), else the one who sat
    there at the start."""
    taken = and_(MatchTakeover.match_id == MatchSeat.match_id,
                 MatchTakeover.seat == MatchSeat.seat)
    return (query.outerjoin(MatchTakeover, taken)
            .join(Player, Player.id == func.coalesce(MatchTakeover.player_id,
                                                     MatchSeat.player_id)))


async def seat_holders(session: AsyncSession, match_id: int) -> dict[int, int]:
    """Return ``{seat: id of the player holding it now}`` of match ``match_id``
    (``with_holders``)."""
    query = with_holders(select(MatchSeat.seat, Player.id).select_from(MatchSeat)
                         ).where(MatchSeat.match_id == match_id)
    return {seat: player_id for seat, player_id in await session.execute(query)}


async def room_codes(session: AsyncSession, room_ids: Sequence[int]) -> dict[int, str]:
    """Return ``{room_id: code}``."""
    rows = await session.execute(_ROOM_CODES, {"ids": list(room_ids)})
    return {room_id: code for room_id, code in rows}


#: ``room_codes``' statement (``ids``: the room ids), built once.
_ROOM_CODES = select(Room.id, Room.code).where(Room.id.in_(_ids()))


async def list_matches(session: AsyncSession, *, game: str | None, player: int | None,
                       status: str | None, before_id: int | None, limit: int) -> Sequence[Match]:
    """Return up to ``limit`` matches newest first (highest id first), filtered.

    Args:
        game, player, status: filters (``None`` = any); ``player`` is a player id.
        before_id: the pagination cursor: only matches with a smaller id.
    """
    query = select(Match).order_by(Match.id.desc()).limit(limit)
    if game is not None:
        query = query.where(Match.game == game)
    if status is not None:
        query = query.where(Match.status == status)
    if before_id is not None:
        query = query.where(Match.id < before_id)
    if player is not None:  # seated at the start, or took a seat over
        query = query.where(or_(
            Match.id.in_(select(MatchSeat.match_id).where(MatchSeat.player_id == player)),
            Match.id.in_(select(MatchTakeover.match_id).where(MatchTakeover.player_id == player))))
    return (await session.scalars(query)).all()


async def match_actions(session: AsyncSession, match_id: int, after_seq: int = 0
                        ) -> Sequence[MatchAction]:
    """Return the match's actions with ``seq > after_seq``, in order."""
    query = (select(MatchAction).where(MatchAction.match_id == match_id,
                                       MatchAction.seq > after_seq).order_by(MatchAction.seq))
    return (await session.scalars(query)).all()


async def actions_of(session: AsyncSession, match_ids: Sequence[int]
                     ) -> dict[int, list[MatchAction]]:
    """Return ``{match_id: its actions in seq order}`` for every one of ``match_ids`` (one
    query; a match without actions maps to ``[]``)."""
    out: dict[int, list[MatchAction]] = {match_id: [] for match_id in match_ids}
    for row in await session.scalars(_ACTIONS_OF, {"ids": list(match_ids)}):
        out[row.match_id].append(row)
    return out


#: ``actions_of``' statement (``ids``: the match ids), built once.
_ACTIONS_OF = (select(MatchAction).where(MatchAction.match_id.in_(_ids()))
               .order_by(MatchAction.match_id, MatchAction.seq))


def _room_head_query() -> Select:
    newest = (select(func.max(Match.id)).where(Match.room_id == Room.id)
              .correlate(Room).scalar_subquery())
    head = (select(func.max(MatchAction.seq)).where(MatchAction.match_id == Match.id)
            .correlate(Match).scalar_subquery())
    return (select(Room.id, Match.id, head).select_from(Room)
            .outerjoin(Match, Match.id == newest).where(Room.code == bindparam("code")))


#: ``room_head``'s statement (``code``), built once (≈ 0.4 ms of CPU a call to build).
_ROOM_HEAD = _room_head_query()


async def room_head(session: AsyncSession, code: str
                    ) -> tuple[int, int | None, int] | None:
    """Return ``(room id, its newest match id or None, that match's highest seq or 0)`` of room
    ``code``, or ``None`` when no room has that code.

    One statement, on indexes only: ``rooms.code`` (unique), ``matches.room_id`` and the unique
    ``(match_actions.match_id, seq)``.
    """
    row = (await session.execute(_ROOM_HEAD, {"code": code})).first()
    if row is None:
        return None
    room_id, match_id, seq = row
    return room_id, match_id, int(seq or 0)


async def count_actions(session: AsyncSession, match_id: int) -> int:
    """Return how many actions the match has logged."""
    query = select(func.count()).select_from(MatchAction).where(MatchAction.match_id == match_id)
    return int(await session.scalar(query) or 0)


def action_write(match_id: int, seq: int, seat: int, action: dict[str, Any], timeout: bool,
                 at: datetime, forfeit: dict[str, Any] | None = None) -> Write:
    """Return the insert of one action (``UNIQUE(match_id, seq)`` refuses a second one at the
    same seq), for ``execute_writes``; ``forfeit`` marks a resign the room played for the seat
    (``MatchAction.forfeit``)."""
    return _INSERT_ACTION, {"match_id": match_id, "seq": seq, "seat": seat, "action": action,
                            "timeout": timeout, "at": at, "forfeit": forfeit}


def match_write(match_id: int, **values: Any) -> Write:
    """Return the update of a match's ``values`` (``deadlines``, ``status``, ``outcome``,
    ``finished_at``), for ``execute_writes``."""
    return _UPDATE_MATCH, {"match_key": match_id, **values}


async def add_action(session: AsyncSession, match_id: int, seq: int, seat: int,
                     action: dict[str, Any], timeout: bool, at: datetime,
                     forfeit: dict[str, Any] | None = None) -> None:
    """Append one action (``action_write``; ``IntegrityError`` for a taken seq)."""
    await execute_writes(session, [action_write(match_id, seq, seat, action, timeout, at,
                                                forfeit)])


async def update_match(session: AsyncSession, match_id: int, **values: Any) -> None:
    """Store new values of a match (``match_write``)."""
    await execute_writes(session, [match_write(match_id, **values)])


# --------------------------------------------------------------------------- Reverse Curse ladder

def rc_set_writes(match_id: int, sets: Sequence[dict[str, Any]]) -> list[Write]:
    """Return the inserts of resolved sets ``[{set, first_side, field, result,
    position_after}]``, for ``execute_writes``."""
    return [(_INSERT_RC_SET, {"match_id": match_id, "set_no": s["set"],
                              "first_side": s["first_side"], "field": s["field"],
                              "result": s["result"], "position_after": s["position_after"]})
            for s in sets]


async def add_rc_sets(session: AsyncSession, match_id: int, sets: Sequence[dict[str, Any]]
                      ) -> None:
    """Insert resolved sets (``rc_set_writes``)."""
    await execute_writes(session, rc_set_writes(match_id, sets))


async def rc_sets(session: AsyncSession, match_id: int) -> Sequence[RcSet]:
    """Return the match's resolved sets in set order."""
    query = select(RcSet).where(RcSet.match_id == match_id).order_by(RcSet.set_no)
    return (await session.scalars(query)).all()


# --------------------------------------------------------------------------- accounts

async def add_player_token(session: AsyncSession, player_id: int, token_hash: str,
                           now: datetime) -> None:
    """Store a further token (SHA-256 hex) of ``player_id`` (a log-in from another browser)."""
    session.add(PlayerToken(token_hash=token_hash, player_id=player_id, created_at=now))
    await session.flush()


async def player_by_login(session: AsyncSession, login: str) -> Player | None:
    """Return the claimed player whose ``login`` (case-folded name) is ``login``, or ``None``."""
    return await session.scalar(select(Player).where(Player.login == login))


async def rename_player(session: AsyncSession, player_id: int, name: str) -> None:
    """Store a player's new display name."""
    await session.execute(update(Player).where(Player.id == player_id).values(name=name))


async def set_player_password(session: AsyncSession, player_id: int, login: str,
                              password_hash: str) -> None:
    """Store a claimed profile's login and argon2 hash (``UNIQUE(login)`` refuses a taken one)."""
    await session.execute(update(Player).where(Player.id == player_id)
                          .values(login=login, password_hash=password_hash))
    await session.flush()


# --------------------------------------------------------------------------- room management

async def public_room_codes(session: AsyncSession, room_ids: Sequence[int]
                            ) -> dict[int, str | None]:
    """Return ``{room_id: code}`` with ``None`` for a private room (its code is its key)."""
    rows = await session.execute(_PUBLIC_ROOM_CODES, {"ids": list(room_ids)})
    return {room_id: None if private else code for room_id, code, private in rows}


#: ``public_room_codes``' statement (``ids``: the room ids), built once.
_PUBLIC_ROOM_CODES = select(Room.id, Room.code, Room.private).where(Room.id.in_(_ids()))


async def seated_rooms(session: AsyncSession, player_id: int, statuses: Iterable[str],
                       limit: int = 50) -> Sequence[Room]:
    """Return up to ``limit`` rooms with one of ``statuses`` where ``player_id`` holds a seat,
    newest first (private rooms included: the player has their link)."""
    params = {"player_id": player_id, "statuses": list(statuses), "limit": limit}
    return (await session.scalars(_SEATED_ROOMS, params)).all()


#: ``seated_rooms``' statement (``player_id``, ``statuses``, ``limit``), built once.
_SEATED_ROOMS = (select(Room).join(RoomSeat, RoomSeat.room_id == Room.id)
                 .where(RoomSeat.player_id == bindparam("player_id"),
                        Room.status.in_(_ids("statuses")))
                 .order_by(Room.id.desc()).limit(bindparam("limit")))


async def idle_open_rooms(session: AsyncSession, before: datetime) -> Sequence[Room]:
    """Return the open rooms whose last activity (``active_at``, else ``created_at``) is
    earlier than ``before``."""
    last = func.coalesce(Room.active_at, Room.created_at)
    query = select(Room).where(Room.status == "open", last < before).order_by(Room.id)
    return (await session.scalars(query)).all()


async def set_room_values(session: AsyncSession, room_id: int, **values: Any) -> None:
    """Store new values of a room's management columns (``rematch``, ``active_at``…)."""
    await session.execute(update(Room).where(Room.id == room_id).values(**values))


async def bot_player_ids(session: AsyncSession, player_ids: Sequence[int]) -> set[int]:
    """Return which of ``player_ids`` are bots (``players.bot`` set)."""
    return set(await session.scalars(_BOT_PLAYER_IDS, {"ids": list(player_ids)}))


#: ``bot_player_ids``' statement (``ids``: the player ids), built once.
_BOT_PLAYER_IDS = select(Player.id).where(Player.id.in_(_ids()), Player.bot.is_(True))


async def take_over_seat(session: AsyncSession, room_id: int, match_id: int, seat: int,
                         player_id: int) -> int:
    """Give ``seat`` of the room to ``player_id`` and record that it plays the seat of the
    room's match ``match_id`` from the next action on (a bot taking over a seat that keeps
    timing out; ``match_seats`` keeps the player it replaces); return that action's ``seq``
    (``from_step``: the match's highest seq + 1).

    Raises ``IntegrityError`` when the seat was taken over already (one takeover per seat).
    """
    await session.execute(update(RoomSeat).where(RoomSeat.room_id == room_id,
                                                 RoomSeat.seat == seat).values(player_id=player_id))
    head = select(func.max(MatchAction.seq)).where(MatchAction.match_id == match_id)
    from_step = int(await session.scalar(head) or 0) + 1
    session.add(MatchTakeover(match_id=match_id, seat=seat, from_step=from_step,
                              player_id=player_id))
    await session.flush()
    return from_step


async def last_seat_actions(session: AsyncSession, match_id: int, seat: int, count: int
                            ) -> Sequence[MatchAction]:
    """Return ``seat``'s newest ``count`` actions in the match, newest first."""
    query = (select(MatchAction).where(MatchAction.match_id == match_id,
                                       MatchAction.seat == seat)
             .order_by(MatchAction.seq.desc()).limit(count))
    return (await session.scalars(query)).all()


def _timeout_streaks_query() -> Select:
    newest = (select(MatchAction.match_id, MatchAction.seat, MatchAction.timeout,
                     func.row_number().over(partition_by=(MatchAction.match_id, MatchAction.seat),
                                            order_by=MatchAction.seq.desc()).label("rank"))
              .join(Match, Match.id == MatchAction.match_id)
              .where(Match.status == "playing").subquery())
    timeouts = func.sum(case((newest.c.timeout, 1), else_=0))
    return (select(Room.code, newest.c.match_id, newest.c.seat)
            .select_from(newest)
            .join(Match, Match.id == newest.c.match_id)
            .join(Room, Room.id == Match.room_id)
            .where(newest.c.rank <= bindparam("count"))
            .group_by(Room.code, newest.c.match_id, newest.c.seat)
            .having(timeouts == bindparam("count"))
            .order_by(newest.c.match_id, newest.c.seat))


#: ``timeout_streaks``' statement (``count``), built once like ``_ROOM_LISTINGS``.
_TIMEOUT_STREAKS = _timeout_streaks_query()


async def timeout_streaks(session: AsyncSession, count: int) -> list[tuple[str, int, int]]:
    """Return ``(room code, match id, seat)`` of every seat of a playing match whose newest
    ``count`` actions were all played by its clock (``match_actions.timeout``), by match and
    seat (one query; a window over each seat's actions)."""
    rows = await session.execute(_TIMEOUT_STREAKS, {"count": count})
    return [(code, match_id, seat) for code, match_id, seat in rows]
