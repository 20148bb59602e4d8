"""The stored log as the engine replays it, and the checks made on it.

``MatchLog`` replays one match's ``match_actions`` rows from its seed through
``app.rooms.live.LiveMatch`` (what a server process does when it rebuilds a match), noting per
action count the public ``version`` frames show, which decisions were answered with which
action (seat, prompt id, action), and whether each answer of a bot seat is the one that bot
gives to the decision it was stored under (``app.rooms.bots.expected_answer``, with the run's
bot key). ``Violations`` collects what the checks find, by kind, with a few examples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import repositories as repo
from app.rooms.bots import BotDelay, expected_answer
from app.rooms.live import RESIGN, LiveMatch
from engine.core import EngineError
from engine.registry import get_game

#: How many examples each violation kind keeps.
EXAMPLES = 5


@dataclass
class Violations:
    """Violations by kind: a count and the first ``EXAMPLES`` examples of each."""

    counts: Counter = field(default_factory=Counter)
    examples: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, kind: str, example: Any) -> None:
        """Count one violation of ``kind``; keep ``example`` among the first few."""
        self.counts[kind] += 1
        kept = self.examples.setdefault(kind, [])
        if len(kept) < EXAMPLES:
            kept.append(example)

    def to_json(self) -> dict[str, Any]:
        """Return ``{kind: {"count", "examples"}}``, kinds sorted."""
        return {kind: {"count": self.counts[kind], "examples": self.examples[kind]}
                for kind in sorted(self.counts)}


def canonical(action: Mapping[str, Any]) -> bytes:
    """Return ``action`` as JSON with sorted keys (equal actions, equal bytes)."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)


def plain(value: Any) -> Any:
    """Return ``value`` as it reads back from a JSON frame (tuples become lists, keys text)."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


@dataclass(frozen=True)
class BotKey:
    """What recomputes a bot's answers: the servers' ``ARENA_BOT_SECRET`` and bot delay."""

    secret: bytes
    delay: BotDelay


class MatchLog:
    """One match's stored log, replayed (see the module docstring).

    Attributes:
        code, match_id: the room and the match.
        live: the match after ``seq`` stored actions.
        public: ``public[k]`` = the public version after ``k`` actions.
        answered: ``{(seat, prompt id, canonical action)}`` of the actions not played by a clock.
        broken: the engine refused a stored action (replaying stopped there).
    """

    def __init__(self, code: str, live: LiveMatch, bots: Mapping[int, str],
                 key: BotKey | None, violations: Violations) -> None:
        self.code, self.match_id, self.live = code, live.match_id, live
        self.seq, self.public = 0, [0]
        self.answered: set[tuple[int, str | None, bytes]] = set()
        self.broken = False
        self._bots, self._key, self._violations = dict(bots), key, violations
        self._windows: dict[int, tuple[str, list[LiveMatch]]] = {}
        self._note_windows()

    @classmethod
    async def load(cls, session: AsyncSession, code: str, match_id: int, bots: Mapping[int, str],
                   key: BotKey | None, violations: Violations) -> MatchLog:
        """Return the log of ``match_id`` (room ``code``) replayed to its stored end; ``bots``
        are the seats (and levels) whose answers are checked."""
        match = await repo.get_match(session, match_id)
        assert match is not None, f"match {match_id} is listed but not stored"
        seats = (await repo.match_seats(session, [match_id]))[match_id]
        live = LiveMatch.start(get_game(match.game), match.id, match.room_id, code,
                               match.options, len(seats), bytes.fromhex(match.seed),
                               match.started_at.timestamp())
        log = cls(code, live, bots, key, violations)
        await log.extend(session)
        return log

    async def extend(self, session: AsyncSession) -> None:
        """Replay the actions stored since the last call."""
        if self.broken:
            return
        for row in await repo.match_actions(session, self.match_id, self.seq):
            self._replay(row)
            if self.broken:
                return

    def _replay(self, row: Any) -> None:
        where = {"room": self.code, "match": self.match_id, "seq": row.seq}
        if row.seq != self.seq + 1:
            self._violations.add("seq_gap", {**where, "expected": self.seq + 1})
        before = self.live
        prompt = before.prompt_id(row.seat)
        if not row.timeout:
            self.answered.add((row.seat, prompt, canonical(row.action)))
            if row.seat in self._bots and row.action != RESIGN:
                self._check_bot(row, prompt, where)
        try:
            self.live, _ = before.replay(row.seat, row.action, row.at.timestamp(), row.timeout,
                                         row.forfeit)
        except EngineError as refused:
            self._violations.add("log_refused_by_engine", {**where, "error": str(refused)})
            self.broken = True
            return
        self.seq = row.seq
        self.public.append(self.live.public_version)
        self._note_windows()

    def _note_windows(self) -> None:
        """Keep, per bot seat, every state since its current decision began (a bot reads its
        frame at some moment of the decision)."""
        for seat in self._bots:
            prompt = self.live.prompt_id(seat)
            window = self._windows.get(seat)
            if prompt is None:
                self._windows.pop(seat, None)
            elif window is not None and window[0] == prompt:
                window[1].append(self.live)
            else:
                self._windows[seat] = (prompt, [self.live])

    def _check_bot(self, row: Any, prompt: str | None, where: dict[str, Any]) -> None:
        """Note a bot seat's stored answer that its bot does not give to the decision it was
        stored under (so it answered another one, already answered: stored twice)."""
        if self._key is None:
            return
        window = self._windows.get(row.seat)
        states = window[1] if window is not None and window[0] == prompt else [self.live]
        level = self._bots[row.seat]
        for state in reversed(states):
            try:
                if expected_answer(self._key.secret, state, row.seat, level) == row.action:
                    return
            except (ValueError, KeyError):
                pass
        self._violations.add("bot_answer_stored_twice",
                             {**where, "seat": row.seat, "action": row.action})

    def expected_frame(self, viewer: int | None) -> dict[str, Any]:
        """Return ``{match, version, view, prompt, legal}`` that ``viewer`` must be shown at
        the stored log's end (JSON-plain)."""
        frame = self.live.frame(viewer)
        return plain({"match": self.match_id, "version": frame["version"],
                      "view": frame["view"], "prompt": frame["prompt"],
                      "legal": frame["legal"]})


async def taken_twice(session: AsyncSession) -> list[dict[str, Any]]:
    """Return ``{match, seq, rows}`` of every ``(match, seq)`` that holds more than one action."""
    rows = await session.execute(text(
        "SELECT match_id, seq, count(*) FROM match_actions GROUP BY match_id, seq "
        "HAVING count(*) > 1 ORDER BY match_id, seq"))
    return [{"match": m, "seq": s, "rows": n} for m, s, n in rows]


async def room_matches(session: AsyncSession) -> dict[str, list[int]]:
    """Return ``{room code: [its match ids, oldest first]}``."""
    rows = await session.execute(text(
        "SELECT r.code, m.id FROM matches m JOIN rooms r ON r.id = m.room_id ORDER BY m.id"))
    out: dict[str, list[int]] = {}
    for code, match_id in rows:
        out.setdefault(code, []).append(match_id)
    return out
