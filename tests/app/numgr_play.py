"""NumGR helpers of the server tests: the tests' players, and playing through sockets."""

from __future__ import annotations

from typing import Any

from engine.registry import GAMES
from tests.app.conftest import Client

GAME = GAMES["numgr"]


def policy(state: Any) -> tuple[int, dict[str, Any]]:
    """Return the lowest seat asked and its first ``play`` (else its first legal action)."""
    seat = min(GAME.to_act(state))
    legal = GAME.legal_actions(state, seat)
    return seat, next((action for action in legal if action["type"] == "play"), legal[0])


async def play(clients: dict[int, Client], count: int, state: Any) -> Any:
    """Play ``count`` actions (``policy``) through the seats' ``clients`` (each from its actor's
    newest frame), each acknowledged to its actor by an ``update`` (an ``error`` fails);
    return the engine state after them."""
    for _ in range(count):
        seat, action = policy(state)
        while clients[seat].last["view"] != GAME.view(state, seat):  # the actor's own news
            await clients[seat].next("update")
        await clients[seat].act(action)
        state, _ = GAME.apply(state, seat, action)
        while (frame := await clients[seat].next("update", "error"))["type"] != "update" \
                or frame["view"] != GAME.view(state, seat):
            assert frame["type"] == "update", frame
    return state
