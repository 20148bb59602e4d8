"""A match as of one action count: ``LiveMatch``, a plain value (engine state, versions,
prompts, clocks), and the pure steps between two of them.

The state never leaves ``app.rooms``: callers get per-viewer frames (``LiveMatch.frame``). A
match is rebuilt after a restart by replaying its logged actions from the seed (``replay``).

Versions: ``version`` counts the applied actions (the action log's ``seq``); frames show
``public_version`` instead — the number of steps that changed what a spectator sees
(``SpectatorStep``), a function of public information only (docs/security.md §2 "Version
jumps").

Prompts (docs/protocol.md): a seat's prompt is the version at which its current decision began;
it changes when the seat enters ``to_act``, after the seat acted, or when its legal list changed.
Its id is opaque (``prompt_token``): it does not tell that version. A decision that ended
because the seat's side took it (``LiveMatch.taken``) is refused as ``already_played`` when
answered late, however many decisions later; one that another side's action ended
(``LiveMatch.closed``) as ``stale_prompt``, the seat's frame being out of date.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event, Game

RESIGN = {"type": "resign"}

#: Why the room resigned a seat (``Step.forfeit``, ``match_actions.forfeit``): ``{"reason":
#: "timeouts", "timeouts": n}``, the room's ``on_timeouts: "forfeit"`` rule after the seat's clock
#: played its last ``n`` decisions in a row (``app.rooms.takeover``). JSON-ready; not mutated.
Forfeit = dict[str, Any]

#: ``{seat: legal actions}`` of the seats asked now (the engine's ``listed_actions``: read-only).
Legal = Mapping[int, Sequence[Mapping[str, Any]]]

#: Bytes of a prompt token (``prompt_token``: 16 hex digits).
TOKEN_BYTES = 8


def timeout_event(game: Game, state: Any, seat: int) -> Event:
    """Return the ``timeout {seat}`` event of ``seat``'s clock running out in ``state``.

    Public, unless who was asked in ``state`` is not (``to_act_is_public`` False): then only
    ``seat`` sees it, so the event does not tell who was asked (docs/security.md).
    """
    audience = None if game.to_act_is_public(state) else frozenset({seat})
    return Event("timeout", {"seat": seat}, audience)


def forfeit_data(seat: int, forfeit: Forfeit) -> dict[str, Any]:
    """Return ``{seat, reason, timeouts}``: the room resigned ``seat`` for ``forfeit`` (the
    ``forfeit`` event's data, ``LiveMatch.forfeit``, the ``Room`` JSON's ``forfeit``)."""
    return {"seat": seat, **forfeit}


def forfeit_event(seat: int, forfeit: Forfeit) -> Event:
    """Return the public ``forfeit {seat, reason, timeouts}`` event of the room resigning
    ``seat`` for ``forfeit`` (it comes before the engine's own resign events, so a client words
    the resign as a forfeit)."""
    return Event("forfeit", forfeit_data(seat, forfeit), None)


class PromptKey:
    """HMAC-SHA256 keyed by a match seed: the prompt ids' MAC (``token``), keyed once per match
    (each token copies the keyed state: ≈ 1 µs instead of ≈ 3-6 µs for a one-shot HMAC)."""

    __slots__ = ("_mac",)

    def __init__(self, seed: bytes) -> None:
        self._mac = hmac.new(seed, digestmod=hashlib.sha256)

    def token(self, seat: int, version: int) -> str:
        """Return ``prompt_token(seed, seat, version)``."""
        mac = self._mac.copy()
        mac.update(f"{seat}.{version}".encode())
        return mac.hexdigest()[:16]


def prompt_token(seed: bytes, seat: int, version: int) -> str:
    """Return the opaque part of a prompt id: 16 hex digits of HMAC-SHA256(``seed``,
    ``"<seat>.<version>"``), ``version`` being the action count at which the decision began.

    The match seed is secret until the match ends (docs/security.md §4), so the id does not tell
    the action count (how many hidden answers were given: docs/security.md §2).
    """
    return PromptKey(seed).token(seat, version)


@dataclass(slots=True)
class SpectatorStep:
    """What a spectator is shown of one step besides events: ``state``'s spectator view
    (rendered on first use, then kept: a memo, the same for every reader) and ``clocks``
    (``LiveMatch`` ``_clock_key``)."""

    state: Any
    clocks: tuple
    rendered: dict[str, Any] | None = None

    def view(self, game: Game) -> dict[str, Any]:
        """Return ``game.view(state, None)``, rendered once."""
        if self.rendered is None:
            self.rendered = game.view(self.state, None)
        return self.rendered


@dataclass(frozen=True, slots=True)
class Step:
    """An action applied to a ``LiveMatch`` but not yet stored, and everything it changes.

    Attributes:
        version: the version the match reaches (1-based action number = ``match_actions.seq``).
        seat, action, timeout, at: what was played, by whom, whether the clock played it, when
            (unix seconds).
        state: the engine state after it; events: the engine's events (+ ``timeout``, or
            ``forfeit`` first).
        prompts: ``{seat: version its decision began}`` for the seats now to act.
        decision_at: ``{seat: unix second its decision began}``.
        deadlines: ``{seat: unix second its clock runs out}``.
        legal: ``{seat: legal actions}`` for the seats now to act (read-only).
        forfeit: why the room resigned ``seat`` (``Forfeit``; ``action`` is ``RESIGN``), or
            ``None`` for an action of the seat or its clock.
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
    forfeit: Forfeit | None = None


def visible_clocks(game: Game, state: Any, players: int, prompts: Mapping[int, int],
                   ended: Mapping[int, int], deadlines: Mapping[int, float],
                   viewer: int | None) -> dict[int, float]:
    """Return the deadlines ``viewer`` (a seat, ``None`` = spectator) may see.

    With one seat to act everyone sees its clock; when several are asked at once in a
    hidden-information game, a viewer sees only its own (who else is asked stays hidden:
    docs/protocol.md "clocks") — also once some of them have answered, so the clocks never
    show who is still being waited for. When the engine says who is asked is not public
    (``to_act_is_public``, e.g. a Zipai claim window with one seat asked), a viewer sees only
    its own clock too (``clocks_public``).
    """
    if clocks_public(game, state, players, prompts, ended):
        return dict(deadlines)
    return {s: d for s, d in deadlines.items() if s == viewer}


def clocks_public(game: Game, state: Any, players: int, prompts: Mapping[int, int],
                  ended: Mapping[int, int]) -> bool:
    """Return whether every viewer may see every clock (``visible_clocks``)."""
    return not game.spec.hidden_information or (
        not _in_window(players, prompts, ended) and game.to_act_is_public(state))


def _in_window(players: int, prompts: Mapping[int, int],
               ended: Mapping[int, int]) -> bool:
    """Whether a seat on the clock was asked together with another seat (a simultaneous
    window: both still asked, or the other already answered)."""
    for seat, version in prompts.items():
        for other in range(players):
            if other != seat and version in (prompts.get(other), ended.get(other)):
                return True
    return False


@dataclass(frozen=True, slots=True)
class LiveMatch:
    """One match as of ``version`` actions: a value (a new one per step: ``after``).

    Attributes:
        game: the engine; match_id, room_id, code: ids; players: seat count.
        seed: the match seed (secret until the end): keys the prompt ids (``prompt_token``);
        key: its ``PromptKey``.
        sides: ``game.sides(options, players)``: the seats of each side (team), in side order.
        state: the engine state (raw: never leaves ``app.rooms``).
        version: actions applied so far.
        public_version: the steps so far that changed what a spectator sees (an event visible
            to it, other clocks or another view); the ``version`` frames show.
        spectator: what a spectator is shown of this step (``SpectatorStep``: its clocks, and
            its view, rendered at most once and shared by every spectator frame).
        prompts: ``{seat: version its decision began}`` of the seats to act.
        decision_at: ``{seat: unix second its decision began}``.
        deadlines: ``{seat: unix second its clock runs out}``.
        legal: ``{seat: legal actions}`` of the seats to act (read-only).
        ended: ``{seat: prompt version}`` of the seat's last decision that ended (a seat
            asked together with others that answered already is in a window:
            ``clocks_public``).
        taken: ``{seat: prompt tokens}``: the ``TOKEN_BYTES`` bytes of the token of each
            decision of the seat that its side took (ended by a teammate's action, or by the
            seat's own: from another socket, or its clock), oldest first; a late answer to one
            gets ``already_played`` (``taken_by_side``).
        closed: ``{seat: prompt tokens}`` like ``taken``, of each decision of the seat that
            another side's action ended (the seat was not asked any more, or asked anew); a
            late answer to one gets ``stale_prompt`` (``closed_by_others``). Empty in every
            game whose decisions end only by their own side's action (or the match's end).
        forfeit: ``{seat, reason, timeouts}`` (the ``forfeit`` event's data) once the room
            resigned a seat (``Step.forfeit``: the resign ended the match), else ``None``.
        memo: what is derived from this value once read (``prompt_ids``); not compared.
    """

    game: Game
    match_id: int
    room_id: int
    code: str
    players: int
    seed: bytes
    key: PromptKey
    sides: tuple[tuple[int, ...], ...]
    state: Any
    version: int
    public_version: int
    spectator: SpectatorStep
    prompts: Mapping[int, int]
    decision_at: Mapping[int, float]
    deadlines: Mapping[int, float]
    legal: Legal
    ended: Mapping[int, int]
    taken: Mapping[int, bytes]
    closed: Mapping[int, bytes]
    forfeit: dict[str, Any] | None = None
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def start(cls, game: Game, match_id: int, room_id: int, code: str,
              options: Mapping[str, Any], players: int, seed: bytes,
              started_at: float) -> LiveMatch:
        """Return the match at version 0: ``new_game`` from the seed, every to-act seat
        prompted, its clock starting at ``started_at`` (unix s)."""
        state = game.new_game(options, players, seed)
        asked = sorted(game.to_act(state))
        prompts = {seat: 0 for seat in asked}
        decision_at = {seat: started_at for seat in asked}
        deadlines = {seat: started_at + game.clock_seconds(state, seat) for seat in asked}
        legal = {seat: game.listed_actions(state, seat) for seat in asked}
        spectator = SpectatorStep(state, _clock_key(game, state, players, prompts, {},
                                                    decision_at, deadlines))
        return cls(game, match_id, room_id, code, players, seed, PromptKey(seed),
                   game.sides(options, players),
                   state, 0, 0, spectator, prompts, decision_at, deadlines, legal, {}, {}, {})

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """Whether the match has an outcome."""
        return self.game.outcome(self.state) is not None

    def prompt_id(self, seat: int) -> str | None:
        """Return the seat's current prompt id (``"<match>.<seat>.<prompt_token>"``) or
        ``None``."""
        return self.prompt_ids().get(seat)

    def prompt_ids(self) -> dict[int, str]:
        """Return ``{seat: prompt id}`` of the seats asked now (``prompt_id`` of each; made
        once per value: do not mutate)."""
        ids = self.memo.get("prompts")
        if ids is None:
            ids = self.memo["prompts"] = {seat: self._prompt_text(seat, version)
                                          for seat, version in self.prompts.items()}
        return ids

    def _prompt_text(self, seat: int, version: int) -> str:
        return f"{self.match_id}.{seat}.{self.key.token(seat, version)}"

    def taken_by_side(self, seat: int, prompt: str) -> bool:
        """Return whether ``prompt`` is the id of a decision of ``seat`` that its side took
        (``taken``): ended by a teammate's action, or by the seat's own (another socket of
        it, or its clock). Any other text, a current prompt included, is ``False``."""
        return self._kept(self.taken, seat, prompt)

    def closed_by_others(self, seat: int, prompt: str) -> bool:
        """Return whether ``prompt`` is the id of a decision of ``seat`` that another side's
        action ended (``closed``). Any other text, a current prompt included, is ``False``."""
        return bool(self.closed) and self._kept(self.closed, seat, prompt)

    def _kept(self, kept: Mapping[int, bytes], seat: int, prompt: str) -> bool:
        """Return whether ``prompt`` is, exactly as sent, the id of one of ``seat``'s
        decisions whose token is in ``kept`` (``taken`` or ``closed``)."""
        head, _, token = prompt.rpartition(".")
        if head != f"{self.match_id}.{seat}":
            return False
        try:
            wanted = bytes.fromhex(token)
        except ValueError:
            return False
        if wanted.hex() != token or len(wanted) != TOKEN_BYTES:  # the id's exact spelling
            return False
        tokens = kept.get(seat, b"")
        at = tokens.find(wanted)
        while at != -1 and at % TOKEN_BYTES:  # found across two tokens: look on
            at = tokens.find(wanted, at + 1)
        return at != -1

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
        """Return the deadlines ``viewer`` may see (``visible_clocks``)."""
        if self._clocks_json() is not None:
            return dict(self.deadlines)
        return {s: d for s, d in self.deadlines.items() if s == viewer}

    def _clocks_json(self) -> dict[str, float] | None:
        """Return a frame's ``clocks`` when every viewer sees every clock (``clocks_public``):
        one dict for every frame of this value (do not mutate); ``None`` otherwise."""
        if "clocks" not in self.memo:
            self.memo["clocks"] = (
                {str(s): d for s, d in sorted(self.deadlines.items())}
                if clocks_public(self.game, self.state, self.players, self.prompts, self.ended)
                else None)
        return self.memo["clocks"]

    def spectator_view(self) -> dict[str, Any]:
        """Return the spectator view of ``state`` (made at most once; do not mutate)."""
        return self.spectator.view(self.game)

    def frame(self, viewer: int | None) -> dict[str, Any]:
        """Return ``{version, view, prompt, legal, deadline, clocks}`` for ``viewer`` (a seat,
        ``None`` = spectator): what a ``welcome`` shows, and an ``update`` besides its events.

        ``version`` is ``public_version`` (docs/protocol.md). A spectator's ``view`` is
        ``spectator_view`` (shared); ``legal`` is a new list of the kept (shared, read-only)
        action dicts; ``deadline`` is the viewer's own clock, else the one clock it sees.
        """
        shown = self._clocks_json()
        if shown is None:
            shown = {str(s): d for s, d in self.deadlines.items() if s == viewer}
        deadline = shown.get(str(viewer)) if viewer is not None else None
        if deadline is None and len(shown) == 1:
            deadline = next(iter(shown.values()))
        return {
            "version": self.public_version,
            "view": self.game.view(self.state, viewer) if viewer is not None
            else self.spectator_view(),
            "prompt": self.prompt_id(viewer) if viewer is not None else None,
            "legal": list(self.legal.get(viewer, ())) if viewer is not None else [],
            "deadline": deadline,
            "clocks": shown,
        }

    # ------------------------------------------------------------------ stepping

    def propose(self, seat: int, action: Mapping[str, Any], at: float,
                timeout: bool = False, forfeit: Forfeit | None = None) -> Step:
        """Return the ``Step`` of ``seat`` playing ``action`` at ``at``; nothing changes.

        ``{"type": "resign"}`` goes through ``GAME.resign``; anything else through
        ``GAME.apply`` (the one source of legality). ``timeout``: the clock plays it (a
        ``timeout`` event first); ``forfeit``: the room resigns the seat for that reason
        (``action`` is ``RESIGN``; a ``forfeit`` event first).

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
        if forfeit is not None:
            events = [forfeit_event(seat, forfeit), *events]
        version = self.version + 1
        prompts: dict[int, int] = {}
        decision_at: dict[int, float] = {}
        deadlines: dict[int, float] = {}
        legal: dict[int, Sequence[Mapping[str, Any]]] = {}
        for s in sorted(self.game.to_act(state)):
            legal[s] = self.game.listed_actions(state, s)
            if s in self.prompts and s != seat and self.legal.get(s) == legal[s]:
                prompts[s], decision_at[s] = self.prompts[s], self.decision_at[s]
                deadlines[s] = self.deadlines[s]
            else:
                prompts[s], decision_at[s] = version, at
                deadlines[s] = at + self.game.clock_seconds(state, s)
        return Step(version, seat, action, timeout, at, state, tuple(events), prompts,
                    decision_at, deadlines, legal, forfeit)

    def after(self, step: Step) -> LiveMatch:
        """Return the match once ``step`` (proposed on this one) is applied.

        ``public_version`` advances by one iff the step shows a spectator something: an event
        visible to it, other clocks, or another view (compared only when neither an event nor
        the clocks decided it, so most steps render no view here).

        Raises:
            RuntimeError: ``step`` does not follow this version.
        """
        if step.version != self.version + 1:
            raise RuntimeError(f"step {step.version} does not follow version {self.version}")
        ended, taken, closed = dict(self.ended), dict(self.taken), self.closed
        side = self.teammates(step.seat)
        for seat, began in self.prompts.items():
            if seat == step.seat or step.prompts.get(seat) != began:  # the decision ended
                ended[seat] = began
                token = bytes.fromhex(self.prompt_ids()[seat].rpartition(".")[2])
                if seat in side:  # taken by its side: a late answer gets already_played
                    taken[seat] = self.taken.get(seat, b"") + token
                else:  # another side's action ended it: a late answer gets stale_prompt
                    closed = {**closed, seat: closed.get(seat, b"") + token}
        if step.seat not in self.prompts:
            ended.pop(step.seat, None)
        before = self.spectator
        now = SpectatorStep(step.state, _clock_key(self.game, step.state, self.players,
                                                   step.prompts, ended, step.decision_at,
                                                   step.deadlines))
        public = self.public_version + (
            before.clocks != now.clocks or any(e.visible(None) for e in step.events)
            or before.view(self.game) != now.view(self.game))
        forfeit = self.forfeit if step.forfeit is None else forfeit_data(step.seat, step.forfeit)
        return LiveMatch(self.game, self.match_id, self.room_id, self.code, self.players,
                         self.seed, self.key, self.sides, step.state, step.version, public, now,
                         step.prompts, step.decision_at, step.deadlines, step.legal, ended,
                         taken, closed, forfeit)

    def replay(self, seat: int, action: Mapping[str, Any], at: float, timeout: bool,
               forfeit: Forfeit | None = None) -> tuple[LiveMatch, Step]:
        """Return the match after one logged action (``forfeit``: its ``match_actions.forfeit``),
        and its step (a rebuild or a catch-up).

        Raises:
            EngineError: the engine refuses the logged action (a corrupt log).
        """
        step = self.propose(seat, action, at, timeout, forfeit)
        return self.after(step), step

    def with_deadlines(self, stored: Mapping[str, float], now: float,
                       grace: float) -> LiveMatch:
        """Return the match with the stored deadlines (``{"<seat>": unix s}``); one already
        past gets ``now + grace`` (the restart grace, ARCHITECTURE.md "Persistence")."""
        deadlines = {}
        for seat, computed in self.deadlines.items():
            deadline = float(stored.get(str(seat), computed))
            deadlines[seat] = deadline if deadline > now else now + grace
        return self._with(deadlines)

    def extended(self, since: float, now: float) -> LiveMatch:
        """Return the match with each pending deadline moved later by the part of ``since`` ..
        ``now`` (unix s: a broker outage) during which its decision was open: ``now -
        max(since, decision start)`` (nothing for a decision that began after ``now``)."""
        deadlines = {seat: deadline + max(0.0, now - max(since, self.decision_at[seat]))
                     for seat, deadline in self.deadlines.items()}
        return self._with(deadlines)

    def _with(self, deadlines: Mapping[int, float]) -> LiveMatch:
        """Return the match with ``deadlines`` instead of its own."""
        return LiveMatch(self.game, self.match_id, self.room_id, self.code, self.players,
                         self.seed, self.key, self.sides, self.state, self.version, self.public_version,
                         self.spectator, self.prompts, self.decision_at, deadlines, self.legal,
                         self.ended, self.taken, self.closed, self.forfeit)


def _clock_key(game: Game, state: Any, players: int, prompts: Mapping[int, int],
               ended: Mapping[int, int], decision_at: Mapping[int, float],
               deadlines: Mapping[int, float]) -> tuple:
    """Return the spectator's clocks as ``((seat, decision began), …)``: the seats shown and
    when their decisions began (a ``deadline`` is that plus the engine's clock), so the key is
    a function of the action log — a restart's grace (``with_deadlines``) does not change it."""
    shown = visible_clocks(game, state, players, prompts, ended, deadlines, None)
    return tuple((s, decision_at[s]) for s in sorted(shown))
