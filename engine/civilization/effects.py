"""What each of the 18 slot types does when a worker on it is resolved (seed, "工位效果详解").

``resolve_slot`` applies the immediate part of an effect and queues the choices it needs as
follow-up steps of the same player (rulings: "A slot that needs choices ... asks them as
follow-up decisions"). ``can_resolve`` says whether the slot's mandatory cost can be paid now;
a player may always place a worker without resolving (seed, 行动阶段).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.civilization.data import CARDS, LEADER_COST, SLOT_TYPES
from engine.civilization.state import (
    State,
    Step,
    add_resources,
    count_facing,
    leaders_placed,
    push,
    slot_key,
    total,
)

__all__ = ["resolve_slot", "can_resolve", "can_breakthrough"]

Effect = Callable[[State, int, int], State]


def _repeat(kind: str, seat: int, n: int) -> tuple[Step, ...]:
    """Return a step done ``n`` times, or nothing when ``n`` is 0 (e.g. 商贸 with no blue slot
    facing you)."""
    return (Step(kind, seat, n),) if n > 0 else ()


def _yellow(state: State, seat: int, pos: int) -> State:
    """织网 狩猎 耕种 捕获 畜牧 采集: gain the slot's fixed resources (畜牧: 2 meat + 1 wheat,
    the seed's typo corrected by the rulings)."""
    return add_resources(state, seat, SLOT_TYPES[slot_key(state, pos)].gain)


def _marriage(state: State, seat: int, pos: int) -> State:
    """婚姻: offer to unlock the 3rd worker (then the 4th) for 4 resources each."""
    return push(state, Step("unlock", seat))


def _hiring(state: State, seat: int, pos: int) -> State:
    """雇佣: pay 1 fish, 1 meat and 1 wheat, then hire up to 2 neutral workers."""
    return push(add_resources(state, seat, (-1, -1, -1)), Step("hire", seat, 2))


def _labour(state: State, seat: int, pos: int) -> State:
    """劳作: pay any 1 resource, then remove any worker from its slot."""
    return push(state, Step("pay", seat, 1), Step("remove", seat))


def _exchange(state: State, seat: int, pos: int) -> State:
    """交易: one optional exchange per blue slot facing you (itself included), then gain 2."""
    return push(state, *_repeat("exchange", seat, count_facing(state, seat, "blue")),
                Step("gain", seat, 2))


def _planning(state: State, seat: int, pos: int) -> State:
    """规划: declare a resource, set it to the number of yellow slots facing you, then gain 2."""
    return push(state, Step("plan", seat), Step("gain", seat, 2))


def _cooperation(state: State, seat: int, pos: int) -> State:
    """协作: declare two resources; the first becomes equal to the second."""
    return push(state, Step("cooperate", seat))


def _kingship(state: State, seat: int, pos: int) -> State:
    """王权: gain any 1 resource, then rotate any card (S included)."""
    return push(state, Step("gain", seat, 1), Step("rotate", seat))


def _plunder(state: State, seat: int, pos: int) -> State:
    """掠夺: take 1 resource from the opponent, 2 if at least 3 red slots face you."""
    reds = count_facing(state, seat, "red")
    return push(state, Step("steal", seat, 2 if reds >= 3 else 1))


def _commerce(state: State, seat: int, pos: int) -> State:
    """商贸: one optional give-and-take with the opponent per blue slot facing you, then gain 1."""
    return push(state, *_repeat("commerce", seat, count_facing(state, seat, "blue")),
                Step("gain", seat, 1))


def _law(state: State, seat: int, pos: int) -> State:
    """律法: declare a resource; both players' count of it becomes 3."""
    return push(state, Step("law", seat))


def _learning(state: State, seat: int, pos: int) -> State:
    """学习: place a neutral worker on an empty slot facing the opponent (unresolved), gain 2."""
    return push(state, Step("learn", seat), Step("gain", seat, 2))


def _breakthrough(state: State, seat: int, pos: int) -> State:
    """突破: pay 5 of one resource, place a leader on any card without one, then gain 1 per red
    slot facing you."""
    return push(state, Step("pay_same", seat, LEADER_COST), Step("breakthrough", seat),
                Step("red_bonus", seat))


EFFECTS: dict[str, Effect] = {
    "weaving": _yellow, "hunting": _yellow, "farming": _yellow,
    "capture": _yellow, "herding": _yellow, "gathering": _yellow,
    "marriage": _marriage, "hiring": _hiring, "labour": _labour, "exchange": _exchange,
    "planning": _planning, "cooperation": _cooperation,
    "kingship": _kingship, "plunder": _plunder, "commerce": _commerce, "law": _law,
    "learning": _learning, "breakthrough": _breakthrough,
}


def can_breakthrough(state: State, seat: int) -> bool:
    """Return whether 突破 can be paid and has a target: 5 of one resource, a leader in hand and a
    card (not S) without a leader."""
    return (max(state.resources[seat]) >= LEADER_COST and leaders_placed(state, seat) < 5
            and any(c.leader is None and CARDS[c.id].cost is not None for c in state.row))


def can_resolve(state: State, seat: int, pos: int) -> bool:
    """Return whether ``seat`` can pay the mandatory cost of the slot at ``pos`` now.

    雇佣 needs one of each resource, 劳作 one resource, 突破 five of one resource and a target;
    every other slot can always be resolved.
    """
    key = slot_key(state, pos)
    if key == "hiring":
        return min(state.resources[seat]) >= 1
    if key == "labour":
        return total(state, seat) >= 1
    if key == "breakthrough":
        return can_breakthrough(state, seat)
    return True


def resolve_slot(state: State, seat: int, pos: int) -> State:
    """Return ``state`` after resolving the slot at ``pos`` for ``seat``: immediate gains and
    costs applied, the choices it needs pushed to the front of the queue.

    The caller checks ``can_resolve`` first.
    """
    return EFFECTS[slot_key(state, pos)](state, seat, pos)
