"""The connection hub: this process's sockets per room.

Each socket follows its room through the room's ``RoomPort``: after every change of the match
held here (an action stored here or heard from another process, a catch-up) the hub sends each
of the room's sockets the ``update`` its viewer must get (``RoomPort.update``: events filtered by
``Event.visible`` inside the room core), so several processes can serve one room
(ARCHITECTURE.md "Scale-out"). ``room``, ``chat`` and ``presence`` messages come from the room
channel (``Publisher``); a room's recent chat lines are kept for sockets greeted later
(``app.realtime.chat_log``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.realtime.chat_log import ChatLog, chat_keep, chat_line, history_text, reaches
from app.realtime.fanout import Fanout, Stream, encode
from app.realtime.schemas import Outbound, Presence, RoomFrame, Welcome, frame

if TYPE_CHECKING:
    from app.realtime.endpoint import Link
from app.rooms.clocks import Clock, SystemClock
from app.rooms.errors import RoomError
from app.rooms.port import Follower, Greeting, RoomPort, last_shown
from app.rooms.service import RoomService

log = logging.getLogger(__name__)


@dataclass(eq=False, slots=True)
class Connection:
    """One greeted socket: its room (``port``), its place among the room's followers
    (``follower``: the seat it watches as, ``None`` = spectator, and what it was last shown),
    and the player its ``hello`` named.

    ``link`` is the socket (``endpoint.Link``): a frame is written at once, in order (the
    transport buffers it while the client reads slowly) and dropped once the socket closes.
    ``player_id`` and ``player_name``: the player whose token the ``hello`` carried (``None``:
    anonymous). A ``room`` change that frees its seat — leaving, removal by the creator, a bot
    taking over — turns the socket into a spectator's (``unseat_if_freed``); one that seats the
    player of a spectator's socket greets it again as that seat (``Hub._room_changed``).
    ``patches``: its ``hello`` asked for numbered, patched updates (``Fanout.patched``;
    docs/protocol.md "Patched updates"); their ``stream`` starts at the first ``update`` (from
    the follower's ``last_shown``, the welcome's document), so an idle socket holds nothing more.
    """

    link: Link
    port: RoomPort
    follower: Follower
    player_id: int | None = None
    player_name: str | None = None
    patches: bool = False
    stream: Stream | None = None

    @property
    def name(self) -> str:
        """The name its chat lines carry: the seated player's, else ``"spectator"``."""
        if self.seat is None or self.player_name is None:
            return "spectator"
        return self.player_name

    @property
    def code(self) -> str:
        """The room code."""
        return self.port.code

    @property
    def seat(self) -> int | None:
        """The seat this socket acts and watches for (``None``: a spectator)."""
        return self.follower.viewer

    def render(self, force: bool = False) -> dict[str, Any] | None:
        """Return the ``update`` data this socket must be sent now (``RoomPort.update``), or
        ``None``; a patching socket's first starts its ``stream`` from the welcome's document
        (read from the follower before the update moves it on; its room taken as not sent)."""
        if not self.patches or self.stream is not None:
            return self.port.update(self.follower, force=force)
        welcome = last_shown(self.follower)
        data = self.port.update(self.follower, force=force)
        if data is not None:
            self.stream = Stream(welcome)
        return data

    def document(self) -> dict[str, Any]:
        """Return the document this socket was sent last (a patching socket's)."""
        return self.stream.doc if self.stream is not None else last_shown(self.follower)

    def update(self, fanout: Fanout, data: dict[str, Any], full: bool = False) -> None:
        """Queue the ``update`` of ``data`` (``render``'s) from ``fanout``: today's frame, or
        for a patching socket its next numbered one (``full``: not a patch)."""
        stream = self.stream
        self.send(fanout.text(data) if stream is None else fanout.patched(stream, data, full))

    def sent_room(self, room: dict[str, Any]) -> None:
        """Note that ``room`` was queued to this socket in a ``room`` frame."""
        if self.stream is not None:
            self.stream.room = room

    def send(self, data: dict[str, Any] | Outbound | str) -> None:
        """Send a frame (a model, a dict, or its JSON text already encoded) to this socket."""
        text = data if isinstance(data, str) else encode(
            frame(data) if isinstance(data, Outbound) else data)
        self.link.send_text(text)


def unseat_if_freed(conn: Connection, room: dict[str, Any]) -> bool:
    """Make ``conn`` a spectator's socket when its seat no longer holds its player (a removed or
    replaced player must not keep seeing or acting for the seat); return whether it did."""
    if conn.seat is None:
        return False
    holder = next((s["player_id"] for s in room["seats"] if s["seat"] == conn.seat), None)
    if holder == conn.player_id:
        return False
    conn.port.unseat(conn.follower)
    return True


def seat_given(conn: Connection, room: dict[str, Any]) -> bool:
    """Whether ``room`` seats the player of ``conn``, a spectator's socket (the player claimed
    a seat after the socket was greeted, or while another process held an older ``Room``)."""
    player = conn.player_id
    return conn.seat is None and player is not None \
        and any(s["player_id"] == player for s in room["seats"])


class Hub:
    """Sockets by room code; sends them their frames.

    Presence: each process publishes its own sockets of a room on every change and again
    every third of ``presence_seconds`` (of ``clock``); an entry of another process not heard
    for ``presence_seconds`` stops counting (a killed process's sockets drop out), and at once
    when the heartbeats find that process lost or it says it leaves (``forget_process``). A room's
    sockets get a ``presence`` frame when its total changes (a renewal that changes nothing
    sends nothing); a new socket gets the room's last total with its ``welcome``.
    """

    def __init__(self, service: RoomService, clock: Clock | None = None,
                 presence_seconds: float = 30.0) -> None:
        self._service, self._publisher = service, service.publisher
        self._clock = clock if clock is not None else SystemClock()
        self._presence_seconds = presence_seconds
        self._renewer: asyncio.Task | None = None
        self._rooms: dict[str, set[Connection]] = {}
        self._process = service.peers.process  # this process, in presence messages
        #: ``{code: {process: (online seats, spectators, expires: clock unix s)}}``
        self._present: dict[str, dict[str, tuple[list[int], int, float]]] = {}
        #: ``{code: the presence frame text its sockets were sent last}``
        self._told: dict[str, str] = {}
        self._chat = ChatLog(self._publisher)
        service.listen(self.changed)
        service.peers.on_gone(self.forget_process)
        for kind, handler in (("room", self._room_changed), ("chat", self._deliver_chat),
                              ("presence", self._record_presence), ("resync", self.resync)):
            self._publisher.on(kind, handler)

    def counts(self) -> dict[str, int]:
        """Return this process's ``{"rooms", "players", "spectators"}`` socket counts (metrics)."""
        conns = [conn for room in self._rooms.values() for conn in room]
        players = sum(1 for conn in conns if conn.seat is not None)
        return {"rooms": len(self._rooms), "players": players,
                "spectators": len(conns) - players}

    def retained(self) -> dict[str, int]:
        """Return how many rooms have sockets here, how many have presence entries and how
        many have chat lines kept here."""
        return {"rooms": len(self._rooms), "presence": len(self._present) + len(self._told),
                "chat": self._chat.retained()}

    async def stop(self) -> None:
        """Stop renewing the presence entries (presence messages already queued go out with
        the broker's ``stop``)."""
        if self._renewer is not None:
            self._renewer.cancel()
            await asyncio.gather(self._renewer, return_exceptions=True)

    # ------------------------------------------------------------------ frames

    async def changed(self, code: str) -> None:
        """Send every local socket of room ``code`` the ``update`` it must get now (listener
        of the room service). One ``update`` text is encoded per distinct render. A
        spectator's socket whose player the ``Room`` JSON seats is greeted again instead
        (``greet_again``): a claim's ``room`` message comes after the match start's ``version``
        message, and is never sent when the claiming process dies between the two."""
        conns = self._rooms.get(code)
        if not conns:
            return
        port = next(iter(conns)).port
        fanout = Fanout(port.kept_room() or await port.room())
        again = []
        for conn in list(conns):
            if seat_given(conn, fanout.room):
                again.append(conn)
                continue
            data = conn.render()
            if data is not None:
                conn.update(fanout, data)
        for conn in again:
            await self.greet_again(conn)

    async def _room_changed(self, message: dict[str, Any]) -> None:
        """A room changed: its sockets get the new ``Room`` JSON (a freed seat's socket
        becomes a spectator's, and gets the spectator's ``update`` right after); a spectator's
        socket whose player the room now seats is greeted again instead (``greet_again``)."""
        conns = self._rooms.get(message["room"])
        if not conns:
            return
        room = await next(iter(conns)).port.room()
        text = encode(frame(RoomFrame(room=room)))
        fanout = Fanout(room)
        again = []
        for conn in list(conns):
            unseated = unseat_if_freed(conn, room)
            if seat_given(conn, room):  # its welcome carries the room
                again.append(conn)
                continue
            conn.send(text)
            conn.sent_room(room)
            if unseated:  # it is shown the spectator's frame from now on
                data = conn.render()
                if data is not None:
                    conn.update(fanout, data)
        for conn in again:
            await self.greet_again(conn)

    async def greet_again(self, conn: Connection) -> None:
        """Greet ``conn`` again as its player (``RoomPort.greet``): a new ``welcome`` (a
        patching socket's ``seq`` starts again at 0) with the seat the room gives the player
        now, and from then on that seat's frames. Nothing is sent if the socket closed
        meanwhile or the room is gone."""
        port = conn.port
        try:
            greeting = await port.greet(conn.player_id)
        except RoomError:
            return
        if conn not in self._rooms.get(conn.code, ()):
            port.leave(greeting.follower)
            return
        port.leave(conn.follower)
        conn.follower, conn.stream = greeting.follower, None
        self.welcome(conn, greeting)

    async def resync(self, message: dict[str, Any] | None = None) -> None:
        """After the room channel lost messages (a Redis restart; the room core has made every
        followed match current and sent the ``update``s that brought): each socket of a room
        still open gets a ``room`` frame, this process's presence is published again, and the
        chat lines kept here are read from the broker again at each room's next greet."""
        log.warning("room channel resubscribed; refreshing %d rooms", len(self._rooms))
        self._chat.stale()
        for code, conns in list(self._rooms.items()):
            port = next(iter(conns)).port
            try:
                room = await port.room()
            except Exception:
                log.exception("could not refresh room %s", code)
                continue
            if port.match() is None:
                text = encode(frame(RoomFrame(room=room)))
                for conn in list(conns):
                    conn.send(text)
                    conn.sent_room(room)
            self._presence(code)

    async def refresh(self, conn: Connection, force: bool = False) -> None:
        """Send ``conn`` an ``update`` if it is behind the match held here; with ``force``
        (after ``stale_prompt``) always (``RoomPort.update``). The update is rendered after
        the ``Room`` JSON was read and sent at once, so a fan-out during that read cannot be
        followed by an older frame."""
        room = await conn.port.room()
        data = conn.render(force=force)
        if data is not None:
            conn.update(Fanout(room), data)

    async def sync(self, conn: Connection) -> None:
        """Answer a patching socket's ``sync``: a full ``update`` (its next ``seq``) of the
        document it was sent last, without events, with the current ``Room`` JSON; nothing
        about the match is rendered again (its later patches start from that document).
        The document is taken after the ``Room`` JSON was read: an update sent during that
        read (a fan-out) must not be followed by a full update of the document before it."""
        assert conn.patches, "the endpoint refuses sync from a socket without patches"
        room = await conn.port.room()
        data = {**conn.document(), "events": []}
        if conn.stream is None:
            conn.stream = Stream(data)
        conn.update(Fanout(room), data, full=True)

    def greeting(self, code: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Return the block a greet of room ``code`` runs in: the room's recent chat lines are
        kept here from its start (read from the broker when this process kept none), so the
        ``welcome`` at its end is followed by them (``ChatLog.recording``)."""
        return self._chat.recording(code)

    def welcome(self, conn: Connection, greeting: Greeting) -> None:
        """Register ``conn`` and queue its ``welcome``, then the room's recent chat lines its
        seat may see (``chat_history``, when there are any: a socket greeted again gets them
        again) and everyone's ``presence``; a socket that asked for patches gets ``"seq": 0``
        in its welcome and starts its ``stream``."""
        conns = self._rooms.setdefault(conn.code, set())
        if conn not in conns:
            conns.add(conn)
            self._chat.hold(conn.code)
        welcome = frame(Welcome(seat=greeting.seat, room=greeting.room, **greeting.frame))
        if conn.patches:
            welcome = {"type": welcome.pop("type"), "seq": 0, **welcome}
        conn.send(welcome)
        lines = self._chat.lines(conn.code, conn.seat)
        if lines:
            conn.send(history_text(lines))
        told = self._told.get(conn.code)
        if told is not None:
            conn.send(told)
        self._presence(conn.code)

    def leave(self, conn: Connection) -> None:
        """Forget ``conn`` (it stops following its room); tell the others who is still there."""
        conns = self._rooms.get(conn.code, set())
        if conn in conns:
            conns.discard(conn)
            self._chat.release(conn.code)
        conn.port.leave(conn.follower)
        if not conns:
            self._rooms.pop(conn.code, None)
            self._told.pop(conn.code, None)
        self._presence(conn.code)

    # ------------------------------------------------------------------ presence

    def _presence(self, code: str) -> None:
        """Publish this process's sockets of room ``code`` (every process sums them up)."""
        conns = self._rooms.get(code, set())
        message = {"room": code, "kind": "presence", "process": self._process,
                   "online": sorted({c.seat for c in conns if c.seat is not None}),
                   "spectators": sum(1 for c in conns if c.seat is None)}
        self._publisher.post(message)

    async def _record_presence(self, message: dict[str, Any]) -> None:
        """Store one process's presence (counted until ``presence_seconds`` after it was
        heard) and send the room's total to the local sockets."""
        code = message["room"]
        present = self._present.setdefault(code, {})
        expires = self._clock.now() + self._presence_seconds
        present[message["process"]] = (message["online"], message["spectators"], expires)
        if not message["online"] and not message["spectators"]:
            del present[message["process"]]
        self._send_presence(code)

    def forget_process(self, process: str) -> None:
        """Drop every presence entry of ``process`` (lost or gone: its sockets are), telling
        the rooms whose total changes."""
        for code, present in list(self._present.items()):
            if present.pop(process, None) is not None:
                self._send_presence(code)

    def _send_presence(self, code: str) -> None:
        """Send room ``code``'s presence total to its local sockets if it is not the one they
        were sent last (forget an empty room)."""
        present = self._present.get(code, {})
        online = sorted({seat for seats, _, _ in present.values() for seat in seats})
        spectators = sum(count for _, count, _ in present.values())
        if not present:
            self._present.pop(code, None)
        text = encode(frame(Presence(online=online, spectators=spectators)))
        conns = self._rooms.get(code)
        if not conns:
            self._told.pop(code, None)
            return
        if self._told.get(code) == text:
            return
        self._told[code] = text
        for conn in list(conns):
            conn.send(text)

    def start(self) -> None:
        """Start renewing this process's presence entries (``renew``)."""
        self._renewer = asyncio.create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        period = self._presence_seconds / 3
        while True:
            await self._clock.sleep(period)
            try:
                self.renew()
            except Exception:  # keep renewing
                log.exception("presence renewal failed")

    def renew(self) -> None:
        """Publish this process's presence of every room it has sockets in again, and drop
        the other processes' entries not heard for ``presence_seconds`` (a killed process's
        sockets stop counting), telling the rooms that changed."""
        for code in list(self._rooms):
            self._presence(code)
        now = self._clock.now()
        for code, present in list(self._present.items()):
            stale = [process for process, (_, _, expires) in present.items()
                     if expires <= now and process != self._process]
            for process in stale:
                del present[process]
            if stale:
                self._send_presence(code)

    # ------------------------------------------------------------------ chat

    async def chat(self, conn: Connection, text: str, team: bool, at: float) -> None:
        """Publish a chat line (``at``: unix s), kept for sockets greeted later
        (``chat_keep``); a team line goes only to the sender's side (``Room.teams``), now and
        in those histories (``reaches``). Its ``id``: 16 random hex digits.

        Raises:
            ValueError: a team line from a spectator (the endpoint refuses it first).
        """
        seat = conn.seat
        if team and seat is None:
            raise ValueError("a spectator has no team to send a team line to")
        to = await conn.port.teammates(seat) if team and seat is not None else None
        self._publisher.post({
            "room": conn.code, "kind": "chat", "id": secrets.token_hex(8), "seat": conn.seat,
            "name": conn.name, "text": text, "team": team, "to": to, "at": at},
            keep=chat_keep(conn.code))

    async def _deliver_chat(self, message: dict[str, Any]) -> None:
        """Keep a room channel's chat line (if the room is held here) and send it to the
        room's sockets it reaches (``reaches``)."""
        line = chat_line(message)
        self._chat.heard(message["room"], line)
        _, to, text = line
        for conn in list(self._rooms.get(message["room"], ())):
            if reaches(to, conn.seat):
                conn.send(text)
