"""Playing matches: load/replay, act, persist-then-publish, and the clocks.

ARCHITECTURE.md "Persistence": an accepted action is appended with the next sequence number in
one transaction (with the Reverse Curse ``rc_sets`` rows it resolves, and the outcome and the
players' new ratings (``app.rooms.ratings``) when it ends) before any client hears of it;
then "room X at version v" goes out on the broker.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bus.base import CHANNEL, Broker
from app.db import repositories as repo
from app.db.writer import GroupWriter, Job
from app.rooms.catalog import Catalog
from app.rooms.clocks import Clock, DeadlineScheduler
from app.rooms.errors import RoomError
from app.rooms.ladder import resolved_sets
from app.rooms.lifecycle import RoomStatus, transition
from app.rooms.live import RESIGN, LiveMatch, Step
from app.rooms.observe import Applied, Observer
from app.rooms.ratings import rate_match
from engine.core import EngineError

log = logging.getLogger(__name__)

#: How many times ``act`` retries after another process stored the next seq first (each retry
#: catches up and checks the prompt again, so a simultaneous answer of another seat — a
#: mulligan — is applied after it, and a second answer to one decision gets ``stale_prompt``).
SEQ_RETRIES = 5
#: Seconds ``stop`` waits for the appends in flight at shutdown.
STOP_WAIT = 10.0


def to_datetime(unix: float) -> datetime:
    """Return the aware UTC datetime of a unix time in seconds."""
    return datetime.fromtimestamp(unix, tz=timezone.utc)


@dataclass(frozen=True)
class StoredStep:
    """One stored action as the log holds it (a ``match_actions`` row): what ``_catch_up``
    reads, and what a version message carries so the other processes replay it without
    reading the log (``MatchRunner.sync``; bench/RESULTS.md §5).

    Attributes:
        match_id, seat, action, timeout: the row's values.
        at: when it was played, unix seconds as stored (whole microseconds: ``to_datetime``).
    """

    match_id: int
    seat: int
    action: dict[str, Any]
    at: float
    timeout: bool

    @classmethod
    def of(cls, match_id: int, step: Step) -> "StoredStep":
        """Return ``step`` of match ``match_id`` as its row reads back (``at`` rounded to the
        microsecond, as the database keeps it)."""
        return cls(match_id, step.seat, step.action, to_datetime(step.at).timestamp(),
                   step.timeout)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"match", "seat", "action", "at", "timeout"}`` (JSON-ready)."""
        return {"match": self.match_id, "seat": self.seat, "action": self.action,
                "at": self.at, "timeout": self.timeout}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "StoredStep":
        """Return the step of ``to_json``'s dict.

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not such a dict.
        """
        return cls(int(data["match"]), int(data["seat"]), dict(data["action"]),
                   float(data["at"]), bool(data["timeout"]))


class MatchRunner:
    """Keeps one ``LiveMatch`` per room code in memory, and fires their clocks.

    Args:
        sessions: the session factory; broker: where versions are published.
        catalog: the games; clock: the time source; grace: restart grace seconds.

    With the in-memory broker this process is the only one that stores actions, so ``act``
    and the clocks do not read the log before proposing (bench/RESULTS.md section 3, fix 4);
    with Redis the clocks catch up first (one indexed query: ``seq > version``), ``act`` only
    when its store finds the seq taken, and a version message carries the stored action, so
    the other processes replay it without a query (``sync``; §5). Every store goes
    through one ``GroupWriter`` (group commit): the stores queued while a transaction runs are
    committed together in the next one, each acknowledged only after its COMMIT. One
    ``DeadlineScheduler`` fires the clocks of every room held here.
    """

    def __init__(self, sessions: async_sessionmaker, broker: Broker, catalog: Catalog,
                 clock: Clock, grace: float) -> None:
        self._sessions, self._broker, self._catalog = sessions, broker, catalog
        self._clock, self._grace = clock, grace
        self._only_writer = broker.single_process
        self._writer = GroupWriter(sessions)
        self._live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._deadlines = DeadlineScheduler(clock, self._next_deadline, self._fire_room)
        self._deadlines_changed = self._deadlines.changed  # one bound method for every room
        self.observers: list[Observer] = []  # told of every action stored here (metrics, logs)

    # ------------------------------------------------------------------ loading

    async def resume_all(self) -> None:
        """Load every playing match (replaying its log) and restart its clock, with grace."""
        async with self._sessions() as session:
            matches = await repo.playing_matches(session)
            codes = await repo.room_codes(session, [m.room_id for m in matches])
        for match in matches:
            await self.live(codes[match.room_id])

    async def stop(self) -> None:
        """Let every in-flight append finish (each room's lock, at most ``STOP_WAIT`` seconds
        for all), then stop the clocks (and cancel any deadline action still being fired).

        Part of the graceful shutdown: an action being stored is stored, and no clock fires
        afterwards. An append still stuck after the wait (database down) is cancelled: its
        transaction rolls back, so it was never acknowledged.
        """
        try:
            await asyncio.wait_for(self._quiesce(), STOP_WAIT)
        except asyncio.TimeoutError:
            log.warning("in-flight actions did not finish; stopping anyway")
        await self._deadlines.stop()

    async def _quiesce(self) -> None:
        """Stop each room's clock once its in-flight append (if any) is done."""
        for live in list(self._live.values()):
            async with live.lock:
                self._deadlines.drop(live.code)

    def release(self, code: str) -> None:
        """Drop the room's match from memory if it is over (it is replayed again if needed)."""
        live = self._live.get(code)
        if live is not None and live.over and not live.lock.locked():
            del self._live[code]
            self._loading.pop(code, None)

    def render(self, code: str, viewer: int | None, since: int) -> dict[str, Any] | None:
        """Return ``LiveMatch.render`` of the room's match for ``viewer`` (JSON only), or
        ``None`` when this process holds no match for the room."""
        live = self._live.get(code)
        return live.render(viewer, since) if live is not None else None

    def dump(self, code: str) -> dict[str, Any] | None:
        """Return ``{"version": int, "state": GAME.dump(state)}`` of the room's match held here.

        ``None`` when this process holds no match for the room. For verification (replay
        checks, crash tests) only: the dump holds hidden information and never goes to clients.
        """
        live = self._live.get(code)
        if live is None:
            return None
        return {"version": live.version, "state": live.game.dump(live.state)}

    def held(self) -> int:
        """Return how many unfinished matches this process holds in memory."""
        return sum(1 for live in self._live.values() if not live.over)

    def version(self, code: str) -> int | None:
        """Return the version of the room's match held here, or ``None``."""
        live = self._live.get(code)
        return live.version if live is not None else None

    def public_version(self, code: str, version: int) -> int:
        """Return the public version (what frames show: ``LiveMatch.public_at_version``) the
        room's match held here had after ``version`` actions; 0 when none is held."""
        live = self._live.get(code)
        return live.public_at_version(version) if live is not None else 0

    def match_key(self, code: str) -> tuple[int, bool] | None:
        """Return ``(match_id, over)`` of the room's match held here, or ``None``: what a
        cached ``Room`` JSON depends on besides the room row and its seats."""
        live = self._live.get(code)
        return (live.match_id, live.over) if live is not None else None

    def teammates(self, code: str, seat: int) -> list[int]:
        """Return the seats on ``seat``'s side (just ``seat`` before the match is held here)."""
        live = self._live.get(code)
        return sorted(live.teammates(seat) if live is not None else {seat})

    async def live(self, code: str) -> LiveMatch | None:
        """Return the room's newest match, rebuilt from the seed and the log on first use.

        Returns ``None`` while the room has no match (still open).

        Raises:
            RoomError: ``room_not_found`` (404).
        """
        if code in self._live:
            return self._live[code]
        async with self._loading.setdefault(code, asyncio.Lock()):
            if code not in self._live:
                live = await self._load(code)
                if live is None:
                    return None
                self._install(live)
        return self._live[code]

    def side_names(self, code: str, match_id: int | None) -> dict[int, str]:
        """Return ``LiveMatch.side_names`` of match ``match_id`` of the room if this process
        holds it, else ``{}``."""
        live = self._live.get(code)
        return live.side_names() if live is not None and live.match_id == match_id else {}

    async def _load(self, code: str) -> LiveMatch | None:
        async with self._sessions() as session:
            room = await repo.room_by_code(session, code)
            if room is None:
                raise RoomError("room_not_found", f"No room has the code {code!r}.", 404)
            match_id = (await repo.latest_match_ids(session, [room.id])).get(room.id)
            if match_id is None:
                return None
            match = await repo.get_match(session, match_id)
            seats = (await repo.match_seats(session, [match_id]))[match_id]
            actions = await repo.match_actions(session, match_id)
        live = LiveMatch.start(self._catalog.game(match.game), match.id, room.id, code,
                               match.options, len(seats), bytes.fromhex(match.seed),
                               match.started_at.timestamp())
        for row in actions:
            live.replay(row.seat, row.action, row.at.timestamp(), row.timeout)
        live.override_deadlines(match.deadlines or {}, self._clock.now(), self._grace)
        return live

    def _install(self, live: LiveMatch) -> None:
        self._live[live.code] = live
        if live.over:
            self._deadlines.drop(live.code)
        else:
            live.deadlines_changed = self._deadlines_changed
            self._deadlines.watch(live.code)

    async def started(self, live: LiveMatch) -> None:
        """Adopt a match that was just created (version 0) and tell every process."""
        self._install(live)
        await self.publish(live)

    # ------------------------------------------------------------------ acting

    async def act(self, code: str, seat: int, prompt: str | None,
                  action: Mapping[str, Any]) -> None:
        """Apply ``seat``'s ``action`` answering ``prompt``, store it, then publish.

        Checks, in order: a match exists (``match_not_started``), it is not over
        (``game_over``), a resign is always allowed; otherwise the seat is asked now
        (``already_played`` if a teammate — or this seat from another socket — answered this
        decision, else ``not_your_turn``) and
        ``prompt`` is its current one (``stale_prompt``); then the engine decides (its code).
        The first try is optimistic: it checks and proposes on the match held here without
        reading the log, and the unique ``(match_id, seq)`` refuses the store if another process
        stored that seq first (bench/RESULTS.md §5). Then the checks run again on the caught-up
        match (up to ``SEQ_RETRIES`` tries), so exactly one of two answers to one decision is
        applied while simultaneous answers of different seats are all applied.

        Raises:
            RoomError: with one of the codes above (or the engine's own).
        """
        live = await self.live(code)
        if live is None:
            raise RoomError("match_not_started", "The match has not started yet.")
        started = time.perf_counter()
        async with live.lock:
            for attempt in range(SEQ_RETRIES):
                step = await self._propose_checked(live, seat, prompt, action, attempt > 0)
                if await self._append(live, step):
                    break
            else:
                raise RoomError("stale_prompt", "Other actions were applied first.")
        await self.publish(live, step)
        self._applied(live, step, time.perf_counter() - started)

    async def _propose_checked(self, live: LiveMatch, seat: int, prompt: str | None,
                               action: Mapping[str, Any], fresh: bool) -> Step:
        """Run the checks of ``act`` and return the proposed ``Step``.

        With ``fresh`` (a retry: another process stored the seq) the match catches up with the
        log first. Without it nothing is read; a refusal then stands only if the log holds
        nothing newer (with Redis the match catches up and the checks run again), so every
        answer is decided on the newest state, as if the log had been read first.

        Raises:
            RoomError: what ``_check`` raises on that state.
        """
        if fresh:
            await self._catch_up(live)
        try:
            return self._check(live, seat, prompt, action)
        except RoomError:
            if fresh or self._only_writer or not await self._catch_up(live):
                raise
        return self._check(live, seat, prompt, action)

    def _check(self, live: LiveMatch, seat: int, prompt: str | None,
               action: Mapping[str, Any]) -> Step:
        """Run the checks of ``act`` on the match as held now; return the proposed ``Step``."""
        if live.over:
            raise RoomError("game_over", "The match is over.")
        if dict(action) != RESIGN:
            self._check_prompt(live, seat, prompt)
        try:
            return live.propose(seat, action, self._clock.now())
        except EngineError as exc:
            raise RoomError(exc.code, exc.message) from exc

    def _applied(self, live: LiveMatch, step: Step, seconds: float | None) -> None:
        """Tell the observers that ``step`` was stored and published by this process."""
        applied = Applied(live.game.spec.id, live.code, live.match_id, step.version, step.seat,
                          step.timeout, seconds)
        for observer in self.observers:
            observer(applied)

    @staticmethod
    def _check_prompt(live: LiveMatch, seat: int, prompt: str | None) -> None:
        current = live.prompt_id(seat)
        if current is None:
            by = live.ended_prompt_by(seat, prompt or "")
            if by is not None and by in live.teammates(seat):
                raise RoomError("already_played", "Your side already answered this decision.")
            raise RoomError("not_your_turn", "It is not your turn.")
        if prompt != current:
            raise RoomError("stale_prompt", "That decision is no longer the current one.")

    async def _append(self, live: LiveMatch, step: Step) -> bool:
        """Store ``step`` (``_store``: it is committed in memory right after the COMMIT);
        return ``True``.

        Returns ``False`` (nothing changed) when another process stored this seq first.
        """
        try:
            await self._store(live, step)
        except IntegrityError:
            log.info("seq taken by another process", extra={
                "room": live.code, "match": live.match_id, "seq": step.version})
            return False
        if live.over:
            self._stop_clock(live.code)
        return True

    def _stop_clock(self, code: str) -> None:
        """Stop the room's clock (its match is over); the caller may be its fire."""
        self._deadlines.drop(code)

    async def _store(self, live: LiveMatch, step: Step) -> None:
        """Store ``step`` through the group writer: the action, any ``rc_sets`` rows it
        resolves and the match's deadlines (and at the end its outcome, the room status and
        the ratings) in one transaction; ``live.commit(step)`` runs right after its COMMIT.

        Raises:
            IntegrityError: another process stored this seq first (nothing stored).
        """
        outcome = live.game.outcome(step.state)
        at = to_datetime(step.at)
        values: dict[str, Any] = {"deadlines": {str(s): d for s, d in step.deadlines.items()}}
        if outcome is not None:
            values.update(status=transition(RoomStatus.PLAYING, RoomStatus.FINISHED).value,
                          outcome=outcome.to_json(), finished_at=at)
        writes = [repo.action_write(live.match_id, step.version, step.seat, step.action,
                                    step.timeout, at),
                  *repo.rc_set_writes(live.match_id,
                                      resolved_sets(live.game, live.state, step.state)),
                  repo.match_write(live.match_id, **values)]

        async def finish(session: AsyncSession) -> None:
            room = await repo.room_by_code(session, live.code)
            status = transition(room.status, RoomStatus.FINISHED)
            await repo.set_room_status(session, room.id, status.value)
            await rate_match(session, live.match_id, live.game.spec.id, outcome, live.sides)

        await self._writer.write(Job(writes, finish if outcome is not None else None,
                                     lambda: live.commit(step)))

    async def _catch_up_shared(self, live: LiveMatch) -> None:
        """``_catch_up`` unless this process is the only writer (the in-memory broker)."""
        if not self._only_writer:
            await self._catch_up(live)

    async def _catch_up(self, live: LiveMatch) -> int:
        """Replay the actions another process stored since ``live.version``; return how many."""
        async with self._sessions() as session:
            rows = await repo.match_actions(session, live.match_id, live.version)
        self._replay_stored(live, [StoredStep(live.match_id, row.seat, row.action,
                                              row.at.timestamp(), row.timeout) for row in rows])
        return len(rows)

    def _replay_stored(self, live: LiveMatch, steps: list[StoredStep]) -> None:
        """Replay ``steps`` (the log's next actions, in order); stop the clock if it ends."""
        for stored in steps:
            live.replay(stored.seat, stored.action, stored.at, stored.timeout)
        if steps and live.over:
            self._stop_clock(live.code)

    async def sync(self, code: str, version: int,
                   stored: Mapping[str, Any] | None = None) -> LiveMatch | None:
        """Bring the room's match to at least ``version`` (after a broker message).

        ``stored``: the message's ``step`` (``StoredStep.to_json``), replayed as is when it is
        the next action of the match held here (no log read: bench/RESULTS.md §5); on a gap (a
        lost or reordered message), for another match or without one the match catches up
        from the log.
        """
        live = await self.live(code)
        if live is not None and live.version < version:
            async with live.lock:
                if live.version >= version:  # caught up while waiting (an act's retry)
                    return live
                step = StoredStep.from_json(stored) if stored is not None else None
                if (step is not None and step.match_id == live.match_id
                        and version == live.version + 1):
                    self._replay_stored(live, [step])
                else:
                    await self._catch_up(live)
        return live

    async def refresh(self, code: str) -> None:
        """Catch the room's match held here up with the database (after a broker outage)."""
        live = self._live.get(code)
        if live is not None:
            async with live.lock:
                await self._catch_up(live)

    async def publish(self, live: LiveMatch, step: Step | None = None) -> None:
        """Tell every process that the room is at ``live.version``, or with ``step`` (just
        stored here) at ``step.version``, the message then carrying it (``"step"``:
        ``StoredStep.to_json``) so the others replay it without reading the log (``sync``);
        with the in-memory broker there are no others, and the message carries no step.

        A broker failure is logged, not raised: the action is stored already, and each
        process's hub refreshes its sockets when its subscription comes back (``resync``).
        """
        message: dict[str, Any] = {"room": live.code, "kind": "version", "version": live.version}
        if step is not None:
            message["version"] = step.version
            if not self._only_writer:
                message["step"] = StoredStep.of(live.match_id, step).to_json()
        try:
            await self._broker.publish(CHANNEL, message)
        except Exception as exc:  # Redis down: clients resync when it is back
            log.warning("could not publish a room version", extra={
                "room": live.code, "version": message["version"], "error": repr(exc)})

    # ------------------------------------------------------------------ clocks

    def _next_deadline(self, code: str) -> float | None:
        """Return the earliest deadline of the room's match held here (unix s), or ``None``."""
        live = self._live.get(code)
        return live.next_deadline() if live is not None else None

    async def _fire_room(self, code: str) -> bool:
        """``_fire_due`` of the room's match held here; ``False`` when none is held."""
        live = self._live.get(code)
        return live is not None and await self._fire_due(live)

    async def _fire_due(self, live: LiveMatch) -> bool:
        """Play ``GAME.deadline_action`` for the earliest overdue seat; ``False`` once over."""
        try:
            step = await self._fire_one(live)
        except Exception:  # keep the clock alive; the next change retries
            log.exception("clock of room %s failed", live.code)
            await asyncio.sleep(0.5)
            return not live.over
        if step is not None:
            await self.publish(live)
            self._applied(live, step, None)
        return not live.over

    async def _fire_one(self, live: LiveMatch) -> Step | None:
        """Store the deadline action of the earliest overdue seat; return its step.

        ``None`` when nothing is due after catching up, or another process stored that seq
        first (it fired this clock, or someone acted just in time): a clock fires exactly once.
        """
        async with live.lock:
            await self._catch_up_shared(live)
            now = self._clock.now()
            due = sorted((d, s) for s, d in live.deadlines.items() if d <= now)
            if live.over or not due:
                return None
            seat = due[0][1]
            action = live.game.deadline_action(live.state, seat)
            step = live.propose(seat, action, now, timeout=True)
            return step if await self._append(live, step) else None
