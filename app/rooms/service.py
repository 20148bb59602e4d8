"""RoomService: the one entry point of the REST and websocket layers into rooms and games.

It is the only importer of ``engine`` (through ``catalog``, ``live``, ``play``, ``ladder``):
routes get JSON-ready dicts, never engine state.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from typing import Any, Callable, Iterable, Mapping

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bus.base import CHANNEL, Broker
from app.db import repositories as repo
from app.db.models import Room
from app.rooms.catalog import Catalog
from app.rooms.clocks import Clock
from app.rooms.codes import room_code
from app.rooms.errors import RoomError
from app.rooms.lifecycle import RoomStatus, transition
from app.rooms.live import LiveMatch
from app.rooms.play import MatchRunner, to_datetime
from engine.core import Game

SeedSource = Callable[[], bytes]
#: How many rooms' ``Room`` JSON ``RoomService.cached_room`` keeps (the oldest copy goes first).
ROOM_CACHE_SIZE = 10_000


def new_seed() -> bytes:
    """Return a fresh secret match seed: 32 bytes from ``secrets``."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """Return the public commitment of a seed: its SHA-256, hex (ARCHITECTURE.md "Fairness")."""
    return hashlib.sha256(seed).hexdigest()


def iso(value) -> str | None:
    """Return an aware datetime as ISO 8601 text (``None`` stays ``None``)."""
    return value.isoformat() if value is not None else None


class RoomService:
    """Rooms, seats, matches and their live state.

    Args:
        sessions: the async session factory.
        broker: the room-event broker.
        clock: the time source (``SystemClock`` in production, ``ManualClock`` in tests).
        grace: seconds a clock that expired while the server was down still gets.
        seed_source: returns each new match's secret seed (injectable so tests fix it).
        games: ``{id: GAME}`` (default: ``engine.registry.GAMES``).
    """

    def __init__(self, sessions: async_sessionmaker, broker: Broker, clock: Clock,
                 grace: float = 10.0, seed_source: SeedSource = new_seed,
                 games: Mapping[str, Game] | None = None) -> None:
        self._sessions, self._broker, self._clock = sessions, broker, clock
        self._seed_source = seed_source
        self.catalog = Catalog(games)
        self.matches = MatchRunner(sessions, broker, self.catalog, clock, grace)
        self._seat_locks: dict[str, asyncio.Lock] = {}
        self._rooms: dict[str, tuple[tuple[int, bool] | None, dict[str, Any]]] = {}
        self._forgets = 0  # how many times forget_room was called
        self._forgotten: dict[str, int] = {}  # code -> the forget that dropped it last
        self._forgotten_floor = 0  # rooms not in _forgotten count as forgotten at this forget

    async def start(self) -> None:
        """Resume every playing match (clocks included)."""
        await self.matches.resume_all()

    async def stop(self) -> None:
        """Stop the clocks."""
        await self.matches.stop()

    # ------------------------------------------------------------------ rooms

    async def create_room(self, creator_id: int, game_id: str,
                          raw_options: Mapping[str, Any] | None, *, private: bool = False,
                          on_timeouts: str = "bot") -> dict[str, Any]:
        """Create an open room; return its ``Room`` JSON (the creator is not seated).

        ``private``: never listed, with a 96-bit code (``app.rooms.codes``); ``on_timeouts``:
        ``"bot"`` or ``"forfeit"`` after three timeouts in a row (``app.rooms.management``).

        Raises:
            RoomError: ``unknown_game`` / ``bad_option`` (422) from the engine's validation.
        """
        options, _ = self.catalog.options(game_id, raw_options)
        now = to_datetime(self._clock.now())
        async with self._sessions() as session, session.begin():
            for _ in range(5):
                code = room_code(private)
                if await repo.room_by_code(session, code) is None:
                    break
            room = await repo.add_room(session, code, game_id, options, creator_id, now)
            room.private, room.on_timeouts = private, on_timeouts
            return (await self._rooms_json(session, [room]))[0]

    async def room(self, code: str) -> dict[str, Any]:
        """Return the ``Room`` JSON of ``code`` read from the database now (three queries);
        it also refreshes what ``cached_room`` answers.

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        start, key = self._forgets, self.matches.match_key(code)
        async with self._sessions() as session:
            room = await self._room(session, code)
            data = (await self._rooms_json(session, [room]))[0]
        if self._forgotten.get(code, self._forgotten_floor) <= start:  # none while reading
            self._rooms[code] = (key, data)
            if len(self._rooms) > ROOM_CACHE_SIZE:
                del self._rooms[next(iter(self._rooms))]
        return data

    async def cached_room(self, code: str) -> dict[str, Any]:
        """Return the ``Room`` JSON of ``code`` from memory, read again only after a change.

        The copy is valid while the room's match held here keeps its id and its end
        (``MatchRunner.match_key``: a start, a rematch, the finish) and ``forget_room`` was not
        called (seat changes here; every ``room`` message from the broker, via the hub).
        bench/RESULTS.md section 3, fix 3: the hub fans out every version with it.

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        hit = self._rooms.get(code)
        if hit is not None and hit[0] == self.matches.match_key(code):
            return hit[1]
        return await self.room(code)

    def forget_room(self, code: str | None = None) -> None:
        """Drop the in-memory ``Room`` JSON of ``code`` (of every room with ``None``)."""
        self._forgets += 1
        if code is not None and len(self._forgotten) < ROOM_CACHE_SIZE:
            self._rooms.pop(code, None)
            self._forgotten[code] = self._forgets
            return
        if code is None:
            self._rooms.clear()
        else:
            self._rooms.pop(code, None)
        self._forgotten.clear()  # bounded: every room now counts as forgotten at this call
        self._forgotten_floor = self._forgets

    async def rooms(self, statuses: Iterable[str]) -> list[dict[str, Any]]:
        """Return the rooms with one of ``statuses``, newest first, as ``Room`` JSON."""
        async with self._sessions() as session:
            rooms = await repo.list_rooms(session, statuses)
            return await self._rooms_json(session, rooms)

    async def rooms_of(self, player_id: int, statuses: Iterable[str]) -> list[dict[str, Any]]:
        """Return the rooms with one of ``statuses`` where ``player_id`` holds a seat, newest
        first, as ``Room`` JSON (the "my games" list: issue 11 part 4)."""
        async with self._sessions() as session:
            rooms = await repo.seated_rooms(session, player_id, statuses)
            return await self._rooms_json(session, list(rooms))

    async def seat_of(self, code: str, player_id: int | None) -> int | None:
        """Return the seat ``player_id`` holds in room ``code``, or ``None`` (also for no player).

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        if player_id is None:
            await self.cached_room(code)  # room_not_found still applies
            return None
        room = await self.cached_room(code)
        return next((s["seat"] for s in room["seats"] if s["player_id"] == player_id), None)

    @staticmethod
    async def _room(session: AsyncSession, code: str, lock: bool = False) -> Room:
        room = await repo.room_by_code(session, code, lock=lock)
        if room is None:
            raise RoomError("room_not_found", f"No room has the code {code!r}.", 404)
        return room

    async def _rooms_json(self, session: AsyncSession, rooms: list[Room]) -> list[dict[str, Any]]:
        ids = [room.id for room in rooms]
        seats = await repo.room_seats(session, ids)
        matches = await repo.latest_match_ids(session, ids)
        return [self._room_json(room, seats[room.id], matches.get(room.id)) for room in rooms]

    def _room_json(self, room: Room, seats: list[tuple[int, int, str]],
                   match_id: int | None) -> dict[str, Any]:
        """Return the ``Room`` JSON (docs/protocol.md "Shapes").

        ``teams`` are the engine's ``sides(options, seats)`` (known before the start) and each
        seat's ``team`` its index there; a seat's ``side`` is its side's name in the match's
        view (``LiveMatch.side_names``) where this process holds that match, else ``None``.
        """
        game = self.catalog.game(room.game)
        _, count = self.catalog.options(room.game, room.options)
        teams = [list(side) for side in game.sides(room.options, count)]
        team_of = {seat: index for index, side in enumerate(teams) for seat in side}
        taken = {seat: (pid, name) for seat, pid, name in seats}
        side_of = self.matches.side_names(room.code, match_id)
        return {
            "code": room.code, "game": room.game, "options": room.options,
            "status": room.status,
            "seats": [{"seat": s, "player_id": taken.get(s, (None, None))[0],
                       "name": taken.get(s, (None, None))[1], "team": team_of[s],
                       "side": side_of.get(s)}
                      for s in range(count)],
            "teams": teams,
            "match_id": match_id, "created_at": iso(room.created_at),
            "ws": f"/ws/rooms/{room.code}",
            "creator_id": room.creator_id, "private": bool(room.private),
            "on_timeouts": room.on_timeouts or "bot", "rematch": sorted(room.rematch or []),
        }

    # ------------------------------------------------------------------ seats

    async def claim_seat(self, code: str, seat: int, player_id: int) -> dict[str, Any]:
        """Seat ``player_id`` at ``seat``; start the match when every seat is filled.

        Returns the ``Room`` JSON after the change.

        Raises:
            RoomError: ``room_not_found`` (404), ``no_such_seat`` (404), ``room_not_open``,
                ``seat_taken``, ``already_seated`` (409).
        """
        async with self._seat_locks.setdefault(code, asyncio.Lock()):
            live = None
            async with self._sessions() as session, session.begin():
                room = await self._room(session, code, lock=True)
                seats = await self._free_seat(session, room, seat, player_id)
                try:
                    await repo.add_room_seat(session, room.id, seat, player_id)
                except IntegrityError as exc:
                    raise RoomError("seat_taken", "That seat is taken.") from exc
                seats[seat] = player_id
                room.active_at = to_datetime(self._clock.now())
                _, count = self.catalog.options(room.game, room.options)
                if len(seats) == count:
                    live = await self._start_match(session, room, seats)
            self.forget_room(code)
            if live is not None:
                await self.matches.started(live)
            await self._broker.publish(CHANNEL, {"room": code, "kind": "room"})
        return await self.room(code)

    async def _free_seat(self, session: AsyncSession, room: Room, seat: int,
                         player_id: int) -> dict[int, int]:
        """Check that ``seat`` can be claimed; return ``{seat: player_id}`` of the taken ones."""
        if room.status != RoomStatus.OPEN.value:
            raise RoomError("room_not_open", "The room is not open any more.")
        _, count = self.catalog.options(room.game, room.options)
        if not 0 <= seat < count:
            raise RoomError("no_such_seat", f"Seats are numbered 0 to {count - 1}.", 404)
        taken = {s: pid for s, pid, _ in (await repo.room_seats(session, [room.id]))[room.id]}
        if seat in taken:
            raise RoomError("seat_taken", "That seat is taken.")
        if player_id in taken.values():
            raise RoomError("already_seated", "You already hold a seat in this room.")
        return taken

    def seat_lock(self, code: str) -> asyncio.Lock:
        """Return this process's lock serialising seat changes and match starts of ``code``."""
        return self._seat_locks.setdefault(code, asyncio.Lock())

    async def start_match(self, session: AsyncSession, room: Room,
                          seats: Mapping[int, int]) -> LiveMatch:
        """Create a match of ``room`` for ``{seat: player_id}`` in the caller's transaction
        (a rematch: ``app.rooms.management``); see ``_start_match``. The caller holds
        ``seat_lock(room.code)`` and calls ``matches.started`` after the commit."""
        return await self._start_match(session, room, seats)

    async def _start_match(self, session: AsyncSession, room: Room,
                           seats: Mapping[int, int]) -> LiveMatch:
        """Create the match (secret seed + commitment), move the room to ``playing``."""
        seed = self._seed_source()
        now = self._clock.now()
        status = transition(room.status, RoomStatus.PLAYING)
        match = await repo.add_match(session, room, seed.hex(), commitment(seed),
                                     sorted(seats.items()), to_datetime(now))
        live = LiveMatch.start(self.catalog.game(room.game), match.id, room.id, room.code,
                               room.options, len(seats), seed, now)
        await repo.update_match(session, match.id, deadlines={
            str(s): d for s, d in live.deadlines.items()})
        await repo.set_room_status(session, room.id, status.value)
        room.status = status.value
        return live

    async def leave_seat(self, code: str, seat: int, player_id: int) -> dict[str, Any]:
        """Free ``seat`` (its holder, or the room's creator removing a player: issue 11 part 4;
        only before the start); return the ``Room`` JSON.

        Raises:
            RoomError: ``room_not_found`` (404), ``room_not_open``, ``not_seated`` (409).
        """
        async with self._seat_locks.setdefault(code, asyncio.Lock()):
            async with self._sessions() as session, session.begin():
                room = await self._room(session, code, lock=True)
                if room.status != RoomStatus.OPEN.value:
                    raise RoomError("room_not_open", "The match has already started.")
                seats = (await repo.room_seats(session, [room.id]))[room.id]
                taken = {s: pid for s, pid, _ in seats}
                if seat not in taken or player_id not in (taken[seat], room.creator_id):
                    raise RoomError("not_seated", "You do not hold that seat.")
                await repo.remove_room_seat(session, room.id, seat)
                room.active_at = to_datetime(self._clock.now())
            self.forget_room(code)
            await self._broker.publish(CHANNEL, {"room": code, "kind": "room"})
        return await self.room(code)
