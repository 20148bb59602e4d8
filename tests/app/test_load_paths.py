"""The server's hot paths after the fixes (bench/HISTORY.md section 3): SQLite in WAL
mode, one store transaction at a time (group commit: ``tests/app/test_group_commit.py``), the
room served from memory, no log read before an act with one process, one query per websocket
greet, frames encoded with orjson."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.db import repositories as repo
from app.db.session import _sqlite_pragmas, is_sqlite, make_engine, make_sessionmaker
from app.db.writer import Job
from app.realtime.fanout import Fanout, encode, update_frame
from app.rooms.ladder import resolved_sets
from app.rooms.lifecycle import RoomStatus
from engine.registry import GAMES
from engine.reverse_curse import GAME, ladder
from tests.app.conftest import SEED
from tests.app.rc import Replay
from tests.app.test_round_trips import listening
from tests.app.test_ws_errors import NO_MONSTERS, play_until_deployment, started
from tests.engine.reverse_curse.helpers import play
from tests.engine.reverse_curse.test_match_flow import _last_turn
from tests.waiting import wait_until


@contextlib.contextmanager
def statements(arena):
    """Collect the SQL text of every statement the arena's engine runs inside the block."""
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    state = arena.app.state.arena
    with listening(state.engine.sync_engine, [("before_cursor_execute", record)],
                   state.service.store.writer):
        yield seen


async def test_sqlite_connections_use_the_write_ahead_log(tmp_path: Path):
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'wal.db'}")
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            # SQLite numbers synchronous OFF=0, NORMAL=1, FULL=2 (its default), EXTRA=3
            assert (await conn.execute(text("PRAGMA synchronous"))).scalar() == 1
        assert is_sqlite(make_sessionmaker(engine))
    finally:
        await engine.dispose()


async def test_postgresql_engines_keep_a_bigger_pool_and_get_no_pragmas():
    engine = make_engine("postgresql+asyncpg://nobody@127.0.0.1:1/none")  # never connects
    try:
        assert (engine.pool.size(), engine.pool._max_overflow) == (20, 10)  # POSTGRES_POOL
        assert not event.contains(engine.sync_engine, "connect", _sqlite_pragmas)
        assert not is_sqlite(make_sessionmaker(engine))
        assert not is_sqlite(async_sessionmaker())  # no engine bound: not SQLite either
    finally:
        await engine.dispose()


async def test_the_room_is_read_once_then_served_from_memory(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, NO_MONSTERS))["code"]
    await arena.sit(code, 0, ann)
    watcher = await arena.connect(code)  # the room is followed here: its JSON is kept
    port = arena.app.state.arena.service.port(code)
    first = await port.room()
    with statements(arena) as seen:
        again = await port.room()
        late = await arena.connect(code, ann["token"])
    assert again is first
    assert late.welcome["seat"] == 0 and watcher.welcome["room"] == first
    assert len(seen) == 1 and "player_tokens" in seen[0]  # the greet's token, nothing else
    # a seat claimed through the service is seen at once (and the match starts)
    await arena.sit(code, 1, bob)
    now = await port.room()
    assert [s["player_id"] for s in now["seats"]] == [ann["id"], bob["id"]]
    assert now["status"] == "playing" and now["match_id"] is not None


async def test_a_rooms_sockets_greeted_at_once_share_one_read_of_its_json(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, NO_MONSTERS))["code"]
    await arena.sit(code, 0, ann)
    await arena.sit(code, 1, bob)  # the match starts; its room JSON is read again when needed
    service = arena.app.state.arena.service
    port = service.port(code)
    first = await port.greet(None)  # the match is loaded for the room's followers
    service._live.forget_room(code)
    with statements(arena) as alone:
        lone = await port.greet(None)
    # one read of the JSON (nothing was kept): the room, its match's seats, its listing
    assert [query.split(",")[0] for query in alone] == ["SELECT rooms.id"] * 2
    service._live.forget_room(code)
    with statements(arena) as together:
        greeted = await asyncio.gather(port.greet(ann["id"]), port.greet(bob["id"]),
                                       port.greet(None))
    assert together == alone  # three sockets greeted at once: one read, not three
    assert [g.seat for g in greeted] == [0, 1, None]
    assert greeted[0].room == greeted[2].room == lone.room
    for greeting in (first, lone, *greeted):
        port.leave(greeting.follower)


async def test_a_room_read_before_its_match_end_is_heard_names_the_held_match(arena):
    """Another process stored the match's end; this one has not heard of it yet: the Room JSON
    read now says ``finished`` while every frame still shows the held match, not over. The
    JSON goes with the frames (``playing``) and is not kept."""
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, NO_MONSTERS))["code"]
    await arena.sit(code, 0, ann)
    await arena.sit(code, 1, bob)
    watcher = await arena.connect(code)
    port = arena.app.state.arena.service.port(code)
    async with arena.app.state.arena.sessions() as session, session.begin():
        room = await repo.room_by_code(session, code)
        await repo.set_room_status(session, room.id, RoomStatus.FINISHED.value)
    arena.app.state.arena.service._live.forget_room(code)
    late = await arena.connect(code)
    assert late.welcome["room"]["status"] == "playing"
    assert late.welcome["view"]["outcome"] is None
    assert late.welcome["room"]["match_id"] == watcher.welcome["room"]["match_id"]
    with statements(arena) as seen:
        assert (await port.room())["status"] == "playing"
    assert seen  # not kept: read again


async def test_a_room_message_from_the_broker_drops_the_copy(arena):
    """A change made elsewhere (another process, the idle sweep) is announced by a ``room``
    message; the room core reads the room again."""
    ann = await arena.player("Ann")
    code = (await arena.room(ann, NO_MONSTERS))["code"]
    watcher = await arena.connect(code)
    port = arena.app.state.arena.service.port(code)
    assert (await port.room())["status"] == "open"
    async with arena.app.state.arena.sessions() as session, session.begin():
        room = await repo.room_by_code(session, code)
        await repo.set_room_status(session, room.id, RoomStatus.ABANDONED.value)
    assert (await port.room())["status"] == "open"  # not told yet
    await arena.app.state.arena.broker.publish("arena.rooms", {"room": code, "kind": "room"})
    assert (await watcher.next("room"))["room"]["status"] == "abandoned"
    assert (await port.room())["status"] == "abandoned"


async def test_one_process_acts_without_reading_the_log(arena):
    room, clients = await started(arena)
    with statements(arena) as seen:
        await clients[0].act({"type": "mulligan", "card": None})
        await clients[0].next("update")
    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    # the insert of the action and the update of the match's deadlines; no SELECT at all
    # (neither the log before the act nor the room for the fan-out)
    assert reads == []
    assert [s.split()[0].upper() for s in seen] == ["INSERT", "UPDATE"]
    assert await arena.action_count(room["match_id"]) == 1


async def test_the_finish_shows_in_the_room_without_a_room_message(arena):
    room, clients = await started(arena)
    port = arena.app.state.arena.service.port(room["code"])
    assert (await port.room())["status"] == "playing"
    await clients[0].send({"type": "act", "prompt": None, "action": {"type": "resign"}})
    frames = await clients[2].until_version(1)
    assert frames[-1]["room"]["status"] == "finished"
    assert (await port.room())["status"] == "finished"


async def test_a_greet_asks_the_database_only_for_the_token(arena):
    room, clients = await started(arena)
    ann = arena.players[0]
    with statements(arena) as seen:
        again = await arena.connect(room["code"], ann["token"])
    assert again.welcome["seat"] == 0
    assert len(seen) == 1 and "player_tokens" in seen[0]


async def test_an_act_waits_for_the_transaction_in_flight(arena):
    """Group commit (``app.db.writer``): an act queued while another store's transaction runs
    is neither stored nor applied until that one committed; then it goes in the next one."""
    room, clients = await started(arena)
    service = arena.app.state.arena.service
    port = service.port(room["code"])
    entered, release = asyncio.Event(), asyncio.Event()

    async def hold(session) -> None:  # another room's store, still writing
        await session.execute(text("SELECT 1"))
        entered.set()
        await release.wait()

    other = asyncio.create_task(service.store.writer.write(Job([], hold)))
    await entered.wait()
    commits: list[str] = []
    state = arena.app.state.arena
    recording = contextlib.ExitStack()
    recording.enter_context(listening(state.engine.sync_engine, [
        ("commit", lambda *_: commits.append("commit"))], state.service.store.writer))
    await clients[0].act({"type": "mulligan", "card": None})
    writer = service.store.writer
    await wait_until(lambda: writer.queued() == 1, "the act queued for the next transaction")
    assert await arena.action_count(room["match_id"]) == 0
    assert port.match().version == 0  # not applied before it is stored
    release.set()
    await other
    await wait_until(lambda: port.match().version == 1, "the act applied after its commit")
    assert await arena.action_count(room["match_id"]) == 1
    recording.close()
    assert commits == ["commit", "commit"]  # the held one, then the act's


def test_a_fanout_encodes_each_update_once():
    data = {"version": 3, "view": {"seat": None}, "prompt": None, "legal": [],
            "deadline": 130, "clocks": {"0": 130}, "events": [{"kind": "k", "data": {}}]}
    room = {"code": "ABCDEFGH", "status": "playing"}
    fanout = Fanout(room)
    spectators = [fanout.text(data) for _ in range(3)]
    assert spectators[0] is spectators[1] is spectators[2]
    other = fanout.text({**data, "version": 4})  # other data: its own text
    assert other != spectators[0]
    assert spectators[0] == (
        '{"type":"update","version":3,"view":{"seat":null},"prompt":null,"legal":[],'
        '"deadline":130,"clocks":{"0":130},"events":[{"kind":"k","data":{}}],'
        '"room":{"code":"ABCDEFGH","status":"playing"}}')
    assert json.loads(spectators[0]) == update_frame(data, room)


async def test_one_viewer_and_cursor_is_rendered_once_per_fan_out(arena):
    room, clients = await started(arena)
    port = arena.app.state.arena.service.port(room["code"])
    watchers = [(await port.greet(None)).follower for _ in range(2)]
    seated = (await port.greet(arena.players[0]["id"])).follower
    await port.act(0, clients[0].last["prompt"], {"type": "mulligan", "card": None})
    await clients[0].next("update")
    # Ann's hidden answer: spectators can see no change, Ann's seat can.
    assert [port.update(w) for w in watchers] == [None, None]
    mine = port.update(seated)
    assert mine["version"] == 0 and mine["view"] == clients[0].last["view"]
    assert port.update(seated) is None  # shown already
    await port.act(1, clients[1].last["prompt"], {"type": "mulligan", "card": None})
    await clients[2].next("update")
    first, second = (port.update(w) for w in watchers)
    assert first is second  # one render for one viewer and cursor
    assert first["version"] == 1 and first == {key: clients[2].last[key] for key in first}
    for follower in (*watchers, seated):
        port.leave(follower)


async def test_spectators_of_one_version_get_the_same_frame(arena):
    room, clients = await started(arena)
    other = await arena.connect(room["code"])
    replay = Replay(NO_MONSTERS, SEED)
    await play_until_deployment(clients, replay)
    await other.until_version(1)
    first, second = clients[2].last, other.last
    assert first == second
    assert first["type"] == "update" and first["version"] == 1  # two answers, one public step
    assert first["view"] == replay.view(None)


async def test_a_room_is_held_only_while_followed_or_played(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, NO_MONSTERS))["code"]
    service = arena.app.state.arena.service
    watcher = await arena.connect(code)
    assert service.retained() == {"rooms": 1, "followed": 1, "clocks": 0, "seat_locks": 0}
    await watcher.socket.close()
    # the socket's handler leaves the hub once it sees the close
    await wait_until(lambda: service.retained()["rooms"] == 0, "the room let go")
    assert service.retained() == {"rooms": 0, "followed": 0, "clocks": 0, "seat_locks": 0}
    await arena.sit(code, 0, ann)
    await arena.sit(code, 1, bob)  # the match starts: held for its clocks, nobody follows
    assert service.retained() == {"rooms": 1, "followed": 0, "clocks": 1, "seat_locks": 0}
    port = service.port(code)
    await port.act(0, None, {"type": "resign"})  # over: nothing left to hold
    assert service.retained() == {"rooms": 0, "followed": 0, "clocks": 0, "seat_locks": 0}
    assert port.match() is None


def test_frames_are_encoded_as_send_json_would():
    """``fanout.encode`` (orjson) gives the text ``json.dumps`` gave before: compact, names not
    ASCII-escaped, integer keys as strings, floats as Python writes them."""
    frame = {"type": "update", "view": {"names": ["Zoë", "小明", 'a"b\\c'], "hp": {0: 3, 1: -2}},
             "deadline": 1764494012.25, "clocks": {"0": 119.5, "1": 0.1}, "prompt": None,
             "legal": [{"type": "pass"}, {"type": "play", "card": 7, "ok": True}]}
    text = encode(frame)
    assert text == json.dumps(frame, separators=(",", ":"), ensure_ascii=False)
    assert text.startswith('{"type":"update","view":{"names":["Zoë","小明","a\\"b\\\\c"],'
                           '"hp":{"0":3,"1":-2}},"deadline":1764494012.25,')


def test_a_store_builds_only_the_ladder_records_its_step_resolved():
    """``resolved_sets`` asks the engine for the new records only (it built the whole ladder
    of both states before: 15 % of the CPU under load)."""
    before = _last_turn("+2", "+1", position=5)
    after = play(before, 1, "+1")
    assert resolved_sets(GAME, before, after) == ladder(after) == ladder(after, 0)
    assert len(ladder(after)) == 1 and ladder(after)[0]["position_after"] == 8
    assert resolved_sets(GAME, after, after) == []
    assert resolved_sets(GAMES["zipai"], None, None) == []  # no ladder
