"""Who acts now and what they may do: the single source of legality.

Rule source: the rulings' "Match flow" 3-6 and "Formats" (any member of a team may act for the
side; on a deployment turn each member plays from their own hand).
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core import IllegalAction
from engine.reverse_curse.cards import RECRUIT_COST, SUMMON_COST
from engine.reverse_curse.monsters import summon_block
from engine.reverse_curse.state import (SIDES, State, behind_side, deployment_side, seats_of,
                                        side_index, side_of)


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
    """
    if state.phase == "finished":
        return frozenset()
    if state.phase == "mulligan":
        return frozenset(seat for side in SIDES if state.mulligan[side_index(side)] is None
                         for seat in seats_of(state, side))
    side = acting_side(state)
    assert side is not None
    seats = seats_of(state, side)
    if state.phase == "deployment":
        seats = tuple(s for s in seats if state.hands[s])
    return frozenset(seats)


def _distinct(cards: tuple[str, ...]) -> list[str]:
    """Return the distinct codes of ``cards`` in order of first appearance."""
    return list(dict.fromkeys(cards))


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal action of ``seat`` now (``[]`` if it is not to act), in a fixed order.

    Shapes: ``choose_order {first}``; ``mulligan {card|None}`` (keep first, then each distinct
    hand card); ``recruit {monster}`` per offered monster if energy allows, then ``pass``;
    ``summon`` when allowed, then ``play {card}`` per distinct hand card.
    """
    if seat not in to_act(state):
        return []
    hand = _distinct(state.hands[seat])
    if state.phase == "order":
        return [{"type": "choose_order", "first": True}, {"type": "choose_order", "first": False}]
    if state.phase == "mulligan":
        return [{"type": "mulligan", "card": None}] + [
            {"type": "mulligan", "card": card} for card in hand]
    if state.phase == "shop":
        energy = state.energy[side_index(side_of(state, seat))]
        recruits = [{"type": "recruit", "monster": m} for m in state.offer
                    if energy >= RECRUIT_COST]
        return recruits + [{"type": "pass"}]
    summon = [{"type": "summon"}] if summon_block(state, seat) is None else []
    return summon + [{"type": "play", "card": card} for card in hand]


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
