"""The match outcome and the per-set ladder records (what the server stores).

Rule source: the rulings' "Match flow" 8 (KO, decision, draw) and the protocol's ``LadderSet``.
"""

from __future__ import annotations

from typing import Any

from engine.core import Outcome
from engine.reverse_curse.state import SetRecord, State


def outcome_of(state: State) -> Outcome | None:
    """Return the outcome once the match is over, else ``None``.

    Ranks: winners 1, losers 2, a draw all 1; reason ``ko``/``decision``/``draw``/``resign``;
    detail ``{"position": final position}``.
    """
    if state.ending is None:
        return None
    ending = state.ending
    return Outcome(ending.ranks, ending.reason, {"position": ending.position})


def ladder(state: State, start: int = 0) -> list[dict[str, Any]]:
    """Return the ladder record of every resolved set from the ``start``-th (0-based), in order.

    Each record: ``{"set": int, "first_side": "UP"|"DOWN", "field": [{"card", "seat", "side"}]
    (T1 first, 12 entries), "result": int, "position_after": int}``. A set still being played
    has no record yet. ``ladder(after, resolved_count(before))`` is what a step resolved.
    """
    return [ladder_record(r) for r in state.history[start:]]


def resolved_count(state: State) -> int:
    """Return how many sets are resolved (``len(ladder(state))``, without building them)."""
    return len(state.history)


def ladder_record(record: SetRecord) -> dict[str, Any]:
    """Return one resolved set as a ``LadderSet`` dict (see ``ladder``)."""
    return {"set": record.set_no, "first_side": record.first_side,
            "field": [{"card": f.card, "seat": f.seat, "side": f.side} for f in record.field],
            "result": record.result, "position_after": record.position_after}
