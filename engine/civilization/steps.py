"""Follow-up decisions and automatic steps in the queue (rulings: every choice a slot needs is
a follow-up decision of the same player, each with a short list of legal answers).

For every decision kind, ``answers(state, step)`` lists the legal answers (an empty list means
the step cannot happen and is dropped, e.g. taking from an opponent who has nothing) and
``answer(state, step, action)`` applies one of them. Automatic kinds run without a decision.

Answer shapes (``legal`` entries):
``{"type":"take","resource":r}`` (gain 1 of ``r``), ``{"type":"pay","resource":r}``,
``{"type":"steal","resource":r}``, ``{"type":"exchange","give":r,"get":r2}``, ``{"type":"skip"}``,
``{"type":"declare","resource":r}``, ``{"type":"match","set":r,"to":r2}``,
``{"type":"rotate","card":i}``, ``{"type":"remove","card":i,"slot":j}``,
``{"type":"place_neutral","card":i}``, ``{"type":"stop"}``, ``{"type":"resolve","card":i}``,
``{"type":"leader","card":i}``, ``{"type":"unlock"}``, ``{"type":"decline"}``,
``{"type":"orient","slot":j}`` (``j`` = the slot of the revealed card that faces the chooser).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.civilization.data import CARDS, RESOURCES
from engine.civilization.effects import can_resolve, resolve_slot
from engine.civilization.ending import place_leader
from engine.civilization.state import (
    EMPTY,
    NEUTRAL,
    Card,
    State,
    Step,
    add_resources,
    count_facing,
    leaders_placed,
    my_position,
    pop,
    replace_front,
    set_resources,
    set_worker,
    total,
)

__all__ = ["answers", "answer", "AUTOMATIC", "DECISIONS", "ANSWER_TYPES", "UNLOCK_COST"]

Action = dict[str, Any]
UNLOCK_COST = 4
R = range(len(RESOURCES))


def _unit(r: int, amount: int = 1) -> tuple[int, int, int]:
    """Return a resource vector with ``amount`` of resource ``r``."""
    return tuple(amount if k == r else 0 for k in R)  # type: ignore[return-value]


def _count_down(state: State, step: Step) -> State:
    """Return ``state`` with one unit of the front step done (removed when it was the last)."""
    return replace_front(state, step._replace(n=step.n - 1)) if step.n > 1 else pop(state)


def _res(action: Mapping[str, Any], key: str = "resource") -> int:
    return RESOURCES.index(action[key])


# --------------------------------------------------------------------------- resources


def _gain_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "take", "resource": r} for r in RESOURCES]


def _gain(state: State, step: Step, action: Mapping[str, Any]) -> State:
    return _count_down(add_resources(state, step.seat, _unit(_res(action))), step)


def _pay_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "pay", "resource": RESOURCES[r]} for r in R if state.resources[step.seat][r] > 0]


def _pay(state: State, step: Step, action: Mapping[str, Any]) -> State:
    return _count_down(add_resources(state, step.seat, _unit(_res(action), -1)), step)


def _pay_same_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "pay", "resource": RESOURCES[r]} for r in R
            if state.resources[step.seat][r] >= step.n]


def _pay_same(state: State, step: Step, action: Mapping[str, Any]) -> State:
    return pop(add_resources(state, step.seat, _unit(_res(action), -step.n)))


def _steal_answers(state: State, step: Step) -> list[Action]:
    other = state.resources[1 - step.seat]
    return [{"type": "steal", "resource": RESOURCES[r]} for r in R if other[r] > 0]


def _steal(state: State, step: Step, action: Mapping[str, Any]) -> State:
    r = _res(action)
    state = add_resources(state, 1 - step.seat, _unit(r, -1))
    return _count_down(add_resources(state, step.seat, _unit(r)), step)


def _exchange_answers(state: State, step: Step) -> list[Action]:
    """交易: lose any 1, gain any 1 (a different one; the same would change nothing)."""
    mine = state.resources[step.seat]
    trades = [{"type": "exchange", "give": RESOURCES[g], "get": RESOURCES[t]}
              for g in R if mine[g] > 0 for t in R if t != g]
    return trades + [{"type": "skip"}] if trades else []


def _exchange(state: State, step: Step, action: Mapping[str, Any]) -> State:
    if action["type"] == "exchange":
        delta = tuple(_unit(_res(action, "get"))[k] - _unit(_res(action, "give"))[k] for k in R)
        state = add_resources(state, step.seat, delta)  # type: ignore[arg-type]
    return _count_down(state, step)


def _commerce_answers(state: State, step: Step) -> list[Action]:
    """商贸: give the opponent any 1 and take any 1 of theirs (skipped when a side has none)."""
    mine, theirs = state.resources[step.seat], state.resources[1 - step.seat]
    trades = [{"type": "exchange", "give": RESOURCES[g], "get": RESOURCES[t]}
              for g in R if mine[g] > 0 for t in R if theirs[t] > 0 and t != g]
    return trades + [{"type": "skip"}] if trades else []


def _commerce(state: State, step: Step, action: Mapping[str, Any]) -> State:
    if action["type"] == "exchange":
        give, get = _res(action, "give"), _res(action, "get")
        delta = tuple(_unit(get)[k] - _unit(give)[k] for k in R)
        state = add_resources(state, step.seat, delta)  # type: ignore[arg-type]
        state = add_resources(state, 1 - step.seat, tuple(-d for d in delta))  # type: ignore[arg-type]
    return _count_down(state, step)


def _declare_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "declare", "resource": r} for r in RESOURCES]


def _plan(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """规划: the declared resource becomes the number of yellow slots facing you."""
    r, mine = _res(action), list(state.resources[step.seat])
    mine[r] = count_facing(state, step.seat, "yellow")
    return pop(set_resources(state, step.seat, tuple(mine)))  # type: ignore[arg-type]


def _law(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """律法: both players' count of the declared resource becomes 3."""
    r = _res(action)
    for seat in (0, 1):
        values = list(state.resources[seat])
        values[r] = 3
        state = set_resources(state, seat, tuple(values))  # type: ignore[arg-type]
    return pop(state)


def _cooperate_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "match", "set": RESOURCES[a], "to": RESOURCES[b]} for a in R for b in R if a != b]


def _cooperate(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """协作: the first declared resource becomes equal to the second."""
    values = list(state.resources[step.seat])
    values[_res(action, "set")] = values[_res(action, "to")]
    return pop(set_resources(state, step.seat, tuple(values)))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- board


def _rotate_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "rotate", "card": i} for i in range(len(state.row))]


def rotate(card: Card) -> Card:
    """Return ``card`` turned 180°: its slots (and the workers on them) face the other seats."""
    return card._replace(facing=1 - card.facing)


def _rotate(state: State, step: Step, action: Mapping[str, Any]) -> State:
    i = action["card"]
    return pop(state._replace(row=state.row[:i] + (rotate(state.row[i]),) + state.row[i + 1:]))


def _remove_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "remove", "card": i, "slot": j}
            for i, card in enumerate(state.row) for j in (0, 1) if card.workers[j] != EMPTY]


def _remove(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """劳作: the chosen worker leaves its slot (a player's returns to the hand, a neutral one to
    the supply)."""
    return pop(set_worker(state, 2 * action["card"] + action["slot"], EMPTY))


def _empty_facing(state: State, seat: int) -> list[int]:
    """Return the card indices whose slot facing ``seat`` is empty."""
    return [i for i in range(len(state.row))
            if state.row[i].workers[my_position(state, i, seat) % 2] == EMPTY]


def _learn_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "place_neutral", "card": i} for i in _empty_facing(state, 1 - step.seat)]


def _learn(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """学习: a neutral worker goes on the opponent's slot, unresolved."""
    return pop(set_worker(state, my_position(state, action["card"], 1 - step.seat), NEUTRAL))


def _hire_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "place_neutral", "card": i} for i in _empty_facing(state, step.seat)] + [
        {"type": "stop"}]


def _hire(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """雇佣: place neutral workers one by one (up to ``n``), then choose the resolution order."""
    hired = step.positions
    if action["type"] == "place_neutral":
        pos = my_position(state, action["card"], step.seat)
        state, hired = set_worker(state, pos, NEUTRAL), hired + (pos,)
        if step.n > 1:
            return replace_front(state, step._replace(n=step.n - 1, positions=hired))
    if not hired:
        return pop(state)
    return replace_front(state, Step("hire_order", step.seat, 0, hired))


def _hire_order_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "resolve", "card": pos // 2} for pos in step.positions]


def _hire_order(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """Resolve the chosen hired slot now; the others wait. A neutral worker removed meanwhile
    (by a 劳作 resolved first) resolves nothing."""
    pos = next(p for p in step.positions if p // 2 == action["card"])
    rest = tuple(p for p in step.positions if p != pos)
    state = replace_front(state, step._replace(positions=rest)) if rest else pop(state)
    i, j = divmod(pos, 2)
    if state.row[i].workers[j] == NEUTRAL and can_resolve(state, step.seat, pos):
        return resolve_slot(state, step.seat, pos)
    return state


def _breakthrough_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "leader", "card": i} for i, card in enumerate(state.row)
            if card.leader is None and CARDS[card.id].cost is not None]


def _breakthrough(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """突破: the leader goes on any card without one, ignoring its cost and facing slot."""
    return place_leader(pop(state), step.seat, action["card"])


def _unlock_answers(state: State, step: Step) -> list[Action]:
    """婚姻: the 3rd worker for 4 resources; then the 4th, if a leader is placed and the 3rd is
    unlocked."""
    seat, have = step.seat, state.unlocked[step.seat]
    eligible = have == 2 or (have == 3 and leaders_placed(state, seat) >= 1)
    if not eligible or total(state, seat) < UNLOCK_COST:
        return []
    return [{"type": "unlock"}, {"type": "decline"}]


def _unlock(state: State, step: Step, action: Mapping[str, Any]) -> State:
    if action["type"] == "decline":
        return pop(state)
    return replace_front(state, Step("pay", step.seat, UNLOCK_COST), Step("add_worker", step.seat),
                         step)


def _orient_answers(state: State, step: Step) -> list[Action]:
    return [{"type": "orient", "slot": 0}, {"type": "orient", "slot": 1}]


def _orient(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """The non-start player chooses which slot of the revealed card faces them."""
    facing = step.seat if action["slot"] == 0 else 1 - step.seat
    card = Card(state.revealed, facing, None, (EMPTY, EMPTY))  # type: ignore[arg-type]
    return pop(state._replace(row=state.row + (card,), revealed=None))


# --------------------------------------------------------------------------- automatic


def _add_worker(state: State, step: Step) -> State:
    """A worker unlocked by 婚姻 joins the hand at once (rulings)."""
    unlocked = list(state.unlocked)
    unlocked[step.seat] += 1
    return pop(state._replace(unlocked=(unlocked[0], unlocked[1])))


def _red_bonus(state: State, step: Step) -> State:
    """突破's bonus: gain 1 any resource per red slot facing you."""
    reds = count_facing(state, step.seat, "red")
    return replace_front(state, Step("gain", step.seat, reds)) if reds > 0 else pop(state)


Answers = Callable[[State, Step], list[Action]]
Apply = Callable[[State, Step, Mapping[str, Any]], State]

DECISIONS: dict[str, tuple[Answers, Apply]] = {
    "gain": (_gain_answers, _gain),
    "pay": (_pay_answers, _pay),
    "pay_same": (_pay_same_answers, _pay_same),
    "steal": (_steal_answers, _steal),
    "exchange": (_exchange_answers, _exchange),
    "commerce": (_commerce_answers, _commerce),
    "plan": (_declare_answers, _plan),
    "law": (_declare_answers, _law),
    "cooperate": (_cooperate_answers, _cooperate),
    "rotate": (_rotate_answers, _rotate),
    "remove": (_remove_answers, _remove),
    "learn": (_learn_answers, _learn),
    "hire": (_hire_answers, _hire),
    "hire_order": (_hire_order_answers, _hire_order),
    "breakthrough": (_breakthrough_answers, _breakthrough),
    "unlock": (_unlock_answers, _unlock),
    "orient": (_orient_answers, _orient),
}

AUTOMATIC: dict[str, Callable[[State, Step], State]] = {
    "add_worker": _add_worker,
    "red_bonus": _red_bonus,
}

ANSWER_TYPES: dict[str, dict[str, type]] = {
    "take": {"resource": str}, "pay": {"resource": str}, "steal": {"resource": str},
    "exchange": {"give": str, "get": str}, "skip": {}, "declare": {"resource": str},
    "match": {"set": str, "to": str}, "rotate": {"card": int}, "remove": {"card": int, "slot": int},
    "place_neutral": {"card": int}, "stop": {}, "resolve": {"card": int}, "leader": {"card": int},
    "unlock": {}, "decline": {}, "orient": {"slot": int},
}


def answers(state: State, step: Step) -> list[Action]:
    """Return the legal answers to decision ``step`` (``[]``: it cannot happen and is dropped)."""
    return DECISIONS[step.kind][0](state, step)


def answer(state: State, step: Step, action: Mapping[str, Any]) -> State:
    """Return ``state`` after ``step`` (the queue's front) is answered with a legal ``action``."""
    return DECISIONS[step.kind][1](state, step, action)
