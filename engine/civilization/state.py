"""The immutable state of a Reversed Civilizations match and small read/write helpers on it.

Everything is a ``NamedTuple`` of ints, strings and tuples, so a state is hashable, never mutated
(``apply`` builds new tuples) and dumps to JSON directly.

Positions: slot ``j`` (0 or 1) of the card at row index ``i`` is position ``2 * i + j``. A card's
``facing`` is the seat that its slot 0 faces; slot 1 faces the other seat (seed, setup ③: "每张卡牌
都拥有2个工位，一个正对自己，一个正对对手").
"""

from __future__ import annotations

from typing import NamedTuple

from engine.civilization.data import CARDS, SLOT_TYPES

__all__ = ["EMPTY", "NEUTRAL", "Step", "Card", "State", "slot_key", "slot_seat", "my_position",
           "leaders_placed", "workers_in_hand", "count_facing", "add_resources", "set_resources",
           "set_worker", "push", "replace_front", "pop", "total"]

EMPTY = -1
NEUTRAL = 2


class Step(NamedTuple):
    """A pending part of a slot effect or of the round, waiting in the queue.

    Attributes:
        kind: what it does (``"gain"``, ``"pay"``, ``"rotate"``, ``"hire"``, ``"orient"``…; see
            ``engine.civilization.steps``).
        seat: the player who decides it (and on whose behalf the slot is resolved).
        n: a count (resources still to gain/pay, exchanges left, neutral workers left to hire).
        positions: positions it refers to (the neutral workers hired and not yet resolved).
    """

    kind: str
    seat: int
    n: int = 0
    positions: tuple[int, ...] = ()


class Card(NamedTuple):
    """A card in the central row: its id, who its slot 0 faces, its leader and its two workers.

    ``leader`` is a seat or ``None``; ``workers[j]`` is ``EMPTY``, a seat (0/1) or ``NEUTRAL``.
    """

    id: int
    facing: int
    leader: int | None
    workers: tuple[int, int]


class State(NamedTuple):
    """A whole match.

    Attributes:
        turn_seconds: the clock of every decision (room option).
        round: 1-based round number (0 during setup).
        phase: ``"setup"``, ``"harvest"``, ``"progress"``, ``"action"`` or ``"over"``.
        start: the start player of this round (who faced 王权 when it began).
        actor: whose main action is due in the action phase (when the queue is empty).
        passed: per seat, whether it passed in this action phase.
        row: the cards on the table, S first, then in the order they were revealed.
        deck: the face-down deck, top first (hidden).
        revealed: the card waiting for the non-start player to orient it, or ``None``.
        resources: per seat ``(fish, meat, wheat)``.
        unlocked: per seat the player workers owned (2..4).
        queue: pending steps, the front one is decided next.
        actions: how many actions were applied (for the maximum length).
        winner: the winning seat once the match is over, else ``None``.
        reason: ``"five_leaders"``, ``"deck_empty"``, ``"max_length"``, ``"resign"`` or ``""``.
    """

    turn_seconds: int
    round: int
    phase: str
    start: int
    actor: int
    passed: tuple[bool, bool]
    row: tuple[Card, ...]
    deck: tuple[int, ...]
    revealed: int | None
    resources: tuple[tuple[int, int, int], tuple[int, int, int]]
    unlocked: tuple[int, int]
    queue: tuple[Step, ...]
    actions: int
    winner: int | None
    reason: str


# --------------------------------------------------------------------------- reading


def slot_key(state: State, pos: int) -> str:
    """Return the slot type key at position ``pos`` (e.g. ``"weaving"``)."""
    card = state.row[pos // 2]
    return CARDS[card.id].slots[pos % 2]


def slot_seat(card: Card, j: int) -> int:
    """Return the seat that slot ``j`` of ``card`` faces."""
    return card.facing if j == 0 else 1 - card.facing


def my_position(state: State, i: int, seat: int) -> int:
    """Return the position of the slot of card ``i`` that faces ``seat``."""
    return 2 * i + (0 if state.row[i].facing == seat else 1)


def leaders_placed(state: State, seat: int) -> int:
    """Return how many of ``seat``'s 5 leaders stand on cards."""
    return sum(1 for card in state.row if card.leader == seat)


def workers_in_hand(state: State, seat: int) -> int:
    """Return ``seat``'s unlocked player workers not standing on a slot."""
    placed = sum(1 for card in state.row for w in card.workers if w == seat)
    return state.unlocked[seat] - placed


def count_facing(state: State, seat: int, colour: str) -> int:
    """Return how many slots of ``colour`` face ``seat`` (occupied or not, the one just used
    included; rulings, "Counting slots")."""
    return sum(1 for card in state.row for j in (0, 1)
               if slot_seat(card, j) == seat and SLOT_TYPES[CARDS[card.id].slots[j]].colour == colour)


def total(state: State, seat: int) -> int:
    """Return ``seat``'s resources in total."""
    return sum(state.resources[seat])


# --------------------------------------------------------------------------- writing


def set_resources(state: State, seat: int, values: tuple[int, int, int]) -> State:
    """Return ``state`` with ``seat``'s resources replaced by ``values``."""
    res = list(state.resources)
    res[seat] = values
    return state._replace(resources=(res[0], res[1]))


def one_resource(index: int | None, amount: int) -> tuple[int, int, int]:
    """Return the ``(fish, meat, wheat)`` delta holding ``amount`` of resource ``index`` only
    (all zeros for ``None``, the start card's missing cost)."""
    return (amount if index == 0 else 0, amount if index == 1 else 0, amount if index == 2 else 0)


def add_resources(state: State, seat: int, delta: tuple[int, int, int]) -> State:
    """Return ``state`` with ``delta`` (per resource, may be negative) added to ``seat``."""
    old = state.resources[seat]
    return set_resources(state, seat, (old[0] + delta[0], old[1] + delta[1], old[2] + delta[2]))


def set_worker(state: State, pos: int, occupant: int) -> State:
    """Return ``state`` with position ``pos`` holding ``occupant`` (``EMPTY``/seat/``NEUTRAL``)."""
    i, j = divmod(pos, 2)
    card = state.row[i]
    workers = (occupant, card.workers[1]) if j == 0 else (card.workers[0], occupant)
    return state._replace(row=state.row[:i] + (card._replace(workers=workers),) + state.row[i + 1:])


def push(state: State, *steps: Step) -> State:
    """Return ``state`` with ``steps`` put in front of the queue (they are decided first)."""
    return state._replace(queue=tuple(steps) + state.queue)


def replace_front(state: State, *steps: Step) -> State:
    """Return ``state`` with the front step replaced by ``steps`` (none: the front is removed)."""
    return state._replace(queue=tuple(steps) + state.queue[1:])


def pop(state: State) -> State:
    """Return ``state`` without its front step."""
    return state._replace(queue=state.queue[1:])
