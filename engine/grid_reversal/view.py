"""What a viewer may see of a match (the "Grid Reversal view" of docs/protocol.md).

Hands and the deck are hidden; hand sizes, the grid, spent pairs and the discard pile are
public (ruling "Hidden information"), and so are the room options (the deck's make-up, so what
the hidden places hold is known: ``sample``). A secret setup choice is shown only to its chooser, and
nothing tells who a response window or a setup choice is still waiting for.
"""

from __future__ import annotations

from typing import Any

from .data import FLIPLESS_STAGE_LIMIT, IDLE_STAGE_LIMIT, ROUND_LIMIT
from .flow import outcome_of
from .grid import spent_pairs
from .state import MOTHER, OVER, SETUP_DISCARD, State


def _grid(state: State) -> list[list[dict[str, Any] | None]]:
    layout = state.layout
    starts = layout.starts()
    rows: list[list[dict[str, Any] | None]] = []
    for r in range(layout.rows):
        row = []
        for c in range(layout.width):
            piece = state.piece((r, c))
            row.append(None if piece is None else {
                "owner": piece.owner, "value": piece.value, "mother": (r, c) in starts})
        rows.append(row)
    return rows


def _seat(state: State, seat: int) -> dict[str, Any]:
    first = state.is_first(seat)
    return {"seat": seat, "first": first, "rows": list(state.layout.home_rows(first)),
            "start": list(state.layout.start(first)), "hand_size": len(state.hands[seat])}


def _stack(state: State) -> list[dict[str, Any]]:
    return [{"seat": p.seat, "action": p.move.to_json()} for p in state.stack]


def view(state: State, viewer: int | None) -> dict[str, Any]:
    """Return the JSON-ready view of ``viewer`` (a seat, or ``None`` for a spectator).

    ``turn`` is the seat discarding, playing its stage or that offered a draw; ``None`` in the
    setup (both seats choose at once) and once the match is over (no seat is to act)."""
    outcome = outcome_of(state)
    setup = state.phase in (MOTHER, SETUP_DISCARD)
    option = state.option
    return {
        "game": "grid_reversal",
        "width": state.layout.width, "depth": state.layout.depth, "rows": state.layout.rows,
        "number_copies": option["number_copies"], "effect_copies": option["effect_copies"],
        "turn_seconds": option["turn_seconds"],
        "first": state.first, "seats": [_seat(state, s) for s in (0, 1)],
        "my_seat": viewer, "phase": state.phase, "round": state.round,
        "standoff": state.standoff,
        "turn": None if setup or state.phase == OVER else state.turn,
        "placements_left": state.placements, "draw_offered": state.offered,
        "grid": _grid(state), "spent": [[list(a), list(b)] for a, b in spent_pairs(state)],
        "hands": {} if viewer is None else {str(viewer): list(state.hands[viewer])},
        "hand_sizes": {str(s): len(state.hands[s]) for s in (0, 1)},
        "my_choice": state.choices[viewer] if viewer is not None and setup else None,
        "deck_size": len(state.deck), "discard": list(state.discard),
        "stack": _stack(state),
        "redeals": [{"seat": s, "cards": list(cards)} for s, cards in state.redeals],
        "idle_stages": state.idle, "flipless_stages": state.flipless,
        "limits": {"idle_stages": IDLE_STAGE_LIMIT, "flipless_stages": FLIPLESS_STAGE_LIMIT,
                   "round": ROUND_LIMIT},
        "outcome": None if outcome is None else outcome.to_json(),
    }
