"""Grid changes and their aftermath: chains settling, breakage, and the five effect cards.

Rule sources: TIPS 2-3 (breakage after a chain, at once after a Bomb), "Effect cards" rulings
(Bomb, Super-Add (a)/(b), Swap (a)/(b), Lightning), rule 51 (the mother win).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event

from .board import Cell
from .data import value_of
from .deck import take_from_hand
from .flow import Step, finish
from .grid import broken_cells
from .moves import Move
from .reversal import Chain, chain_from_group, chain_from_hot
from .state import Piece, State


def remove_cells(state: State, cells: list[Cell]) -> State:
    """Return the state with the cards on ``cells`` sent to the discard pile (their spent pairs
    end with them)."""
    grid = list(state.grid)
    gone = set()
    discard = list(state.discard)
    for cell in cells:
        piece = grid[state.layout.index(cell)]
        grid[state.layout.index(cell)] = None
        gone.add(piece.id)  # type: ignore[union-attr]
        discard.append(str(piece.value))  # type: ignore[union-attr]
    spent = frozenset(k for k in state.spent if not gone & set(k))
    return replace(state, grid=tuple(grid), spent=spent, discard=tuple(discard),
                   busy=state.busy or bool(cells))


def breakage(state: State) -> Step:
    """Return the state after breakage (断裂): isolated cards but the mother cards go to the
    discard pile; nothing is removed in the standoff (rule 42). Event ``broken`` if any."""
    cells = [] if state.standoff else broken_cells(state)
    if not cells:
        return state, []
    info = [{"cell": list(c), "owner": state.piece(c).owner,  # type: ignore[union-attr]
             "value": state.piece(c).value} for c in cells]  # type: ignore[union-attr]
    return remove_cells(state, cells), [Event("broken", {"cells": info})]


def settle(chain: Chain, seat: int) -> Step:
    """Return the state after a chain: a flipped mother card wins for ``seat``; otherwise
    breakage follows the whole chain (TIPS 2)."""
    state = chain.state
    if chain.flips:
        state = replace(state, busy=True, flipped=True)
    events = list(chain.events)
    if chain.won:
        state, more = finish(state, seat, "mother_flipped")
        return state, events + more
    state, more = breakage(state)
    return state, events + more


def _moved(state: State, grid: list[Piece | None], ids: set[int]) -> State:
    """Return the state with ``grid`` and without the spent pairs of the moved ``ids``."""
    spent = frozenset(k for k in state.spent if not ids & set(k))
    return replace(state, grid=tuple(grid), spent=spent)


def swap_cells(state: State, seat: int, a: Cell, b: Cell) -> Step:
    """Return the state after ``seat`` swaps its cards on ``a`` and ``b`` (Swap (a), standoff
    swap): both are hot, their spent pairs end (rule 23), then the chain settles."""
    grid = list(state.grid)
    ia, ib = state.layout.index(a), state.layout.index(b)
    grid[ia], grid[ib] = grid[ib], grid[ia]
    moved = _moved(state, grid, {grid[ia].id, grid[ib].id})  # type: ignore[union-attr]
    events = [Event("swapped", {"seat": seat, "cells": [list(a), list(b)]})]
    state, more = settle(chain_from_hot(moved, seat, (a, b)), seat)
    return state, events + more


def swap_in(state: State, seat: int, cell: Cell, card: str) -> Step:
    """Return the state after Swap (b): the card on ``cell`` goes to the discard pile (never to
    the hand) and ``card`` from the hand takes its place, hot; not a placement."""
    old = state.piece(cell)
    state = remove_cells(take_from_hand(state, seat, card), [cell])
    grid = list(state.grid)
    grid[state.layout.index(cell)] = Piece(state.next_id, seat, value_of(card))
    state = replace(state, grid=tuple(grid), next_id=state.next_id + 1)
    events = [Event("swapped_in", {"seat": seat, "cell": list(cell), "card": card,
                                   "replaced": old.value})]  # type: ignore[union-attr]
    state, more = settle(chain_from_hot(state, seat, (cell,)), seat)
    return state, events + more


def bomb(state: State, seat: int, cell: Cell) -> Step:
    """Return the state after a Bomb on ``cell`` (a card on the bomber's rows, not on an S
    square): the card is discarded, then breakage at once (TIPS 3)."""
    piece = state.piece(cell)
    events = [Event("bombed", {"seat": seat, "cell": list(cell),
                               "owner": piece.owner, "value": piece.value})]  # type: ignore[union-attr]
    state, more = breakage(remove_cells(state, [cell]))
    return state, events + more


def lightning(state: State, seat: int) -> Step:
    """Return the state after Lightning: one more number placement this stage."""
    state = replace(state, placements=state.placements + 1)
    return state, [Event("lightning", {"seat": seat, "placements": state.placements})]


def super_add(state: State, seat: int, cells: tuple[Cell, ...]) -> Step:
    """Return the state after Super-Add: (a) two cells of an own spent pair re-fire, or (b) an
    own straight line of three summing to 5 fires; flips then chain and settle."""
    return settle(chain_from_group(state, seat, cells), seat)


def resolve_effect(state: State, seat: int, move: Move) -> Step:
    """Return the state after the effect ``move`` of ``seat`` takes effect (it was not banned)."""
    if move.type == "lightning":
        return lightning(state, seat)
    if move.type == "bomb":
        return bomb(state, seat, move.cells[0])
    if move.type in ("super_add_pair", "super_add_line"):
        return super_add(state, seat, move.cells)
    if move.type == "swap_cells":
        return swap_cells(state, seat, move.cells[0], move.cells[1])
    if move.type == "swap_in":
        return swap_in(state, seat, move.cells[0], move.card)  # type: ignore[arg-type]
    raise AssertionError(f"not an effect: {move.type}")  # pragma: no cover
