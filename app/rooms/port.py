"""The one door into a live room: ``RoomPort``, all that the websocket hub and endpoint, the bot
driver and room management call. Nothing of a match but JSON-ready frames and plain values
leaves through it (docs/server.md "The room port").

A socket ``greet``s (its ``Follower`` and ``welcome`` data), gets its ``update`` data after each
change (``update``: only when its viewer can see one), ``act``s for its seat and ``leave``s.
What a greet shows is current as docs/server.md "When a held match is current" says.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rooms.live import Forfeit, LiveMatch
from app.rooms.live_rooms import Follower, LiveRoom, LiveRooms

__all__ = ["Follower", "Greeting", "MatchInfo", "RoomPort", "last_shown", "shown_by"]

log = logging.getLogger(__name__)

#: What a ``welcome`` shows before the room has a match.
NO_MATCH: dict[str, Any] = {"version": 0, "view": None, "prompt": None, "legal": [], "deadline": None,
            "clocks": {}}


def shown_by(frame: Mapping[str, Any]) -> tuple:
    """Return what a frame shows its viewer apart from ``version``, ``events`` and ``room``:
    ``(view, prompt, legal, deadline, clocks)``.

    ``room`` is left out on purpose: it changes for everyone at once (and comes in its own
    ``room`` frame), so an ``update`` sent only because of it could arrive right after a hidden
    answer and tell of it (docs/security.md §2).
    """
    return (frame["view"], frame["prompt"], frame["legal"], frame["deadline"], frame["clocks"])


def last_shown(follower: Follower) -> dict[str, Any]:
    """Return the ``{version, view, prompt, legal, deadline, clocks}`` ``follower`` was last
    shown (its ``public`` version and ``shown``; ``NO_MATCH`` before any view of a match): a new
    dict holding the shown values themselves."""
    if follower.shown is None:
        return dict(NO_MATCH)
    view, prompt, legal, deadline, clocks = follower.shown
    return {"version": follower.public, "view": view, "prompt": prompt, "legal": legal,
            "deadline": deadline, "clocks": clocks}


@dataclass(frozen=True, slots=True)
class Greeting:
    """What a greet gives a socket.

    Attributes:
        follower: its place among the room's followers (``update``, ``leave``).
        seat: the seat its player holds in the room, ``None`` (a spectator).
        room: the ``Room`` JSON.
        frame: ``{version, view, prompt, legal, deadline, clocks}`` of the ``welcome``.
    """

    follower: Follower
    seat: int | None
    room: dict[str, Any]
    frame: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The room's match as held here, without its state.

    Attributes:
        match_id; game: the engine id; version: actions applied; over: it has an outcome;
        prompts: ``{seat: prompt id}`` of the seats asked now; deadlines: ``{seat: unix s}``.
    """

    match_id: int
    game: str
    version: int
    over: bool
    prompts: dict[int, str]
    deadlines: dict[int, float]


def kept_since(room: LiveRoom, since: int) -> int:
    """Return the version from which ``room``'s journal can give a follower shown ``since``
    its events: ``since``, or the journal's floor when the events after ``since`` were dropped
    already. The trim keeps every follower's events, so that should not happen; when it does
    (seen once in a chaos run, cause not found) the follower's next frame lacks those events
    but shows the current view, instead of its socket failing. Logged as a warning."""
    floor = room.journal.floor
    if since >= floor or (since < 0 and floor == 0):
        return since
    log.warning("room %s: a follower shown version %d gets the events after %d (the ones "
                "before were dropped)", room.code, since, floor)
    return floor


class RoomPort:
    """The door into room ``code`` of this process (cheap: make one per use).

    Raises (every ``async`` method that reads the room):
        RoomError: ``room_not_found`` (404).
    """

    __slots__ = ("code", "_rooms")

    def __init__(self, rooms: LiveRooms, code: str) -> None:
        self.code, self._rooms = code, rooms

    # ------------------------------------------------------------------ sockets

    async def greet(self, player_id: int | None) -> Greeting:
        """Follow the room for a socket of ``player_id`` (``None``: anonymous); return its
        ``Greeting``: its seat (the one ``player_id`` holds, else spectator) and the welcome
        data from the room's match made current first (one indexed query with several
        processes, none with one).

        The socket follows the room before the head is read, so a version message heard while
        it is greeted is applied here (an unfollowed room ignores them), and the welcome is
        rendered after the last wait, so it shows every change made until the caller
        registers the socket (which then hears every later one: nothing falls between).
        """
        rooms = self._rooms
        room = rooms.enter(self.code)
        follower = Follower(None)
        room.followers.add(follower)
        try:
            async with room.lock:
                await rooms.make_current(room)
            await rooms.settle(room)  # a change found here reaches the room's other sockets
            data = await rooms.room_json(room, shared=True)
        except BaseException:
            room.followers.discard(follower)
            rooms.release(room)
            raise
        seat = next((s["seat"] for s in data["seats"]
                     if player_id is not None and s["player_id"] == player_id), None)
        follower.viewer = seat
        live = room.match
        if live is None:
            frame = dict(NO_MATCH)
        else:
            frame = live.frame(seat)
            follower.match_id, follower.since = live.match_id, live.version
            follower.public, follower.shown = frame["version"], shown_by(frame)
            follower.timed = live.deadlines
        return Greeting(follower, seat, data, frame)

    def update(self, follower: Follower, force: bool = False) -> dict[str, Any] | None:
        """Return the ``update`` data (``{version, view, prompt, legal, deadline, clocks,
        events}``) ``follower`` must be sent now, or ``None``.

        ``None`` when its viewer can see no change: no event visible to it and the same
        ``shown_by`` as its last frame (the clocks are looked at again when the match's
        deadlines moved without a new version); its cursor then stays, so its next ``update`` carries
        every event since (docs/security.md §2: inside a simultaneous hidden window another
        seat's answer must not show, not even by a frame arriving). With ``force`` (after
        ``stale_prompt``) data is always returned: if nothing changed for it, its last frame
        again, at the public version it was shown and without events. The data of one viewer
        and cursor is the same dict for every follower within one fan-out (do not mutate).
        A follower still counting another match (a rematch) starts again from its deal.
        """
        room = self._rooms.entry(self.code)
        if room is None or room.match is None:
            return None
        live = room.match
        if follower.match_id != live.match_id:
            follower.match_id, follower.since, follower.shown = live.match_id, -1, None
        if live.version <= follower.since and live.deadlines is follower.timed and not force:
            return None
        follower.timed = live.deadlines
        data = self._render(room, live, follower.viewer, follower.since)
        shown = shown_by(data)
        if not data["events"] and shown == follower.shown:
            return {**data, "version": follower.public} if force else None
        follower.since, follower.shown, follower.public = live.version, shown, data["version"]
        return data

    @staticmethod
    def _render(room: LiveRoom, live: LiveMatch, viewer: int | None,
                since: int) -> dict[str, Any]:
        """Return the held match ``live`` (``room.match``)'s frame for ``viewer`` with the events
        since ``since`` (made once per fan-out for each viewer and cursor)."""
        key = (viewer, since, live.version)
        data = room.renders.get(key)
        if data is None:
            data = live.frame(viewer)
            data["events"] = room.journal.events(viewer, kept_since(room, since), live.version)
            room.renders[key] = data
        return data

    def unseat(self, follower: Follower) -> None:
        """Make ``follower`` a spectator's (its seat was given to someone else); its next
        ``update`` renders the spectator's frame even without a new version (the seat's
        frame it was shown last is not what it watches any more)."""
        follower.viewer, follower.timed = None, None

    def leave(self, follower: Follower) -> None:
        """Stop following (the socket closed); the room is dropped here once nothing needs
        it (``LiveRooms.release``)."""
        room = self._rooms.entry(self.code)
        if room is None:
            return
        room.followers.discard(follower)
        if not room.followers:
            room.room = None
            room.renders.clear()
            if room.match is not None:
                room.journal.reset(room.match.version)
        self._rooms.release(room)

    def kept_room(self) -> dict[str, Any] | None:
        """Return the ``Room`` JSON ``room`` would return without reading anything, or
        ``None`` when it would read it."""
        room = self._rooms.entry(self.code)
        return self._rooms.kept_room_json(room) if room is not None else None

    async def room(self) -> dict[str, Any]:
        """Return the ``Room`` JSON (kept while the room is held here; read again after a
        change)."""
        room = self._rooms.entry(self.code)
        if room is None:
            return await self._rooms.read_room(self.code)
        return await self._rooms.room_json(room)

    async def teammates(self, seat: int) -> list[int]:
        """Return the seats on ``seat``'s side (``Room.teams``; itself included)."""
        teams = (await self.room())["teams"]
        return next((list(team) for team in teams if seat in team), [seat])

    # ------------------------------------------------------------------ acting

    async def act(self, seat: int, prompt: str | None, action: Mapping[str, Any]) -> None:
        """Play ``action`` for ``seat`` answering ``prompt`` (``LiveRooms.act``: its checks
        and errors)."""
        await self._rooms.act(self.code, seat, prompt, action)

    async def forfeit(self, seat: int, forfeit: Forfeit) -> bool:
        """Resign ``seat`` for the room itself, for ``forfeit`` (``LiveRooms.forfeit``: a
        seat that kept timing out); return whether it was stored (``False``: the match was
        over already).

        Raises:
            RoomError: ``match_not_started``.
        """
        return await self._rooms.forfeit(self.code, seat, forfeit) is not None

    async def sync(self, match_id: int | None = None, version: int | None = None,
                   step: Mapping[str, Any] | None = None) -> None:
        """Bring the match held here to ``version`` actions of ``match_id`` (a broker message,
        ``step`` its stored action), or without them to the stored head, holding the room if
        nothing was held (``LiveRooms.sync``)."""
        await self._rooms.sync(self.code, match_id, version, step, hold=True)

    # ------------------------------------------------------------------ reading

    def playing(self) -> int | None:
        """Return the id of the room's match held here while it is played (``None`` when none
        is held, or it is over)."""
        live = self._rooms.held(self.code)
        return live.match_id if live is not None and not live.over else None

    def match(self) -> MatchInfo | None:
        """Return the room's match as held here (``None`` when none is)."""
        live = self._rooms.held(self.code)
        if live is None:
            return None
        return MatchInfo(live.match_id, live.game.spec.id, live.version, live.over,
                         dict(live.prompt_ids()),
                         dict(live.deadlines))

    def render(self, seat: int | None) -> dict[str, Any] | None:
        """Return what ``seat`` (``None``: a spectator) is shown now: ``{version, view,
        prompt, legal, deadline, clocks}`` of the match held here, ``None`` when none is."""
        live = self._rooms.held(self.code)
        return live.frame(seat) if live is not None else None
