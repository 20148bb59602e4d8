"""Reverse Curse helpers of the server tests: the engine replayed directly, for comparison."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from engine.registry import GAMES

GAME = GAMES["reverse_curse"]


@dataclass
class Replay:
    """The engine run by hand next to the server: state, version, last events."""

    options: dict[str, Any]
    seed: bytes
    state: Any = None
    version: int = 0
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.options = GAME.validate_options(self.options)
        self.state = GAME.new_game(self.options, 2, self.seed)

    def policy(self) -> tuple[int, dict[str, Any]]:
        """Return the lowest seat to act and its first legal action (the tests' players)."""
        seat = min(GAME.to_act(self.state))
        return seat, GAME.legal_actions(self.state, seat)[0]

    def apply(self, seat: int, action: dict[str, Any]) -> None:
        self.state, self.events = GAME.apply(self.state, seat, action)
        self.version += 1

    def resign(self, seat: int) -> None:
        self.state, self.events = GAME.resign(self.state, seat)
        self.version += 1

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
