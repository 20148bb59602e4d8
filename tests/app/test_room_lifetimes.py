"""Nothing is kept per room once it is closed: the live rooms, the clocks, the seat locks (weak
references), the hub's sockets and presence, the bot driver's seats — after 10,000 rooms were
created and closed; and a room code is found or refused loudly (``app.rooms.codes``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert

from app.db.models import Room
from app.rooms.codes import CODE_TRIES, unused_code
from app.rooms.errors import RoomError
from app.rooms.management import IDLE_SECONDS
from tests.app.conftest import auth
from tests.waiting import wait_until

ROOMS = 10_000
PLAYED = 20  # of them, the rooms whose match is played to its end through sockets
NOTHING = {"rooms": 0, "followed": 0, "clocks": 0, "seat_locks": 0}
EMPTY_HUB = {"rooms": 0, "presence": 0, "chat": 0}  # no socket, presence entry or chat line


async def heard_everything(service) -> None:
    """Return once the room channel has dispatched every message published before the call."""
    done = asyncio.Event()

    async def mark(_message) -> None:
        done.set()

    service.publisher.on("test_mark", mark)
    await service.publisher.publish({"room": None, "kind": "test_mark"})
    await asyncio.wait_for(done.wait(), 30)


async def test_ten_thousand_rooms_created_and_closed_leave_no_entry_behind(arena):
    state = arena.app.state
    service, hub, bots, manager = (state.arena.service, state.arena.hub, state.arena.bots,
                                   state.manager)
    await manager.stop()  # the server's own sweep must not race the one below
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    now = datetime.fromtimestamp(arena.clock.now(), tz=UTC)
    options = service.catalog.options("numgr", {})[0]
    codes = [f"L{n:07d}" for n in range(ROOMS)]
    async with state.arena.sessions() as session, session.begin():
        await session.execute(insert(Room), [
            {"code": code, "game": "numgr", "options": options, "status": "open",
             "creator_id": ann["id"], "created_at": now, "private": False,
             "on_timeouts": "bot"} for code in codes])
    # Every 100th room is watched, and a seat is claimed and left while it is.
    for code in codes[PLAYED::100]:
        port = service.port(code)
        greeting = await port.greet(None)
        await service.claim_seat(code, 0, ann["id"])
        await service.leave_seat(code, 0, ann["id"])
        port.leave(greeting.follower)
    # The first rooms are played to the end: both seated, a socket each, one resigns.
    for code in codes[:PLAYED]:
        await arena.sit(code, 0, ann)
        await arena.sit(code, 1, bob)
        sockets = [await arena.connect(code, player["token"]) for player in (ann, bob)]
        await sockets[0].act({"type": "resign"}, prompt="-")
        assert (await sockets[1].next("update"))["view"]["outcome"]["reason"] == "resign"
        for client in sockets:
            await client.socket.close()
    arena.clock.advance(IDLE_SECONDS + 1)
    closed = await manager.close_idle()
    assert closed == codes[PLAYED:]  # every open room, oldest first
    await heard_everything(service)
    # the closed sockets' handlers leave the hub as they notice
    await wait_until(lambda: hub.retained() == EMPTY_HUB, "the hub emptied")
    assert hub.retained() == EMPTY_HUB
    assert service.retained() == NOTHING
    assert bots.retained() == 0
    statuses = (await arena.http.get("/api/rooms", params={"status": "finished"})).json()["items"]
    assert sorted(room["code"] for room in statuses) == codes[:PLAYED]


async def test_a_room_code_is_drawn_again_while_taken_and_refused_after_five_tries():
    drawn: list[str] = []

    def draw(private: bool) -> str:
        drawn.append(f"C{len(drawn)}")
        return drawn[-1]

    async def taken_before_c3(code: str) -> bool:
        return code in {"C0", "C1", "C2"}

    assert await unused_code(False, taken_before_c3, draw) == "C3"
    drawn.clear()

    async def always(code: str) -> bool:
        return True

    with pytest.raises(RoomError) as refused:
        await unused_code(True, always, draw)
    assert (refused.value.code, refused.value.status) == ("no_free_code", 503)
    assert drawn == [f"C{n}" for n in range(CODE_TRIES)] and CODE_TRIES == 5


async def test_a_room_whose_codes_are_all_taken_is_refused_with_503(arena, monkeypatch):
    ann = await arena.player("Ann")
    first = await arena.room(ann, {}, game="numgr")
    monkeypatch.setattr("app.rooms.codes.room_code", lambda private: first["code"])
    answer = await arena.http.post("/api/rooms", json={"game": "numgr"}, headers=auth(ann))
    assert answer.status_code == 503
    assert answer.json()["detail"]["code"] == "no_free_code"
