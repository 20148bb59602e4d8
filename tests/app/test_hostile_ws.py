"""Hostile websocket input, scripted: every hostile frame gets a clear,
documented ``error`` (or the socket is closed with the right code for a flood and for too many
sockets from one address), the room's state and action log do not move, the server keeps
answering, and another room in progress is unaffected."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
import websockets

from tests.app.conftest import running_arena
from tests.app.hostile import (
    answers_to,
    assert_clear_error,
    expect_unchanged,
    hostile_frame,
    is_benign,
    start_match,
)
from tests.app.rc import GAME
from tests.waiting import wait_until

FRAMES_PER_SOCKET = 30  # below the burst (2 × 20, hello took one): no frame is rate limited


async def test_scripted_fuzzer_changes_nothing(arena):
    match = await start_match(arena)
    other = await start_match(arena, names=("Cat", "Dan"))
    first_prompts = {seat: match.seats[seat].last["prompt"] for seat in (0, 1)}
    await match.play(3)
    acting = match.acting
    idle = 1 - acting
    assert match.seats[acting].last["prompt"] not in first_prompts.values()
    legal = {seat: GAME.legal_actions(match.replay.state, seat) for seat in (0, 1)}
    current = {seat: match.seats[seat].last["prompt"] for seat in (0, 1)}
    rng = random.Random(9)
    sent = 0
    for client, own in ((match.seats[acting], acting), (match.seats[idle], idle),
                        (match.spectator, None)):
        # Prompts a hostile socket may try: old ones, another seat's, made-up ones — never
        # its own current prompt (an answer to it would be a real move if legal).
        prompts = [p for p in [*first_prompts.values(), current[1 - (own or 0)], "1.0.0",
                               "x" * 40, None, 7, ["1.0.0"]]
                   if p is None or p != current.get(own)]
        for _ in range(FRAMES_PER_SOCKET):
            text = hostile_frame(rng, prompts, legal[1 - (own or 0)])
            if is_benign(text):
                continue
            assert_clear_error(await answers_to(client, text), match.replay.public)
            sent += 1
    assert sent >= 75
    await expect_unchanged(arena, match)
    assert (await arena.http.get("/api/games")).status_code == 200
    await other.play(2)  # the other room still plays, and its sockets hear it
    await expect_unchanged(arena, other)
    await match.play(1)  # and the fuzzed room goes on normally
    await expect_unchanged(arena, match)


async def test_tokens_of_others_and_forged_tokens(arena):
    match = await start_match(arena)
    other = await start_match(arena, names=("Cat", "Dan"))
    cat = other.players[0]
    code = match.room["code"]
    foreign = await arena.connect(code, cat["token"])  # Cat holds a seat elsewhere only
    forged = await arena.connect(code, "not-a-token")
    assert foreign.welcome["seat"] is None and forged.welcome["seat"] is None
    assert foreign.welcome["view"] == match.replay.view(None)
    seat = match.acting
    action = GAME.legal_actions(match.replay.state, seat)[0]
    for client in (foreign, forged):
        await client.act(action, prompt=match.seats[seat].last["prompt"])
        assert (await client.next("error"))["code"] == "not_seated"
    typed = await arena.connect(code, hello=False)
    for hello in ({"type": "hello", "token": 12345}, {"type": "hello", "token": ["x"]},
                  {"type": "hello", "token": None, "seat": seat}):
        assert_clear_error(await answers_to(typed, json.dumps(hello)), 0)
        assert typed.welcome is None
    await typed.send({"type": "hello", "token": None})
    assert (await typed.next("welcome"))["seat"] is None
    await expect_unchanged(arena, match)


async def test_actions_in_a_finished_room(arena):
    match = await start_match(arena)
    await match.play(2)
    idle = 1 - match.acting
    await match.seats[idle].send({"type": "act", "prompt": None, "action": {"type": "resign"}})
    match.replay.resign(idle)
    for client in match.clients:
        await client.until_version(match.replay.public)
    assert match.spectator.last["room"]["status"] == "finished"
    for client in match.seats.values():
        for action in ({"type": "resign"}, {"type": "mulligan", "card": None},
                       {"type": "play", "card": "+1"}):
            frames = await answers_to(client, json.dumps(
                {"type": "act", "prompt": client.last["prompt"], "action": action}))
            assert frames[0]["code"] == "game_over"
    await expect_unchanged(arena, match)


async def test_a_flood_closes_the_socket_with_1008(db_path):
    async with running_arena(db_path, frames_per_second=5.0, flood_close_after=10) as arena:
        match = await start_match(arena)
        flooder = match.spectator
        for _ in range(60):
            with contextlib.suppress(websockets.ConnectionClosed):
                await flooder.send({"type": "ping"})
        answers = []
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                answers.append(await flooder.next("pong", "error"))
        assert flooder.socket.close_code == 1008
        # A burst of 2 × 5 frames (hello and one ping took two) passes; 10 refused ones are
        # forgiven, the 11th refused frame closes the socket (error frames still queued may be
        # cut off).
        pongs = [a for a in answers if a["type"] == "pong"]
        refused = [a for a in answers if a["type"] == "error"]
        assert 8 <= len(pongs) <= 10
        assert {a["code"] for a in refused} == {"rate_limited"} and 1 <= len(refused) <= 11
        # Only that socket was closed: the address may connect again, the room plays on.
        match.spectator = await arena.connect(match.room["code"])
        await match.play(1)
        await expect_unchanged(arena, match)


async def test_connections_per_ip_are_limited(db_path):
    async with running_arena(db_path, max_connections_per_ip=3) as arena:
        ann = await arena.player("Ann")
        code = (await arena.room(ann, {}))["code"]
        held = [await arena.connect(code, hello=False) for _ in range(3)]
        refused = await arena.connect(code, hello=False)
        error = await refused.next("error")
        assert error["code"] == "too_many_connections" and "3" in error["message"]
        with pytest.raises(websockets.ConnectionClosed):
            await refused.next()
        assert refused.socket.close_code == 1008
        await held[0].socket.close()
        # the server frees the slot when it sees the close
        await wait_until(lambda: arena.app.state.limits.sockets.open("127.0.0.1") == 2,
                         "the closed socket's slot freed")
        again = await arena.connect(code)
        assert again.welcome["seat"] is None
        assert arena.app.state.limits.sockets.open("127.0.0.1") == 3


async def test_a_socket_without_hello_is_closed_after_the_timeout(db_path):
    async with running_arena(db_path, hello_timeout_seconds=0.3) as arena:
        ann = await arena.player("Ann")
        code = (await arena.room(ann, {}))["code"]
        greeted = await arena.connect(code)
        silent = await arena.connect(code, hello=False)
        error = await silent.next("error")
        assert error == {"type": "error", "code": "hello_timeout",
                         "message": "Send hello within 0.3 s."}
        with pytest.raises(websockets.ConnectionClosed):
            await silent.next()
        assert silent.socket.close_code == 1008
        await greeted.send({"type": "ping"})  # a greeted socket has no such deadline
        assert await greeted.next("pong") == {"type": "pong"}
        await wait_until(lambda: arena.app.state.limits.sockets.open("127.0.0.1") == 1,
                         "the refused socket's slot freed")


async def test_the_origin_allow_list_is_configurable(db_path):
    async with running_arena(db_path, allowed_origins=["https://play.example"]) as arena:
        ann = await arena.player("Ann")
        code = (await arena.room(ann, {}))["code"]
        listed = await arena.connect(code, origin="https://play.example")
        assert listed.welcome["seat"] is None
        for origin in ("https://evil.example", "https://play.example.evil.example",
                       "http://play.example"):
            with pytest.raises(websockets.InvalidStatus) as refused:
                await arena.connect(code, origin=origin)
            assert refused.value.response.status_code == 403, origin
