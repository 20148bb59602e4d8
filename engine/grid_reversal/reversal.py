"""Reversal (逆转): firing pairs and lines, breadth-first chains, spent pairs, the mother win.

A firing flips every opponent card one cell past both ends of its straight line to the active
player (rule 21; ruling: both ends). Flipped cards are the hot cards of the next wave (rule 22
联动逆转). Order (ruling): hot cards of a wave row-major; for each, the partners it has when its turn
comes (cards flipped earlier in the wave count), row-major; for a pair, the end beyond the hot
card first. A pair fires at most once per action. A pair that flipped something is spent (rule 23).
Flipping the opponent's mother card wins at once (rule 51), even mid-chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.core import Event

from .board import Cell, beyond
from .data import TARGET_SUM
from .grid import pair_key
from .state import Piece, State


@dataclass(frozen=True)
class Chain:
    """What one action's reversal did.

    Attributes:
        state: the state with the flips and new spent pairs (hot marks are gone: the caller's
            action has fully resolved).
        events: one ``fired`` event per firing, in firing order.
        flips: the number of cards flipped.
        won: whether the opponent's mother card was flipped (the chain stopped there).
    """

    state: State
    events: tuple[Event, ...]
    flips: int
    won: bool


class _Run:
    """The mutable working copy of one chain (local to ``resolve``; the input is never touched)."""

    def __init__(self, state: State, seat: int) -> None:
        self.layout = state.layout
        self.seat = seat
        self.cells = list(state.grid)
        self.spent = set(state.spent)
        self.fired: set[tuple[int, int]] = set()
        self.target = state.start_of(1 - seat)
        self.events: list[Event] = []
        self.flips = 0
        self.won = False

    def own(self, cell: Cell) -> Piece | None:
        piece = self.cells[self.layout.index(cell)]
        return piece if piece is not None and piece.owner == self.seat else None

    def fire(self, wave: int, group: Sequence[Cell], hot: Cell | None, ends: Sequence[Cell],
             spends: bool) -> list[Cell]:
        """Flip the opponent cards on ``ends`` in order; record the event; return the flips."""
        flipped: list[Cell] = []
        details = []
        for end in ends:
            if self.won or not self.layout.contains(end):
                continue
            piece = self.cells[self.layout.index(end)]
            if piece is None or piece.owner == self.seat:
                continue
            self.cells[self.layout.index(end)] = replace(piece, owner=self.seat)
            flipped.append(end)
            details.append({"cell": list(end), "value": piece.value, "from": piece.owner})
            self.won = end == self.target
        spent = spends and bool(flipped)
        if spent:
            a, b = (self.own(c) for c in group)
            assert a is not None and b is not None, "a spent pair is two own cards"
            self.spent.add(pair_key(a, b))
        self.flips += len(flipped)
        self.events.append(Event("fired", {
            "wave": wave, "seat": self.seat, "cells": [list(c) for c in group],
            "hot": None if hot is None else list(hot), "flips": details, "spent": spent,
            "mother_flipped": self.won}))
        return flipped

    def partners(self, hot: Cell) -> list[Cell]:
        """Return the own cards that fire with ``hot`` now, row-major."""
        card = self.own(hot)
        out = []
        for cell in self.layout.neighbours(hot):
            other = self.own(cell)
            if (card is not None and other is not None
                    and card.value + other.value == TARGET_SUM
                    and pair_key(card, other) not in self.spent
                    and pair_key(card, other) not in self.fired):
                out.append(cell)
        return out

    def wave(self, number: int, frontier: Sequence[Cell]) -> list[Cell]:
        """Fire every pair of the hot ``frontier``; return the cards flipped (the next wave)."""
        flipped: list[Cell] = []
        for hot in sorted(frontier):
            for partner in self.partners(hot):
                if self.won:
                    return flipped
                self.fired.add(pair_key(self.own(hot), self.own(partner)))  # type: ignore[arg-type]
                ends = (beyond(partner, hot), beyond(hot, partner))
                flipped += self.fire(number, (hot, partner), hot, ends, spends=True)
        return flipped

    def result(self, state: State) -> Chain:
        new = replace(state, grid=tuple(self.cells), spent=frozenset(self.spent))
        return Chain(new, tuple(self.events), self.flips, self.won)


def chain_from_hot(state: State, seat: int, hot: Sequence[Cell]) -> Chain:
    """Return the reversal started by the hot cards ``hot`` of ``seat`` (a placed card, the cards
    a Swap moved or brought in).

    Only own pairs with at least one hot card fire; spent pairs do not (rule 23).
    """
    run = _Run(state, seat)
    _spread(run, 1, list(hot))
    return run.result(state)


def chain_from_group(state: State, seat: int, group: tuple[Cell, ...]) -> Chain:
    """Return the reversal of Super-Add: ``group`` (two cells of a spent pair, or a line of
    three, row-major) fires once without needing a hot card, then its flips chain.

    The group fires past both of its ends, the end before its first cell first. A re-fired
    pair stays spent; a line of three never becomes spent (ruling "Super-Add").
    """
    run = _Run(state, seat)
    ends = (beyond(group[1], group[0]), beyond(group[-2], group[-1]))
    if len(group) == 2:
        run.fired.add(pair_key(run.own(group[0]), run.own(group[1])))  # type: ignore[arg-type]
    flipped = run.fire(1, group, None, ends, spends=len(group) == 2)
    _spread(run, 2, flipped)
    return run.result(state)


def _spread(run: _Run, number: int, frontier: list[Cell]) -> None:
    while frontier and not run.won:
        frontier = run.wave(number, frontier)
        number += 1
