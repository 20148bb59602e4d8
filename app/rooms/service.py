"""RoomService: the one entry point of the REST layer into rooms, seats and matches, and the
maker of each live room's ``RoomPort`` (``port``), the only door the websocket hub, the bot
driver and room management use.

It is the only importer of ``engine`` (through ``catalog``, ``live``, ``store``, ``ladder``):
routes get JSON-ready dicts, never engine state.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bus.base import Broker
from app.db import repositories as repo
from app.db.models import Room
from app.rooms.catalog import Catalog
from app.rooms.clocks import Clock
from app.rooms.codes import unused_code
from app.rooms.errors import RoomError
from app.rooms.lifecycle import RoomStatus, check_seats_open, transition
from app.rooms.live import LiveMatch
from app.rooms.live_rooms import Listener, LiveRooms
from app.rooms.observe import Observer
from app.rooms.peers import Peers
from app.rooms.port import RoomPort
from app.rooms.publisher import Publisher
from app.rooms.store import MatchStore, to_datetime
from engine.core import Game

log = logging.getLogger(__name__)

#: Rooms whose ``Room`` JSON one read takes when a lost process's rooms are checked again.
RECHECK_BATCH = 500

SeedSource = Callable[[], bytes]


def new_seed() -> bytes:
    """Return a fresh secret match seed: 32 bytes from ``secrets``."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """Return the public commitment of a seed: its SHA-256, hex (ARCHITECTURE.md "Fairness")."""
    return hashlib.sha256(seed).hexdigest()


def iso(value) -> str | None:
    """Return an aware datetime as ISO 8601 text (``None`` stays ``None``)."""
    return value.isoformat() if value is not None else None


class NewMatch:
    """A match created in a caller's transaction (``start_match``), to be held here once that
    transaction committed (``RoomService.adopt``)."""

    __slots__ = ("_live",)

    def __init__(self, live: LiveMatch) -> None:
        self._live = live

    @property
    def match_id(self) -> int:
        """The new match's id."""
        return self._live.match_id


class RoomService:
    """Rooms, seats, matches, and the live rooms of this process.

    Args:
        sessions: the async session factory.
        broker: the room-event broker.
        clock: the time source (``SystemClock`` in production, ``ManualClock`` in tests).
        grace: seconds a clock that expired while no process held its match still gets.
        commit_delay: seconds a store transaction waits for more actions (``GroupWriter``).
        seed_source: returns each new match's secret seed (injectable so tests fix it).
        games: ``{id: GAME}`` (default: ``engine.registry.GAMES``).

    Attributes:
        catalog: the hosted games; publisher: the room channel (``Publisher``); store: the
            stored log (``MatchStore``).
    """

    def __init__(self, sessions: async_sessionmaker, broker: Broker, clock: Clock,
                 grace: float = 10.0, seed_source: SeedSource = new_seed,
                 games: Mapping[str, Game] | None = None, commit_delay: float = 0.0) -> None:
        self._sessions, self._clock = sessions, clock
        self._seed_source = seed_source
        self.catalog = Catalog(games)
        self.publisher = Publisher(broker)
        self.store = MatchStore(sessions, self.catalog, clock, grace, commit_delay)
        self._live = LiveRooms(self.store, self.publisher, clock, self.room)
        self.peers = Peers(self.publisher, clock, self._peer_lost)
        self._seat_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = \
            weakref.WeakValueDictionary()

    async def start(self) -> None:
        """Follow the room channel (``resume`` then holds the playing matches) and say this
        process is alive on it (``Peers``)."""
        await self.publisher.start()
        self.peers.start()

    async def resume(self) -> None:
        """Hold every playing match, clocks included (``LiveRooms.resume_all``: while the
        process serves already)."""
        await self._live.resume_all()

    async def stop(self) -> None:
        """Let in-flight actions finish, stop the clocks, say this process leaves, stop
        following the channel."""
        await self._live.stop()
        await self.peers.stop()
        await self.publisher.stop()
        await self.store.writer.close()

    # ------------------------------------------------------------------ live rooms

    def port(self, code: str) -> RoomPort:
        """Return the door into room ``code`` as this process serves it (``RoomPort``)."""
        return RoomPort(self._live, code)

    def listen(self, listener: Listener) -> None:
        """Call ``await listener(code)`` after every change of a match held here (an action
        stored here, one heard from another process, a catch-up, a new match)."""
        self._live.listeners.append(listener)

    def observe(self, observer: Observer) -> Callable[[], None]:
        """Call ``observer(Applied)`` after every action stored by this process; return the
        function that stops it."""
        self._live.observers.append(observer)
        return lambda: self._live.observers.remove(observer)

    @property
    def clocks_paused(self) -> bool:
        """Whether the clocks are stopped because the broker is down
        (``LiveRooms.clocks_paused``)."""
        return self._live.clocks_paused

    def held(self) -> int:
        """Return how many unfinished matches this process holds."""
        return self._live.playing()

    def retained(self) -> dict[str, int]:
        """Return how many per-room entries this process keeps: the live rooms'
        (``LiveRooms.retained``) and the seat locks in use."""
        return {**self._live.retained(), "seat_locks": len(self._seat_locks)}

    async def dump(self, code: str) -> dict[str, Any] | None:
        """Return ``{"version", "state": GAME.dump(state)}`` of room ``code``'s match as this
        process holds it (held now if it was not), ``None`` while it has none. For
        verification only (replay checks, crash tests): the dump holds hidden information and
        never goes to clients.

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        room = self._live.enter(code)
        try:
            async with room.lock:
                if room.match is None:
                    await self._live.make_current(room)
            live = room.match
            return None if live is None else {"version": live.version,
                                              "state": live.game.dump(live.state)}
        finally:
            self._live.release(room)

    # ------------------------------------------------------------------ rooms

    async def create_room(self, creator_id: int, game_id: str,
                          raw_options: Mapping[str, Any] | None, *, private: bool = False,
                          on_timeouts: str = "bot",
                          admit: Callable[[], None] | None = None) -> dict[str, Any]:
        """Create an open room; return its ``Room`` JSON (the creator is not seated).

        ``private``: never listed, with a 96-bit code (``app.rooms.codes``); ``on_timeouts``:
        ``"bot"`` or ``"forfeit"`` after three timeouts in a row (``app.rooms.management``);
        ``admit``: called once the game and its options are valid, before anything is stored
        (a rate limit's spending: a refused request spends nothing).

        Raises:
            RoomError: ``unknown_game`` / ``bad_option`` (422) from the engine's validation;
                what ``admit`` raises (e.g. ``rate_limited``, 429); ``no_free_code`` (503,
                ``app.rooms.codes.unused_code``).
        """
        options, _ = self.catalog.options(game_id, raw_options)
        if admit is not None:
            admit()
        now = to_datetime(self._clock.now())
        async with self._sessions() as session, session.begin():

            async def taken(code: str) -> bool:
                return await repo.room_by_code(session, code) is not None

            code = await unused_code(private, taken)
            room = await repo.add_room(session, code, game_id, options, creator_id, now)
            room.private, room.on_timeouts = private, on_timeouts
            return (await self._rooms_json(session, [room]))[0]

    async def room(self, code: str) -> dict[str, Any]:
        """Return the ``Room`` JSON of ``code`` read from the database now (two queries: the room
        row, then its seats with its newest match: ``repo.room_listings``).

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        async with self._sessions() as session:
            room = await self._room(session, code)
            return (await self._rooms_json(session, [room]))[0]

    async def rooms_by_code(self, codes: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Return ``{code: Room JSON}`` of the rooms of ``codes`` that exist, read now (two
        queries for them all)."""
        async with self._sessions() as session:
            rooms = await repo.rooms_by_codes(session, codes)
            documents = await self._rooms_json(session, rooms)
        return {room.code: data for room, data in zip(rooms, documents)}

    async def _peer_lost(self, process: str) -> None:
        """Another process fell silent (``Peers``): the followed matches are made current
        (``LiveRooms.peer_lost``), then each followed room whose ``Room`` JSON is not the one
        kept here is handled as if its ``room`` message had been heard (a process killed
        between a seat change's COMMIT and its ``room`` message never sent it): the sockets get
        the new JSON, a watching player it seats is greeted again. The JSON is read in
        batches of ``RECHECK_BATCH`` rooms (two queries each)."""
        await self._live.peer_lost(process)
        codes = self._live.followed()
        for at in range(0, len(codes), RECHECK_BATCH):
            batch = codes[at:at + RECHECK_BATCH]
            try:
                read = await self.rooms_by_code(batch)
            except Exception:
                log.exception("could not read the followed rooms again")
                continue
            for code in batch:
                if code in read and read[code] != self._live.kept_room(code):
                    await self.publisher.dispatch({"room": code, "kind": "room"})

    async def rooms(self, statuses: Iterable[str], limit: int,
                    before_id: int | None = None) -> tuple[list[dict[str, Any]], int | None]:
        """Return up to ``limit`` listed rooms with one of ``statuses`` (and an id below
        ``before_id``), newest first, as ``Room`` JSON, and the id the next page starts
        below (``None`` on the last page)."""
        async with self._sessions() as session:
            rows = await repo.list_rooms(session, statuses, limit + 1, before_id)
            page = list(rows[:limit])
            after = page[-1].id if len(rows) > limit else None
            return await self._rooms_json(session, page), after

    async def rooms_of(self, player_id: int, statuses: Iterable[str]) -> list[dict[str, Any]]:
        """Return the rooms with one of ``statuses`` where ``player_id`` holds a seat, newest
        first, as ``Room`` JSON (the "my games" list)."""
        async with self._sessions() as session:
            rooms = await repo.seated_rooms(session, player_id, statuses)
            return await self._rooms_json(session, list(rooms))

    @staticmethod
    async def _room(session: AsyncSession, code: str, lock: bool = False) -> Room:
        room = await repo.room_by_code(session, code, lock=lock)
        if room is None:
            raise RoomError("room_not_found", f"No room has the code {code!r}.", 404)
        return room

    async def _rooms_json(self, session: AsyncSession, rooms: Sequence[Room]) -> list[dict[str, Any]]:
        listings = await repo.room_listings(session, [room.id for room in rooms])
        return [self.room_json(room, *listings.get(room.id, ([], None))) for room in rooms]

    def room_json(self, room: Room, seats: list[repo.SeatRow],
                  match_id: int | None) -> dict[str, Any]:
        """Return the ``Room`` JSON (docs/protocol.md "Shapes") of the row ``room`` (read in a
        session that may have ended since), its claimed ``seats`` (by seat) and the id of its
        newest match (``None``: none yet).

        ``teams`` are the engine's ``sides(options, seats)`` (known before the start) and each
        seat's ``team`` its index there. Where this process holds that match, a seat's
        ``side`` is its side's name in the match's view (``LiveMatch.side_names``) and
        ``forfeit`` the seat the room resigned (``LiveMatch.forfeit``); else ``None``.
        """
        _, count = self.catalog.options(room.game, room.options)
        teams = self.catalog.teams(room.game, room.options, count)
        team_of = {seat: index for index, side in enumerate(teams) for seat in side}
        taken = {row.seat: row.to_json() for row in seats}
        held = self._live.held(room.code)
        if held is None or held.match_id != match_id:
            held = None
        side_of = held.side_names() if held is not None else {}
        return {
            "code": room.code, "game": room.game, "options": room.options,
            "status": room.status,
            "seats": [{"seat": s, **taken.get(s, repo.FREE_SEAT), "team": team_of[s],
                       "side": side_of.get(s)}
                      for s in range(count)],
            "teams": teams,
            "match_id": match_id, "created_at": iso(room.created_at),
            "ws": f"/ws/rooms/{room.code}",
            "creator_id": room.creator_id, "private": bool(room.private),
            "on_timeouts": room.on_timeouts or "bot", "rematch": sorted(room.rematch or []),
            "forfeit": held.forfeit if held is not None else None,
        }

    # ------------------------------------------------------------------ seats

    async def claim_seat(self, code: str, seat: int, player_id: int) -> dict[str, Any]:
        """Seat ``player_id`` at ``seat``; start the match when every seat is filled.

        Returns the ``Room`` JSON after the change. A claim ``player_id`` holds already (a
        retry whose first answer was lost, e.g. to a restart) is answered with the room as it is
        now, whatever its status since, and changes nothing: no write, no room message.

        Raises:
            RoomError: ``room_not_found`` (404), ``no_such_seat`` (404), ``room_not_open``,
                ``seat_taken``, ``already_seated`` (409).
        """
        async with self.seat_lock(code):
            new = None
            async with self._sessions() as session, session.begin():
                room = await self._room(session, code, lock=True)
                rows, match_id = (await repo.room_listings(session, [room.id]))[room.id]
                seats = {row.seat: row.player_id for row in rows}
                if seats.get(seat) == player_id:
                    return self.room_json(room, rows, match_id)  # read under the lock
                self._check_free(room, seat, player_id, seats)
                try:
                    await repo.add_room_seat(session, room.id, seat, player_id)
                except IntegrityError as exc:
                    raise RoomError("seat_taken", "That seat is taken.") from exc
                seats[seat] = player_id
                room.active_at = to_datetime(self._clock.now())
                _, count = self.catalog.options(room.game, room.options)
                if len(seats) == count:
                    new = await self.start_match(session, room, seats)
            self._live.forget_room(code)
            if new is not None:
                await self.adopt(new)
            await self.publisher.room(code)
        return await self.room(code)

    def _check_free(self, room: Room, seat: int, player_id: int,
                    taken: Mapping[int, int]) -> None:
        """Check that ``player_id`` may claim ``seat`` of ``room`` whose taken seats are
        ``taken`` (``{seat: player_id}``).

        Raises:
            RoomError: ``room_not_open`` (409), ``no_such_seat`` (404), ``seat_taken``,
                ``already_seated`` (409).
        """
        if room.status != RoomStatus.OPEN.value:
            raise RoomError("room_not_open", "The room is not open any more.")
        self._check_seat_number(room, seat)
        if seat in taken:
            raise RoomError("seat_taken", "That seat is taken.")
        if player_id in taken.values():
            raise RoomError("already_seated", "You already hold a seat in this room.")

    def _check_seat_number(self, room: Room, seat: int) -> None:
        """Check that ``room`` has a seat ``seat`` (0 to its seat count − 1).

        Raises:
            RoomError: ``no_such_seat`` (404).
        """
        _, count = self.catalog.options(room.game, room.options)
        if not 0 <= seat < count:
            raise RoomError("no_such_seat", f"Seats are numbered 0 to {count - 1}.", 404)

    def seat_lock(self, code: str) -> asyncio.Lock:
        """Return this process's lock serialising seat changes and match starts of ``code``
        (kept only while someone holds or waits for it: a weak reference)."""
        lock = self._seat_locks.get(code)
        if lock is None:
            lock = self._seat_locks[code] = asyncio.Lock()
        return lock

    async def start_match(self, session: AsyncSession, room: Room,
                          seats: Mapping[int, int]) -> NewMatch:
        """Create a match of ``room`` for ``{seat: player_id}`` in the caller's transaction:
        a secret seed and its commitment, the room moved to ``playing``. The caller holds
        ``seat_lock(room.code)`` and passes the result to ``adopt`` after the commit."""
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
        return NewMatch(live)

    async def adopt(self, new: NewMatch) -> None:
        """Hold a match ``start_match`` created (its transaction committed) and announce it."""
        await self._live.adopt(new._live)

    async def leave_seat(self, code: str, seat: int, player_id: int) -> dict[str, Any]:
        """Free ``seat`` (its holder, or the room's creator removing a player;
        only before the start); return the ``Room`` JSON after the change.

        Leaving is idempotent as claiming is: a seat of an open room that nobody holds (a retry
        whose first answer was lost: the caller left it already) is answered with the room as
        it is now, and changes nothing: no write, no room message.

        Raises:
            RoomError: ``room_not_found`` (404), ``no_such_seat`` (404); ``room_not_open``
                (409) once the match started or the room was abandoned, ``match_ended`` (409)
                once it is over (``lifecycle.check_seats_open``); ``not_seated`` (409) for a
                seat someone else holds (the room's creator may free it).
        """
        async with self.seat_lock(code):
            async with self._sessions() as session, session.begin():
                room = await self._room(session, code, lock=True)
                check_seats_open(room.status)
                self._check_seat_number(room, seat)
                rows, match_id = (await repo.room_listings(session, [room.id]))[room.id]
                holder = {row.seat: row.player_id for row in rows}.get(seat)
                if holder is None:
                    return self.room_json(room, rows, match_id)  # read under the lock
                if player_id not in (holder, room.creator_id):
                    raise RoomError("not_seated", "You do not hold that seat.")
                await repo.remove_room_seat(session, room.id, seat)
                room.active_at = to_datetime(self._clock.now())
            self._live.forget_room(code)
            await self.publisher.room(code)
        return await self.room(code)
