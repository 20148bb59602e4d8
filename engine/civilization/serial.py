"""``dump``/``load`` of the raw state (JSON-ready; never sent to clients: it holds the deck order)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.civilization.state import Card, State, Step

__all__ = ["dump_state", "load_state", "step_json", "step_from_json"]


def step_json(step: Step) -> dict[str, Any]:
    """Return a queue step as ``{"kind", "seat", "n", "positions"}``."""
    return {"kind": step.kind, "seat": step.seat, "n": step.n, "positions": list(step.positions)}


def step_from_json(data: Mapping[str, Any]) -> Step:
    """Inverse of ``step_json``."""
    return Step(data["kind"], data["seat"], data["n"], tuple(data["positions"]))


def _card_json(card: Card) -> dict[str, Any]:
    return {"id": card.id, "facing": card.facing, "leader": card.leader,
            "workers": list(card.workers)}


def dump_state(state: State) -> dict[str, Any]:
    """Return the whole state as JSON-ready data."""
    return {
        "turn_seconds": state.turn_seconds, "round": state.round, "phase": state.phase,
        "start": state.start, "actor": state.actor, "passed": list(state.passed),
        "row": [_card_json(c) for c in state.row], "deck": list(state.deck),
        "revealed": state.revealed, "resources": [list(r) for r in state.resources],
        "unlocked": list(state.unlocked), "queue": [step_json(s) for s in state.queue],
        "actions": state.actions, "winner": state.winner, "reason": state.reason,
    }


def load_state(data: Mapping[str, Any]) -> State:
    """Inverse of ``dump_state``."""
    row = tuple(Card(c["id"], c["facing"], c["leader"], tuple(c["workers"])) for c in data["row"])
    return State(
        data["turn_seconds"], data["round"], data["phase"], data["start"], data["actor"],
        tuple(data["passed"]), row, tuple(data["deck"]), data["revealed"],
        tuple(tuple(r) for r in data["resources"]), tuple(data["unlocked"]),  # type: ignore[arg-type]
        tuple(step_from_json(s) for s in data["queue"]), data["actions"], data["winner"],
        data["reason"])
