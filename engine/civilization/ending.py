"""Leader placement and the end of the match (seed, "游戏结束"; rulings, "End").

The 5th leader ends the match at once and its owner wins. Otherwise the clean-up that finds the
deck empty ends it: most leaders, then most resources in total, then the player facing 王权.
"""

from __future__ import annotations

from engine.civilization.data import START_CARD
from engine.civilization.state import State, leaders_placed, total

__all__ = ["LEADERS", "place_leader", "finish", "standing_winner", "kingship_seat"]

LEADERS = 5


def kingship_seat(state: State) -> int:
    """Return the seat facing 王权 (slot 0 of the start card S)."""
    return next(card.facing for card in state.row if card.id == START_CARD)


def finish(state: State, winner: int, reason: str) -> State:
    """Return the finished state: ``winner`` wins for ``reason``; nothing is pending any more."""
    return state._replace(phase="over", winner=winner, reason=reason, queue=())


def place_leader(state: State, seat: int, i: int) -> State:
    """Return ``state`` with a leader of ``seat`` on card ``i``; the 5th one ends the match at
    once with ``seat`` winning (reason ``"five_leaders"``). Costs are paid by the caller."""
    row = state.row[:i] + (state.row[i]._replace(leader=seat),) + state.row[i + 1:]
    state = state._replace(row=row)
    if leaders_placed(state, seat) >= LEADERS:
        return finish(state, seat, "five_leaders")
    return state


def standing_winner(state: State) -> int:
    """Return who wins on the standings: most leaders; tie: most resources in total; tie: the
    player facing 王权."""
    def key(seat: int) -> tuple[int, int, int]:
        return (leaders_placed(state, seat), total(state, seat), int(kingship_seat(state) == seat))
    return 0 if key(0) > key(1) else 1
