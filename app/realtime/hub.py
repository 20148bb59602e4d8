"""The connection hub: this process's sockets per room, fed by the broker.

For every "room X at version v" message it renders a per-viewer ``update`` for each of its own
sockets in room X (events filtered by ``Event.visible`` inside the room service), so several
processes can serve one room (ARCHITECTURE.md "Scale-out").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import uuid
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from starlette.types import Send

from app.bus.base import CHANNEL, RESYNC, Broker
from app.realtime.eager import run_until_wait
from app.realtime.fanout import Fanout, encode
from app.realtime.schemas import (ChatFrame, Outbound, Presence, RoomFrame, Update, Welcome,
                                  frame)
from app.rooms.service import RoomService

log = logging.getLogger(__name__)


@dataclass(eq=False, slots=True)
class Connection:
    """One greeted socket: its room, seat (``None`` = spectator), name and last sent version.

    ``transmit`` is the socket's ASGI ``send`` callable: frames go to it as ``websocket.send``
    messages with their JSON text, past Starlette's ``WebSocket`` wrapper (issue 10: server CPU
    per move, bench/RESULTS.md §3b).
    ``player_id`` is the seated player (a ``room`` change that frees the seat — leaving, removal
    by the creator, a bot taking over — turns the socket into a spectator's); ``match_id`` is
    the match ``version`` counts in (a rematch starts again from version 0).

    Frames leave in the order they were queued, one at a time. ``send`` writes a frame at once,
    in the caller's task, when nothing is waiting to go out; only a write that has to wait (the
    client reads slowly: the transport's buffer is full) gets a ``writer`` task, which finishes
    it and then sends the frames queued behind it in ``outbox`` until it is empty, and ends. An
    idle socket therefore holds no task and no queue (issue 10: memory per idle room). Once a
    send failed (the socket closed: the reader side cleans up), ``dead`` is set and later frames
    are dropped.
    ``version`` is ``-1`` until a match view was sent; ``shown`` is what the last ``welcome`` or
    ``update`` showed (``shown_by``), ``None`` before the first one.
    """

    transmit: Send
    code: str
    seat: int | None
    name: str
    version: int = -1
    player_id: int | None = None
    match_id: int | None = None
    shown: tuple | None = None
    outbox: deque | None = None
    writer: asyncio.Task | None = None
    dead: bool = False

    def send(self, data: dict[str, Any] | Outbound | str) -> None:
        """Send a frame (a model, a dict, or its JSON text already encoded) to this socket, or
        queue it behind a write that is waiting."""
        if self.dead:
            return
        text = data if isinstance(data, str) else encode(
            frame(data) if isinstance(data, Outbound) else data)
        if self.writer is not None:
            self.outbox.append(text)
            return
        try:
            rest = run_until_wait(self.transmit({"type": "websocket.send", "text": text}))
        except Exception:  # the socket closed: the reader side cleans up
            self.dead = True
            return
        if rest is not None:
            self.outbox = deque()
            self.writer = asyncio.get_running_loop().create_task(self.write_loop(rest))

    async def write_loop(self, rest: Awaitable[None]) -> None:
        """Finish the write that waited (``rest``), then send the queued frames in order until
        none is left, the socket fails (``dead``) or the task is cancelled; then forget the task
        and the queue."""
        try:
            await rest
            while self.outbox:
                await self.transmit({"type": "websocket.send", "text": self.outbox.popleft()})
        except Exception:  # the socket closed: the reader side cleans up
            self.dead = True
        finally:
            self.writer = self.outbox = None

    async def flush(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the frames queued so far were sent, e.g. the
        answers to a flood's frames before the socket is closed for it."""
        if self.writer is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.writer), timeout)

    def stop(self) -> None:
        """Cancel the writer (frames still queued are dropped) and drop later frames."""
        self.dead = True
        if self.writer is not None:
            self.writer.cancel()


def shown_by(render: dict[str, Any]) -> tuple:
    """Return what a render shows its viewer apart from ``version``, ``events`` and ``room``:
    ``(view, prompt, legal, deadline, clocks)``.

    ``room`` is left out on purpose: it changes for everyone at once (and comes in its own
    ``room`` frame), so an ``update`` sent only because of it could arrive right after a hidden
    answer and tell of it (docs/security.md §2).
    """
    return (render["view"], render["prompt"], render["legal"], render["deadline"],
            render["clocks"])


def unseat_if_freed(conn: Connection, room: dict[str, Any]) -> None:
    """Make ``conn`` a spectator's socket when its seat no longer holds its player (issue 11
    part 4: a removed or replaced player must not keep seeing or acting for the seat)."""
    if conn.seat is None:
        return
    holder = next((s["player_id"] for s in room["seats"] if s["seat"] == conn.seat), None)
    if holder != conn.player_id:
        conn.seat, conn.name = None, "spectator"


class Hub:
    """Sockets by room code; turns broker messages into frames for them."""

    def __init__(self, service: RoomService, broker: Broker) -> None:
        self._service, self._broker = service, broker
        self._rooms: dict[str, set[Connection]] = {}
        self._task: asyncio.Task | None = None
        self._process = uuid.uuid4().hex  # this process, in presence messages
        self._present: dict[str, dict[str, tuple[list[int], int]]] = {}
        self._publishing: set[asyncio.Task] = set()

    async def start(self) -> None:
        """Subscribe to the room channel and start dispatching (return once subscribed).

        Raises:
            ConnectionError: the broker could not confirm the subscription.
        """
        subscribed = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._pump(subscribed))
        await subscribed

    def counts(self) -> dict[str, int]:
        """Return this process's ``{"rooms", "players", "spectators"}`` socket counts (metrics)."""
        conns = [conn for room in self._rooms.values() for conn in room]
        players = sum(1 for conn in conns if conn.seat is not None)
        return {"rooms": len(self._rooms), "players": players,
                "spectators": len(conns) - players}

    async def stop(self) -> None:
        """Stop dispatching and the writers (presence messages already queued go out first)."""
        await asyncio.gather(*self._publishing, return_exceptions=True)
        if self._task is not None:
            self._task.cancel()
        for conns in self._rooms.values():
            for conn in conns:
                conn.stop()

    async def _pump(self, subscribed: asyncio.Future) -> None:
        """Dispatch messages until the broker stops; if the subscription breaks (Redis went
        away), subscribe again (every second until it works) and resync. ``subscribed`` is
        resolved once the first subscription is in place (or with its error)."""
        lost = False
        while True:
            try:
                async with self._broker.subscribe(CHANNEL) as messages:
                    if not subscribed.done():
                        subscribed.set_result(None)
                    if lost:
                        await self._dispatch(dict(RESYNC))
                    async for message in messages:
                        try:
                            await self._dispatch(message)
                        except Exception:
                            log.exception("hub could not dispatch %r", message)
                return  # the broker stopped
            except Exception as exc:
                if not subscribed.done():
                    subscribed.set_exception(exc)
                    return
                if not lost:
                    log.exception("room subscription lost; subscribing again")
                lost = True
                await asyncio.sleep(1.0)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        if message["kind"] == RESYNC["kind"]:
            await self.resync()
            return
        code = message["room"]
        if message["kind"] == "presence":
            self._record_presence(code, message)
        if message["kind"] == "room":  # seats, status or rematch changed (maybe elsewhere)
            self._service.forget_room(code)
        if not self._rooms.get(code):
            return
        if message["kind"] == "version":
            await self._service.matches.sync(code, message["version"], message.get("step"))
            room = await self._service.cached_room(code)
            fanout = Fanout(functools.partial(self._service.matches.render, code), room)
            for conn in list(self._rooms.get(code, ())):
                self.push_update(conn, room, fanout=fanout)
            await self._forget_shown_events(code)
        elif message["kind"] == "room":
            room = await self._service.room(code)
            text = encode(frame(RoomFrame(room=room)))
            for conn in list(self._rooms.get(code, ())):
                unseat_if_freed(conn, room)
                conn.send(text)
        elif message["kind"] == "chat":
            self._deliver_chat(code, message)

    async def _forget_shown_events(self, code: str) -> None:
        """Let the room's match drop the events every local socket of the room was shown.

        A socket's next ``update`` carries the events after its ``version``, so the match keeps
        those after the lowest one; a socket still counting another match (it will start again
        from version 0 of this one) keeps them all. Sockets greeted later get a ``welcome``.
        """
        live = await self._service.matches.live(code)
        conns = self._rooms.get(code)
        if live is None or not conns:
            return
        live.forget_events(min(conn.version if conn.match_id == live.match_id else 0
                               for conn in conns))

    async def resync(self) -> None:
        """Refresh every local room after the broker lost messages (a Redis restart).

        Each room's match catches up with the database; each socket gets an ``update`` if it
        missed versions (else a ``room`` frame for a room still open); this process's presence
        is published again for the others.
        """
        log.warning("room channel resubscribed; refreshing %d rooms", len(self._rooms))
        self._service.forget_room()  # room messages may have been lost
        for code in list(self._rooms):
            try:
                await self._service.matches.refresh(code)
                room = await self._service.room(code)
            except Exception:
                log.exception("could not refresh room %s", code)
                continue
            for conn in list(self._rooms.get(code, ())):
                if self._service.matches.version(code) is None:
                    conn.send(RoomFrame(room=room))
                else:
                    self.push_update(conn, room)
            self._presence(code)

    # ------------------------------------------------------------------ frames

    def push_update(self, conn: Connection, room: dict[str, Any], force: bool = False,
                    fanout: Fanout | None = None) -> None:
        """Queue an ``update`` with what ``conn`` has not seen — only if it can see a change.

        When the render for ``conn``'s viewer has no visible event and shows the same
        ``shown_by`` as the last frame sent, nothing is sent and ``conn.version`` stays where
        it was, so the next ``update`` carries every event since (docs/security.md §2: inside
        a simultaneous hidden window — a Reverse Curse mulligan, a zipai claim window, a Grid
        Reversal setup choice — another seat's answer must not show, not even by a frame
        arriving). With ``force`` (the resync after ``stale_prompt``) an ``update`` is always
        sent; if nothing changed for this viewer it repeats the last one, at the public version
        of ``conn.version`` and without events, so a probe with a wrong prompt learns no new
        version either. ``conn.version`` counts actions; the frame's ``version`` is the public
        one (``LiveMatch.public_version``: it does not count hidden answers).
        With ``fanout`` (one version fanned out to the room, whose ``room`` it carries) the
        render and the encoded frame are shared with the room's other sockets of that viewer.
        """
        if room.get("match_id") != conn.match_id:  # a new match (rematch) counts from 0
            conn.match_id, conn.version, conn.shown = room.get("match_id"), -1, None
        version = self._service.matches.version(conn.code)
        if version is None or (version <= conn.version and not force):
            return
        since = conn.version
        render = (fanout.render(conn.seat, since) if fanout is not None
                  else self._service.matches.render(conn.code, conn.seat, since))
        shown = shown_by(render)
        if not render["events"] and shown == conn.shown:
            if force:
                public = self._service.matches.public_version(conn.code, conn.version)
                conn.send(Update(room=room, **{**render, "version": public}))
            return
        conn.version, conn.shown = version, shown
        conn.send(fanout.update_text(conn.seat, since) if fanout is not None
                  else Update(room=room, **render))

    async def welcome(self, conn: Connection) -> None:
        """Register ``conn`` and queue its ``welcome`` (then everyone's ``presence``)."""
        room = await self._service.cached_room(conn.code)
        await self._service.matches.live(conn.code)  # load (replay) the match if there is one
        version = self._service.matches.version(conn.code)
        if version is None:
            data = {"version": 0, "view": None, "prompt": None, "legal": [], "deadline": None,
                    "clocks": {}}
        else:
            data = self._service.matches.render(conn.code, conn.seat, version)
            data.pop("events")
            conn.version, conn.match_id, conn.shown = version, room.get("match_id"), shown_by(data)
        self._rooms.setdefault(conn.code, set()).add(conn)
        conn.send(Welcome(seat=conn.seat, room=room, **data))
        self._presence(conn.code)

    async def resend(self, conn: Connection) -> None:
        """Queue a fresh ``update`` for ``conn`` (after ``stale_prompt``)."""
        self.push_update(conn, await self._service.cached_room(conn.code), force=True)

    def leave(self, conn: Connection) -> None:
        """Forget ``conn``; tell the others who is still there (the last one out of a finished
        match lets the service free it)."""
        self._rooms.get(conn.code, set()).discard(conn)
        conn.stop()
        if not self._rooms.get(conn.code):
            self._rooms.pop(conn.code, None)
            self._service.matches.release(conn.code)
        self._presence(conn.code)

    def _presence(self, code: str) -> None:
        """Publish this process's sockets of room ``code`` (every process sums them up)."""
        conns = self._rooms.get(code, set())
        message = {"room": code, "kind": "presence", "process": self._process,
                   "online": sorted({c.seat for c in conns if c.seat is not None}),
                   "spectators": sum(1 for c in conns if c.seat is None)}
        task = asyncio.create_task(self._broker.publish(CHANNEL, message))
        self._publishing.add(task)
        task.add_done_callback(self._published)

    def _published(self, task: asyncio.Task) -> None:
        self._publishing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("presence not published: %s", task.exception())

    def _record_presence(self, code: str, message: dict[str, Any]) -> None:
        """Store one process's presence and send the room's total to the local sockets."""
        present = self._present.setdefault(code, {})
        present[message["process"]] = (message["online"], message["spectators"])
        if not message["online"] and not message["spectators"]:
            del present[message["process"]]
        online = sorted({seat for seats, _ in present.values() for seat in seats})
        spectators = sum(count for _, count in present.values())
        if not present:
            self._present.pop(code, None)
        text = encode(frame(Presence(online=online, spectators=spectators)))
        for conn in list(self._rooms.get(code, ())):
            conn.send(text)

    # ------------------------------------------------------------------ chat

    async def chat(self, conn: Connection, text: str, team: bool, at: float) -> None:
        """Publish a chat line; a team line goes only to the sender's side (its seats)."""
        to = self._service.matches.teammates(conn.code, conn.seat) if team else None
        await self._broker.publish(CHANNEL, {
            "room": conn.code, "kind": "chat", "seat": conn.seat, "name": conn.name,
            "text": text, "team": team, "to": to, "at": at})

    def _deliver_chat(self, code: str, message: dict[str, Any]) -> None:
        line = encode(frame(ChatFrame(seat=message["seat"], name=message["name"],
                                      text=message["text"], team=message["team"],
                                      at=message["at"])))
        for conn in list(self._rooms.get(code, ())):
            if message["to"] is None or conn.seat in message["to"]:
                conn.send(line)
