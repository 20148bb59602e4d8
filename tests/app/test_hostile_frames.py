"""No frame leaks a secret, for every game (server side).

For each registered game a room with default options is filled by new players; every seat and a
spectator are connected while the seats play the first legal action of the lowest seat asked
(at most ``ACTIONS`` of them), then seat 0 resigns so the match ends. Every frame any socket
received must contain no player's token, not the match seed (hex) before the end, and no key of
the engine's raw state (``GAME.dump``) that no view, event or room option ever uses.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.registry import GAMES
from tests.app.conftest import SEED, running_arena
from tests.app.expect import shows_spectator
from tests.app.hostile import settle
from tests.app.test_hostile_secrets import keys_of, record

ACTIONS = 30


class Engine:
    """The game run by hand next to the server (the expected views and events)."""

    def __init__(self, game: Any, options: dict[str, Any], seats: int) -> None:
        self.game, self.version, self.public = game, 0, 0
        self.state = game.new_game(options, seats, SEED)
        self.states, self.events = [self.state], []

    def step(self, seat: int, action: dict[str, Any], resign: bool = False) -> None:
        apply = self.game.resign if resign else self.game.apply
        before = self.state
        self.state, events = apply(self.state, seat, *(() if resign else (action,)))
        self.version += 1
        self.public += shows_spectator(self.game, before, self.state, events)
        self.states.append(self.state)
        self.events += events

    def public_keys(self, seats: int) -> set[str]:
        """Every key some view or event shows some viewer."""
        shown = {k for e in self.events for k in keys_of(e.to_json())}
        for state in self.states:
            for viewer in (*range(seats), None):
                shown |= keys_of(self.game.view(state, viewer))
        return shown

    def raw_keys(self) -> set[str]:
        return {k for state in self.states for k in keys_of(self.game.dump(state))}


async def fill_room(arena, game_id: str) -> tuple[dict, list[dict], dict[Any, Any]]:
    """Open a room of ``game_id`` (default options), seat new players in every seat, connect
    each seat and a spectator; return the room, the players and ``{seat|None: client}``."""
    host = await arena.player("Host")
    room = await arena.room(host, {}, game=game_id)
    players = [await arena.player(f"P{seat}") for seat in range(len(room["seats"]))]
    for seat, player in enumerate(players):
        answer = await arena.sit(room["code"], seat, player)
    room = answer.json()
    clients = {seat: await arena.connect(room["code"], p["token"])
               for seat, p in enumerate(players)}
    clients[None] = await arena.connect(room["code"])
    return room, players, clients


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_no_frame_leaks_a_secret(db_path, game_id):
    # Each action is followed by a ping per socket (``settle``): lift the per-socket rate.
    async with running_arena(db_path, frames_per_second=1000.0) as arena:
        await play_and_check(arena, game_id)


async def play_and_check(arena, game_id: str) -> None:
    """Play the match of ``game_id`` (see the module docstring) and check every frame."""
    room, players, clients = await fill_room(arena, game_id)
    game = GAMES[game_id]
    engine = Engine(game, room["options"], len(players))
    logs = {viewer: record(client) for viewer, client in clients.items()}
    for _ in range(ACTIONS):
        seats = sorted(game.to_act(engine.state))
        if not seats:
            break
        seat = seats[0]
        action = game.legal_actions(engine.state, seat)[0]
        await clients[seat].act(action)
        engine.step(seat, action)
        await clients[seat].next("update")  # the actor always hears its action
        for client in clients.values():
            await settle(client)
    ended_by_play = not game.to_act(engine.state)
    if not ended_by_play:
        await clients[0].send({"type": "act", "prompt": None, "action": {"type": "resign"}})
        engine.step(0, {}, resign=True)
    for client in clients.values():
        await client.until_version(engine.public)
    assert game.outcome(engine.state) is not None
    raw = engine.raw_keys() - engine.public_keys(len(players)) - set(room["options"])
    assert raw, "the raw state has no key of its own: the check below would be empty"
    tokens = [p["token"] for p in players]
    for viewer, log in logs.items():
        frames = [json.loads(text) for text in log]
        final = max(i for i, f in enumerate(frames) if f["type"] == "update")
        for index, (text, frame) in enumerate(zip(log, frames)):
            assert not any(token in text for token in tokens), (viewer, frame["type"])
            if index < final:
                assert SEED.hex() not in text.lower(), (viewer, frame["type"])
            shown = keys_of(frame.get("view")) | keys_of(frame.get("events"))
            assert not shown & raw, (viewer, shown & raw)  # the engine's parts of the frame
        assert frames[final]["version"] == engine.public
        assert frames[final]["view"] == game.view(engine.state, viewer)
