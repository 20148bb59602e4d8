"""Computer players in rooms.

A bot is a ``players`` row marked ``bot`` with its ``bot_level`` (one of ``engine.bots.LEVELS``;
a match with a bot is never rated, ``app.rooms.ratings``), seated like anyone through
``RoomService.claim_seat``: ``fill_with_bots`` puts a new bot of the chosen level in every free
seat of an open room (room creator only). Its name is ``BOT_NAMES[level]`` (clients show the
level's name in their own language from the seat's ``bot_level``).

``BotDriver`` plays the bot seats of every match through the same door as people (the room's
``RoomPort``): told of every change of a match held here, when a bot seat is asked a decision it
reads that seat's frame (its ``view`` and ``legal`` actions only, exactly what a person's socket
gets), has the ``Thinker`` (``app.rooms.bot_workers``: searches run in worker processes) decide
at the seat's level while a short natural delay runs, and answers the seat's prompt with ``act``
— so the action is logged, checked against the prompt and the clocks like any other (an answer
to a prompt that moved on meanwhile is refused). With several processes every process follows
the rooms with bots it hears of (a version message of a room with bots brings its match held
here to it), and the one holding the room's lease (``app.rooms.bot_lease``) answers; another
takes over once that lease lapses. A duplicate answer would be refused by the prompt check.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.auth import hash_token, new_token
from app.db import bots_repo
from app.rooms.bot_lease import BotLease, LocalLease, take_turn
from app.rooms.bot_workers import Thinker
from app.rooms.errors import RoomError
from app.rooms.store import to_datetime
from engine.bots import LEVELS, decide
from engine.core import Rng

log = logging.getLogger(__name__)

#: The stored name of a new bot player of each level (frontend/i18n ``bots.name.<level>``).
BOT_NAMES: dict[str, str] = {"easy": "Easy bot", "normal": "Normal bot", "hard": "Hard bot",
                             "expert": "Expert bot"}
#: How many rooms' bot seats ``BotDriver`` keeps (the least recently used go first).
SEATS_KEPT = 10_000


def check_level(level: str) -> str:
    """Return ``level`` if it is one of ``engine.bots.LEVELS``.

    Raises:
        RoomError: ``bad_bot_level`` (422).
    """
    if level not in LEVELS:
        raise RoomError("bad_bot_level", f"Bot level must be one of: {', '.join(LEVELS)}.", 422)
    return level


@dataclass(frozen=True)
class BotDelay:
    """How long a bot "thinks" before it answers: uniform in ``[low, high]`` seconds.

    The jitter is drawn from the bot's ``Rng`` (never the ``random`` module), in steps of a
    thousandth of the range. ``BotDelay(0, 0)`` answers at once (tests). A match's first
    decision waits ``high`` more (``think_seconds``): the pages of the people who just filled
    the room connect before the bot's first move, which they would otherwise see only in the
    replay once the match is over.
    """

    low: float = 0.6
    high: float = 1.2

    def seconds(self, rng: Rng) -> float:
        """Return the delay in seconds for one decision."""
        if self.high <= self.low:
            return max(self.low, 0.0)
        return self.low + (self.high - self.low) * rng.randbelow(1001) / 1000


async def fill_with_bots(service: Any, sessions: async_sessionmaker, code: str,
                         requester_id: int, level: str, now: float) -> dict[str, Any]:
    """Seat a new bot of ``level`` in every free seat of room ``code``; return the ``Room`` JSON.

    The match starts when the last seat is filled (``RoomService.claim_seat``).

    Raises:
        RoomError: ``bad_bot_level`` (422), ``room_not_found`` (404), ``not_room_creator`` (403),
            ``room_not_open``, ``no_free_seat`` (409).
    """
    check_level(level)
    room = await service.room(code)
    if room["creator_id"] != requester_id:
        raise RoomError("not_room_creator", "Only the room's creator may seat bots.", 403)
    if room["status"] != "open":
        raise RoomError("room_not_open", "The room is not open any more.")
    free = [seat["seat"] for seat in room["seats"] if seat["player_id"] is None]
    if not free:
        raise RoomError("no_free_seat", "Every seat is taken.")
    for seat in free:
        async with sessions() as session, session.begin():
            bot = await bots_repo.add_bot_player(session, BOT_NAMES[level], level,
                                                 hash_token(new_token()), to_datetime(now))
        room = await service.claim_seat(code, seat, bot.id)
    return room


Sleep = Callable[[float], Awaitable[None]]


def decision_seed(secret: bytes, code: str, seat: int, prompt: str) -> bytes:
    """Return the 32-byte seed of the bot's decision at ``prompt`` of ``seat`` in room
    ``code``: SHA-256 of the driver's secret and those labels (``engine.bots.decide``)."""
    labels = "\x1f".join(("decide", code, str(seat), prompt)).encode()
    return hashlib.sha256(secret + b"\x1e" + labels).digest()


def think_seconds(secret: bytes, delay: BotDelay, code: str, seat: int, prompt: str,
                  opening: bool = False) -> float:
    """Return the natural delay (seconds) of a bot's answer to ``prompt`` of ``seat`` in room
    ``code``: drawn from an ``Rng`` derived from the driver's ``secret`` and the decision,
    ``delay.high`` more for a match's ``opening`` decision (``BotDelay``)."""
    seconds = delay.seconds(Rng.derive(secret, code, seat, prompt))
    return seconds + delay.high if opening else seconds


def expected_answer(secret: bytes, live: Any, seat: int, level: str) -> dict[str, Any]:
    """Return the action a ``BotDriver`` keyed with ``secret`` plays for ``seat``'s current
    decision in ``live`` (a ``LiveMatch`` the seat is asked in), from the seat's frame, for a
    level decided in the server process (``app.rooms.bot_workers.INLINE_LEVELS``: a search
    level's answer also depends on how much of its budget it got).

    Raises:
        ValueError: the seat has no legal action, or an unknown level; KeyError: an unknown game.
    """
    frame = live.frame(seat)
    seed = decision_seed(secret, live.code, seat, frame["prompt"])
    return decide(live.game.spec.id, level, frame["view"], frame["legal"], seed)


def asked(port: Any, seat: int, prompt: str) -> bool:
    """Whether ``seat`` is still asked ``prompt`` in the match held here."""
    frame = port.render(seat)
    return frame is not None and frame["prompt"] == prompt


class BotDriver:
    """Answers the decisions of bot seats (see the module docstring).

    Args:
        service: the room service (its ports: renders and ``act``; its channel).
        sessions: the session factory (which seats are bots).
        delay: the least time before an answer; thinker: decides the actions; secret: the key
            of the bots' seeds (not the match seed, which stays secret until the end); sleep:
            ``asyncio.sleep`` (injectable); lease: which process answers a room's bots
            (``app.rooms.bot_lease``; default: this one, always).
    """

    def __init__(self, service: Any, sessions: async_sessionmaker, delay: BotDelay,
                 thinker: Thinker, secret: bytes | None = None,
                 sleep: Sleep = asyncio.sleep, lease: BotLease | None = None) -> None:
        self._service, self._sessions = service, sessions
        self._delay, self._thinker, self._sleep = delay, thinker, sleep
        self._lease = lease if lease is not None else LocalLease()
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        #: ``{code: (match id, {seat: bot level})}`` of the rooms heard of, the least recently
        #: used first out past ``SEATS_KEPT``; a room's entry goes when its match is over.
        self._seats: OrderedDict[str, tuple[int | None, dict[int, str]]] = OrderedDict()
        self._pending: dict[tuple[str, int, str], asyncio.Task] = {}
        self._running = False

    async def start(self) -> None:
        """Hear every change of a match held here and every room change (``resume`` then
        answers the bots of every match being played)."""
        self._running = True
        self._service.listen(self._changed)
        publisher = self._service.publisher
        publisher.on("room", self._room_changed)
        publisher.on("version", self._heard_version)

    async def resume(self) -> None:
        """Answer the bots of every match being played: their seats and stored heads read in
        one query; each such match held here and made current (read again only when the copy
        held here is behind that head), then its asked bot seats scheduled."""
        async with self._sessions() as session:
            rooms = await bots_repo.playing_bot_seats(session)
        for code, (match_id, seq, seats) in rooms.items():
            if not self._running:
                return
            self._seats.setdefault(code, (match_id, seats))  # (one read since then is newer)
            port = self._service.port(code)
            held = port.match()
            if held is None or held.match_id != match_id or held.version < seq:
                await self._guarded(port.sync(), code)  # held and current
            await self._guarded(self.kick(code), code)
        while len(self._seats) > SEATS_KEPT:
            self._seats.popitem(last=False)

    async def stop(self) -> None:
        """Stop answering and cancel every pending answer."""
        self._running = False
        tasks = list(self._pending.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._pending.clear()

    def retained(self) -> int:
        """Return how many rooms' bot seats are kept."""
        return len(self._seats)

    async def _changed(self, code: str) -> None:
        """A match held here changed: answer its bot seats that are asked."""
        if self._running:
            await self._guarded(self.kick(code), code)

    async def _room_changed(self, message: dict[str, Any]) -> None:
        """Seats changed, or a new match began: read the bot seats again."""
        code = message["room"]
        self._seats.pop(code, None)
        if self._running:
            await self._guarded(self.kick(code), code)

    async def _heard_version(self, message: dict[str, Any]) -> None:
        """Another process stored an action: a room with bots is brought to it here too (and
        then kicked, as a change of a match held here)."""
        code = message["room"]
        if self._running and await self._bot_seats(code, message.get("match")):
            await self._guarded(self._service.port(code).sync(
                message.get("match"), message.get("version"), message.get("step")), code)

    @staticmethod
    async def _guarded(work: Awaitable[None], code: str) -> None:
        try:
            await work
        except Exception:  # one room's failure must not stop the bots of the others
            log.exception("bot driver failed on room %s", code)

    async def _bot_seats(self, code: str, match_id: int | None) -> dict[int, str]:
        """Return ``{seat: bot level}`` of the room's newest match (read once per match)."""
        cached = self._seats.get(code)
        if cached is None or (match_id is not None and cached[0] != match_id):
            async with self._sessions() as session:
                cached = await bots_repo.newest_match_bots(session, code)
            if cached[0] is None:
                return {}
            self._seats[code] = cached
            while len(self._seats) > SEATS_KEPT:
                self._seats.popitem(last=False)
        self._seats.move_to_end(code)
        return cached[1]

    async def kick(self, code: str) -> None:
        """Schedule an answer for every bot seat of room ``code`` asked a decision in the match
        held here."""
        port = self._service.port(code)
        cached = self._seats.get(code)
        if cached is not None and not cached[1] and cached[0] == port.playing():
            return  # a match being played without bots (known): nothing to answer
        match = port.match()
        if match is None or match.over:
            self._seats.pop(code, None)  # nothing left to answer
            return
        bots = await self._bot_seats(code, match.match_id)
        for seat in sorted(bots):
            prompt = match.prompts.get(seat)
            if prompt is not None and (code, seat, prompt) not in self._pending:
                self._schedule(code, seat, prompt, bots[seat], match.game, match.version == 0)

    def _schedule(self, code: str, seat: int, prompt: str, level: str, game_id: str,
                  opening: bool) -> None:
        key = (code, seat, prompt)
        task = asyncio.create_task(self._answer(code, seat, prompt, level, game_id, opening))
        self._pending[key] = task
        task.add_done_callback(lambda _: self._pending.pop(key, None))

    async def _answer(self, code: str, seat: int, prompt: str, level: str,
                      game_id: str, opening: bool) -> None:
        """Decide from the seat's own frame (view + legal only) while the natural delay runs
        (longer for the match's first decision: ``opening``), then answer ``prompt``."""
        think = think_seconds(self._secret, self._delay, code, seat, prompt, opening)
        seed = decision_seed(self._secret, code, seat, prompt)
        port = self._service.port(code)
        if not await take_turn(self._lease, code, lambda: asked(port, seat, prompt)):
            return  # answered meanwhile (by the process holding the room's lease)
        frame = port.render(seat)
        if frame is None or frame["prompt"] != prompt or not frame["legal"]:
            return  # the decision moved on meanwhile (a timeout, a teammate)
        try:
            thinking = asyncio.ensure_future(
                self._thinker.decide(game_id, level, frame["view"], frame["legal"], seed))
            try:
                await self._sleep(think)
            finally:
                action = await thinking
            await port.act(seat, prompt, action)
        except RoomError as exc:
            log.info("bot answer refused", extra={"room": code, "seat": seat, "code": exc.code})
        except Exception:  # a bot bug: the seat's clock will play its deadline action instead
            log.exception("bot of room %s seat %s failed", code, seat)
