"""What an idle socket and a long match hold (bench/RESULTS.md §4): the room socket path
is served by the edge protocol (no ASGI task per socket) while HTTP still reaches FastAPI; a
match keeps only the events some socket of its room was not shown yet (``app.rooms.journal``)."""

from __future__ import annotations

import asyncio

import pytest
import websockets

from app.rooms.journal import Journal
from app.rooms.live import LiveMatch
from engine.reverse_curse import GAME
from tests.app.conftest import SEED
from tests.app.expect import catch_up
from tests.app.rc import Replay
from tests.app.test_leaks_proxy import make_run_command, make_run_server  # noqa: F401 (fixture)
from tests.app.test_ws_errors import NO_MONSTERS, started


async def test_the_socket_path_reaches_the_endpoint_and_http_still_reaches_fastapi(arena):
    ghost = await arena.connect("nope", hello=False)
    await ghost.send({"type": "hello", "token": None})
    assert (await ghost.next())["code"] == "room_not_found"  # the endpoint's own answer
    assert (await arena.http.get("/ws/rooms/nope")).status_code == 404
    assert (await arena.http.get("/api/games")).status_code == 200


# --------------------------------------------------------------------------- event retention

KEEP = {"type": "mulligan", "card": None}


def _deployment_journal() -> tuple[LiveMatch, Journal]:
    """A Reverse Curse match (no monsters, the fixed seed) after both mulligans and two plays
    (each the acting seat's first legal action), version 4, and the journal of its 4 steps."""
    options = GAME.validate_options(NO_MONSTERS)
    live = LiveMatch.start(GAME, 1, 1, "CODE", options, 2, SEED, 0.0)
    journal = Journal()
    moves = [(0, KEEP), (1, KEEP)]
    for at in (1.0, 2.0, 3.0, 4.0):
        seat, action = moves.pop(0) if moves else (min(live.legal), None)
        live, step = live.replay(seat, action or live.legal[seat][0], at, False)
        journal.record(step.version, step.events)
    return live, journal


def test_a_journal_drops_only_the_versions_shown_to_everyone():
    live, journal = _deployment_journal()
    assert (live.version, journal.kept(), journal.floor) == (4, [1, 2, 3, 4], 0)
    since_two = {viewer: journal.events(viewer, 2, 4) for viewer in (0, 1, None)}
    journal.trim(2)
    assert (journal.kept(), journal.floor) == ([3, 4], 2)
    assert {viewer: journal.events(viewer, 2, 4) for viewer in (0, 1, None)} == since_two
    journal.trim(1)  # a lower floor later changes nothing
    assert (journal.kept(), journal.floor) == ([3, 4], 2)
    journal.trim(4)
    assert (journal.kept(), journal.floor) == ([], 4)
    assert journal.events(0, 4, 4) == []
    with pytest.raises(ValueError) as refused:
        journal.events(0, 3, 4)
    assert str(refused.value) == ("the events after version 3 are no longer kept "
                                  "(versions up to 4 were dropped)")
    seat = min(live.legal)
    live, step = live.replay(seat, live.legal[seat][0], 5.0, False)
    journal.record(step.version, step.events)
    assert (journal.kept(), journal.floor) == ([5], 4)
    journal.reset(5)
    assert (journal.kept(), journal.floor, len(journal)) == ([], 5, 0)


def test_a_fresh_match_renders_from_minus_one():
    live, journal = _deployment_journal()
    assert journal.events(None, -1, 4) == journal.events(None, 0, 4) != []


async def test_the_hub_keeps_the_events_a_socket_was_not_shown(arena):
    room, clients = await started(arena)
    journal = arena.app.state.arena.service._live.entry(room["code"]).journal
    replay = Replay(NO_MONSTERS, SEED)
    viewers = {0: clients[0], 1: clients[1], None: clients[2]}
    await clients[0].act(KEEP)
    replay.apply(0, KEEP)
    await catch_up(viewers, replay.expect)
    # Ann's answer is hidden: Bob and the spectator were not sent version 1, so it is kept
    assert (journal.kept(), journal.floor) == ([1], 0)
    await clients[1].act(KEEP)
    replay.apply(1, KEEP)
    await catch_up(viewers, replay.expect)
    assert (journal.kept(), journal.floor) == ([], 2)
    # Ann reconnects after the events were dropped: the welcome is a full resync
    again = await arena.connect(room["code"], arena.players[0]["token"])
    assert again.welcome["version"] == clients[0].last["version"] == 1
    assert again.welcome["view"] == replay.view(0) == clients[0].last["view"]
    assert again.welcome["prompt"] == clients[0].last["prompt"]
    assert again.welcome["legal"] == clients[0].last["legal"]


# --------------------------------------------------------------------------- server flags


def test_make_run_turns_per_message_deflate_off():
    command = make_run_command()
    assert command[command.index("--ws-per-message-deflate") + 1] == "false"


async def test_a_browser_asking_for_deflate_gets_uncompressed_frames(make_run_server):
    """Browsers offer ``permessage-deflate``; accepting it would give the socket a zlib
    compressor and decompressor (≈ 50 KB of memory each: bench/HISTORY.md §4)."""
    ws = make_run_server.replace("http://", "ws://") + "/ws/rooms/NOPE"
    async with websockets.connect(ws, compression="deflate") as socket:
        assert socket.response.headers.get("Sec-WebSocket-Extensions") is None
        await socket.send('{"type": "hello", "token": null}')
        frame = await asyncio.wait_for(socket.recv(), 5)
    assert '"room_not_found"' in frame
