"""The live match of a room: engine state, version, prompts and clocks, in memory only.

The state is never sent anywhere: callers get per-viewer renders (``render``). A ``LiveMatch``
is rebuilt after a restart by replaying the logged actions from the seed (``replay``).

Prompts (docs/protocol.md): a seat's prompt is the version at which its current decision began;
it changes when the seat enters ``to_act``, after the seat acted, or when its legal list changed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Mapping

from engine.core import Event, Game

RESIGN = {"type": "resign"}


def to_act_is_public(game: Game, state: Any) -> bool:
    """Return ``game.to_act_is_public(state)``; True when the engine lacks that optional method
    (engine/core.py ``Game``)."""
    method = getattr(game, "to_act_is_public", None)
    return True if method is None else bool(method(state))


def timeout_event(game: Game, state: Any, seat: int) -> Event:
    """Return the ``timeout {seat}`` event of ``seat``'s clock running out in ``state``.

    Public, unless who was asked in ``state`` is not (``to_act_is_public`` False): then only
    ``seat`` sees it, so the event does not tell who was asked (docs/security.md).
    """
    audience = None if to_act_is_public(game, state) else frozenset({seat})
    return Event("timeout", {"seat": seat}, audience)


@dataclass(frozen=True)
class Step:
    """An applied-but-not-yet-committed action and everything it changes.

    Attributes:
        version: the version the match reaches (1-based action number = ``match_actions.seq``).
        seat, action, timeout, at: what was played, by whom, whether the clock played it, when
            (unix seconds).
        state: the engine state after it; events: the engine's events (+ ``timeout``).
        prompts: ``{seat: version its decision began}`` for the seats now to act.
        decision_at: ``{seat: unix second its decision began}``.
        deadlines: ``{seat: unix second its clock runs out}``.
        legal: ``{seat: legal actions}`` for the seats now to act.
    """

    version: int
    seat: int
    action: dict[str, Any]
    timeout: bool
    at: float
    state: Any
    events: tuple[Event, ...]
    prompts: dict[int, int]
    decision_at: dict[int, float]
    deadlines: dict[int, float]
    legal: dict[int, list[dict[str, Any]]]


@dataclass
class LiveMatch:
    """One match being played (or finished) in this process.

    Attributes:
        game: the engine; match_id, code, room_id: ids; players: seat count.
        state: the current engine state (raw: never leaves ``app.rooms``).
        version: actions applied so far.
        events: ``{version: events of that action}`` (for per-viewer ``update`` frames).
        ended: ``{seat: (prompt version, seat whose action ended it)}`` for the seat's last
            decision that ended: by a teammate, or by the seat itself from another socket (a
            second answer to it gets ``already_played``).
        lock: serialises appends; changed: set when deadlines change (wakes the clock loop).
    """

    game: Game
    match_id: int
    code: str
    players: int
    state: Any
    room_id: int = 0
    version: int = 0
    events: dict[int, tuple[Event, ...]] = field(default_factory=dict)
    prompts: dict[int, int] = field(default_factory=dict)
    decision_at: dict[int, float] = field(default_factory=dict)
    deadlines: dict[int, float] = field(default_factory=dict)
    legal: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    ended: dict[int, tuple[int, int]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @classmethod
    def start(cls, game: Game, match_id: int, room_id: int, code: str,
              options: Mapping[str, Any], players: int, seed: bytes,
              started_at: float) -> "LiveMatch":
        """Return the match at version 0: ``new_game`` from the seed, every to-act seat prompted."""
        live = cls(game, match_id, code, players, game.new_game(options, players, seed), room_id)
        for seat in sorted(game.to_act(live.state)):
            live.prompts[seat] = 0
            live.decision_at[seat] = started_at
            live.deadlines[seat] = started_at + game.clock_seconds(live.state, seat)
            live.legal[seat] = game.legal_actions(live.state, seat)
        return live

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """Whether the match has an outcome."""
        return self.game.outcome(self.state) is not None

    def prompt_id(self, seat: int) -> str | None:
        """Return the seat's current prompt id (``"<match>.<seat>.<version>"``) or ``None``."""
        if seat not in self.prompts:
            return None
        return self._prompt_text(seat, self.prompts[seat])

    def _prompt_text(self, seat: int, version: int) -> str:
        return f"{self.match_id}.{seat}.{version}"

    def ended_prompt_by(self, seat: int, prompt: str) -> int | None:
        """Return the seat whose action ended ``seat``'s decision ``prompt`` (``seat`` itself
        when another of its sockets answered it), or ``None``."""
        if seat in self.ended and self._prompt_text(seat, self.ended[seat][0]) == prompt:
            return self.ended[seat][1]
        return None

    def next_deadline(self) -> float | None:
        """Return the earliest pending deadline (unix s), ``None`` when nobody is on the clock."""
        return min(self.deadlines.values(), default=None)

    def sides(self) -> dict[str, list[int]]:
        """Return the public ``sides`` of the spectator view (``{}`` if the game has none)."""
        sides = self.game.view(self.state, None).get("sides") or {}
        return {name: list(seats) for name, seats in sides.items()}

    def teammates(self, seat: int) -> frozenset[int]:
        """Return the seats on ``seat``'s side (itself included; alone if the game has no sides)."""
        for seats in self.sides().values():
            if seat in seats:
                return frozenset(seats)
        return frozenset({seat})

    def visible_clocks(self, viewer: int | None) -> dict[int, float]:
        """Return the deadlines ``viewer`` may see.

        With one seat to act everyone sees its clock; when several are asked at once in a
        hidden-information game, a viewer sees only its own (who else is asked stays hidden:
        docs/protocol.md "clocks") — also once some of them have answered, so the clocks never
        show who is still being waited for (issue 9). When the engine says who is asked is not
        public (``to_act_is_public``, e.g. a Zipai claim window with one seat asked), a viewer
        sees only its own clock too.
        """
        if not self.game.spec.hidden_information or (
                not self._in_window() and to_act_is_public(self.game, self.state)):
            return dict(self.deadlines)
        return {s: d for s, d in self.deadlines.items() if s == viewer}

    def _in_window(self) -> bool:
        """Whether a seat on the clock was asked together with another seat (a simultaneous
        window: both still asked, or the other already answered)."""
        for seat, version in self.prompts.items():
            for other in range(self.players):
                if other != seat and (self.prompts.get(other) == version
                                      or self.ended.get(other, (None,))[0] == version):
                    return True
        return False

    def render(self, viewer: int | None, since: int) -> dict[str, Any]:
        """Return ``{version, view, prompt, legal, deadline, clocks, events}`` for ``viewer``.

        ``events`` are those of versions ``since+1 .. version`` that ``viewer`` may see
        (``Event.visible``), oldest first, as ``{kind, data}``.
        """
        clocks = self.visible_clocks(viewer)
        deadline = clocks.get(viewer) if viewer is not None else None
        if deadline is None and len(clocks) == 1:
            deadline = next(iter(clocks.values()))
        events = [e.to_json() for v in range(max(since, 0) + 1, self.version + 1)
                  for e in self.events.get(v, ()) if e.visible(viewer)]
        return {
            "version": self.version,
            "view": self.game.view(self.state, viewer),
            "prompt": self.prompt_id(viewer) if viewer is not None else None,
            "legal": list(self.legal.get(viewer, [])) if viewer is not None else [],
            "deadline": deadline,
            "clocks": {str(s): d for s, d in sorted(clocks.items())},
            "events": events,
        }

    # ------------------------------------------------------------------ changing

    def propose(self, seat: int, action: Mapping[str, Any], at: float,
                timeout: bool = False) -> Step:
        """Return the ``Step`` of ``seat`` playing ``action`` at ``at``; nothing changes yet.

        ``{"type": "resign"}`` goes through ``GAME.resign``; anything else through
        ``GAME.apply`` (the one source of legality).

        Raises:
            EngineError: the engine's ``InvalidAction``/``IllegalAction``.
        """
        action = dict(action)
        if action == RESIGN:
            state, events = self.game.resign(self.state, seat)
        else:
            state, events = self.game.apply(self.state, seat, action)
        if timeout:
            events = [timeout_event(self.game, self.state, seat), *events]
        version = self.version + 1
        prompts: dict[int, int] = {}
        decision_at: dict[int, float] = {}
        deadlines: dict[int, float] = {}
        legal: dict[int, list[dict[str, Any]]] = {}
        for s in sorted(self.game.to_act(state)):
            legal[s] = self.game.legal_actions(state, s)
            if s in self.prompts and s != seat and self.legal.get(s) == legal[s]:
                prompts[s], decision_at[s] = self.prompts[s], self.decision_at[s]
                deadlines[s] = self.deadlines[s]
            else:
                prompts[s], decision_at[s] = version, at
                deadlines[s] = at + self.game.clock_seconds(state, s)
        return Step(version, seat, action, timeout, at, state, tuple(events), prompts,
                    decision_at, deadlines, legal)

    def commit(self, step: Step) -> None:
        """Make ``step`` the current state (after it was stored)."""
        if step.version != self.version + 1:
            raise RuntimeError(f"step {step.version} does not follow version {self.version}")
        for seat, began in self.prompts.items():
            if step.prompts.get(seat) != began and seat != step.seat:
                self.ended[seat] = (began, step.seat)
        if step.seat in self.prompts:  # a 2nd answer (another socket of the seat): already_played
            self.ended[step.seat] = (self.prompts[step.seat], step.seat)
        else:
            self.ended.pop(step.seat, None)
        self.state, self.version = step.state, step.version
        self.events[step.version] = step.events
        self.prompts, self.decision_at = step.prompts, step.decision_at
        self.deadlines, self.legal = step.deadlines, step.legal
        self.changed.set()

    def replay(self, seat: int, action: Mapping[str, Any], at: float, timeout: bool) -> Step:
        """Re-apply one logged action (rebuild after a restart or catch up with another process)."""
        step = self.propose(seat, action, at, timeout)
        self.commit(step)
        return step

    def override_deadlines(self, stored: Mapping[str, float], now: float, grace: float) -> None:
        """Use the stored deadlines; one already past gets ``now + grace`` (restart grace)."""
        for seat in self.deadlines:
            deadline = float(stored.get(str(seat), self.deadlines[seat]))
            self.deadlines[seat] = deadline if deadline > now else now + grace
        self.changed.set()
