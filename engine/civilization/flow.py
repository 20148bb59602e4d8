"""The round structure: setup, harvest, progress, action phase turn order and clean-up (seed,
"游戏设置" and "游戏玩法"; rulings, "Setup and rounds").

``settle`` runs everything that needs no decision (automatic steps, forced answers, phase
changes) until a player must decide or the match is over.
"""

from __future__ import annotations

from engine.civilization.data import CARDS, SLOT_TYPES, START_CARD
from engine.civilization.ending import finish, kingship_seat, standing_winner
from engine.civilization.state import EMPTY, Card, State, Step, add_resources, one_resource, pop
from engine.civilization.steps import AUTOMATIC, answer, answers
from engine.civilization.steps import rotate as rotate_card

__all__ = ["new_state", "settle", "next_actor", "harvest", "cleanup", "Log"]

Log = list[tuple[str, dict]]


def new_state(deck: tuple[int, ...], turn_seconds: int) -> State:
    """Return the match after setup ①–③ up to the first decision: S with 王权 facing seat 0 (the
    start player), the deck shuffled by the caller, its top card revealed for seat 1 to orient."""
    start = Card(START_CARD, 0, None, (EMPTY, EMPTY))
    return State(turn_seconds, 0, "setup", 0, 0, (False, False), (start,), deck[1:], deck[0],
                 ((0, 0, 0), (0, 0, 0)), (2, 2), (Step("orient", 1),), 0, None, "")


def next_actor(state: State, seat: int) -> State:
    """Return ``state`` with the turn handed on after ``seat``'s main action: players alternate;
    a player who passed takes no more actions this phase."""
    other = 1 - seat
    return state._replace(actor=other if not state.passed[other] else seat)


def harvest(state: State, log: Log) -> State:
    """Begin a round: its start player is whoever faces 王权; every placed leader gives its owner
    1 of its card's cost resource; the player facing 婚姻 then gains 1 resource of their choice."""
    start = kingship_seat(state)
    state = state._replace(round=state.round + 1, phase="harvest", start=start,
                           passed=(False, False))
    for card in state.row:
        if card.leader is not None:
            cost = CARDS[card.id].cost
            state = add_resources(state, card.leader, one_resource(cost, 1))
    log.append(("round_started", {"round": state.round, "start_player": start}))
    return state._replace(queue=(Step("gain", 1 - start, 1),))


def _progress(state: State, log: Log) -> State:
    """Reveal the deck's top card for the non-start player to orient."""
    card = state.deck[0]
    log.append(("card_revealed", {"card": card, "round": state.round}))
    return state._replace(phase="progress", deck=state.deck[1:], revealed=card,
                          queue=(Step("orient", 1 - state.start),))


def cleanup(state: State, log: Log) -> State:
    """Clean-up: every card with a worker on a ↺ slot turns 180° (once, even if both slots
    qualify); all workers leave the slots; an empty deck ends the match on the standings."""
    row = []
    rotated = []
    for i, card in enumerate(state.row):
        slots = CARDS[card.id].slots
        if any(card.workers[j] != EMPTY and SLOT_TYPES[slots[j]].reversal for j in (0, 1)):
            card = rotate_card(card)
            rotated.append(i)
        row.append(card._replace(workers=(EMPTY, EMPTY)))
    state = state._replace(row=tuple(row))
    log.append(("cleanup", {"round": state.round, "rotated": rotated}))
    if not state.deck:
        return finish(state, standing_winner(state), "deck_empty")
    return harvest(state, log)


def _next_phase(state: State, log: Log) -> State:
    if state.phase in ("setup",):
        return harvest(state, log)
    if state.phase == "harvest":
        return _progress(state, log)
    if state.phase == "progress":
        return state._replace(phase="action", actor=state.start)
    return cleanup(state, log)


def settle(state: State, log: Log) -> State:
    """Return ``state`` advanced until a decision is due or the match is over.

    Automatic steps run; a decision with no legal answer is dropped; a decision with exactly one
    legal answer is taken at once (logged like a chosen one); an empty queue moves the round on.
    """
    while state.phase != "over":
        if state.queue:
            step = state.queue[0]
            if step.kind in AUTOMATIC:
                state = AUTOMATIC[step.kind](state, step)
                continue
            options = answers(state, step)
            if len(options) > 1:
                return state
            if options:
                log.append(("forced", {"seat": step.seat, "step": step.kind, "action": options[0]}))
                state = answer(state, step, options[0])
            else:
                state = pop(state)
            continue
        if state.phase == "action" and not all(state.passed):
            return state
        state = _next_phase(state, log)
    return state
