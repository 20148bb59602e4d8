"""Builders for hand-made NumGR positions used by the unit tests."""

from __future__ import annotations

from engine.numgr import GAME
from engine.numgr import cards as C
from engine.numgr.plays import play_action
from engine.numgr.state import Stack, State

OPTIONS = GAME.validate_options({})


def make_state(hands, *, current=0, step="defense", options=None, hp=(2, 2), deck=None,
               discard=()) -> State:
    """A position with the given hands; every other card is in the deck in DECK order."""
    opts = GAME.validate_options(options or {})
    used = {c for h in hands for c in h} | set(discard)
    rest = [c for c in C.DECK if c not in used] if deck is None else list(deck)
    return State(seed="00", options=opts, deck=rest, discard=list(discard),
                 hands=[list(h) for h in hands], pending=[[], []], hp=list(hp), stacks=[],
                 current=current, step=step)


def put(state: State, seat: int, main: str, *, owner=None, **fields) -> Stack:
    """Put a stack straight into ``seat``'s area (set-up only: no effects fire)."""
    for card in (main, fields.get("base")):
        if card in state.deck:
            state.deck.remove(card)
    stack = Stack(id=state.next_id, owner=seat if owner is None else owner, area=seat, main=main,
                  **fields)
    state.next_id += 1
    state.stacks.append(stack)
    return stack


def play(state: State, seat: int, main: str, **fields):
    """Apply a play action and return the new state."""
    new, _ = GAME.apply(state, seat, play_action(main, **fields))
    return new


def act(state: State, seat: int, *actions):
    """Apply several simple actions (``"end"`` = end_step, ``None``/card = discard)."""
    for action in actions:
        if action == "end":
            state, _ = GAME.apply(state, seat, {"type": "end_step"})
        else:
            state, _ = GAME.apply(state, seat, {"type": "discard", "card": action})
    return state


def area_mains(state: State, seat: int) -> list[str | None]:
    """Main cards of ``seat``'s area in id order (``None`` for a variant stack)."""
    return [s.main for s in state.area(seat)]


def card_count(state: State) -> int:
    """All physical cards: deck, discard, hands, pending and stacks (always 32)."""
    return (len(state.deck) + len(state.discard) + sum(map(len, state.hands))
            + sum(map(len, state.pending)) + sum(len(s.cards()) for s in state.stacks))
