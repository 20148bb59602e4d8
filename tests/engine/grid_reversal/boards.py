"""Build Grid Reversal states from compact text diagrams, and draw states back as diagrams.

A diagram has one line per row (row 0 first), cells separated by spaces: ``.`` is empty,
``a3`` is a 3 owned by seat 0, ``b4`` a 4 owned by seat 1. By default seat 0 is the first
player (rows 3-5, S square (5, 2)) and seat 1 the second (rows 0-2, S square (0, 2)). Pieces get
ids in row-major order, so spent pairs can be given by cells.
"""

from __future__ import annotations

from dataclasses import replace
from textwrap import dedent

from engine.grid_reversal import GAME
from engine.grid_reversal.data import sort_cards
from engine.grid_reversal.state import STAGE, Piece, State

OWNERS = {"a": 0, "b": 1}
#: A board where seat 0's Swap (b) of a 2 for the a1 on (4, 1) fires a2 + a3 and flips b4.
SWAP_BOARD = """
    . .  b1 .  .
    . b3 b2 .  .
    . b4 .  .  .
    . a3 .  .  .
    . a1 .  .  .
    . .  a4 .  .
"""
LETTERS = {0: "a", 1: "b"}


def parse_grid(diagram: str) -> tuple[int, int, tuple[Piece | None, ...]]:
    """Return (width, depth, grid) of a diagram."""
    rows = [line.split() for line in dedent(diagram).strip().splitlines()]
    width = len(rows[0])
    assert all(len(r) == width for r in rows) and len(rows) % 2 == 0
    grid: list[Piece | None] = []
    for token in (t for row in rows for t in row):
        grid.append(None if token == "." else Piece(len([g for g in grid if g]), OWNERS[token[0]],
                                                    int(token[1])))
    return width, len(rows) // 2, tuple(grid)


def make(diagram: str, *, turn: int = 0, first: int = 0, hands=((), ()), deck=(),
         discard=(), spent=(), phase: str = STAGE, placements: int = 1, round: int = 1,
         standoff: bool = False, **fields) -> State:
    """Return a state in ``turn``'s stage with the grid of ``diagram``.

    ``spent`` lists pairs of cells whose cards form spent pairs; other ``fields`` are passed to
    ``State`` as they are.
    """
    width, depth, grid = parse_grid(diagram)
    options = GAME.validate_options({"width": width, "depth": depth})
    state = State(options=tuple(sorted(options.items())), seed=b"test", first=first,
                  phase=phase, round=round, hands=(sort_cards(hands[0]), sort_cards(hands[1])),
                  deck=tuple(deck), discard=tuple(discard), grid=grid,
                  next_id=sum(1 for p in grid if p), turn=turn,
                  placements=0 if standoff else placements, standoff=standoff, **fields)
    keys = frozenset(tuple(sorted((state.piece(a).id, state.piece(b).id))) for a, b in spent)
    return replace(state, spent=keys)


def draw(state: State) -> str:
    """Return the grid of ``state`` as a diagram (the format ``make`` reads)."""
    layout = state.layout
    lines = []
    for r in range(layout.rows):
        cells = [state.piece((r, c)) for c in range(layout.width)]
        lines.append(" ".join("." if p is None else f"{LETTERS[p.owner]}{p.value}"
                              for p in cells))
    return "\n".join(lines)


def board(diagram: str) -> str:
    """Return ``diagram`` normalised like ``draw`` output (for exact comparisons)."""
    return "\n".join(" ".join(line.split()) for line in dedent(diagram).strip().splitlines())


def act(state: State, seat: int, action: dict):
    """Apply ``action`` and return ``(state, events)``."""
    return GAME.apply(state, seat, action)


def kinds(events) -> list[str]:
    """Return the kinds of ``events`` in order."""
    return [e.kind for e in events]


def fired(events) -> list[tuple[list, list]]:
    """Return ``(cells, flipped cells)`` of every ``fired`` event, in order."""
    return [(e.data["cells"], [f["cell"] for f in e.data["flips"]])
            for e in events if e.kind == "fired"]


def resolve_effect(state: State, seat: int, action: dict):
    """Play an effect card and let the window close unanswered; return ``(state, events)``."""
    state, events = act(state, seat, action)
    state, more = act(state, 1 - seat, {"type": "decline"})
    return state, events + more
