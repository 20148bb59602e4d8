"""Reverse Curse helpers of the server tests: the engine replayed directly, for comparison."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from engine.registry import GAMES
from tests.app.expect import Expect, timeout_event

GAME = GAMES["reverse_curse"]


@dataclass
class Replay:
    """The engine run by hand next to the server: state, version, last events, and which
    viewers (seats 0, 1 and the spectator ``None``) must get an ``update`` (``expect``)."""

    options: dict[str, Any]
    seed: bytes
    state: Any = None
    version: int = 0
    events: list[Event] = field(default_factory=list)
    expect: Expect = field(init=False)

    def __post_init__(self) -> None:
        self.options = GAME.validate_options(self.options)
        self.state = GAME.new_game(self.options, 2, self.seed)
        self.expect = Expect(GAME, self.state, (0, 1, None))

    def policy(self) -> tuple[int, dict[str, Any]]:
        """Return the lowest seat to act and its first legal action (the tests' players)."""
        seat = min(GAME.to_act(self.state))
        return seat, GAME.legal_actions(self.state, seat)[0]

    def apply(self, seat: int, action: dict[str, Any], timeout: bool = False) -> None:
        """Apply ``seat``'s ``action`` (played by its clock when ``timeout``)."""
        self.state, self.events = GAME.apply(self.state, seat, action)
        self._step(seat, timeout)

    def resign(self, seat: int) -> None:
        """Resign ``seat``."""
        self.state, self.events = GAME.resign(self.state, seat)
        self._step(seat, False)

    def _step(self, seat: int, timeout: bool) -> None:
        self.version += 1
        self.expect.step(self.state, [timeout_event(seat)] * timeout + list(self.events))

    @property
    def public(self) -> int:
        """The public version frames must show now (``Expect.public``)."""
        return self.expect.public

    @property
    def heard(self) -> set[int | None]:
        """The viewers that must get an ``update`` for the newest version."""
        return self.expect.heard

    def view(self, viewer: int | None) -> dict[str, Any]:
        return GAME.view(self.state, viewer)

    def events_for(self, viewer: int | None) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events if e.visible(viewer)]

    @property
    def over(self) -> bool:
        return not GAME.to_act(self.state)


def assert_private(frame: dict[str, Any], viewer: int | None) -> None:
    """Assert a frame shows ``viewer`` no hand but its own and no face-down card of another."""
    view = frame["view"]
    if view is None:
        return
    assert set(view["hands"]) == ({str(viewer)} if viewer is not None else set())
    for card in view["field"]:
        if not card["face_up"] and card["seat"] != viewer:
            assert card["card"] is None, card
    if viewer is None:
        assert view["mulligan"] is None
