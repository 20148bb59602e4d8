"""``DELETE /api/rooms/{code}/seats/{seat}``: leaving is idempotent as claiming is (a seat of an
open room nobody holds answers the room and changes nothing), a seat someone else holds is
refused, and a room past its start says why: the match started, ended, or the room closed."""

from __future__ import annotations

from app.rooms.management import IDLE_SECONDS
from tests.app.conftest import auth
from tests.app.rc_play import seated_room
from tests.app.test_round_trips import database_work

HALF = {"regulation": "half", "monsters": False}
#: What a retried leave costs: the caller's token looked up, then the room and its seats read
#: under the room's lock; nothing written.
RETRY_WORK = ["BEGIN", "SELECT players", "ROLLBACK",
              "BEGIN", "SELECT rooms", "SELECT rooms", "COMMIT"]
NOT_SEATED = {"detail": {"code": "not_seated", "message": "You do not hold that seat."}}


async def leave(arena, code: str, seat: int, player: dict):
    return await arena.http.delete(f"/api/rooms/{code}/seats/{seat}", headers=auth(player))


async def test_leaving_a_seat_twice_answers_the_room_and_changes_nothing(arena, monkeypatch):
    ann, bob, cat = [await arena.player(n) for n in ("Ann", "Bob", "Cat")]
    code = (await arena.room(cat, HALF))["code"]
    await arena.sit(code, 1, ann)
    first = await leave(arena, code, 1, ann)
    assert first.status_code == 200 and first.json()["seats"][1]["player_id"] is None
    posted = []
    monkeypatch.setattr(arena.app.state.arena.service.publisher, "post",
                        lambda message, keep=None: posted.append(message))
    with database_work(arena.app) as work:
        again = await leave(arena, code, 1, ann)
    assert (again.status_code, again.json()) == (200, first.json())
    assert (work, posted) == (RETRY_WORK, [])
    # The creator freeing a seat nobody holds: the same.
    freed = await leave(arena, code, 0, cat)
    assert (freed.status_code, freed.json()) == (200, first.json())
    assert posted == []
    # A seat someone else holds stays refused; a seat the room does not have is 404.
    await arena.sit(code, 1, bob)
    taken = await leave(arena, code, 1, ann)
    assert (taken.status_code, taken.json()) == (409, NOT_SEATED)
    nowhere = await leave(arena, code, 2, ann)
    assert (nowhere.status_code, nowhere.json()) == (404, {"detail": {
        "code": "no_such_seat", "message": "Seats are numbered 0 to 1."}})
    assert (await arena.http.get(f"/api/rooms/{code}")).json()["seats"][1]["player_id"] == bob["id"]


async def test_a_seat_of_a_started_or_finished_match_says_which(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code, clients = await seated_room(arena, [ann, bob], HALF)
    started = await leave(arena, code, 1, bob)
    assert (started.status_code, started.json()) == (409, {"detail": {
        "code": "room_not_open", "message": "The match has already started."}})
    await clients[0].act({"type": "resign"}, prompt=clients[0].last["prompt"] or "-")
    for client in clients.values():
        await client.until_version(1)
    assert (await arena.http.get(f"/api/rooms/{code}")).json()["status"] == "finished"
    for seat, player in ((1, bob), (0, ann)):
        ended = await leave(arena, code, seat, player)
        assert (ended.status_code, ended.json()) == (409, {"detail": {
            "code": "match_ended", "message": "The match has ended."}})


async def test_a_seat_of_an_abandoned_room_says_the_room_closed(arena):
    ann = await arena.player("Ann")
    manager = arena.app.state.manager
    await manager.stop()  # swept by hand (test_rooms_manage: the idle rooms)
    code = (await arena.room(ann, HALF))["code"]
    await arena.sit(code, 0, ann)
    arena.clock.advance(IDLE_SECONDS + 1)
    assert await manager.close_idle() == [code]
    closed = await leave(arena, code, 0, ann)
    assert (closed.status_code, closed.json()) == (409, {"detail": {
        "code": "room_not_open", "message": "The room is not open any more."}})
