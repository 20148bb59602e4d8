"""What each legal move does: placements, effect cards and their Ban window, discards, the
standoff swap and draw offers. Moves reach here only after ``legal.py`` listed them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.core import Event

from .data import BAN, HAND_LIMIT, value_of
from .deck import take_from_hand
from .effects import resolve_effect, settle, swap_cells
from .flow import Step, after_discards, end_stage, finish
from .moves import EFFECT_TYPES, Move
from .reversal import chain_from_hot
from .setup import choose_mother, setup_discard
from .state import DRAW_OFFER, OVER, RESPONSE, SETUP_DISCARD, STAGE, Piece, Play, State


def _place(state: State, seat: int, move: Move) -> Step:
    """Place a number card from the hand on a supported empty cell; it is hot (rules 11, 21)."""
    cell = move.cells[0]
    state = take_from_hand(state, seat, move.card)  # type: ignore[arg-type]
    grid = list(state.grid)
    grid[state.layout.index(cell)] = Piece(state.next_id, seat, value_of(move.card))  # type: ignore[arg-type]
    state = replace(state, grid=tuple(grid), next_id=state.next_id + 1,
                    placements=state.placements - 1, busy=True)
    events = [Event("placed", {"seat": seat, "card": move.card, "cell": list(cell)})]
    state, more = settle(chain_from_hot(state, seat, (cell,)), seat)
    return state, events + more


def _play_effect(state: State, seat: int, move: Move) -> Step:
    """Play an effect card with its targets: the other player's Ban window opens, always
    (ruling "Ban": whether or not it holds a Ban)."""
    card = EFFECT_TYPES[move.type]
    state = take_from_hand(state, seat, card)
    state = replace(state, phase=RESPONSE, stack=(Play(seat, move),), responder=1 - seat)
    return state, [Event("effect_played", {"seat": seat, "card": card,
                                           "action": move.to_json()})]


def _ban(state: State, seat: int, move: Move) -> Step:
    """Answer the last card of the stack with a Ban; the other player may answer it in turn."""
    state = take_from_hand(state, seat, BAN)
    state = replace(state, stack=state.stack + (Play(seat, move),), responder=1 - seat)
    return state, [Event("banned", {"seat": seat, "bans": len(state.stack) - 1})]


def _decline(state: State, seat: int, move: Move) -> Step:
    """Close the window: the effect stands if an even number of Bans answered it (each Ban
    cancels the card it answers), else it is cancelled. All the cards go to the discard pile."""
    effect = state.stack[0]
    stands = (len(state.stack) - 1) % 2 == 0
    cards = tuple(EFFECT_TYPES.get(p.move.type, BAN) for p in state.stack)
    state = replace(state, phase=STAGE, stack=(), responder=None,
                    discard=state.discard + cards)
    events = [Event("window_closed", {"card": cards[0], "bans": len(cards) - 1,
                                      "cancelled": not stands})]
    if not stands:
        return state, events
    state, more = resolve_effect(state, effect.seat, effect.move)
    return state, events + more


def _end_stage(state: State, seat: int, move: Move) -> Step:
    return end_stage(state)


def _standoff_swap(state: State, seat: int, move: Move) -> Step:
    """Swap two adjacent own cards in the standoff (rule 42); the stage then ends."""
    state, events = swap_cells(state, seat, move.cells[0], move.cells[1])
    if state.phase == OVER:
        return state, events
    state, more = end_stage(state)
    return state, events + more


def _offer_draw(state: State, seat: int, move: Move) -> Step:
    """Offer a draw in the standoff (rule 52); the other player answers."""
    state = replace(state, phase=DRAW_OFFER, offered=True)
    return state, [Event("draw_offered", {"seat": seat})]


def _accept_draw(state: State, seat: int, move: Move) -> Step:
    return finish(state, None, "agreement")


def _decline_draw(state: State, seat: int, move: Move) -> Step:
    state = replace(state, phase=STAGE)
    return state, [Event("draw_declined", {"seat": seat})]


def _discard(state: State, seat: int, move: Move) -> Step:
    """Discard one card in setup (secret until both chose) or down to 4 at a round's start."""
    if state.phase == SETUP_DISCARD:
        return setup_discard(state, seat, move.card)  # type: ignore[arg-type]
    state = take_from_hand(state, seat, move.card)  # type: ignore[arg-type]
    state = replace(state, discard=state.discard + (move.card,))  # type: ignore[operator]
    events = [Event("discarded", {"seat": seat, "card": move.card})]
    if len(state.hands[seat]) > HAND_LIMIT:
        return state, events
    state, more = after_discards(state, seat)
    return state, events + more


def _choose_mother(state: State, seat: int, move: Move) -> Step:
    return choose_mother(state, seat, move.card)  # type: ignore[arg-type]


HANDLERS: dict[str, Callable[[State, int, Move], Step]] = {
    "choose_mother": _choose_mother, "discard": _discard, "place": _place,
    "end_stage": _end_stage, "ban": _ban, "decline": _decline,
    "standoff_swap": _standoff_swap, "offer_draw": _offer_draw,
    "accept_draw": _accept_draw, "decline_draw": _decline_draw,
    **{kind: _play_effect for kind in EFFECT_TYPES},
}


def perform(state: State, seat: int, move: Move) -> Step:
    """Return ``(state, events)`` after the legal ``move`` of ``seat``."""
    return HANDLERS[move.type](state, seat, move)
