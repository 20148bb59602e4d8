"""What a viewer sees (rulings, "Hidden information": everything except the deck's order); its
inverse, a state drawn from a view, is ``engine.civilization.sample``."""

from __future__ import annotations

from typing import Any

from engine.civilization.data import CARDS, RESOURCES, SLOT_TYPES
from engine.civilization.ending import LEADERS, kingship_seat
from engine.civilization.serial import step_json
from engine.civilization.state import (
    NEUTRAL,
    Card,
    State,
    leaders_placed,
    slot_seat,
    workers_in_hand,
)

__all__ = ["public_view", "WORKER_NAMES"]

WORKER_NAMES = {NEUTRAL: "neutral"}


def _card_view(card: Card) -> dict[str, Any]:
    definition = CARDS[card.id]
    slots = []
    for j, key in enumerate(definition.slots):
        kind = SLOT_TYPES[key]
        occupant = card.workers[j]
        slots.append({"slot": key, "colour": kind.colour, "reversal": kind.reversal,
                      "faces": slot_seat(card, j),
                      "worker": None if occupant < 0 else WORKER_NAMES.get(occupant, occupant)})
    cost = None if definition.cost is None else RESOURCES[definition.cost]
    return {"card": card.id, "cost": cost, "leader": card.leader, "slots": slots}


def public_view(state: State, viewer: int | None, to_act: frozenset[int],
                outcome: dict[str, Any] | None) -> dict[str, Any]:
    """Return the view of ``viewer`` (a seat or ``None``); identical for every viewer but for
    ``seat``. Shape: see docs/protocol.md, "Civilization view".

    ``actor`` is the seat whose main action is due in the action phase, ``None`` once the match
    is over (no seat is to act then, as the other games say)."""
    front = state.queue[0] if state.queue and state.phase != "over" else None
    revealed = None
    if state.revealed is not None:
        definition = CARDS[state.revealed]
        revealed = {"card": state.revealed, "slots": list(definition.slots),
                    "reversal": [SLOT_TYPES[key].reversal for key in definition.slots],
                    "cost": None if definition.cost is None else RESOURCES[definition.cost]}
    return {
        "game": "civilization", "seat": viewer, "round": state.round, "phase": state.phase,
        "start_player": state.start,
        "actor": None if state.phase == "over" else state.actor, "to_act": sorted(to_act),
        "passed": list(state.passed), "kingship": kingship_seat(state),
        "row": [_card_view(c) for c in state.row], "revealed": revealed,
        "resources": [dict(zip(RESOURCES, r)) for r in state.resources],
        "workers": [{"unlocked": state.unlocked[s], "in_hand": workers_in_hand(state, s)}
                    for s in (0, 1)],
        "leaders": [{"placed": leaders_placed(state, s), "in_hand": LEADERS - leaders_placed(state, s)}
                    for s in (0, 1)],
        "deck_size": len(state.deck),
        "pending": None if front is None else step_json(front),
        "queue": [step_json(s) for s in state.queue],
        "actions": state.actions, "turn_seconds": state.turn_seconds,
        "outcome": outcome,
    }
