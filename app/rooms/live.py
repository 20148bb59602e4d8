"""The live match of a room: engine state, version, prompts and clocks, in memory only.

The state is never sent anywhere: callers get per-viewer renders (``render``). A ``LiveMatch``
is rebuilt after a restart by replaying the logged actions from the seed (``replay``).

Versions: ``version`` counts the applied actions (the action log's ``seq``; ``since`` of
``render``); frames show ``public_version`` instead — the number of steps that changed what a
spectator sees (``SpectatorStep``), a function of public information only (docs/security.md §2
"Version jumps").

Prompts (docs/protocol.md): a seat's prompt is the version at which its current decision began;
it changes when the seat enters ``to_act``, after the seat acted, or when its legal list changed.
Its id is opaque (``prompt_token``): it does not tell that version.
"""

from __future__ import annotations

import asyncio
import hmac
from array import array
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from engine.core import Event, Game

RESIGN = {"type": "resign"}


def timeout_event(game: Game, state: Any, seat: int) -> Event:
    """Return the ``timeout {seat}`` event of ``seat``'s clock running out in ``state``.

    Public, unless who was asked in ``state`` is not (``to_act_is_public`` False): then only
    ``seat`` sees it, so the event does not tell who was asked (docs/security.md).
    """
    audience = None if game.to_act_is_public(state) else frozenset({seat})
    return Event("timeout", {"seat": seat}, audience)


def prompt_token(seed: bytes, seat: int, version: int) -> str:
    """Return the opaque part of a prompt id: 16 hex digits of HMAC-SHA256(``seed``,
    ``"<seat>.<version>"``), ``version`` being the action count at which the decision began.

    The match seed is secret until the match ends (docs/security.md §4), so the id does not tell
    the action count (how many hidden answers were given: docs/security.md §2).
    """
    return hmac.digest(seed, f"{seat}.{version}".encode(), "sha256").hex()[:16]


def kept_legal(game: Game, state: Any, seat: int) -> Sequence[Mapping[str, Any]]:
    """Return ``seat``'s legal actions in ``state`` as the match keeps them (read-only):
    ``game.listed_actions(state, seat)``, the engine's own list where it keeps one per state."""
    return game.listed_actions(state, seat)


@dataclass(slots=True)
class SpectatorStep:
    """What a spectator is shown of one step besides events: ``state``'s spectator view
    (rendered on first use, then kept) and ``clocks`` (``LiveMatch._clock_key``)."""

    state: Any
    clocks: tuple
    rendered: dict[str, Any] | None = None

    def view(self, game: Game) -> dict[str, Any]:
        """Return ``game.view(state, None)``, rendered once."""
        if self.rendered is None:
            self.rendered = game.view(self.state, None)
        return self.rendered


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
        legal: ``{seat: legal actions}`` for the seats now to act (``kept_legal``: read-only).
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
    legal: dict[int, Sequence[Mapping[str, Any]]]


@dataclass
class LiveMatch:
    """One match being played (or finished) in this process.

    Attributes:
        game: the engine; match_id, code, room_id: ids; players: seat count.
        sides: ``game.sides(options, players)``: the seats of each side (team), in side order.
        state: the current engine state (raw: never leaves ``app.rooms``).
        seed: the match seed (secret until the end): keys the prompt ids (``prompt_token``).
        version: actions applied so far.
        public_version: the steps so far that changed what a spectator sees (an event visible
            to it, other clocks or another view); the ``version`` frames show.
        public_at: ``public_at[v]`` = ``public_version`` after ``v`` actions (an ``array`` of
            int64: 8 bytes an action).
        spectator: what a spectator is shown of the last step (``SpectatorStep``: its clocks,
            and its view, rendered at most once per step and shared by every spectator render).
        events: ``{version: events of that action}`` (for per-viewer ``update`` frames), only
            for the versions after ``forgotten``.
        forgotten: the events of versions ``1 .. forgotten`` were dropped (``forget_events``):
            every socket had been shown them.
        ended: ``{seat: (prompt version, seat whose action ended it)}`` for the seat's last
            decision that ended: by a teammate, or by the seat itself from another socket (a
            second answer to it gets ``already_played``).
        legal: ``{seat: legal actions}`` of the seats to act (``kept_legal``: read-only).
        lock: serialises appends.
        deadlines_changed: called with ``code`` whenever ``deadlines`` changed (the room's
            ``DeadlineScheduler.changed``; ``None``: nobody is told).
    """

    game: Game
    match_id: int
    code: str
    players: int
    state: Any
    room_id: int = 0
    seed: bytes = b""
    sides: tuple[tuple[int, ...], ...] = ()
    version: int = 0
    public_version: int = 0
    public_at: array = field(default_factory=lambda: array("q", [0]))
    spectator: "SpectatorStep | None" = None
    events: dict[int, tuple[Event, ...]] = field(default_factory=dict)
    forgotten: int = 0
    prompts: dict[int, int] = field(default_factory=dict)
    decision_at: dict[int, float] = field(default_factory=dict)
    deadlines: dict[int, float] = field(default_factory=dict)
    legal: dict[int, Sequence[Mapping[str, Any]]] = field(default_factory=dict)
    ended: dict[int, tuple[int, int]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    deadlines_changed: Callable[[str], None] | None = None

    @classmethod
    def start(cls, game: Game, match_id: int, room_id: int, code: str,
              options: Mapping[str, Any], players: int, seed: bytes,
              started_at: float) -> "LiveMatch":
        """Return the match at version 0: ``new_game`` from the seed, every to-act seat prompted."""
        live = cls(game, match_id, code, players, game.new_game(options, players, seed), room_id,
                   seed, game.sides(options, players))
        for seat in sorted(game.to_act(live.state)):
            live.prompts[seat] = 0
            live.decision_at[seat] = started_at
            live.deadlines[seat] = started_at + game.clock_seconds(live.state, seat)
            live.legal[seat] = kept_legal(game, live.state, seat)
        live.spectator = live._spectator_now()
        return live

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """Whether the match has an outcome."""
        return self.game.outcome(self.state) is not None

    def prompt_id(self, seat: int) -> str | None:
        """Return the seat's current prompt id (``"<match>.<seat>.<prompt_token>"``) or
        ``None``."""
        if seat not in self.prompts:
            return None
        return self._prompt_text(seat, self.prompts[seat])

    def _prompt_text(self, seat: int, version: int) -> str:
        return f"{self.match_id}.{seat}.{prompt_token(self.seed, seat, version)}"

    def ended_prompt_by(self, seat: int, prompt: str) -> int | None:
        """Return the seat whose action ended ``seat``'s decision ``prompt`` (``seat`` itself
        when another of its sockets answered it), or ``None``."""
        if seat in self.ended and self._prompt_text(seat, self.ended[seat][0]) == prompt:
            return self.ended[seat][1]
        return None

    def next_deadline(self) -> float | None:
        """Return the earliest pending deadline (unix s), ``None`` when nobody is on the clock."""
        return min(self.deadlines.values(), default=None)

    def teammates(self, seat: int) -> frozenset[int]:
        """Return the seats on ``seat``'s side (``sides``; itself included)."""
        for seats in self.sides:
            if seat in seats:
                return frozenset(seats)
        return frozenset({seat})

    def side_names(self) -> dict[int, str]:
        """Return ``{seat: name of its side}`` as the spectator view names them (its ``sides``
        key, ``{name: [seat]}``: Reverse Curse's UP/DOWN, fixed by the coin toss); ``{}`` for
        a game whose view names no sides."""
        named = self.spectator_view().get("sides") or {}
        return {seat: name for name, seats in named.items() for seat in seats}

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
                not self._in_window() and self.game.to_act_is_public(self.state)):
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

    def spectator_view(self) -> dict[str, Any]:
        """Return the spectator view of ``state`` (made at most once per step; do not mutate)."""
        if self.spectator is None:
            self.spectator = self._spectator_now()
        return self.spectator.view(self.game)

    def _clock_key(self) -> tuple:
        """Return the spectator's clocks as ``((seat, decision began), …)``: the seats shown and
        when their decisions began (a ``deadline`` is that plus the engine's clock), so the key
        is a function of the action log — a restart's grace (``override_deadlines``) does not
        change it."""
        return tuple((s, self.decision_at[s]) for s in sorted(self.visible_clocks(None)))

    def _spectator_now(self) -> "SpectatorStep":
        return SpectatorStep(self.state, self._clock_key())

    def public_at_version(self, version: int) -> int:
        """Return the ``public_version`` the match had after ``version`` actions (0 for < 0)."""
        return self.public_at[version] if version > 0 else 0

    def render(self, viewer: int | None, since: int) -> dict[str, Any]:
        """Return ``{version, view, prompt, legal, deadline, clocks, events}`` for ``viewer``.

        ``version`` is ``public_version`` (docs/protocol.md). ``events`` are those of versions
        ``since+1 .. version`` (action counts) that ``viewer`` may see (``Event.visible``),
        oldest first, as ``{kind, data}``. A spectator's ``view`` is ``spectator_view`` (shared);
        ``legal`` is a new list of the kept (shared, read-only) action dicts.

        Raises:
            ValueError: ``since < forgotten`` (those events were dropped: ``forget_events``;
                ``since`` -1 counts as 0).
        """
        clocks = self.visible_clocks(viewer)
        deadline = clocks.get(viewer) if viewer is not None else None
        if deadline is None and len(clocks) == 1:
            deadline = next(iter(clocks.values()))
        if max(since, 0) < self.forgotten:
            raise ValueError(f"the events after version {since} are no longer kept "
                             f"(versions up to {self.forgotten} were forgotten)")
        events = [e.to_json() for v in range(max(since, 0) + 1, self.version + 1)
                  for e in self.events.get(v, ()) if e.visible(viewer)]
        return {
            "version": self.public_version,
            "view": self.game.view(self.state, viewer) if viewer is not None
            else self.spectator_view(),
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
        legal: dict[int, Sequence[Mapping[str, Any]]] = {}
        for s in sorted(self.game.to_act(state)):
            legal[s] = kept_legal(self.game, state, s)
            if s in self.prompts and s != seat and self.legal.get(s) == legal[s]:
                prompts[s], decision_at[s] = self.prompts[s], self.decision_at[s]
                deadlines[s] = self.deadlines[s]
            else:
                prompts[s], decision_at[s] = version, at
                deadlines[s] = at + self.game.clock_seconds(state, s)
        return Step(version, seat, action, timeout, at, state, tuple(events), prompts,
                    decision_at, deadlines, legal)

    def commit(self, step: Step) -> None:
        """Make ``step`` the current state (after it was stored).

        ``public_version`` advances by one iff the step shows a spectator something: an event
        visible to it, other clocks, or another view (``_count_public``).
        """
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
        self._count_public(step.events)
        self._deadlines_changed()

    def _count_public(self, events: tuple[Event, ...]) -> None:
        """Advance ``public_version`` if the spectator sees an event, other clocks or another
        view (docs/protocol.md "version"). The views are compared (rendered) only when neither
        an event nor the clocks decided it, so most steps render no view here."""
        before, now = self.spectator, self._spectator_now()
        self.spectator = now
        if (before is None or before.clocks != now.clocks or any(e.visible(None) for e in events)
                or before.view(self.game) != now.view(self.game)):
            self.public_version += 1
        self.public_at.append(self.public_version)

    def forget_events(self, seen: int) -> None:
        """Drop the events of versions ``1 .. seen`` (at most up to ``version``): every socket
        that may still get an ``update`` was shown them (issue 10: memory no longer grows with
        the match's length). A socket greeted later gets a ``welcome``, which has no events.

        Afterwards ``render`` needs ``since >= forgotten`` (-1 counting as 0).
        """
        upto = min(seen, self.version)
        for version in range(self.forgotten + 1, upto + 1):
            self.events.pop(version, None)
        self.forgotten = max(self.forgotten, upto)

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
        self._deadlines_changed()

    def _deadlines_changed(self) -> None:
        if self.deadlines_changed is not None:
            self.deadlines_changed(self.code)
