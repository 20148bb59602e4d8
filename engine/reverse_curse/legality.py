"""Who acts now and what they may do: the single source of legality.

Rule source: the rulings' "Match flow" 3-6 and "Formats" (any member of a team may act for the
side; on a deployment turn each member plays from their own hand).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core import IllegalAction
from engine.reverse_curse.cards import CARD_CODES, MONSTERS, RECRUIT_COST, SUMMON_COST
from engine.reverse_curse.monsters import summon_block
from engine.reverse_curse.state import (
    FORMAT_SEATS,
    State,
    behind_side,
    deployment_side,
    derived,
    seat_side_index,
    seats_of,
    side_for,
    side_index,
    side_of,
)


def acting_side(state: State) -> str | None:
    """Return the side whose decision it is: the order chooser, the shopper or the deploying
    side; ``None`` during the (simultaneous) mulligan and once the match is over."""
    if state.phase == "order":
        return behind_side(state.position)
    if state.phase == "shop":
        return state.shop_queue[0]
    if state.phase == "deployment":
        return deployment_side(state)
    return None


def to_act(state: State) -> frozenset[int]:
    """Return the seats that may act now.

    Mulligan: every seat of each side whose answer is still pending. Deployment: the members
    of the side to play who still hold cards. Order/shop: every member of the deciding side.
    (Computed once per state: ``state.derived``.)
    """
    return derived(state, _to_act)


def _to_act(state: State) -> frozenset[int]:
    phase = state.phase
    if phase == "deployment":
        seats = seats_of(state, deployment_side(state))
        return frozenset(filter(state.hands.__getitem__, seats))  # members holding cards
    if phase == "mulligan":
        up, down = state.mulligan
        return _PENDING[state.format, state.up_parity, up is None, down is None]
    if phase == "finished":
        return frozenset()
    side = acting_side(state)
    assert side is not None, "order and shop phases have an acting side"
    return frozenset(seats_of(state, side))


#: ``(format, up_parity, UP pending, DOWN pending)`` -> the seats of the pending sides.
_PENDING: Mapping[tuple[str, int, bool, bool], frozenset[int]] = {
    (fmt, parity, up, down): frozenset(
        s for s in range(seats) if (up, down)[side_index(side_for(s, parity))])
    for fmt, seats in FORMAT_SEATS.items() for parity in (0, 1)
    for up in (False, True) for down in (False, True)
}


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal action of ``seat`` now (``[]`` if it is not to act), in a fixed order.

    Shapes: ``choose_order {first}``; ``mulligan {card|None}`` (keep first, then each distinct
    hand card); ``recruit {monster}`` per offered monster if energy allows, then ``pass``;
    ``summon`` when allowed, then ``play {card}`` per distinct hand card. The list and its
    actions are new objects every call.
    """
    return [dict(action) for action in listed_actions(state, seat)]


def listed_actions(state: State, seat: int) -> tuple[Mapping[str, Any], ...]:
    """Return ``legal_actions(state, seat)`` as computed once per state and seat
    (``state.derived``); the actions are shared: read them, never change them."""
    return derived(state, _legal, seat)


class _Actions(dict):
    """Code -> the action ``{"type": kind, field: code}``, built once per known code (a code the
    table lacks gets a new dict: states are not checked against the card list)."""

    def __init__(self, kind: str, field: str, codes: Iterable[str]) -> None:
        super().__init__((code, {"type": kind, field: code}) for code in codes)
        self.kind, self.field = kind, field

    def __missing__(self, code: str) -> dict[str, Any]:
        return {"type": self.kind, self.field: code}


#: The actions ``_legal`` lists, one shared (never handed out) dict per action.
_ORDER = ({"type": "choose_order", "first": True}, {"type": "choose_order", "first": False})
_KEEP = {"type": "mulligan", "card": None}
_SEND = _Actions("mulligan", "card", CARD_CODES)
_RECRUIT = _Actions("recruit", "monster", MONSTERS)
_PASS = {"type": "pass"}
_SUMMON = {"type": "summon"}
_PLAY = _Actions("play", "card", CARD_CODES)


def _legal(state: State, seat: int) -> tuple[Mapping[str, Any], ...]:
    """The legal actions of ``seat`` (see ``legal_actions``), computed."""
    if seat not in to_act(state):
        return ()
    phase = state.phase
    if phase == "deployment":
        plays = tuple(map(_PLAY.__getitem__, dict.fromkeys(state.hands[seat])))
        return plays if summon_block(state, seat) else (_SUMMON, *plays)
    if phase == "mulligan":
        return (_KEEP, *map(_SEND.__getitem__, dict.fromkeys(state.hands[seat])))
    if phase == "shop":
        energy = state.energy[seat_side_index(state, seat)]
        if energy < RECRUIT_COST:
            return (_PASS,)
        return (*map(_RECRUIT.__getitem__, state.offer), _PASS)
    return _ORDER


#: Action type -> the phase it belongs to.
ACTION_PHASE: Mapping[str, str] = {
    "choose_order": "order", "mulligan": "mulligan", "recruit": "shop", "pass": "shop",
    "summon": "deployment", "play": "deployment",
}


def _not_acting(state: State, seat: int, kind: str) -> IllegalAction:
    """Why a seat not in ``to_act`` cannot act: a teammate already took this decision of the
    current set (``already_played``), an empty hand on its side's turn, or not its turn."""
    side = side_of(state, seat)
    last = state.last_actor[side_index(side)]
    if state.phase == "deployment" and deployment_side(state) == side:
        return IllegalAction("card_not_in_hand", "You have no card left to play this set.")
    if last is not None and last[0] != seat and last[1] == state.set_no and (
            last[2] == ACTION_PHASE[kind]):
        return IllegalAction("already_played",
                             "A teammate has already answered this decision for your side.")
    return IllegalAction("not_your_turn", "It is not your turn.")


def _why_summon(state: State, seat: int) -> IllegalAction:
    code = summon_block(state, seat) or "not_allowed"
    side = side_index(side_of(state, seat))
    messages = {
        "no_monster": "Your side holds no monster.",
        "not_enough_energy": f"Summoning {state.held[side]} costs "
                             f"{SUMMON_COST.get(state.held[side] or '', 0)} energy.",
        "summon_not_allowed": f"{state.held[side]} cannot be summoned now.",
    }
    return IllegalAction(code, messages.get(code, "Not allowed now."))


def why_illegal(state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction:
    """Return the error explaining why a well-formed ``action`` is not in the legal list.

    Codes: ``game_over``, ``already_played`` (a teammate answered this decision),
    ``not_your_turn``, ``wrong_phase``, ``card_not_in_hand``, ``not_offered``,
    ``not_enough_energy``, ``no_monster``, ``summon_not_allowed``, ``not_allowed``.
    """
    kind = action["type"]
    if state.phase == "finished":
        return IllegalAction("game_over", "The match is over.")
    if seat not in to_act(state):
        return _not_acting(state, seat, kind)
    if ACTION_PHASE[kind] != state.phase:
        return IllegalAction("wrong_phase", f"{kind!r} is not possible in the {state.phase}.")
    if kind in ("play", "mulligan") and action["card"] not in state.hands[seat]:
        return IllegalAction("card_not_in_hand", f"You do not hold {action['card']}.")
    if kind == "recruit" and action["monster"] not in state.offer:
        return IllegalAction("not_offered", f"{action['monster']} is not offered.")
    if kind == "recruit":
        return IllegalAction("not_enough_energy", "Recruiting costs 1 energy.")
    if kind == "summon":
        return _why_summon(state, seat)
    return IllegalAction("not_allowed", "That action is not allowed now.")
