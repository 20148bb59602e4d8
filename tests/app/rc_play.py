"""Helpers of the ratings/ladder tests: fill a room, play it over websockets, read REST.

``play_out`` plays "the first legal action of the lowest seat asked" (the same policy as
``tests.app.rc.Replay.policy``) with the engine replayed next to it; ``resign_match`` ends a
match at once with one seat resigning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.registry import GAMES
from tests.app.conftest import SEED, Arena, Client
from tests.app.expect import Expect, assert_caught_up, catch_up

Check = Callable[[dict[int | None, Client], int, dict[str, Any]], None]


async def seated_room(arena: Arena, players: list[dict[str, Any]], options: dict[str, Any],
                      game: str = "reverse_curse", spectator: bool = False
                      ) -> tuple[str, dict[int | None, Client]]:
    """Create a room, seat ``players`` in seat order, connect each (and a spectator as ``None``).

    Returns the room code and ``{seat: client}``; the match has started (every seat filled).
    """
    room = await arena.room(players[0], options, game=game)
    code = room["code"]
    for seat, player in enumerate(players):
        answer = await arena.sit(code, seat, player)
        assert answer.status_code == 200, answer.text
    clients: dict[int | None, Client] = {
        seat: await arena.connect(code, p["token"]) for seat, p in enumerate(players)}
    if spectator:
        clients[None] = await arena.connect(code)
    return code, clients


def match_id(clients: dict[int | None, Client]) -> int:
    """Return the id of the match the clients were welcomed into."""
    return clients[0].welcome["room"]["match_id"]


async def play_out(clients: dict[int | None, Client], check: Check | None = None,
                   limit: int = 500) -> list[tuple[int, dict[str, Any]]]:
    """Play the lowest asked seat's first legal action until no seat is asked; return the log.

    The match must be at version 0 with the fixed ``SEED``: the engine is replayed next to it
    (``tests.app.expect``), so after each action every client has exactly the frames it must
    (a viewer that could see no change gets none; its ``last`` is still current), and each
    seat's frames list the engine's legal actions. ``check(clients, seat, action)`` is then
    told the action just applied and may inspect each client's ``last`` frame.
    """
    room = clients[0].welcome["room"]
    assert clients[0].last["version"] == 0, "play_out starts a match from its deal"
    game = GAMES[room["game"]]
    state = game.new_game(game.validate_options(room["options"]), len(room["seats"]), SEED)
    expect = Expect(game, state, clients)
    log: list[tuple[int, dict[str, Any]]] = []
    while len(log) < limit:
        if not game.to_act(state):
            return log
        seat = min(game.to_act(state))
        action = game.legal_actions(state, seat)[0]
        await clients[seat].act(action)
        state, events = game.apply(state, seat, action)
        expect.step(state, events)
        assert_caught_up(clients, await catch_up(clients, expect), expect)
        log.append((seat, action))
        if check is not None:
            check(clients, seat, action)
    raise AssertionError(f"the match did not end within {limit} actions")


async def resign_match(arena: Arena, players: list[dict[str, Any]], loser: int,
                       options: dict[str, Any] | None = None,
                       game: str = "reverse_curse") -> int:
    """Start a match of ``players`` (seat order), let seat ``loser`` resign; return its id."""
    code, clients = await seated_room(arena, players, options or {}, game=game)
    client = clients[loser]
    await client.act({"type": "resign"}, prompt=client.last["prompt"] or "-")
    await client.until_version(client.last["version"] + 1)
    detail = (await arena.http.get(f"/api/matches/{match_id(clients)}")).json()
    assert detail["status"] == "finished", detail
    return detail["id"]


async def leaderboard(arena: Arena, game: str) -> list[dict[str, Any]]:
    """Return ``GET /api/ladders/{game}``'s ``players``."""
    answer = await arena.http.get(f"/api/ladders/{game}")
    assert answer.status_code == 200, answer.text
    return answer.json()["players"]
