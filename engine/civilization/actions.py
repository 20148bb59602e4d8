"""The action phase's main actions (seed, 行动阶段; rulings, "Action phase").

Shapes: ``{"type":"place","card":i,"resolve":bool}`` puts a player worker on the empty slot of
card ``i`` facing you (and resolves it, or not); ``{"type":"leader","card":i}`` places a leader
on card ``i`` (not S, no leader yet, its slot facing you empty) paying 5 of the card's cost
resource; ``{"type":"pass"}`` ends your action phase.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.civilization.data import CARDS, LEADER_COST
from engine.civilization.effects import can_resolve, resolve_slot
from engine.civilization.ending import place_leader
from engine.civilization.flow import next_actor
from engine.civilization.state import (
    EMPTY,
    State,
    add_resources,
    my_position,
    one_resource,
    set_worker,
    workers_in_hand,
)

__all__ = ["main_actions", "apply_main", "why_illegal", "MAIN_TYPES"]

Action = dict[str, Any]

MAIN_TYPES: dict[str, dict[str, type]] = {
    "place": {"card": int, "resolve": bool}, "leader": {"card": int}, "pass": {}}


def _slot_free(state: State, i: int, seat: int) -> bool:
    return state.row[i].workers[my_position(state, i, seat) % 2] == EMPTY


def _can_lead(state: State, i: int, seat: int) -> bool:
    card = state.row[i]
    cost = CARDS[card.id].cost
    return (cost is not None and card.leader is None and _slot_free(state, i, seat)
            and state.resources[seat][cost] >= LEADER_COST)


def main_actions(state: State, seat: int) -> list[Action]:
    """Return ``seat``'s main actions: placements by card (resolving first), leaders, pass."""
    out: list[Action] = []
    if workers_in_hand(state, seat) > 0:
        for i in range(len(state.row)):
            if _slot_free(state, i, seat):
                if can_resolve(state, seat, my_position(state, i, seat)):
                    out.append({"type": "place", "card": i, "resolve": True})
                out.append({"type": "place", "card": i, "resolve": False})
    out.extend({"type": "leader", "card": i} for i in range(len(state.row)) if _can_lead(state, i, seat))
    out.append({"type": "pass"})
    return out


def apply_main(state: State, seat: int, action: Mapping[str, Any]) -> State:
    """Return ``state`` after a legal main action; the turn passes on at once and the slot's
    follow-up decisions (if any) are queued for ``seat``."""
    kind = action["type"]
    if kind == "pass":
        first, second = state.passed
        return next_actor(state._replace(passed=(first or seat == 0, second or seat == 1)), seat)
    i = action["card"]
    state = next_actor(state, seat)
    if kind == "leader":
        cost = CARDS[state.row[i].id].cost
        paid = add_resources(state, seat, one_resource(cost, -LEADER_COST))
        return place_leader(paid, seat, i)
    pos = my_position(state, i, seat)
    state = set_worker(state, pos, seat)
    return resolve_slot(state, seat, pos) if action["resolve"] else state


def why_illegal(state: State, seat: int, action: Mapping[str, Any]) -> tuple[str, str]:
    """Return ``(code, message)`` saying why a well-formed main action is not legal now.

    Codes: ``no_such_card``, ``slot_occupied``, ``no_worker_in_hand``, ``cannot_resolve``,
    ``start_card_takes_no_leader``, ``card_has_leader``, ``cannot_afford``, ``not_allowed``.
    """
    i = action.get("card", 0)
    if not 0 <= i < len(state.row):
        return "no_such_card", "There is no card at that place in the row."
    if action["type"] == "leader":
        card = state.row[i]
        if CARDS[card.id].cost is None:
            return "start_card_takes_no_leader", "The start card takes no leader."
        if card.leader is not None:
            return "card_has_leader", "That card already has a leader."
        if not _slot_free(state, i, seat):
            return "slot_occupied", "The slot facing you on that card has a worker."
        return "cannot_afford", "You need 5 of the card's resource."
    if not _slot_free(state, i, seat):
        return "slot_occupied", "The slot facing you on that card has a worker."
    if workers_in_hand(state, seat) <= 0:
        return "no_worker_in_hand", "You have no worker left in your hand."
    if action["type"] == "place":
        return "cannot_resolve", "You cannot pay for that slot's effect; place it without resolving."
    return "not_allowed", "That action is not allowed now."
