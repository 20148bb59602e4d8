"""Patched ``update`` frames over real websockets (docs/protocol.md "Patched updates").

Every game is played from its seeded deal (the lowest seat asked plays its first legal action)
with two sockets per seat and two spectators: one of each asks for patches (``PatchClient``,
which applies them with the ``jsonpatch`` library), one does not. After every action each
viewer's two sockets must have received the same frames, to the JSON value: the patches
rebuild every full frame, and both match the engine (``tests.app.expect``). A ``sync`` brings a
full update; a socket that did not ask for patches gets today's frames and may not ``sync``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any

import pytest

from engine.registry import GAMES
from tests.app.conftest import SEED, Arena, Client
from tests.app.expect import Expect, assert_caught_up, catch_up
from tests.app.patched import PatchClient, connect_patched
from tests.patching import DOC, exact

#: Actions played per match at most (the lowest seat's first legal action each time).
LIMIT = 150

#: Today's ``update`` keys (a socket without patches).
FULL_UPDATE = ["type", "version", "view", "prompt", "legal", "deadline", "clocks", "events",
               "room"]

GAMES_PLAYED = [("reverse_curse", {}), ("zipai", {"hands": 1}), ("grid_reversal", {}),
                ("numgr", {}), ("civilization", {}), ("mahjong", {"hands": 4}),
                ("mahjong", {"rules": "mcr"})]


def viewer_of(key: Hashable) -> int | None:
    """The viewer of a ``(kind, viewer)`` client key."""
    assert isinstance(key, tuple)
    return key[1]


async def table(arena: Arena, game: str, options: dict[str, Any]
                ) -> tuple[int, dict[tuple[str, int | None], Client]]:
    """Seat every seat of a new room of ``game``; connect a full and a patching socket for
    each seat and for a spectator. Returns (seat count, ``{(kind, viewer): client}``)."""
    seats = GAMES[game].seats(GAMES[game].validate_options(options))
    people = [await arena.player(f"P{seat}") for seat in range(seats)]
    code = (await arena.room(people[0], options, game=game))["code"]
    for seat, person in enumerate(people):
        assert (await arena.sit(code, seat, person)).status_code == 200
    clients: dict[tuple[str, int | None], Client] = {}
    for viewer, token in [*((s, p["token"]) for s, p in enumerate(people)), (None, None)]:
        clients["full", viewer] = await arena.connect(code, token)
        clients["patch", viewer] = await connect_patched(arena, code, token)
    return seats, clients


@pytest.mark.parametrize(("game", "options"), GAMES_PLAYED)
async def test_patches_rebuild_every_full_frame(arena, game, options):
    seats, clients = await table(arena, game, options)
    engine = GAMES[game]
    state = engine.new_game(engine.validate_options(options), seats, SEED)
    viewers = [*range(seats), None]
    for viewer in viewers:
        full, patched = clients["full", viewer], clients["patch", viewer]
        assert isinstance(patched, PatchClient)
        welcome = next(frame for frame in patched.raw if frame["type"] == "welcome")
        assert welcome == {**full.welcome, "seq": 0}
        assert exact(patched.welcome) == exact(full.welcome)
    expect = Expect(engine, state, viewers)
    played = 0
    while engine.to_act(state) and played < LIMIT:
        seat = min(engine.to_act(state))
        action = engine.legal_actions(state, seat)[0]
        await clients["full", seat].act(action)
        state, events = engine.apply(state, seat, action)
        expect.step(state, events)
        frames = await catch_up(clients, expect, viewer_of)
        assert_caught_up(clients, frames, expect, viewer_of)
        for viewer in viewers:
            assert exact(frames["patch", viewer]) == exact(frames["full", viewer]), viewer
        played += 1
    raw = [frame for (kind, _), client in clients.items() if isinstance(client, PatchClient)
           for frame in client.raw if frame["type"] == "update"]
    assert raw and any("patch" in frame for frame in raw)
    for (kind, viewer), client in clients.items():
        if kind == "full":
            assert all("seq" not in f for f in [client.welcome, client.last]), viewer


async def numgr_table(arena: Arena) -> tuple[dict[Any, Client], Any, Any]:
    """A NumGR room of ``table`` (its clients by (kind, viewer)), the engine and the match's
    first state as the server dealt it (``SEED``)."""
    _, clients = await table(arena, "numgr", {})
    engine = GAMES["numgr"]
    return clients, engine, engine.new_game(engine.validate_options({}), 2, SEED)


async def test_sync_answers_a_full_update_of_the_last_document(arena):
    clients, engine, state = await numgr_table(arena)
    watcher = clients["patch", None]
    assert isinstance(watcher, PatchClient)
    for _ in range(2):
        seat = min(engine.to_act(state))
        action = engine.legal_actions(state, seat)[0]
        await clients["full", seat].act(action)
        state, _ = engine.apply(state, seat, action)
        await clients["full", seat].next("update")
        await watcher.next("update")
    assert watcher.raw[-1]["seq"] == 2 and "patch" in watcher.raw[-1]
    shown = watcher.last
    await watcher.send({"type": "sync"})
    answer = await watcher.next("update")
    raw = watcher.raw[-1]
    assert list(raw) == ["type", "seq", *FULL_UPDATE[1:]]
    assert raw["seq"] == 3 and raw["events"] == []
    assert exact(answer) == exact({**shown, "events": []})
    seat = min(engine.to_act(state))
    await clients["full", seat].act(engine.legal_actions(state, seat)[0])
    state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    after = await watcher.next("update")
    assert watcher.raw[-1]["seq"] == 4 and "patch" in watcher.raw[-1]
    assert after["view"] == engine.view(state, None)
    assert {key: after[key] for key in DOC} == {key: watcher.rebuilt.doc[key] for key in DOC}


async def test_sync_before_the_first_update_repeats_the_welcome(arena):
    _, clients = await table(arena, "numgr", {})
    watcher = clients["patch", None]
    assert isinstance(watcher, PatchClient) and watcher.welcome is not None
    await watcher.send({"type": "sync"})
    answer = await watcher.next("update")
    raw = watcher.raw[-1]
    assert list(raw) == ["type", "seq", *FULL_UPDATE[1:]]
    assert raw["seq"] == 1 and raw["events"] == []
    assert {key: answer[key] for key in ("version", *DOC)} == {
        key: watcher.welcome[key] for key in ("version", *DOC)}
    engine = GAMES["numgr"]
    state = engine.new_game(engine.validate_options({}), 2, SEED)
    seat = min(engine.to_act(state))
    action = engine.legal_actions(state, seat)[0]
    await clients["full", seat].act(action)
    state, _ = engine.apply(state, seat, action)
    after = await watcher.next("update")
    assert watcher.raw[-1]["seq"] == 2 and "patch" in watcher.raw[-1]
    assert after["view"] == engine.view(state, None)


async def test_a_socket_without_patches_gets_todays_frames_and_may_not_sync(arena):
    clients, engine, state = await numgr_table(arena)
    full = clients["full", None]
    assert full.welcome is not None and "seq" not in full.welcome
    seat = min(engine.to_act(state))
    await clients["full", seat].act(engine.legal_actions(state, seat)[0])
    update = await full.next("update")
    assert list(update) == FULL_UPDATE
    await full.send({"type": "sync"})
    assert await full.next("error") == {
        "type": "error", "code": "bad_frame", "message": 'sync needs "patches": true in hello.'}


async def test_patches_must_be_a_json_boolean(arena):
    player = await arena.player("Ann")
    code = (await arena.room(player, {}, game="numgr"))["code"]
    client = await arena.connect(code, hello=False)
    await client.send({"type": "hello", "token": None, "patches": "yes"})
    error = await client.next("error")
    assert error["code"] == "bad_frame"


async def test_a_sync_answered_after_a_move_shows_that_move(arena):
    # The room JSON a sync's full update carries is read first (here from the database, held
    # up); a move fanned out meanwhile is patched onto the socket's document, so the sync's
    # answer, which comes after it, must show the document after that move, not the one
    # before (a client takes a full update whatever it shows: it would keep an older board).
    clients, engine, state = await numgr_table(arena)
    watcher = clients["patch", None]
    assert isinstance(watcher, PatchClient)
    live = arena.app.state.arena.service._live
    reading, release = asyncio.Event(), asyncio.Event()
    read_room = live.read_room

    async def held_read(code: str) -> dict[str, Any]:
        live.read_room = read_room  # only the sync's read is held
        reading.set()
        await release.wait()
        return await read_room(code)

    live.forget_room()
    live.read_room = held_read
    await watcher.send({"type": "sync"})
    await asyncio.wait_for(reading.wait(), 5)
    seat = min(engine.to_act(state))
    action = engine.legal_actions(state, seat)[0]
    await clients["full", seat].act(action)
    state, _ = engine.apply(state, seat, action)
    moved = await watcher.next("update")
    assert watcher.raw[-1]["seq"] == 1 and moved["view"] == engine.view(state, None)
    release.set()
    answer = await watcher.next("update")
    assert watcher.raw[-1]["seq"] == 2 and watcher.raw[-1]["events"] == []
    assert exact(answer) == exact({**moved, "events": []})
    assert answer["view"] == engine.view(state, None)
