"""The chaos run's checks, each adding to ``Violations`` under its own kind:

- ``acked_action_missing``: an acknowledged ``act`` (seat, prompt, action) that no stored
  action of its match answers;
- ``version_decreased``: a client shown a lower ``version`` than before in one match, or a
  frame of an older match (across its reconnections too);
- ``welcome_older_than_log``: a ``welcome`` of an older match than the stored log's newest when
  its socket opened, or of the same match at a lower version than that log's;
- ``not_converged``: after the last fault (players no longer acting), a client whose last
  frame (match, version, view, prompt, legal) is not what the engine computes for its seat
  from the stored log, within the timeout;
- ``seq_taken_twice``: two stored actions of one match at one ``seq`` (and ``seq_gap``);
- ``bot_answer_stored_twice``: a stored answer of a bot seat that its bot does not give to the
  decision it was stored under (``bench.chaos.log``);
- ``log_refused_by_engine``: a stored action the engine refuses on replay;
- ``process_not_ready`` (``bench.chaos.run``): a process not answering ``/readyz`` with 200
  within ``READY_SECONDS`` after the last fault (the convergence check then runs all the
  same).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.db import repositories as repo
from app.rooms.bots import BOT_NAMES
from bench.chaos.clients import Ack, ChaosPlayer, Observations, Welcome
from bench.chaos.log import BotKey, MatchLog, Violations, canonical, room_matches, taken_twice
from bench.clients import match_of


def check_acks(acks: Iterable[Ack], logs: Mapping[int, MatchLog],
               violations: Violations) -> int:
    """Check every acknowledged action is stored; return how many were checked."""
    checked = 0
    for ack in acks:
        if ack.refused:
            continue
        checked += 1
        log = logs.get(ack.match) if ack.match is not None else None
        if log is None or (ack.seat, ack.prompt, canonical(ack.action)) not in log.answered:
            violations.add("acked_action_missing",
                           {"room": ack.code, "match": ack.match, "seat": ack.seat,
                            "prompt": ack.prompt, "action": ack.action})
    return checked


def check_welcomes(welcomes: Iterable[Welcome], logs: Mapping[int, MatchLog],
                   violations: Violations) -> None:
    """Check every ``welcome`` is at least as new as the stored log when its socket opened."""
    for welcome in welcomes:
        match, seq = welcome.opened
        if match is None:
            continue
        example = {"room": welcome.code, "opened_at": [match, seq], "url": welcome.url,
                   "welcome": [welcome.match, welcome.version]}
        if welcome.match is None or welcome.match < match:
            violations.add("welcome_older_than_log", example)
        elif welcome.match == match:
            log = logs.get(match)
            needed = log.public[min(seq, len(log.public) - 1)] if log is not None else 0
            if welcome.version < needed:
                violations.add("welcome_older_than_log", {**example, "log_version": needed})


def check_regressions(seen: Observations, violations: Violations) -> None:
    """Report every version that went back (noted by the clients)."""
    for example in seen.regressions:
        violations.add("version_decreased", example)


async def stored_logs(sessions: async_sessionmaker, bot_rooms: Mapping[str, dict[int, str]],
                      key: BotKey | None, violations: Violations) -> dict[int, MatchLog]:
    """Replay every stored match (checking the bot seats of ``bot_rooms``); check that no seq
    holds two actions. Return ``{match id: its log}``."""
    async with sessions() as session:
        for example in await taken_twice(session):
            violations.add("seq_taken_twice", example)
        logs = {}
        for code, match_ids in (await room_matches(session)).items():
            for match_id in match_ids:
                logs[match_id] = await MatchLog.load(session, code, match_id,
                                                     bot_rooms.get(code, {}), key, violations)
    return logs


def _difference(client: ChaosPlayer, expected: dict[str, Any]) -> dict[str, Any] | None:
    """Return what differs between the client's last frame and ``expected`` (or ``None``)."""
    last = client.last
    if last is None:
        return {"last": None}
    got = {"match": match_of(last), "version": last.get("version"), "view": last.get("view"),
           "prompt": last.get("prompt"), "legal": last.get("legal")}
    keys = [k for k in expected if got[k] != expected[k]]
    if not keys:
        return None
    return {"differs": keys, "got": [got["match"], got["version"]],
            "expected": [expected["match"], expected["version"]],
            "last_frame": last.get("type"), "frames_on_socket": client.frames}


def _viewer(client: ChaosPlayer) -> int | None:
    """Return the seat the client is served as: ``None`` once its seat went to a bot (a
    socket whose seat was taken over is served a spectator's frames)."""
    room = (client.last or {}).get("room") or {}
    seats = {seat["seat"]: seat for seat in room.get("seats") or ()}
    taken = seats.get(client.seat, {}).get("name") in BOT_NAMES.values()
    return None if taken and client.token is not None else client.seat


async def _room_converged(sessions: async_sessionmaker, code: str,
                          clients: Sequence[ChaosPlayer], logs: dict[str, MatchLog]
                          ) -> dict[str, Any] | None:
    """Bring the room's newest match log up to date; return the first client that differs
    from it (``None``: every client shows what the log gives its seat)."""
    async with sessions() as session:
        head = await repo.room_head(session, code)
        if head is None or head[1] is None:
            return {"room": code, "no_match": True}
        log = logs.get(code)
        if log is None or log.match_id != head[1]:
            log = logs[code] = await MatchLog.load(session, code, head[1], {}, None,
                                                   Violations())
        else:
            await log.extend(session)
    for client in clients:
        if not client.connected:
            return {"room": code, "seat": client.seat, "connected": False}
        viewer = _viewer(client)
        differs = _difference(client, log.expected_frame(viewer))
        if differs is not None:
            return {"room": code, "seat": client.seat, "viewer": viewer, "url": client.url_now,
                    "game": log.live.game.spec.id, "stored_actions": log.seq, **differs}
    return None


async def check_convergence(sessions: async_sessionmaker,
                            rooms: Mapping[str, Sequence[ChaosPlayer]], timeout: float,
                            violations: Violations) -> float:
    """Wait (at most ``timeout`` s) until, room by room, every client shows what the engine
    computes from the stored log for its seat; report each room that never did. Return the
    seconds until the last room converged (or the timeout)."""
    began, logs = time.monotonic(), {}  # type: float, dict[str, MatchLog]
    waiting = dict(rooms)
    last: dict[str, dict[str, Any]] = {}
    while waiting and time.monotonic() - began < timeout:
        for code in list(waiting):
            differs = await _room_converged(sessions, code, waiting[code], logs)
            if differs is None:
                del waiting[code]
            else:
                last[code] = differs
        if waiting:
            await asyncio.sleep(0.5)
    for code in waiting:
        violations.add("not_converged", last.get(code, {"room": code}))
    return round(time.monotonic() - began, 1)
