"""Any process serves any room with the current board (docs/server.md "When a held match is
current"), with real server processes on PostgreSQL and a private Redis.

The seats of a numgr room are claimed through process B's REST API (the last claim starts the
match in B's memory); six actions are played with both sockets on process A; then a spectator
and both seats connect to B: B's ``welcome`` shows what the stored log gives (A's version and
board), not B's copy from the start. The same after ``kill -9`` of A (its clients move to B), and
after B itself was killed and restarted while play went on elsewhere.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.app.conftest import Arena, Client
from tests.app.expect import legal_for
from tests.app.numgr_play import GAME, play
from tests.app.prod import (  # noqa: F401
    cluster,
    database,
    redis_server,
    replay_public,
    stored_actions,
    stored_match,
    template_database,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]



async def logged(cluster, match_id: int) -> tuple[Any, int, int]:
    """Return the state the stored log gives, its public version and its action count."""
    match = await stored_match(cluster.database, match_id)
    actions = await stored_actions(cluster.database, match_id)
    state, public = replay_public(match, actions)
    return state, public, len(actions)


async def greeted_as_logged(cluster, arena: Arena, code: str, players: list[dict],
                            match_id: int) -> dict[Any, Client]:
    """Connect a spectator and both seats to ``arena``'s process; assert every ``welcome``
    shows the stored log's version, view and legal actions; return the clients."""
    state, public, _ = await logged(cluster, match_id)
    clients = {None: await arena.connect(code)}
    for seat, player in enumerate(players):
        clients[seat] = await arena.connect(code, player["token"])
    for viewer, client in clients.items():
        assert client.welcome["seat"] == viewer
        assert client.welcome["version"] == public
        assert client.welcome["view"] == GAME.view(state, viewer)
        assert client.welcome["legal"] == legal_for(GAME, state, viewer)
    return clients


async def test_every_process_greets_with_the_stored_board(cluster):
    a, b = await cluster.launch(2)
    on_a, on_b = cluster.arena(a), cluster.arena(b)
    ann, bob = await on_b.player("Ann"), await on_b.player("Bob")
    room = await on_b.room(ann, {}, game="numgr")
    code = room["code"]
    for seat, player in enumerate((ann, bob)):
        assert (await on_b.sit(code, seat, player)).status_code == 200  # B starts the match
    players = {0: await on_a.connect(code, ann["token"]),
               1: await on_a.connect(code, bob["token"])}
    match_id = players[0].welcome["room"]["match_id"]
    state, _, _ = await logged(cluster, match_id)
    await play(players, 6, state)
    state, public, count = await logged(cluster, match_id)
    assert (count, public) == (6, 6)
    on_b_clients = await greeted_as_logged(cluster, on_b, code, [ann, bob], match_id)
    opening = GAME.new_game(room["options"], 2, bytes.fromhex(
        (await stored_match(cluster.database, match_id))["seed"]))
    assert on_b_clients[None].welcome["view"] != GAME.view(opening, None)  # not B's old copy

    # A is killed: its players reconnect to B and are shown the same board.
    a.kill()
    moved = {seat: await on_b.connect(code, player["token"])
             for seat, player in enumerate((ann, bob))}
    for seat, client in moved.items():
        assert client.welcome["version"] == 6
        assert client.welcome["view"] == GAME.view(state, seat)

    # B is killed and started again; play goes on through another process while the new B
    # follows no socket of the room; then everyone connects to the new B.
    b.kill()
    b2, a2 = await cluster.launch(2)
    on_b2, on_a2 = cluster.arena(b2), cluster.arena(a2)
    players = {0: await on_a2.connect(code, ann["token"]),
               1: await on_a2.connect(code, bob["token"])}
    await play(players, 4, state)
    state, public, count = await logged(cluster, match_id)
    assert count == 10
    await greeted_as_logged(cluster, on_b2, code, [ann, bob], match_id)
