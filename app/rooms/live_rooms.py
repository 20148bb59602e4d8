"""The live rooms of this process: what it holds of each room, kept current by the rule of
docs/server.md "When a held match is current", and the one path every action takes.

``LiveRooms`` holds one ``LiveRoom`` per room that a local socket follows (``Follower``) or
whose match is being played (its clocks fire here). An entry goes once neither holds: a room
with no follower left and no match being played is dropped, so nothing is kept per closed room.

Currency (docs/server.md): with a single-process broker this process stores every action, so
its copy moves right after each COMMIT and nothing is read. With several processes a greet
reads the stored head first (``make_current``), an action decided on a copy that was behind is
refused by the unique ``(match_id, seq)`` (then the copy catches up and it is decided again),
a refusal stands only once the copy is current, a clock catches up before it fires, a followed
copy applies every version message, and an unfollowed one ignores them and is made current
before its next use.

Every change of a held match is told to ``listeners`` (``await listener(code)``: the hub's
fan-out, the bot driver) right after it; an action stored here or a match started here is
published to the other processes first (so nobody is told of it by a process that could still
die without having published it).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from app.rooms.clocks import Clock
from app.rooms.errors import RoomError
from app.rooms.firing import ClockFiring, Decide
from app.rooms.journal import Journal
from app.rooms.live import RESIGN, Forfeit, LiveMatch, Step
from app.rooms.observe import Applied, Observer
from app.rooms.publisher import Publisher
from app.rooms.store import MatchStore, SeqTaken, StoredStep, replayed
from engine.core import EngineError

log = logging.getLogger(__name__)

#: How many times an action is decided again after another process stored the next seq first
#: (each time on the caught-up match, so a simultaneous answer of another seat — a mulligan —
#: is applied after it, and a second answer to one decision is refused).
SEQ_RETRIES = 5
#: Seconds ``stop`` waits for the appends in flight at shutdown.
STOP_WAIT = 10.0

#: ``await listener(code)`` after the match held for room ``code`` changed.
Listener = Callable[[str], Awaitable[None]]
#: ``await read_room(code)``: the ``Room`` JSON read from the database.
ReadRoom = Callable[[str], Awaitable[dict[str, Any]]]


@dataclass(eq=False, slots=True)
class Follower:
    """One socket following a room: the viewer it watches as and what it was last shown.

    Attributes:
        viewer: the seat, ``None`` for a spectator.
        match_id: the match ``since`` counts in (``None`` before the first match view).
        since: the action count of the last frame shown (-1: none of ``match_id`` yet).
        public: the public ``version`` of that frame.
        shown: what it showed apart from the version and the events (``shown_by``).
        timed: the held match's ``deadlines`` mapping when it was last rendered for it (a
            new one without a new version: the clocks moved, e.g. after a broker outage).
    """

    viewer: int | None
    match_id: int | None = None
    since: int = -1
    public: int = 0
    shown: tuple | None = None
    timed: Any = None


class LiveRoom:
    """What this process holds of one room.

    Attributes:
        code: the room; match: its newest match as held here, or ``None`` (open, not loaded).
        loaded: the database was read for it (with a single-process broker nothing changes it
            but this process afterwards).
        lock: serialises changes of ``match`` (appends, catch-ups, loads).
        journal: the events the followers may still need.
        followers: the local sockets following the room.
        room, room_key, room_age: the ``Room`` JSON read for ``room_key`` (the held match's
            ``(match_id, over)``, or ``None``), dropped when ``forget_room`` bumps ``room_age``.
        reading: a greet's read of that JSON in flight, ``((room_age, room_key), task)``,
            shared by the greets meanwhile (``room_json``), or ``None``.
        renders: ``(viewer, since, version) -> update data`` of one fan-out (shared by every
            socket of one viewer and cursor).
        changed: the match changed since the listeners were last told.
    """

    __slots__ = ("code", "match", "loaded", "lock", "journal", "followers", "room", "room_key",
                 "room_age", "reading", "renders", "changed")

    def __init__(self, code: str) -> None:
        self.code = code
        self.match: LiveMatch | None = None
        self.loaded = False
        self.lock = asyncio.Lock()
        self.journal = Journal()
        self.followers: set[Follower] = set()
        self.room: dict[str, Any] | None = None
        self.room_key: tuple[int, bool] | None = None
        self.room_age = 0
        self.reading: tuple[tuple[int, tuple[int, bool] | None], asyncio.Task] | None = None
        self.renders: dict[tuple, dict[str, Any]] = {}
        self.changed = False

    def match_key(self) -> tuple[int, bool] | None:
        """Return ``(match_id, over)`` of the held match, or ``None``."""
        return (self.match.match_id, self.match.over) if self.match is not None else None


def _ended_elsewhere(status: str, over: bool) -> bool:
    """Whether a room read with ``status`` disagrees with its held match's ``over`` about that
    match's end (``playing`` against over, ``finished`` against not over)."""
    return (status == "finished" and not over) or (status == "playing" and over)


def _end_reading(room: LiveRoom, read: asyncio.Task) -> None:
    """Forget ``read`` as ``room``'s read in flight once it ended (its error, if any, was
    raised to its callers; retrieved here in case they were all cancelled)."""
    if room.reading is not None and room.reading[1] is read:
        room.reading = None
    if not read.cancelled():
        read.exception()


def held_match(room: LiveRoom) -> LiveMatch:
    """Return the match ``room`` holds.

    Raises:
        RuntimeError: it holds none (the callers load one, under ``room.lock``, first).
    """
    if room.match is None:
        raise RuntimeError(f"room {room.code} holds no match")
    return room.match


class LiveRooms:
    """The rooms held by this process (see the module docstring).

    Args:
        store: the stored log; publisher: the room channel; clock: the time source;
        read_room: reads a room's ``Room`` JSON (``RoomService.room``).
    """

    def __init__(self, store: MatchStore, publisher: Publisher, clock: Clock,
                 read_room: ReadRoom) -> None:
        self._store, self._publisher, self._clock = store, publisher, clock
        self.read_room = read_room
        self._rooms: dict[str, LiveRoom] = {}
        self._single = publisher.single_process
        self._firing = ClockFiring(clock, self.held, self.play)
        self.observers: list[Observer] = []  # told of every action stored here
        self.listeners: list[Listener] = []  # told of every change of a held match
        publisher.on("version", self._heard_version)
        publisher.on("room", self._heard_room)
        publisher.on("resync", self._heard_resync)
        publisher.on("lost", self._heard_lost)
        #: Clock time (unix s) the broker was found down, ``None`` while it answers.
        self._outage_since: float | None = None

    # ------------------------------------------------------------------ the registry

    def held(self, code: str) -> LiveMatch | None:
        """Return the match held for room ``code``, or ``None``."""
        room = self._rooms.get(code)
        return room.match if room is not None else None

    def entry(self, code: str) -> LiveRoom | None:
        """Return what is held of room ``code``, or ``None``."""
        return self._rooms.get(code)

    def enter(self, code: str) -> LiveRoom:
        """Return what is held of room ``code``, holding it (empty) if nothing was."""
        room = self._rooms.get(code)
        if room is None:
            room = self._rooms[code] = LiveRoom(code)
        return room

    def release(self, room: LiveRoom) -> None:
        """Drop ``room`` if nothing needs it any more: no follower, no match being played (its
        clock), no change in flight."""
        if room.followers or room.lock.locked() or (room.match is not None
                                                    and not room.match.over):
            return
        if self._rooms.get(room.code) is room:
            del self._rooms[room.code]
            self._firing.drop(room.code)

    @property
    def clocks_paused(self) -> bool:
        """Whether the clocks are stopped because the broker is down (``lost`` without its
        ``resync`` yet)."""
        return self._firing.paused

    def playing(self) -> int:
        """Return how many unfinished matches this process holds."""
        return sum(1 for room in self._rooms.values()
                   if room.match is not None and not room.match.over)

    def retained(self) -> dict[str, int]:
        """Return how many rooms are held, followed and on the clock here (what stays in memory
        per room; 0 each once every room here is closed)."""
        return {"rooms": len(self._rooms),
                "followed": sum(1 for room in self._rooms.values() if room.followers),
                "clocks": self._firing.watched()}

    def forget_room(self, code: str | None = None) -> None:
        """Drop the ``Room`` JSON read for room ``code`` (of every room with ``None``)."""
        rooms = self._rooms.values() if code is None else [self._rooms.get(code)]
        for room in rooms:
            if room is not None:
                room.room, room.room_age = None, room.room_age + 1

    def followed(self) -> list[str]:
        """Return the codes of the rooms some socket of this process follows."""
        return [code for code, room in self._rooms.items() if room.followers]

    def kept_room(self, code: str) -> dict[str, Any] | None:
        """Return the ``Room`` JSON kept for room ``code`` (``kept_room_json``), or ``None``."""
        room = self._rooms.get(code)
        return self.kept_room_json(room) if room is not None else None

    @staticmethod
    def kept_room_json(room: LiveRoom) -> dict[str, Any] | None:
        """Return the ``Room`` JSON kept for ``room`` if it still names the held match, else
        ``None`` (``room_json`` reads it)."""
        if room.room is not None and room.room_key == room.match_key():
            return room.room
        return None

    async def room_json(self, room: LiveRoom, shared: bool = False) -> dict[str, Any]:
        """Return the ``Room`` JSON of ``room``, read again only after a change (another match,
        its end, ``forget_room``); kept while the room is held here.

        It names the match held here (the one every frame it goes with shows): read while the
        room already moved on to a newer match that this process has not heard of yet (a
        rematch started elsewhere), or while the held match's end is not heard of yet (a resign
        stored elsewhere: ``finished`` beside a view without an outcome), its ``match_id`` and
        ``status`` are the held match's, and it is not kept.

        With ``shared`` (a greet) a caller that finds nothing kept joins the read in flight of
        another ``shared`` caller for the same ``room_age`` and match (one read for a room's
        sockets greeted at once, not one each); the others (a fan-out, a sync) read on their
        own, so none waits for a read begun before it.

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        kept = self.kept_room_json(room)
        if kept is not None:
            return kept
        if not shared:
            return await self._read_room_json(room)
        stamp = (room.room_age, room.match_key())
        if room.reading is None or room.reading[0] != stamp:
            read = asyncio.ensure_future(self._read_room_json(room))
            read.add_done_callback(partial(_end_reading, room))
            room.reading = (stamp, read)
        return await asyncio.shield(room.reading[1])

    async def _read_room_json(self, room: LiveRoom) -> dict[str, Any]:
        """Read the ``Room`` JSON of ``room`` and keep it if nothing changed meanwhile
        (``room_json``)."""
        key = room.match_key()
        age = room.room_age
        data = await self.read_room(room.code)
        live = room.match
        if live is not None and (data["match_id"] != live.match_id
                                 or _ended_elsewhere(data["status"], live.over)):
            return {**data, "match_id": live.match_id,
                    "status": "finished" if live.over else "playing"}
        if room.room_age == age and self._rooms.get(room.code) is room:  # not forgotten meanwhile
            room.room, room.room_key = data, key
        return data

    # ------------------------------------------------------------------ lifecycle

    async def resume_all(self) -> None:
        """Hold every playing match (replaying its log) and restart its clock, with grace.

        Run while the process already serves: the matches are read in batches
        (``MatchStore.playing``) and replayed one at a time, letting other work run between
        two; a room already loaded meanwhile (a greet, a bot, an action) is left as it is,
        and a copy that fell behind while the batch was replayed is made current before its
        next use like any unfollowed copy (docs/server.md "When a held match is current").
        """
        async for batch in self._store.playing():
            for stored in batch:
                room = self.enter(stored.code)
                async with room.lock:
                    installed = not room.loaded
                    try:
                        if installed:
                            self._install(room, *self._store.rebuild(stored))
                    except EngineError:  # a corrupt log: the other rooms still resume
                        log.exception("room %s: its stored log does not replay", stored.code)
                        installed = False
                if installed and room.followers:
                    await self.settle(room)
                elif installed:
                    room.changed = False  # nobody follows it here yet
                self.release(room)
                await asyncio.sleep(0)  # let the sockets and clocks run between two replays

    async def stop(self) -> None:
        """Let every in-flight append finish (each room's lock, at most ``STOP_WAIT`` seconds
        for all), then stop the clocks (and cancel any deadline action being fired).

        Part of the graceful shutdown: an action being stored is stored, and no clock fires
        afterwards. An append still stuck after the wait (database down) is cancelled: its
        transaction rolls back, so it was never acknowledged.
        """
        try:
            await asyncio.wait_for(self._quiesce(), STOP_WAIT)
        except TimeoutError:
            log.warning("in-flight actions did not finish; stopping anyway")
        await self._firing.stop()

    async def _quiesce(self) -> None:
        for room in list(self._rooms.values()):
            async with room.lock:
                self._firing.drop(room.code)

    async def adopt(self, live: LiveMatch) -> None:
        """Hold a match that was just stored (started here, version 0) and tell the other
        processes, then the listeners."""
        room = self.enter(live.code)
        async with room.lock:
            self._install(room, live, [])
            await self._publisher.version(live.code, live.match_id, live.version)
        await self.settle(room)

    # ------------------------------------------------------------------ currency

    async def make_current(self, room: LiveRoom) -> bool:
        """Bring ``room``'s match to the stored head (the caller holds ``room.lock``); return
        whether it changed.

        Single-process broker: read once (a load), then never. Otherwise one indexed query
        (``MatchStore.head``), then a load (another match) or a catch-up when behind.

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        if self._single:
            if room.loaded:
                return False
            return await self._load(room)
        head = await self._store.head(room.code)
        live = room.match
        if head.match_id is None:
            room.loaded = True
            return False
        if live is None or live.match_id < head.match_id:
            return await self._load(room)
        if live.match_id == head.match_id and head.seq > live.version:
            return await self._catch_up(room) > 0
        return False

    async def _load(self, room: LiveRoom) -> bool:
        """Hold the room's newest match as stored; return whether one is held."""
        live, steps = await self._store.load(room.code)
        room.loaded = True
        if live is None:
            return False
        self._install(room, live, steps)
        return True

    def _install(self, room: LiveRoom, live: LiveMatch, steps: list[Step]) -> None:
        """Hold ``live`` (another match than before) reached by ``steps``; start its clock."""
        room.match, room.loaded, room.changed = live, True, True
        if room.followers:  # they start this match from its deal: keep its events
            room.journal.reset(0)
            for step in steps:
                room.journal.record(step.version, step.events)
        else:
            room.journal.reset(live.version)
        if live.over:
            self._firing.drop(room.code)
        else:
            self._firing.watch(room.code)

    async def _catch_up(self, room: LiveRoom) -> int:
        """Replay what another process stored after the held version; return how many."""
        live = room.match
        if live is None:
            return 0
        stored = await self._store.after(live.match_id, live.version)
        if stored:
            self._advance(room, *replayed(live, stored))
        return len(stored)

    def _advance(self, room: LiveRoom, live: LiveMatch, steps: list[Step]) -> None:
        """Hold ``live``, the same match after ``steps``."""
        room.match, room.changed = live, True
        if room.followers:
            for step in steps:
                room.journal.record(step.version, step.events)
        if live.over:
            self._firing.drop(room.code)
        else:
            self._firing.changed(room.code)

    async def sync(self, code: str, match_id: int | None, version: int | None,
                   step: Mapping[str, Any] | None = None, hold: bool = False) -> None:
        """Bring room ``code``'s match to at least ``version`` actions of match ``match_id``
        (a broker message), or with ``match_id`` ``None`` to the stored head.

        ``step`` (``StoredStep.to_json``) is replayed as is when it is the next action of the
        match held here (no log read: bench/HISTORY.md §5); on a gap (a lost or reordered
        message) the match catches up from the log; another (newer) match is loaded. A room
        held by nobody here is only taken up with ``hold``.
        """
        room = self._rooms.get(code)
        if room is None:
            if not hold:
                return
            room = self.enter(code)
        try:
            async with room.lock:
                live = room.match
                if match_id is None or live is None or match_id > live.match_id:
                    await self.make_current(room)
                elif match_id == live.match_id and version is not None and version > live.version:
                    stored = StoredStep.from_json(step) if step is not None else None
                    if (stored is not None and stored.match_id == live.match_id
                            and version == live.version + 1):
                        self._advance(room, *replayed(live, [stored]))
                    else:
                        await self._catch_up(room)
            await self.settle(room)
        finally:
            self.release(room)

    async def _heard_version(self, message: dict[str, Any]) -> None:
        """A version message: a followed room's match follows it; others ignore it."""
        room = self._rooms.get(message["room"])
        if room is not None and room.followers:
            await self.sync(room.code, message.get("match"), message.get("version"),
                            message.get("step"))

    async def _heard_room(self, message: dict[str, Any]) -> None:
        """A room changed (here or elsewhere): its ``Room`` JSON is read again."""
        self.forget_room(message["room"])

    async def _heard_lost(self, message: dict[str, Any]) -> None:
        """The broker stopped answering: the clocks stop (no seat's clock runs out while the
        seats may not see their turn) until the ``resync``."""
        if self._outage_since is None:
            self._outage_since = self._clock.now()
            self._firing.pause()
            log.warning("broker down: clocks paused")

    async def _heard_resync(self, message: dict[str, Any]) -> None:
        """Messages may have been lost: every followed room is made current; after an outage
        every held match's deadlines move later by the outage (``LiveMatch.extended``) and
        the clocks run again."""
        since, self._outage_since = self._outage_since, None
        now = self._clock.now()
        self.forget_room()
        try:
            for room in list(self._rooms.values()):
                if room.followers or (since is not None and room.match is not None):
                    await self._resynced(room, since, now)
        finally:
            self._firing.resume()
        if since is not None:
            log.warning("broker back: clocks extended", extra={"outage": now - since})

    async def peer_lost(self, process: str) -> None:
        """Another process fell silent (``app.rooms.peers``): killed between an action's COMMIT
        and its ``version`` message, it stored an action nobody heard of, so every followed
        room is made current and its listeners told (within ``LOST_AFTER`` heartbeats of the
        kill, not at the next greet, act or clock here)."""
        now = self._clock.now()
        for room in list(self._rooms.values()):
            if room.followers:
                await self._resynced(room, None, now, announce=False)

    async def _resynced(self, room: LiveRoom, since: float | None, now: float,
                        announce: bool = True) -> None:
        """Make ``room`` current if followed, extend its clocks by the outage ``since`` ..
        ``now`` (``None``: none), tell its listeners, then (``announce``) tell the other
        processes the version held (queued: the channel is not ``connected`` before the
        resync's handlers are done).
        Actions this process stored while only its own Redis connection was lost were announced
        into the void; a process whose subscription never broke has no resync of its own and
        would show the room without them until a greet, an act or a clock there."""
        try:
            async with room.lock:
                if room.followers:
                    await self.make_current(room)
                live = room.match
                if since is not None and live is not None and not live.over:
                    room.match, room.changed = live.extended(since, now), True
            await self.settle(room)
            live = room.match
            if announce and live is not None:
                await self._publisher.version(room.code, live.match_id, live.version)
        except Exception:
            log.exception("could not refresh room %s", room.code)

    async def settle(self, room: LiveRoom) -> None:
        """Tell the listeners that ``room``'s match changed (if it did since they were last
        told), then drop the events every follower was shown."""
        if not room.changed:
            return
        room.changed = False
        for listener in self.listeners:
            try:
                await listener(room.code)
            except Exception:
                log.exception("a listener failed on room %s", room.code)
        room.renders.clear()
        self._trim(room)

    def _trim(self, room: LiveRoom) -> None:
        """Keep the events after the lowest version a follower of this match was shown (one
        still counting another match starts again from the deal)."""
        live = room.match
        if live is None:
            return
        if not room.followers:
            room.journal.reset(live.version)
            return
        room.journal.trim(min(f.since if f.match_id == live.match_id else 0
                              for f in room.followers))

    # ------------------------------------------------------------------ acting

    async def act(self, code: str, seat: int, prompt: str | None,
                  action: Mapping[str, Any]) -> None:
        """Apply ``seat``'s ``action`` answering ``prompt``, store it, then announce it.

        Checks, in order: a match exists (``match_not_started``), it is not over
        (``game_over``), a resign is always allowed; otherwise the seat is asked now
        (``already_played`` if ``prompt`` is a decision of the seat that its side took — a
        teammate's answer, this seat's from another socket or its clock —, however many
        decisions ago: ``LiveMatch.taken_by_side``; ``stale_prompt`` if another side's action
        ended it: ``LiveMatch.closed_by_others``; else ``not_your_turn``) and ``prompt`` is
        its current one (``stale_prompt``); then the engine decides (its code). The first try
        is decided on the match held here without reading the log (optimistic: the unique
        ``(match_id, seq)`` refuses the store if another process stored that seq first); then
        it is decided again on the caught-up match (up to ``SEQ_RETRIES`` tries), so exactly
        one of two answers to one decision is applied while simultaneous answers of different
        seats are all applied. A refusal on a copy that may be behind is checked again on a current one.

        Raises:
            RoomError: with one of the codes above (or the engine's own).
        """
        started = time.perf_counter()

        def decide(live: LiveMatch) -> Step:
            return self._checked(live, seat, prompt, action)

        await self._apply(code, decide, optimistic=True, started=started)

    async def play(self, code: str, decide: Decide) -> Step | None:
        """Play what ``decide`` returns on room ``code``'s match made current (a clock);
        return the step stored, or ``None`` when it decided nothing."""
        return await self._apply(code, decide, optimistic=False, started=None)

    async def forfeit(self, code: str, seat: int, forfeit: Forfeit) -> Step | None:
        """Resign ``seat`` of room ``code``'s match made current, for the room's reason
        ``forfeit`` (stored with the action, told as the ``forfeit`` event: ``LiveMatch.propose``);
        return the step stored, or ``None`` when the match is over already.

        Raises:
            RoomError: ``match_not_started`` (the room has no match).
        """
        def decide(live: LiveMatch) -> Step | None:
            if live.over:
                return None
            return live.propose(seat, RESIGN, self._clock.now(), forfeit=forfeit)

        return await self.play(code, decide)

    def _checked(self, live: LiveMatch, seat: int, prompt: str | None,
                 action: Mapping[str, Any]) -> Step:
        """Run the checks of ``act`` on ``live``; return the proposed ``Step``."""
        if live.over:
            raise RoomError("game_over", "The match is over.")
        if action.get("type") == RESIGN["type"] and len(action) > 1:  # the engine knows no resign
            extra = sorted(key for key in action if key != "type")[0]
            raise RoomError("malformed_action", f"Unexpected field {extra!r}.")
        if dict(action) != RESIGN:
            current = live.prompt_id(seat)
            if current is None:
                if live.taken_by_side(seat, prompt or ""):
                    raise RoomError("already_played", "This decision was already answered "
                                                      "(by a teammate or another socket).")
                if not live.closed_by_others(seat, prompt or ""):
                    raise RoomError("not_your_turn", "It is not your turn.")
            if prompt != current:  # asked anew, or a decision another side's action ended
                raise RoomError("stale_prompt", "That decision is no longer the current one.")
        try:
            return live.propose(seat, action, self._clock.now())
        except EngineError as exc:
            raise RoomError(exc.code, exc.message) from exc

    async def _apply(self, code: str, decide: Callable[[LiveMatch], Step | None], *,
                     optimistic: bool, started: float | None) -> Step | None:
        """Decide, store and announce one action on room ``code`` (see ``act``): the other
        processes hear of it first (``Publisher.version`` returns once Redis has the message,
        so the actor's ``update`` — its acknowledgement — never goes out from a process that
        could still die without having told the others), then the local listeners (of it and
        of any catch-up on the way), then the observers."""
        room = self.enter(code)
        step = None
        try:
            async with room.lock:
                if room.match is None:
                    await self.make_current(room)
                if room.match is None:
                    raise RoomError("match_not_started", "The match has not started yet.")
                live, step = await self._decided(room, decide, optimistic)
                if step is not None and not self._single:  # before anyone here is told
                    await self._publisher.version(code, live.match_id, step.version,
                                                  StoredStep.of(live.match_id, step))
        finally:
            await self.settle(room)
            self.release(room)
        if step is None:
            return None
        applied = Applied(live.game.spec.id, code, live.match_id, step.version, step.seat,
                          step.timeout, step.forfeit is not None, None if started is None
                          else time.perf_counter() - started)
        for observer in self.observers:
            observer(applied)
        return step

    async def _decided(self, room: LiveRoom, decide: Callable[[LiveMatch], Step | None],
                       optimistic: bool) -> tuple[LiveMatch, Step | None]:
        """Decide on a current match and store the step; return the match it was decided on
        and the step (``None``: nothing to play). The caller holds ``room.lock``."""
        for attempt in range(SEQ_RETRIES):
            step = await self._decide_current(room, decide, fresh=attempt > 0 or not optimistic)
            live = held_match(room)
            if step is None:
                return live, None
            try:
                await self._store.append(live, step, partial(self._commit, room, live, step))
            except SeqTaken:
                log.info("seq taken by another process", extra={
                    "room": room.code, "match": live.match_id, "seq": step.version})
                continue
            return live, step
        raise RoomError("stale_prompt", "Other actions were applied first.")

    async def _decide_current(self, room: LiveRoom, decide: Callable[[LiveMatch], Step | None],
                              fresh: bool) -> Step | None:
        """Return ``decide(match)``, the match being current when it matters.

        With ``fresh`` (a retry, a clock) the match catches up first. Without it nothing is
        read; a refusal then stands only once the match is current (``make_current`` found
        nothing newer), so every answer is decided as if the log had been read first. With a
        single-process broker the held match is the log: nothing is ever read.

        Raises:
            RoomError: what ``decide`` raises on the current match.
        """
        if fresh and not self._single:
            await self._catch_up(room)
        try:
            return decide(held_match(room))
        except RoomError:
            if fresh or self._single or not await self.make_current(room):
                raise
        return decide(held_match(room))

    def _commit(self, room: LiveRoom, live: LiveMatch, step: Step) -> None:
        """Hold the match after ``step`` (right after its COMMIT)."""
        if room.match is not live:
            raise RuntimeError(f"room {room.code} changed while step {step.version} was stored")
        self._advance(room, live.after(step), [step])
