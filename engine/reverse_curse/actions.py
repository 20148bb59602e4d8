"""Applying an action: shape checks, the legality check, then the handler for its type.

Rule source: the rulings' "Match flow" 3-6 (order, mulligan, shop, deployment).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Event, InvalidAction, check_action
from engine.reverse_curse.cards import CARD_CODES, MONSTERS, NUMBER_VALUES, RECRUIT_COST
from engine.reverse_curse.flow import choose_order, end_shopping, next_turn, resolve_mulligans
from engine.reverse_curse.legality import listed_actions, why_illegal
from engine.reverse_curse.monsters import summon
from engine.reverse_curse.state import (
    MulliganChoice,
    State,
    evolve,
    field_card,
    per_side,
    players,
    seats_of,
    side_index,
    side_of,
    without_one,
)

Events = list[Event]

#: Action type -> the fields it carries (beside ``type``) and their JSON types.
SHAPES: Mapping[str, Mapping[str, type | tuple[type, ...]]] = {
    "choose_order": {"first": bool},
    "mulligan": {"card": (str, type(None))},
    "recruit": {"monster": str},
    "pass": {},
    "summon": {},
    "play": {"card": str},
}


def parse(action: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``action`` as a plain dict after checking its shape.

    Raises:
        InvalidAction: ``malformed_action`` (not an object, missing/extra/mistyped field, an
            unknown card or monster code) or ``unknown_action`` (unknown ``type``).
    """
    kind = check_action(action, SHAPES)
    card = action.get("card")
    if card is not None and card not in CARD_CODES:
        raise InvalidAction("malformed_action", f"Unknown card {card!r}.")
    if kind == "recruit" and action["monster"] not in MONSTERS:
        raise InvalidAction("malformed_action", f"Unknown monster {action['monster']!r}.")
    return dict(action)


def _choose_order(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, Events]:
    return choose_order(state, action["first"])


def _mulligan(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, Events]:
    """Record the side's answer, seen only by that side until both are in."""
    side = side_of(state, seat)
    choice = MulliganChoice(seat, action["card"])
    state = evolve(state, mulligan=per_side(state.mulligan, side, choice))
    events = [Event("mulligan_chosen", {"side": side, "seat": seat, "card": action["card"]},
                    frozenset(seats_of(state, side)))]
    if all(m is not None for m in state.mulligan):
        state, more = resolve_mulligans(state)
        events += more
    return state, events


def _recruit(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, Events]:
    """Pay 1 energy; the monster replaces any held one (which goes back to the pool)."""
    side, monster = side_of(state, seat), action["monster"]
    energy = state.energy[side_index(side)] - RECRUIT_COST
    state = evolve(state, energy=per_side(state.energy, side, energy),
                    held=per_side(state.held, side, monster),
                    offer=tuple(m for m in state.offer if m != monster))
    state, events = end_shopping(state)
    return state, [Event("recruited", {"side": side, "seat": seat, "monster": monster})] + events


def _pass(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, Events]:
    side = side_of(state, seat)
    state, events = end_shopping(state)
    return state, [Event("shop_passed", {"side": side, "seat": seat})] + events


def _summon(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, Events]:
    return summon(state, seat)


def _play(state: State, seat: int, side: str, card: str,
          last_actor: tuple[Any, Any]) -> tuple[State, Events]:
    """Put ``card`` on top of the field: numbers face-up, specials (and veiled cards) face-down;
    then the next turn. The commonest action (12 of a set's), so it also records
    ``last_actor`` and the play in the next turn's single ``evolve``."""
    face_up = card in NUMBER_VALUES and not state.veiled
    event = Event("card_played", {"turn": state.turn, "seat": seat, "side": side,
                                  "face_up": face_up, "card": card if face_up else None})
    hands = list(state.hands)
    hands[seat] = without_one(hands[seat], card)
    state, events = next_turn(state, last_actor=last_actor, hands=tuple(hands),
                              field=state.field + (field_card(card, seat, side, face_up),))
    return state, [event, *events]


_HANDLERS: Mapping[str, Callable[[State, int, Mapping[str, Any]], tuple[State, Events]]] = {
    "choose_order": _choose_order, "mulligan": _mulligan, "recruit": _recruit,
    "pass": _pass, "summon": _summon,
}


#: The exact types of a listed legal action's values.
_PLAIN_TYPES = frozenset({str, bool, type(None)})


def _listed(state: State, seat: int, action: Any) -> bool:
    """Return whether ``action`` is a dict equal to one of ``seat``'s listed legal actions with
    values exactly ``str``/``bool``/``None`` (then it is well-formed too: ``parse`` would accept
    it; ``first: 1`` equals ``first: True`` but is not): the fast path of ``apply_action``."""
    return (type(action) is dict and type(seat) is int
            and action in listed_actions(state, seat)  # none for a seat the match lacks
            and _PLAIN_TYPES.issuperset(map(type, action.values())))


def apply_action(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, Events]:
    """Return ``(new_state, events)`` for ``seat`` playing ``action``; ``state`` is unchanged.

    Raises:
        InvalidAction: a malformed action or a seat number the match does not have.
        IllegalAction: the action is not in ``legal_actions(state, seat)`` (code from
            ``why_illegal``).
    """
    if not _listed(state, seat, action):
        action = parse(action)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players(state):
            raise InvalidAction("malformed_action", f"No seat {seat!r} in this match.")
        if action not in listed_actions(state, seat):
            raise why_illegal(state, seat, action)
    side = side_of(state, seat)
    last_actor = per_side(state.last_actor, side, (seat, state.set_no, state.phase))
    if action["type"] == "play":
        return _play(state, seat, side, action["card"], last_actor)
    return _HANDLERS[action["type"]](evolve(state, last_actor=last_actor), seat, action)
