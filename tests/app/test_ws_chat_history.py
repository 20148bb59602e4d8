"""A socket greeted after chat lines were said gets the room's newest ones right after its
``welcome`` (``chat_history``, docs/protocol.md), in order, each the very ``chat`` frame sent
live; a team line only to the seats of its team, never to a spectator or the other side;
at most ``CHAT_HISTORY_LINES`` (app/realtime/chat_log.py)."""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from app.bus.base import Keep
from app.bus.memory import MemoryBroker
from app.realtime.chat_log import CHAT_HISTORY_LINES, ChatLog, chat_line
from tests.app.conftest import Arena, Client
from tests.waiting import wait_until

START = 1_800_000_000.0  # the tests' ManualClock at the start (unix s)


async def say(arena: Arena, client: Client, text: str, team: bool = False) -> dict[str, Any]:
    """Send a chat line from ``client`` one second after the last one; return its live frame
    as ``client`` got it (a team line reaches its sender too; others' lines are skipped)."""
    arena.clock.advance(1)
    await client.send({"type": "chat", "text": text, "team": team})
    while (frame := await client.next("chat"))["text"] != text:
        pass
    return frame


async def history(client: Client) -> list[dict[str, Any]]:
    """Return the lines of the ``chat_history`` frame that follows ``client``'s welcome, or
    ``[]`` when none came before its ``pong`` (no line to give)."""
    frames = [f for f in await client.silent() if f["type"] == "chat_history"]
    assert len(frames) <= 1, frames
    return frames[0]["lines"] if frames else []


async def test_a_late_socket_gets_the_earlier_lines_in_order(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann))["code"]
    await arena.sit(code, 0, ann)
    await arena.sit(code, 1, bob)
    first = await arena.connect(code, ann["token"])
    watcher = await arena.connect(code)
    assert await history(first) == []  # nothing said yet: no frame
    said = [await say(arena, first, "hello"), await say(arena, watcher, "hi all"),
            await say(arena, first, "good luck")]
    assert said == [
        {"type": "chat", "id": said[0]["id"], "seat": 0, "name": "Ann", "text": "hello",
         "team": False, "at": START + 1},
        {"type": "chat", "id": said[1]["id"], "seat": None, "name": "spectator",
         "text": "hi all", "team": False, "at": START + 2},
        {"type": "chat", "id": said[2]["id"], "seat": 0, "name": "Ann", "text": "good luck",
         "team": False, "at": START + 3}]
    assert len({frame["id"] for frame in said}) == 3
    # Bob opens the room (his first page, or a reload): after his welcome, the three lines.
    late = await arena.connect(code, bob["token"])
    assert late.welcome["seat"] == 1
    assert await late.next("chat_history") == {"type": "chat_history", "lines": said}
    # Everyone gone, the room is dropped here; a spectator opening the link later reads the
    # lines the broker kept.
    hub = arena.app.state.arena.hub
    for client in (first, watcher, late):
        await client.socket.close()
    await wait_until(lambda: hub.retained()["chat"] == 0, "the room's lines dropped here")
    again = await arena.connect(code)
    assert await history(again) == said
    # A line said now reaches it live, once.
    fourth = await say(arena, again, "anyone?")
    assert (fourth["seat"], fourth["text"]) == (None, "anyone?")
    assert fourth["id"] not in {frame["id"] for frame in said}


async def test_team_lines_go_only_to_their_own_side(arena):
    players = [await arena.player(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    code = (await arena.room(players[0], {"format": "2v2", "monsters": False}))["code"]
    for seat, player in enumerate(players):
        await arena.sit(code, seat, player)
    clients = [await arena.connect(code, p["token"]) for p in players]
    # teams [[0, 2], [1, 3]]
    down = await say(arena, clients[0], "go second?", team=True)
    public = await say(arena, clients[1], "have fun")
    up = await say(arena, clients[3], "keep both", team=True)
    for client in clients:
        await client.silent()  # the lines the others got live
    for client in clients:
        await client.socket.close()
    # Each reloads: a seat gets the room's lines and its own team's; a spectator the room's.
    again = {seat: await arena.connect(code, p["token"]) for seat, p in enumerate(players)}
    spectator = await arena.connect(code)
    assert await history(again[0]) == await history(again[2]) == [down, public]
    assert await history(again[1]) == await history(again[3]) == [public, up]
    assert await history(spectator) == [public]
    assert (down["team"], up["team"], public["team"]) == (True, True, False)


async def test_a_spectator_seated_later_is_greeted_with_its_teams_lines(arena):
    players = [await arena.player(name) for name in ("Ann", "Bob", "Cat")]
    code = (await arena.room(players[0], {"format": "2v2", "monsters": False}))["code"]
    for seat in (0, 1):
        await arena.sit(code, seat, players[seat])
    ann, bob = [await arena.connect(code, p["token"]) for p in players[:2]]
    cat = await arena.connect(code, players[2]["token"])  # watching: no seat yet
    down = await say(arena, ann, "wait for Cat", team=True)
    up = await say(arena, bob, "we go first", team=True)
    assert [f for f in await cat.silent() if f["type"] == "chat"] == []
    await arena.sit(code, 2, players[2])  # Cat joins Ann's team: greeted again as seat 2
    welcome = await cat.next("welcome")
    assert welcome["seat"] == 2
    assert await cat.next("chat_history") == {"type": "chat_history", "lines": [down]}
    assert up["team"] is True  # Bob's line stays with his side


async def test_only_the_newest_lines_are_kept(arena):
    ann = await arena.player("Ann")
    code = (await arena.room(ann))["code"]
    talker = await arena.connect(code, ann["token"])
    said = [await say(arena, talker, f"line {n}") for n in range(CHAT_HISTORY_LINES + 5)]
    assert CHAT_HISTORY_LINES == 50
    newest = said[5:]
    late = await arena.connect(code)  # the lines this process keeps for the room
    assert await history(late) == newest
    assert [entry["text"] for entry in newest] == [f"line {n}" for n in range(5, 55)]
    hub = arena.app.state.arena.hub
    for client in (talker, late):
        await client.socket.close()
    await wait_until(lambda: hub.retained()["chat"] == 0, "the room's lines dropped here")
    assert await history(await arena.connect(code)) == newest  # the broker's


async def test_the_memory_broker_forgets_a_list_an_hour_after_its_newest_message():
    now = [0.0]
    broker = MemoryBroker(now=lambda: now[0])
    keep, other = Keep("a", 2, 3600.0), Keep("b", 2, 3600.0)
    async with broker.subscribe("c") as heard:
        for n in range(3):
            broker.post_kept("c", {"n": n}, keep)
        assert [await anext(heard) for _ in range(3)] == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert await broker.kept("a") == [{"n": 1}, {"n": 2}]
    now[0] = 3599.0
    broker.post_kept("c", {"n": 3}, other)
    assert await broker.kept("a") == [{"n": 1}, {"n": 2}]
    now[0] = 3600.0
    assert await broker.kept("a") == []  # past its time
    broker.post_kept("c", {"n": 4}, other)  # and dropped at the next keeping
    assert list(broker._kept) == ["b"]
    assert await broker.kept("b") == [{"n": 3}, {"n": 4}]


class SlowBroker:
    """The room channel as ``ChatLog`` reads it: connected, and its kept lines returned once
    the test opens ``gate``."""

    connected = True

    def __init__(self, stored: list[dict[str, Any]]) -> None:
        self.stored, self.gate, self.reads = stored, asyncio.Event(), 0

    async def kept(self, key: str) -> list[dict[str, Any]]:
        self.reads += 1
        await self.gate.wait()
        return self.stored


def message(n: int, to: list[int] | None = None) -> dict[str, Any]:
    """Room ``R``'s chat message number ``n`` (a team line when ``to`` is given)."""
    return {"room": "R", "kind": "chat", "id": f"i{n}", "seat": 0, "name": "Ann",
            "text": f"t{n}", "team": to is not None, "to": to, "at": float(n)}


def hear(log: ChatLog, n: int, to: list[int] | None = None, code: str = "R") -> None:
    """``log`` hears chat message number ``n`` of room ``code`` on the room channel."""
    log.heard(code, chat_line(message(n, to)))


def ids(log: ChatLog, seat: int | None) -> list[str]:
    """The ids of room ``R``'s lines ``log`` gives a socket watching as ``seat``."""
    return [json.loads(text)["id"] for text in log.lines("R", seat)]


async def test_lines_heard_while_the_broker_is_read_are_kept_once_and_after_it():
    # Line 2 was kept before the read and comes on the channel during it; line 3 is said
    # during the read: both kept, once each, in the channel's order.
    channel = SlowBroker([message(1), message(2)])
    log = ChatLog(channel)  # type: ignore[arg-type]
    entered = []

    async def greet() -> None:
        async with log.recording("R"):
            entered.append(ids(log, None))

    greets = [asyncio.create_task(greet()) for _ in range(2)]
    await wait_until(lambda: channel.reads == 1, "the broker is being read")
    hear(log, 2)
    hear(log, 3)
    hear(log, 9, code="other")  # a room not held here
    assert entered == []  # the greets wait for the read
    channel.gate.set()
    await asyncio.gather(*greets)
    assert entered == [["i1", "i2", "i3"]] * 2 and channel.reads == 1
    assert log.retained() == 0  # both greets over, no socket holds the room


async def test_after_the_channel_lost_messages_the_next_greet_reads_the_broker_again():
    channel = SlowBroker([message(1), message(2)])
    channel.gate.set()
    log = ChatLog(channel)  # type: ignore[arg-type]
    log.hold("R")  # a socket of the room is here
    async with log.recording("R"):
        pass
    hear(log, 3)
    log.stale()  # line 4 was lost on the way here; the broker kept it
    hear(log, 5)
    assert ids(log, 0) == ["i1", "i2", "i3", "i5"]
    channel.stored = [message(n) for n in range(1, 6)]
    async with log.recording("R"):
        assert ids(log, 0) == ["i1", "i2", "i3", "i4", "i5"]
    assert channel.reads == 2
    hear(log, 6, to=[1])  # a team line of seat 1's team
    assert (ids(log, 0)[-1], ids(log, 1)[-1], ids(log, None)[-1]) == ("i5", "i6", "i5")
    assert json.loads(log.lines("R", 1)[-1]) == {
        "type": "chat", "id": "i6", "seat": 0, "name": "Ann", "text": "t6", "team": True,
        "at": 6.0}


def test_a_line_without_an_id_gets_the_same_derived_id_in_every_process():
    # A process of a version before ids posts no "id" (a rolling deploy): the line is still
    # sent, named by the SHA-256 of [room, seat, name, text, team, at], alike everywhere.
    old = {key: value for key, value in message(7).items() if key != "id"}
    ident, to, text = chat_line(old)
    assert ident == hashlib.sha256(
        b'["R", 0, "Ann", "t7", false, 7.0]').hexdigest()[:16]
    assert (len(ident), to) == (16, None)
    assert json.loads(text) == {"type": "chat", "id": ident, "seat": 0, "name": "Ann",
                                "text": "t7", "team": False, "at": 7.0}
    assert chat_line(dict(old))[0] == ident
    assert chat_line({**old, "text": "t8"})[0] != ident


async def test_a_line_the_channel_delivers_twice_is_kept_once():
    # A publish retried after a connection error reaches the channel twice: the history that
    # later greets get holds the line once, and the lines after it in order.
    channel = SlowBroker([message(1)])
    channel.gate.set()
    log = ChatLog(channel)  # type: ignore[arg-type]
    log.hold("R")
    async with log.recording("R"):
        pass
    hear(log, 2)
    hear(log, 2)
    hear(log, 1)  # already read from the broker
    hear(log, 3)
    assert ids(log, None) == ["i1", "i2", "i3"]
