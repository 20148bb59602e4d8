"""Every kind of bad frame gets its error and changes nothing (version, logged actions)."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from websockets.exceptions import ConnectionClosed

from app.settings import Settings
from engine.core import EngineError
from tests.app.conftest import SEED, running_arena
from tests.app.expect import assert_shown, catch_up
from tests.app.rc import GAME, Replay

NO_MONSTERS = {"monsters": False}
#: The opaque part of seat 0's and seat 1's first prompt ids: 16 hex digits of
#: HMAC-SHA256(SEED, "0.0") and (SEED, "1.0") (``app.rooms.live.prompt_token``).
PROMPT_0, PROMPT_1 = "33b74f8cb04103dc", "21adf0de9fda6101"


async def started(arena, options=NO_MONSTERS):
    """Open a room, seat Ann (0) and Bob (1), connect both and a spectator.

    Returns the room (as seated) and the clients ``(Ann, Bob, spectator)``; the players are
    in ``arena.players``.
    """
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    room = await arena.room(ann, options)
    code = room["code"]
    await arena.sit(code, 0, ann)
    room = (await arena.sit(code, 1, bob)).json()
    arena.players = (ann, bob)
    clients = (await arena.connect(code, ann["token"]), await arena.connect(code, bob["token"]),
               await arena.connect(code))
    return room, clients


async def play_until_deployment(clients, replay):
    """Keep both hands (the mulligan); return when cards are being played.

    After each answer every client gets what it must (the first answer only its own seat:
    a hidden answer sends the others nothing, docs/security.md §2).
    """
    viewers = {0: clients[0], 1: clients[1], None: clients[2]}
    for seat in (0, 1):
        await clients[seat].act({"type": "mulligan", "card": None})
        replay.apply(seat, {"type": "mulligan", "card": None})
        await catch_up(viewers, replay.expect)
        for viewer, client in viewers.items():
            assert_shown(client, replay.expect, viewer)


async def assert_unchanged(arena, room, clients, actions, public):
    """Nothing was applied: no update arrives, every client's last frame is at the ``public``
    version and the log has ``actions`` actions."""
    heard = await asyncio.gather(*(client.silent() for client in clients))
    for client, frames in zip(clients, heard):
        assert [f for f in frames if f["type"] == "update"] == []
        assert client.last["version"] == public
    assert await arena.action_count(room["match_id"]) == actions


MALFORMED = [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_frame"),
    ('{"type": 7}', "bad_frame"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "act", "prompt": "x"}', "bad_frame"),
    ('{"type": "chat", "text": ""}', "bad_frame"),
    ('{"type": "chat", "text": "' + "x" * 301 + '"}', "chat_too_long"),
    ('{"type": "act", "prompt": "x", "action": {}, "pad": "' + "x" * 17000 + '"}',
     "frame_too_large"),
]


async def test_malformed_frames_are_refused(arena):
    room, clients = await started(arena)
    for text, code in MALFORMED:
        await clients[0].send(text)
        error = await clients[0].next()
        assert (error["type"], error["code"]) == ("error", code), text[:40]
    await assert_unchanged(arena, room, clients, 0, 0)


async def test_hello_must_come_first(arena):
    room, clients = await started(arena)
    late = await arena.connect(room["code"], hello=False)
    await late.send({"type": "act", "prompt": "1.0.0",
                     "action": {"type": "mulligan", "card": None}})
    assert (await late.next())["code"] == "hello_first"
    await late.send({"type": "hello", "token": None})
    assert (await late.next())["type"] == "welcome"
    await assert_unchanged(arena, room, clients, 0, 0)


async def test_an_unknown_token_is_told_and_watches_as_a_spectator(arena):
    room, clients = await started(arena)
    forged = await arena.connect(room["code"], hello=False)
    await forged.send({"type": "hello", "token": "forged-" + arena.players[1]["token"][7:]})
    assert await forged.next() == {
        "type": "error", "code": "unauthorized",
        "message": "This player token is not known: you are watching as a spectator."}
    welcome = await forged.next()
    assert (welcome["type"], welcome["seat"], welcome["legal"]) == ("welcome", None, [])
    assert welcome["view"] == clients[2].welcome["view"]  # the spectator's
    await forged.act({"type": "mulligan", "card": None}, prompt=clients[1].last["prompt"])
    assert (await forged.next())["code"] == "not_seated"
    await assert_unchanged(arena, room, clients, 0, 0)


async def test_a_frame_cannot_name_another_seat(arena):
    room, clients = await started(arena)
    bob_prompt = clients[1].last["prompt"]
    await clients[0].send({"type": "act", "prompt": bob_prompt, "seat": 1,
                           "action": {"type": "mulligan", "card": None}})
    error = await clients[0].next()
    assert error["code"] == "bad_frame" and "seat" in error["message"]
    await clients[0].act({"type": "mulligan", "card": None}, prompt=bob_prompt)
    assert (await clients[0].next())["code"] == "stale_prompt"
    await clients[2].act({"type": "mulligan", "card": None}, prompt=bob_prompt)
    assert (await clients[2].next())["code"] == "not_seated"
    await assert_unchanged(arena, room, clients[1:], 0, 0)


async def test_illegal_and_out_of_turn_actions(arena):
    room, clients = await started(arena)
    replay = Replay(NO_MONSTERS, SEED)
    await play_until_deployment(clients, replay)
    seat = min(GAME.to_act(replay.state))
    other = 1 - seat
    hand = set(replay.view(seat)["hands"][str(seat)])
    missing = next(c for c in ("+1", "+2", "+3", "-1", "-2", "-3", "ECHO_FLOW") if c not in hand)
    with pytest.raises(EngineError) as expected:
        GAME.apply(replay.state, seat, {"type": "play", "card": missing})
    await clients[seat].act({"type": "play", "card": missing})
    error = await clients[seat].next()
    assert (error["code"], error["message"]) == (expected.value.code, expected.value.message)
    await clients[other].act({"type": "play", "card": "+1"}, prompt=f"1.{other}.2")
    assert (await clients[other].next())["code"] == "not_your_turn"
    await clients[seat].act({"type": "mulligan", "card": None})
    assert (await clients[seat].next())["code"] == expected_code_of(
        replay, seat, {"type": "mulligan", "card": None})
    await clients[other].act({"type": "resign", "seat": seat})  # a resign has only its type
    assert await clients[other].next() == {"type": "error", "code": "malformed_action",
                                           "message": "Unexpected field 'seat'."}
    # Two mulligan answers, one public step (the first answer is hidden).
    await assert_unchanged(arena, room, clients, 2, 1)


def expected_code_of(replay, seat, action):
    """Return the engine's error code for ``action`` now."""
    with pytest.raises(EngineError) as refused:
        GAME.apply(replay.state, seat, action)
    return refused.value.code


async def test_stale_prompt_is_refused_then_resynced(arena):
    room, clients = await started(arena)
    replay = Replay(NO_MONSTERS, SEED)
    old = {seat: clients[seat].last["prompt"] for seat in (0, 1)}
    await play_until_deployment(clients, replay)
    seat = min(GAME.to_act(replay.state))
    assert clients[seat].last["prompt"] != old[seat]
    await clients[seat].send({"type": "act", "prompt": old[seat],
                              "action": replay.policy()[1]})
    error = await clients[seat].next()
    assert error["code"] == "stale_prompt"
    resync = await clients[seat].next()
    assert resync["type"] == "update" and resync["version"] == 1 and resync["events"] == []
    assert resync["view"] == replay.view(seat)
    await assert_unchanged(arena, room, clients, 2, 1)


async def test_a_refresh_past_the_kept_events_sends_the_current_frame(arena, caplog):
    """Ann's socket was shown version 0, and the room's journal no longer keeps the events
    after it (the trim should never allow that; a chaos run saw it once): her stale act is
    refused and her resync shows the current frame without those events, instead of her
    socket failing (it closed with 1011)."""
    room, clients = await started(arena)
    held = arena.app.state.arena.service._live.entry(room["code"])
    held.journal.reset(1)
    caplog.set_level(logging.WARNING, logger="app.rooms.port")
    await clients[0].act({"type": "mulligan", "card": None}, prompt="1.0.0123456789abcdef")
    assert (await clients[0].next())["code"] == "stale_prompt"
    resync = await clients[0].next()
    assert (resync["type"], resync["version"], resync["events"]) == ("update", 0, [])
    assert resync["prompt"] == clients[0].welcome["prompt"]
    assert [r.getMessage() for r in caplog.records if r.name == "app.rooms.port"] == [
        f"room {room['code']}: a follower shown version 0 gets the events after 1 (the ones "
        "before were dropped)"]


async def test_simultaneous_mulligans_never_refuse_each_other(arena):
    room, clients = await started(arena)
    prompts = [clients[0].last["prompt"], clients[1].last["prompt"]]
    assert prompts == [f"{room['match_id']}.0.{PROMPT_0}", f"{room['match_id']}.1.{PROMPT_1}"]
    await clients[0].act({"type": "mulligan", "card": None}, prompt=prompts[0])
    await clients[1].act({"type": "mulligan", "card": None}, prompt=prompts[1])
    for client in clients:
        await client.until_version(1)  # both answers: one public step
    assert await arena.action_count(room["match_id"]) == 2


async def test_ping_and_chat(arena):
    room, clients = await started(arena)
    await clients[2].send({"type": "ping"})
    assert (await clients[2].next("pong")) == {"type": "pong"}
    await clients[0].send({"type": "chat", "text": "good luck"})
    for client in clients:
        line = await client.next("chat")
        assert (line["seat"], line["name"], line["text"], line["team"]) == (
            0, "Ann", "good luck", False)
    await clients[1].send({"type": "chat", "text": "psst", "team": True})
    line = await clients[1].next("chat")
    assert (line["seat"], line["text"], line["team"]) == (1, "psst", True)
    for client in (clients[0], clients[2]):
        assert [f for f in await client.silent() if f["type"] == "chat"] == []
    await clients[2].send({"type": "chat", "text": "hi", "team": True})
    assert (await clients[2].next())["code"] == "not_seated"


async def test_unknown_room_and_foreign_origin(arena):
    ghost = await arena.connect("nope", hello=False)
    await ghost.send({"type": "hello", "token": None})
    assert (await ghost.next())["code"] == "room_not_found"
    room, _ = await started(arena)
    with pytest.raises(Exception) as refused:
        await arena.connect(room["code"], origin="http://evil.example")
    assert "403" in str(refused.value)
    same = await arena.connect(room["code"], origin=arena.base)
    assert same.welcome["seat"] is None


async def test_oversized_transport_frame_closes_1009(arena):
    room, clients = await started(arena)
    await clients[0].send(json.dumps({"type": "ping", "pad": "x" * 70000}))
    with pytest.raises(ConnectionClosed):
        await clients[0].next(timeout=2)
    assert clients[0].socket.close_code == 1009
    await assert_unchanged(arena, room, clients[1:], 0, 0)


async def test_a_flood_of_frames_is_rate_limited(db_path):
    async with running_arena(db_path, frames_per_second=Settings().frames_per_second) as arena:
        room, clients = await started(arena)
        for _ in range(60):
            await clients[2].send({"type": "ping"})
        answers = [await clients[2].next("pong", "error") for _ in range(60)]
    limited = [a for a in answers if a["type"] == "error"]
    assert {a["code"] for a in limited} == {"rate_limited"}
    # A burst of 2 × 20 frames (hello took one), then 20 a second.
    assert 39 <= len(answers) - len(limited) < 60


async def test_acting_before_the_start(arena):
    ann = await arena.player("Ann")
    room = await arena.room(ann, NO_MONSTERS)
    await arena.sit(room["code"], 0, ann)
    client = await arena.connect(room["code"], ann["token"])
    assert (client.welcome["seat"], client.welcome["view"], client.welcome["prompt"]) == (
        0, None, None)
    await client.act({"type": "mulligan", "card": None}, prompt="1.0.0")
    assert (await client.next("error"))["code"] == "match_not_started"
    bob = await arena.player("Bob")
    await arena.sit(room["code"], 1, bob)
    frames = {f["type"]: f for f in [await client.next("room", "update") for _ in range(2)]}
    seated = frames["room"]["room"]
    assert [s["player_id"] for s in seated["seats"]] == [ann["id"], bob["id"]]
    started = frames["update"]
    assert (started["version"], started["events"]) == (0, [])
    assert started["prompt"] == f"{started['room']['match_id']}.0.{PROMPT_0}"


async def test_a_chat_line_of_characters_that_show_nothing_is_refused_and_reaches_nobody(arena):
    room, clients = await started(arena)
    blank = "\u200b\u3164\u00ad\ufeff "  # zero-width space, Hangul filler, soft hyphen, BOM
    await clients[0].send({"type": "chat", "text": blank})
    assert await clients[0].next("error") == {
        "type": "error", "code": "bad_frame",
        "message": "Bad chat frame: text: A chat line needs at least one visible character."}
    for client in clients[1:]:
        assert [f for f in await client.silent() if f["type"] == "chat"] == []
    await clients[0].send({"type": "chat", "text": "\u200bgg"})  # one that shows is enough
    assert (await clients[1].next("chat"))["text"] == "\u200bgg"
