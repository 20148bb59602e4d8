"""The stored log of matches: load (replay from the seed), read the head, catch up, append.

ARCHITECTURE.md "Persistence": an accepted action is appended with the next sequence number in
one transaction (with the Reverse Curse ``rc_sets`` rows it resolves, its deadlines, and the
outcome, the room status and the players' new ratings (``app.rooms.ratings``) when it ends)
before anyone hears of it. Every append goes through one ``GroupWriter`` (group commit): the
appends queued while a transaction runs are committed together in the next one, each
acknowledged only after its COMMIT.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repositories as repo
from app.db.models import Match, MatchAction
from app.db.writer import GroupWriter, Job
from app.rooms.catalog import Catalog
from app.rooms.clocks import Clock
from app.rooms.errors import RoomError
from app.rooms.ladder import resolved_sets
from app.rooms.lifecycle import RoomStatus, transition
from app.rooms.live import Forfeit, LiveMatch, Step
from app.rooms.ratings import rate_match


def to_datetime(unix: float) -> datetime:
    """Return the aware UTC datetime of a unix time in seconds."""
    return datetime.fromtimestamp(unix, tz=UTC)


#: Rooms read per batch when every playing match is resumed (``MatchStore.playing``).
RESUME_BATCH = 50


class SeqTaken(Exception):
    """Another process stored an action at this sequence number first (nothing was stored)."""


@dataclass(frozen=True, slots=True)
class Head:
    """Where a room's stored log ends: its newest match and that match's highest ``seq``.

    Attributes:
        room_id: the room; match_id: its newest match (``None`` while the room is open);
        seq: how many actions that match has stored (0 without a match).
    """

    room_id: int
    match_id: int | None
    seq: int


@dataclass(frozen=True, slots=True)
class StoredStep:
    """One stored action as the log holds it (a ``match_actions`` row): what a catch-up reads,
    and what a version message carries so the other processes replay it without reading the
    log (bench/HISTORY.md §5).

    Attributes:
        match_id, seat, action, timeout, forfeit: the row's values (``forfeit``: the room
            resigned the seat, ``app.rooms.live.Forfeit``; ``None`` for most actions).
        at: when it was played, unix seconds as stored (whole microseconds: ``to_datetime``).
    """

    match_id: int
    seat: int
    action: dict[str, Any]
    at: float
    timeout: bool
    forfeit: Forfeit | None = None

    @classmethod
    def of(cls, match_id: int, step: Step) -> StoredStep:
        """Return ``step`` of match ``match_id`` as its row reads back (``at`` rounded to the
        microsecond, as the database keeps it)."""
        return cls(match_id, step.seat, step.action, to_datetime(step.at).timestamp(),
                   step.timeout, step.forfeit)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"match", "seat", "action", "at", "timeout"}`` (JSON-ready), with
        ``"forfeit"`` only for a forfeit (every version message carries one: kept short)."""
        data = {"match": self.match_id, "seat": self.seat, "action": self.action,
                "at": self.at, "timeout": self.timeout}
        if self.forfeit is not None:
            data["forfeit"] = self.forfeit
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StoredStep:
        """Return the step of ``to_json``'s dict.

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not such a dict.
        """
        forfeit = data.get("forfeit")
        return cls(int(data["match"]), int(data["seat"]), dict(data["action"]),
                   float(data["at"]), bool(data["timeout"]),
                   None if forfeit is None else dict(forfeit))


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A room's newest match as stored, not replayed yet (``MatchStore.rebuild``).

    Attributes:
        code: the room; match: the ``matches`` row; players: its seat count; actions: its
        ``match_actions`` rows in seq order.
    """

    code: str
    match: Match
    players: int
    actions: Sequence[MatchAction]


def replayed(live: LiveMatch, steps: list[StoredStep]) -> tuple[LiveMatch, list[Step]]:
    """Return ``live`` after the stored ``steps`` (the log's next actions, in order) and the
    steps replayed.

    Raises:
        EngineError: the engine refuses a logged action (a corrupt log).
    """
    done = []
    for stored in steps:
        live, step = live.replay(stored.seat, stored.action, stored.at, stored.timeout,
                                 stored.forfeit)
        done.append(step)
    return live, done


class MatchStore:
    """Loads, reads and appends the stored matches (``matches``, ``match_actions``).

    Args:
        sessions: the session factory; catalog: the games; clock: the time source (the restart
            grace is counted from ``clock.now()``); grace: seconds a clock that expired while
            no process held the match still gets; commit_delay: the group writer's
            (``GroupWriter``'s ``delay``, seconds).
    """

    def __init__(self, sessions: async_sessionmaker, catalog: Catalog, clock: Clock,
                 grace: float, commit_delay: float = 0.0) -> None:
        self._sessions, self._catalog, self._clock, self._grace = sessions, catalog, clock, grace
        self.writer = GroupWriter(sessions, delay=commit_delay)

    async def head(self, code: str) -> Head:
        """Return where room ``code``'s log ends (one indexed query).

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        async with self._sessions() as session:
            row = await repo.room_head(session, code)
        if row is None:
            raise RoomError("room_not_found", f"No room has the code {code!r}.", 404)
        return Head(*row)

    async def load(self, code: str) -> tuple[LiveMatch | None, list[Step]]:
        """Return room ``code``'s newest match rebuilt from its seed and its whole log (stored
        deadlines kept, an expired one given the grace), and the steps replayed; ``(None, [])``
        while the room has no match.

        Raises:
            RoomError: ``room_not_found`` (404).
            EngineError: the engine refuses a logged action (a corrupt log).
        """
        async with self._sessions() as session:
            room = await repo.room_by_code(session, code)
            if room is None:
                raise RoomError("room_not_found", f"No room has the code {code!r}.", 404)
            stored = await self._stored_matches(session, [(room.id, code)])
        return self.rebuild(stored[0]) if stored else (None, [])

    async def playing(self, batch: int = RESUME_BATCH) -> AsyncIterator[list[StoredMatch]]:
        """Yield the newest match of every room with a match being played, as stored (not
        replayed yet: ``rebuild``), ``batch`` rooms at a time (four queries a batch)."""
        async with self._sessions() as session:
            rooms = await repo.playing_rooms(session)
        for start in range(0, len(rooms), batch):
            async with self._sessions() as session:
                yield await self._stored_matches(session, rooms[start:start + batch])

    @staticmethod
    async def _stored_matches(session: AsyncSession, rooms: Sequence[tuple[int, str]]
                              ) -> list[StoredMatch]:
        """Return the newest match of each of ``rooms`` (``(room id, code)``) that has one,
        with its seat count and its log (four queries for all of them)."""
        newest = await repo.latest_match_ids(session, [room_id for room_id, _ in rooms])
        ids = list(newest.values())
        matches = await repo.matches_by_id(session, ids)
        seats = await repo.match_seats(session, ids)
        actions = await repo.actions_of(session, ids)
        out = []
        for room_id, code in rooms:
            match_id = newest.get(room_id)
            if match_id is None:
                continue
            match = matches.get(match_id)
            if match is None:
                raise LookupError(f"room {code!r}: its latest match {match_id} has no row")
            out.append(StoredMatch(code, match, len(seats[match_id]), actions[match_id]))
        return out

    def rebuild(self, stored: StoredMatch) -> tuple[LiveMatch, list[Step]]:
        """Return ``stored``'s match replayed from its seed through its whole log (stored
        deadlines kept, an expired one given the grace from ``clock.now()``) and the steps
        replayed.

        Raises:
            EngineError: the engine refuses a logged action (a corrupt log).
        """
        match = stored.match
        live = LiveMatch.start(self._catalog.game(match.game), match.id, match.room_id,
                               stored.code, match.options, stored.players,
                               bytes.fromhex(match.seed), match.started_at.timestamp())
        live, steps = replayed(live, [self._stored(match.id, row) for row in stored.actions])
        return live.with_deadlines(match.deadlines or {}, self._clock.now(), self._grace), steps

    async def after(self, match_id: int, seq: int) -> list[StoredStep]:
        """Return the actions of ``match_id`` stored after ``seq``, in order (one indexed
        query on ``(match_id, seq)``)."""
        async with self._sessions() as session:
            rows = await repo.match_actions(session, match_id, seq)
        return [self._stored(match_id, row) for row in rows]

    @staticmethod
    def _stored(match_id: int, row: Any) -> StoredStep:
        return StoredStep(match_id, row.seat, row.action, row.at.timestamp(), row.timeout,
                          row.forfeit)

    async def append(self, live: LiveMatch, step: Step, committed: Callable[[], None]) -> None:
        """Store ``step`` (proposed on ``live``) through the group writer: the action, any
        ``rc_sets`` rows it resolves and the match's deadlines (and at the end its outcome, the
        room status and the ratings) in one transaction; ``committed()`` runs right after its
        COMMIT, before any caller resumes.

        Raises:
            SeqTaken: another process stored this seq first (nothing stored).
        """
        outcome = live.game.outcome(step.state)
        at = to_datetime(step.at)
        values: dict[str, Any] = {"deadlines": {str(s): d for s, d in step.deadlines.items()}}
        if outcome is not None:
            values.update(status=transition(RoomStatus.PLAYING, RoomStatus.FINISHED).value,
                          outcome=outcome.to_json(), finished_at=at)
        writes = [repo.action_write(live.match_id, step.version, step.seat, step.action,
                                    step.timeout, at, step.forfeit),
                  *repo.rc_set_writes(live.match_id,
                                      resolved_sets(live.game, live.state, step.state)),
                  repo.match_write(live.match_id, **values)]

        async def finish(session: AsyncSession) -> None:
            assert outcome is not None, "finish runs only for a step that ends the match"
            room = await repo.room_by_code(session, live.code)
            if room is None:
                raise LookupError(f"match {live.match_id}: its room {live.code!r} has no row")
            status = transition(room.status, RoomStatus.FINISHED)
            await repo.set_room_status(session, room.id, status.value)
            await rate_match(session, live.match_id, live.game.spec.id, outcome, live.sides)

        try:
            await self.writer.write(Job(writes, finish if outcome is not None else None,
                                        committed))
        except IntegrityError as exc:
            raise SeqTaken(f"seq {step.version} of match {live.match_id} is taken") from exc
