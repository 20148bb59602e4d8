"""Rooms that manage themselves: private rooms, removing a seated player,
"play again", idle rooms, seats that keep timing out, "my games"."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from sqlalchemy import event, func, select

from app.db import repositories as repo
from app.db.models import Rating
from app.db.session import make_engine, make_sessionmaker
from app.rooms.clocks import ManualClock
from app.rooms.management import IDLE_SECONDS, SWEEP_SECONDS
from app.rooms.port import RoomPort
from app.rooms.takeover import TimeoutRule
from engine.registry import GAMES
from tests.app.conftest import auth, running_arena
from tests.app.rc_play import match_id, seated_room
from tests.waiting import wait_until

RC = GAMES["reverse_curse"]
HALF = {"regulation": "half", "monsters": False}
NOW = datetime(2027, 1, 15, 8, 0, tzinfo=UTC)


def service(arena):
    return arena.app.state.arena.service


async def codes_listed(arena, status: str) -> list[str]:
    return [room["code"] for room in (await arena.http.get(f"/api/rooms?status={status}")).json()["items"]]


# ------------------------------------------------------------------ private rooms

async def test_a_private_room_is_never_listed_and_has_a_long_code(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    public = await arena.room(ann, HALF)
    answer = await arena.http.post("/api/rooms", headers=auth(ann), json={
        "game": "reverse_curse", "options": HALF, "private": True})
    assert answer.status_code == 201
    private = answer.json()
    assert (public["private"], private["private"]) == (False, True)
    assert len(public["code"]) == 8  # 6 random bytes, url-safe base64
    assert len(private["code"]) == 16  # 12 random bytes = 96 bits
    assert await codes_listed(arena, "open") == [public["code"]]
    assert [r["code"] for r in (await arena.http.get("/api/rooms")).json()["items"]] == [public["code"]]
    # The link opens it; a guessed short code does not.
    assert (await arena.http.get(f"/api/rooms/{private['code']}")).json() == private
    assert (await arena.http.get(f"/api/rooms/{private['code'][:8]}")).status_code == 404
    # Once it plays, neither the live list nor the match history gives its code away.
    for seat, player in enumerate((ann, bob)):
        assert (await arena.sit(private["code"], seat, player)).status_code == 200
    assert await codes_listed(arena, "playing") == []
    history = (await arena.http.get("/api/matches")).json()["items"]
    assert [(m["room_code"], m["game"]) for m in history] == [(None, "reverse_curse")]
    match = (await arena.http.get(f"/api/rooms/{private['code']}")).json()["match_id"]
    assert (await arena.http.get(f"/api/matches/{match}")).json()["room_code"] is None


# ------------------------------------------------------------------ removing a seated player

async def test_the_creator_removes_a_seated_player_who_then_only_watches(arena):
    cat, ann, bob, dan = [await arena.player(n) for n in ("Cat", "Ann", "Bob", "Dan")]
    code = (await arena.room(cat, HALF))["code"]
    await arena.sit(code, 1, bob)
    bob_socket = await arena.connect(code, bob["token"])
    assert bob_socket.welcome["seat"] == 1
    # Only the creator (or the holder) may free a seat.
    refused = await arena.http.delete(f"/api/rooms/{code}/seats/1", headers=auth(ann))
    assert refused.status_code == 409 and refused.json()["detail"]["code"] == "not_seated"
    removed = await arena.http.delete(f"/api/rooms/{code}/seats/1", headers=auth(cat))
    assert removed.status_code == 200
    assert removed.json()["seats"][1] == {"seat": 1, "player_id": None, "name": None, "bot_level": None,
                                          "team": 1, "side": None}
    assert (await bob_socket.next("room"))["room"]["seats"][1]["player_id"] is None
    # Dan takes the seat, Ann the other: the match starts; Bob's old socket gets the
    # spectator's frames.
    assert (await arena.sit(code, 1, dan)).status_code == 200
    assert (await arena.sit(code, 0, ann)).status_code == 200
    update = await bob_socket.next("update")
    assert (update["prompt"], update["legal"]) == (None, [])
    assert update["view"]["hands"] == {}
    await bob_socket.act({"type": "resign"}, prompt="x")
    assert (await bob_socket.next("error"))["code"] == "not_seated"
    late = await arena.http.delete(f"/api/rooms/{code}/seats/1", headers=auth(cat))
    assert late.status_code == 409 and late.json()["detail"]["code"] == "room_not_open"


async def test_a_watching_players_socket_is_greeted_again_when_the_player_takes_a_seat(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, HALF))["code"]
    await arena.sit(code, 0, ann)
    watching = await arena.connect(code, bob["token"])
    assert watching.welcome["seat"] is None
    await watching.send({"type": "chat", "text": "hi", "team": False})
    assert (await watching.next("chat"))["name"] == "spectator"
    # Bob claims seat 1 (say from another tab): the match starts and the same socket is
    # greeted again as seat 1, with what a new socket of Bob's is greeted with.
    assert (await arena.sit(code, 1, bob)).status_code == 200
    welcome = await watching.next("welcome")
    fresh = await arena.connect(code, bob["token"])
    assert welcome == fresh.welcome
    assert welcome["seat"] == 1 and list(welcome["view"]["hands"]) == ["1"]
    assert welcome["prompt"] is not None and len(welcome["legal"]) == 6  # keep or one of 5
    await watching.send({"type": "chat", "text": "hello", "team": False})
    assert (await watching.next("chat"))["name"] == "Bob"
    await watching.act({"type": "mulligan", "card": None})
    assert (await watching.next("update"))["view"]["mulligan"] == {"mine": "kept"}


async def test_the_match_start_greets_a_watching_players_socket_again_without_the_room_message(
        arena, monkeypatch):
    # The claiming process died between the match start's version message and the claim's
    # room message: only the first arrives.
    publisher = service(arena).publisher
    post = publisher.post
    monkeypatch.setattr(publisher, "post",
                        lambda message: None if message["kind"] == "room" else post(message))
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, HALF))["code"]
    await arena.sit(code, 0, ann)
    watching = await arena.connect(code, bob["token"])
    assert (await arena.sit(code, 1, bob)).status_code == 200
    welcome = await watching.next("welcome")
    assert (welcome["seat"], list(welcome["view"]["hands"])) == (1, ["1"])
    assert await watching.settle() == []  # and no spectator's update


async def test_a_patching_socket_greeted_again_numbers_its_frames_from_zero(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, HALF))["code"]
    await arena.sit(code, 0, ann)
    watching = await arena.connect(code, hello=False)
    await watching.send({"type": "hello", "token": bob["token"], "patches": True})
    assert (await watching.next("welcome"))["seq"] == 0
    assert (await arena.sit(code, 1, bob)).status_code == 200
    welcome = await watching.next("welcome")
    assert (welcome["seq"], welcome["seat"]) == (0, 1)
    await watching.act({"type": "mulligan", "card": None})
    update = await watching.next("update")
    assert update["seq"] == 1 and "view" not in update  # a patch of the second welcome
    assert update["patch"] == [{"mulligan/mine": "kept"}]


# ------------------------------------------------------------------ play again

async def test_play_again_starts_when_every_seated_player_asked(arena):
    ann, bob, cat = [await arena.player(n) for n in ("Ann", "Bob", "Cat")]
    code, clients = await seated_room(arena, [ann, bob], HALF)
    first = match_id(clients)
    too_early = await arena.http.post(f"/api/rooms/{code}/rematch", headers=auth(ann))
    assert too_early.status_code == 409
    assert too_early.json()["detail"]["code"] == "room_not_finished"
    await clients[0].act({"type": "resign"}, prompt=clients[0].last["prompt"] or "-")
    for client in clients.values():
        await client.until_version(1)
    assert clients[1].last["view"]["outcome"]["winners"] == [1]

    stranger = await arena.http.post(f"/api/rooms/{code}/rematch", headers=auth(cat))
    assert stranger.status_code == 409 and stranger.json()["detail"]["code"] == "not_seated"
    asked = (await arena.http.post(f"/api/rooms/{code}/rematch", headers=auth(ann))).json()
    assert (asked["status"], asked["rematch"], asked["match_id"]) == ("finished", [0], first)
    again = (await arena.http.post(f"/api/rooms/{code}/rematch", headers=auth(ann))).json()
    assert again["rematch"] == [0]  # asking twice counts once
    assert again == (await arena.http.get(f"/api/rooms/{code}")).json()
    started = (await arena.http.post(f"/api/rooms/{code}/rematch", headers=auth(bob))).json()
    assert (started["status"], started["rematch"]) == ("playing", [])
    assert started["match_id"] == first + 1
    assert [s["player_id"] for s in started["seats"]] == [ann["id"], bob["id"]]
    # The answer is the room as committed, the new match's sides included (built from the
    # rows the rematch read, not read again): what a GET reads now.
    assert sorted(s["side"] for s in started["seats"]) == ["DOWN", "UP"]
    assert started == (await arena.http.get(f"/api/rooms/{code}")).json()
    # Both sockets get the new match from its version 0, with a prompt to answer again.
    for client in clients.values():
        frame = await client.next("update")
        assert (frame["version"], frame["view"]["outcome"]) == (0, None)
        assert frame["room"]["match_id"] == first + 1
    finished = (await arena.http.get(f"/api/matches/{first}")).json()
    assert finished["outcome"]["winners"] == [1]


async def test_room_listings_give_each_rooms_seats_and_newest_match_in_one_query(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    empty = (await arena.room(ann, HALF))["code"]
    code, clients = await seated_room(arena, [ann, bob], HALF)
    first = match_id(clients)
    statements: list[str] = []
    engine = arena.app.state.arena.sessions.kw["bind"].sync_engine
    async with arena.app.state.arena.sessions() as session:
        rooms = {c: (await repo.room_by_code(session, c)).id for c in (empty, code)}
        listen = lambda *args: statements.append(args[2])  # noqa: E731 (conn, cursor, sql, …)
        event.listen(engine, "before_cursor_execute", listen)
        try:
            listings = await repo.room_listings(session, [rooms[empty], rooms[code]])
        finally:
            event.remove(engine, "before_cursor_execute", listen)
    assert listings == {
        rooms[empty]: ([], None),
        rooms[code]: ([repo.SeatRow(0, ann["id"], "Ann", None),
                       repo.SeatRow(1, bob["id"], "Bob", None)], first)}
    assert len(statements) == 1


# ------------------------------------------------------------------ idle rooms

async def test_an_open_room_idle_for_30_minutes_is_abandoned(arena):
    ann = await arena.player("Ann")
    manager = arena.app.state.manager
    # This test sweeps by hand. The server's own sweep (every SWEEP_SECONDS of the same clock)
    # would wake on each `advance` and could close a room first, so the hand sweep's answer
    # would depend on real timing: stop it (it is tested below).
    await manager.stop()
    quiet = (await arena.room(ann, HALF))["code"]
    busy = (await arena.room(ann, HALF))["code"]
    arena.clock.advance(IDLE_SECONDS - 1)
    assert await manager.close_idle() == []
    await arena.sit(busy, 0, ann)  # a seat change is activity
    arena.clock.advance(2)
    assert await manager.close_idle() == [quiet]
    assert (await arena.http.get(f"/api/rooms/{quiet}")).json()["status"] == "abandoned"
    assert await codes_listed(arena, "open") == [busy]
    refused = await arena.sit(quiet, 0, ann)
    assert refused.status_code == 409 and refused.json()["detail"]["code"] == "room_not_open"
    arena.clock.advance(IDLE_SECONDS - 2)
    assert await manager.close_idle() == []
    arena.clock.advance(2)
    assert await manager.close_idle() == [busy]


async def test_the_sweep_runs_on_the_injected_clock(arena):
    ann = await arena.player("Ann")
    code = (await arena.room(ann, HALF))["code"]
    arena.clock.advance(IDLE_SECONDS + SWEEP_SECONDS + 1)

    async def abandoned() -> bool:  # the sweep's timer looks at the clock every few ms
        return (await arena.http.get(f"/api/rooms/{code}")).json()["status"] == "abandoned"

    await wait_until(abandoned, "the sweep's close of the room", every=0.01)


# ------------------------------------------------------------------ timeouts

async def let_clock_play(arena, code: str, seat: int) -> None:
    """Run ``seat``'s clock out; return once its timeout was stored, published and the
    manager's streak check (started by the observer) has finished."""
    seen = []
    stop = service(arena).observe(seen.append)
    try:
        deadline = service(arena).port(code).match().deadlines[seat]
        arena.clock.advance(deadline - arena.clock.now() + 0.01)
        await wait_until(lambda: bool(seen), f"seat {seat}'s timeout stored")
        # The first stored action is the timeout; a forfeit resign may follow at once.
        assert [(a.seat, a.timeout) for a in seen][:1] == [(seat, True)]
    finally:
        stop()
    await arena.app.state.manager.settle()


async def drive_until_over(arena, code: str, sleeper: int, player: int,
                           rounds: int = 60) -> None:
    """Let ``player`` answer its first legal action whenever asked; let ``sleeper``'s clock
    run out whenever it alone is asked; stop when the match is over."""
    port = service(arena).port(code)
    for _ in range(rounds):
        match = port.match()
        if match is None or match.over:  # a finished match nobody follows is not kept
            return
        if player in match.prompts:
            await port.act(player, match.prompts[player], port.render(player)["legal"][0])
            continue
        await let_clock_play(arena, code, sleeper)
    raise AssertionError("the match did not end")


async def time_out(arena, code: str, sleeper: int, player: int, count: int) -> None:
    """Let ``player`` answer its first legal action whenever asked until ``sleeper``'s clock
    has played ``count`` decisions in a row."""
    port = service(arena).port(code)
    played = 0
    while played < count:
        match = port.match()
        if player in match.prompts:
            await port.act(player, match.prompts[player], port.render(player)["legal"][0])
            continue
        await let_clock_play(arena, code, sleeper)
        played += 1


async def stored_state(arena, match: int):
    """Return the Reverse Curse state the stored log of ``match`` gives."""
    async with arena.app.state.arena.sessions() as session:
        row = await repo.get_match(session, match)
        actions = await repo.match_actions(session, match)
    state = RC.new_game(row.options, 2, bytes.fromhex(row.seed))
    for action in actions:
        state, _ = RC.apply(state, action.seat, action.action)
    return state


async def seat_actions(arena, match: int, seat: int):
    async with arena.app.state.arena.sessions() as session:
        return [(a.action, a.timeout) for a in await repo.match_actions(session, match)
                if a.seat == seat]


async def forfeit_room(arena, ann, bob) -> str:
    """Return the code of a Reverse Curse room (``on_timeouts: "forfeit"``) where Ann holds
    seat 0 and Bob seat 1: the match has started."""
    answer = await arena.http.post("/api/rooms", headers=auth(ann), json={
        "game": "reverse_curse", "options": HALF, "on_timeouts": "forfeit"})
    code = answer.json()["code"]
    assert answer.json()["on_timeouts"] == "forfeit"
    await arena.sit(code, 0, ann)
    await arena.sit(code, 1, bob)
    return code


async def stored_forfeits(arena, match: int) -> list[tuple[int, int, dict, bool, dict | None]]:
    """Return ``(seq, seat, action, timeout, forfeit)`` of every stored action of ``match``."""
    return await logged_forfeits(arena.app.state.arena.sessions, match)


async def logged_forfeits(sessions, match: int) -> list[tuple[int, int, dict, bool, dict | None]]:
    """``stored_forfeits`` read through the session factory ``sessions``."""
    async with sessions() as session:
        return [(a.seq, a.seat, a.action, a.timeout, a.forfeit)
                for a in await repo.match_actions(session, match)]


#: The forfeit of a seat whose clock played three decisions in a row, as the room stores it.
TIMEOUTS = {"reason": "timeouts", "timeouts": 3}


async def test_three_timeouts_in_a_row_forfeit_the_seat(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = await forfeit_room(arena, ann, bob)
    watcher = await arena.connect(code)
    await drive_until_over(arena, code, sleeper=0, player=1)
    match = (await arena.http.get(f"/api/rooms/{code}")).json()["match_id"]
    log = await stored_forfeits(arena, match)
    last = len(log)
    # Seat 0 never acted: its clock played three decisions, then the room resigned it, the
    # resign stored as a forfeit with its reason (the engine's action is a plain resign).
    assert [(timeout, forfeit) for _, seat, _, timeout, forfeit in log if seat == 0] == [
        (True, None), (True, None), (True, None), (False, TIMEOUTS)]
    assert log[-1] == (last, 0, {"type": "resign"}, False, TIMEOUTS)
    # Live: the resign's events begin with the room's forfeit, the room names the seat.
    frames = await watcher.settle()
    told = [frame for frame in frames if any(e["kind"] == "forfeit" for e in frame["events"])]
    assert len(told) == 1 and told[0] is frames[-1]
    assert [e["kind"] for e in told[0]["events"]] == ["forfeit", "match_over"]
    assert told[0]["events"][0]["data"] == {"seat": 0, **TIMEOUTS}
    assert told[0]["room"]["forfeit"] == {"seat": 0, **TIMEOUTS}
    assert (told[0]["room"]["status"], told[0]["view"]["outcome"]["reason"]) == (
        "finished", "resign")
    # REST: the room (held here: a socket follows it), the match, the list and the replay.
    assert (await arena.http.get(f"/api/rooms/{code}")).json()["forfeit"] == {"seat": 0, **TIMEOUTS}
    detail = (await arena.http.get(f"/api/matches/{match}")).json()
    assert (detail["outcome"]["reason"], detail["outcome"]["winners"]) == ("resign", [1])
    assert detail["forfeit"] == {"seat": 0, "step": last, **TIMEOUTS}
    assert detail["actions"][-1]["action"] == {"type": "resign"}
    [listed] = (await arena.http.get("/api/matches")).json()["items"]
    assert listed["forfeit"] == detail["forfeit"]
    steps = (await arena.http.get(f"/api/matches/{match}/replay")).json()["steps"]
    assert [step["step"] for step in steps if step["forfeit"] is not None] == [last]
    assert (steps[-1]["action"], steps[-1]["forfeit"]) == ({"type": "resign"}, TIMEOUTS)
    assert steps[-1]["events"][0] == {"kind": "forfeit", "data": {"seat": 0, **TIMEOUTS}}
    # A process that rebuilds the match from the log (a restart) holds the same forfeit.
    rebuilt, _ = await service(arena).store.load(code)
    assert rebuilt.forfeit == {"seat": 0, **TIMEOUTS}
    # The metrics count the resign as the room's, the timeouts as the clock's.
    metrics = (await arena.http.get("/metrics")).text
    assert 'arena_actions_applied_total{by="room",game="reverse_curse"} 1.0' in metrics
    assert 'arena_actions_applied_total{by="clock",game="reverse_curse"} 3.0' in metrics


async def test_a_streak_whose_rule_a_stopped_process_left_unapplied_is_applied_at_restart(
        db_path, monkeypatch):
    """The process stores seat 0's third timeout in a row and stops before its check applies
    the rule (a kill right after the commit: here the check never hears of the timeout); the
    restarted process forfeits the seat once it has resumed the match, as the first would have."""
    clock = ManualClock()
    monkeypatch.setattr(TimeoutRule, "observe", lambda rule, applied: None)
    async with running_arena(db_path, clock) as arena:
        ann, bob = await arena.player("Ann"), await arena.player("Bob")
        code = await forfeit_room(arena, ann, bob)
        match = service(arena).port(code).match().match_id
        await time_out(arena, code, sleeper=0, player=1, count=3)
        stopped = await stored_forfeits(arena, match)
        assert service(arena).port(code).match().over is False
    assert [(timeout, forfeit) for _, seat, _, timeout, forfeit in stopped if seat == 0] == [
        (True, None)] * 3
    monkeypatch.undo()
    async with running_arena(db_path, clock) as arena:
        async def forfeited() -> bool:
            return len(await stored_forfeits(arena, match)) > len(stopped)

        await wait_until(forfeited, "the forfeit stored after the restart")
        log = await stored_forfeits(arena, match)
        assert log[:-1] == stopped
        assert log[-1] == (len(stopped) + 1, 0, {"type": "resign"}, False, TIMEOUTS)
        detail = (await arena.http.get(f"/api/matches/{match}")).json()
        assert (detail["status"], detail["outcome"]["winners"], detail["forfeit"]) == (
            "finished", [1], {"seat": 0, "step": len(stopped) + 1, **TIMEOUTS})
        # Resumed again, nothing more is applied: the match is over.
        assert await arena.app.state.manager.recheck_timeouts() == []


async def two_timeouts_in(arena) -> tuple[str, RoomPort, int]:
    """Return the code, port and match id of a forfeit room (Ann in seat 0, Bob in seat 1)
    whose seat 0 timed out its last two decisions, once seat 0 alone is asked again."""
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = await forfeit_room(arena, ann, bob)
    port = service(arena).port(code)
    await time_out(arena, code, sleeper=0, player=1, count=2)
    while 1 in port.match().prompts:  # on to seat 0's next decision
        await port.act(1, port.match().prompts[1], port.render(1)["legal"][0])
    return code, port, port.match().match_id


async def test_a_clock_that_fires_while_the_process_stops_starts_no_timeout_check(db_path):
    """The graceful shutdown stops the room manager before the clocks (``app.main``): seat 0's
    third timeout in a row, stored in between (here while the bots stop), starts no check (a
    task nobody would cancel, whose forfeit would be written as the store closes). The log
    stays as the clock left it; the restarted process applies the rule."""
    clock = ManualClock()
    async with running_arena(db_path, clock) as arena:
        code, port, match = await two_timeouts_in(arena)
        assert set(port.match().prompts) == {0}
        rule, bots = arena.app.state.manager.timeouts, arena.app.state.arena.bots
        stop_bots, seen, checks = bots.stop, [], []

        async def stop_bots_while_the_clock_fires() -> None:
            await stop_bots()
            stop = service(arena).observe(seen.append)
            clock.advance(port.match().deadlines[0] - clock.now() + 0.01)
            await wait_until(lambda: bool(seen), "seat 0's third timeout stored")
            stop()
            checks.append(len(rule.tasks))  # the rule heard of it before this observer

        bots.stop = stop_bots_while_the_clock_fires
    assert ([(a.seat, a.timeout) for a in seen], checks, rule.tasks) == ([(0, True)], [0], set())
    engine = make_engine(f"sqlite+aiosqlite:///{db_path}")
    try:
        stopped = await logged_forfeits(make_sessionmaker(engine), match)
    finally:
        await engine.dispose()
    assert [(timeout, forfeit) for _, seat, _, timeout, forfeit in stopped if seat == 0] == [
        (True, None)] * 3
    assert stopped[-1][:2] == (len(stopped), 0)
    async with running_arena(db_path, clock) as arena:
        assert await stored_forfeits(arena, match) == [
            *stopped, (len(stopped) + 1, 0, {"type": "resign"}, False, TIMEOUTS)]


async def third_timeout_held_at_its_forfeit(arena, monkeypatch, release: asyncio.Event,
                                            cancelled: list[int]) -> tuple[str, int]:
    """Play a forfeit room until seat 0's clock has played three decisions in a row; return
    the room's code and match id once that check is about to resign the seat, held there
    until ``release`` is set (a cancelled hold appends the seat to ``cancelled``)."""
    reached, forfeit = asyncio.Event(), RoomPort.forfeit

    async def held_forfeit(port: RoomPort, seat: int, reason: dict) -> bool:
        reached.set()
        try:
            await release.wait()
        except asyncio.CancelledError:
            cancelled.append(seat)
            raise
        return await forfeit(port, seat, reason)

    monkeypatch.setattr(RoomPort, "forfeit", held_forfeit)
    code, port, match = await two_timeouts_in(arena)
    arena.clock.advance(port.match().deadlines[0] - arena.clock.now() + 0.01)
    await asyncio.wait_for(reached.wait(), 5)  # (``let_clock_play`` would wait for the check)
    return code, match


async def test_the_stop_lets_a_timeout_check_under_way_finish_its_forfeit(db_path, monkeypatch):
    """The manager's stop waits for a running check (up to ``TimeoutRule.close_wait``): seat
    0's third timeout in a row, whose check is held just before it resigns the seat until the
    stop has begun, is forfeited by the time the stop returns — not left to the next start."""
    release, cancelled = asyncio.Event(), []
    async with running_arena(db_path) as arena:
        code, match = await third_timeout_held_at_its_forfeit(arena, monkeypatch, release,
                                                              cancelled)
        manager = arena.app.state.manager
        manager.timeouts.close_wait = 30.0  # never reached: the check is released at once
        stopping = asyncio.create_task(manager.stop())
        await asyncio.sleep(0)  # the stop begins (no check may start from here on)
        assert not stopping.done() and len(manager.timeouts.tasks) == 1
        release.set()
        await asyncio.wait_for(stopping, 10)
        assert (cancelled, manager.timeouts.tasks) == ([], set())
        log = await stored_forfeits(arena, match)
        assert log[-1] == (len(log), 0, {"type": "resign"}, False, TIMEOUTS)
        assert (await arena.http.get(f"/api/rooms/{code}")).json()["status"] == "finished"


async def test_the_stop_cancels_a_timeout_check_still_running_after_its_bound(
        db_path, monkeypatch):
    """A check still running ``TimeoutRule.close_wait`` seconds after the stop began is
    cancelled (its streak is left to the next recheck) and the stop returns then."""
    release, cancelled, bound = asyncio.Event(), [], 0.2
    async with running_arena(db_path) as arena:
        code, match = await third_timeout_held_at_its_forfeit(arena, monkeypatch, release,
                                                              cancelled)
        manager = arena.app.state.manager
        manager.timeouts.close_wait = bound
        loop = asyncio.get_running_loop()
        began = loop.time()
        await asyncio.wait_for(manager.stop(), 10)
        took = loop.time() - began
        assert bound * 0.9 <= took < bound + 2.0, took
        assert (cancelled, manager.timeouts.tasks) == ([0], set())
        log = await stored_forfeits(arena, match)
        assert log[-1][1:] == (0, log[-1][2], True, None)  # seat 0's third timeout, no resign
        assert (await arena.http.get(f"/api/rooms/{code}")).json()["status"] == "playing"


async def test_a_players_own_resign_is_no_forfeit(arena):
    """In a room whose rule forfeits seats that time out, a player who resigns after two
    timeouts resigned: nothing says forfeit, live or stored."""
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = await forfeit_room(arena, ann, bob)
    watcher = await arena.connect(code)
    ann_socket = await arena.connect(code, ann["token"])
    match = service(arena).port(code).match().match_id
    await time_out(arena, code, sleeper=0, player=1, count=2)
    await ann_socket.settle()
    await ann_socket.act({"type": "resign"}, prompt="none")
    while not (ended := await watcher.next("update"))["view"]["outcome"]:
        pass
    assert [e["kind"] for e in ended["events"]] == ["match_over"]
    assert (ended["room"]["status"], ended["room"]["forfeit"]) == ("finished", None)
    assert (await stored_forfeits(arena, match))[-1][2:] == ({"type": "resign"}, False, None)
    detail = (await arena.http.get(f"/api/matches/{match}")).json()
    assert (detail["outcome"]["reason"], detail["forfeit"]) == ("resign", None)
    steps = (await arena.http.get(f"/api/matches/{match}/replay")).json()["steps"]
    assert [step["forfeit"] for step in steps] == [None] * len(steps)


async def test_two_timeouts_in_a_row_change_nothing(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code, clients = await seated_room(arena, [ann, bob], HALF)
    manager = arena.app.state.manager
    match = match_id(clients)
    async with arena.app.state.arena.sessions() as session, session.begin():
        for seq, timeout in ((1, True), (2, False), (3, True), (4, True)):
            await repo.add_action(session, match, seq, 0, {"type": "x"}, timeout, NOW)
    # Seat 0's last three actions: its own, then two timeouts — no streak of 3.
    assert await manager.after_timeout(code, match, 0) is None


async def test_three_timeouts_in_a_row_seat_a_bot_by_default(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    room = await arena.room(ann, HALF)
    assert room["on_timeouts"] == "bot"
    code = room["code"]
    await arena.sit(code, 0, ann)
    await arena.sit(code, 1, bob)
    ann_socket = await arena.connect(code, ann["token"])
    port = service(arena).port(code)
    match = port.match().match_id
    manager = arena.app.state.manager
    await time_out(arena, code, sleeper=0, player=1, count=3)
    room = (await arena.http.get(f"/api/rooms/{code}")).json()
    bot_id = room["seats"][0]["player_id"]
    assert room["seats"][0]["name"] == "Normal bot" and room["status"] == "playing"
    assert room["seats"][0]["bot_level"] == "normal"
    async with arena.app.state.arena.sessions() as session:
        assert await repo.bot_player_ids(session, [bot_id, bob["id"]]) == {bot_id}
        seats = (await repo.match_seats(session, [match]))[match]
        holders = await repo.seat_holders(session, match)
        takeovers = (await repo.match_takeovers(session, [match]))[match]
    # The match's record keeps Ann in seat 0 (she played actions 1-6: her clock's three
    # timeouts); the bot holds it from the 7th action on.
    assert [row.player_id for row in seats] == [ann["id"], bob["id"]]
    assert holders == {0: bot_id, 1: bob["id"]}
    assert {seat: (row.from_step, row.player.player_id) for seat, row in takeovers.items()} \
        == {0: (7, bot_id)}
    # Ann's socket now watches as a spectator: right after the room frame it is shown the
    # spectator's frame of the same version; a 4th timeout does not seat a second bot.
    frame = await ann_socket.next("room")
    while frame["room"]["seats"][0]["player_id"] == ann["id"]:
        frame = await ann_socket.next("room")
    seat_frame = ann_socket.last
    update = await ann_socket.next("update")
    state = await stored_state(arena, match)
    assert update["version"] == seat_frame["version"] and update["events"] == []
    assert (update["view"], update["prompt"], update["legal"]) == (RC.view(state, None), None, [])
    assert seat_frame["view"] == RC.view(state, 0) != update["view"]
    assert await manager.after_timeout(code, match, 0) is None
    await ann_socket.act({"type": "resign"}, prompt="x")
    assert (await ann_socket.next("error"))["code"] == "not_seated"
    # The bot driver now answers seat 0's decisions itself (no clock needed).
    async def bot_answered() -> bool:
        """Answer Bob's decision when he is asked; true once seat 0 has an answer that is no
        timeout."""
        if any(not timeout for _, timeout in await seat_actions(arena, match, 0)):
            return True
        held = port.match()
        if held is not None and 1 in held.prompts and not held.over:
            await port.act(1, held.prompts[1], port.render(1)["legal"][0])
        return False

    await wait_until(bot_answered, "the bot's answer for seat 0", timeout=10, every=0.01)
    assert [t for _, t in await seat_actions(arena, match, 0)][:4] == [True, True, True, False]


async def test_a_takeover_keeps_the_replaced_player_in_the_match_record(db_path):
    """Bob (seat 1) lets his clock play 3 decisions in a row; a bot takes his seat over and
    finishes the match. The record keeps Bob for seat 1 with the bot from the action after his
    third timeout; the action log and the replay credit each action to who played it."""
    async with running_arena(db_path, bot_delay_min=0, bot_delay_max=0) as arena:
        ann, bob = await arena.player("Ann"), await arena.player("Bob")
        code = (await arena.room(ann, HALF))["code"]
        await arena.sit(code, 0, ann)
        await arena.sit(code, 1, bob)
        port = service(arena).port(code)
        match = port.match().match_id

        async def room_seats() -> list[dict]:
            return (await arena.http.get(f"/api/rooms/{code}")).json()["seats"]

        while (await room_seats())[1]["player_id"] == bob["id"]:
            held = port.match()
            if 0 in held.prompts:
                await port.act(0, held.prompts[0], port.render(0)["legal"][0])
            else:
                await let_clock_play(arena, code, 1)
        bot = (await room_seats())[1]
        assert (bot["name"], bot["bot_level"]) == ("Normal bot", "normal")
        bobs = {"player_id": bob["id"], "name": "Bob", "bot_level": None}
        bots = {"player_id": bot["player_id"], "name": "Normal bot", "bot_level": "normal"}
        # While the match is played the record names both, but not from which action the bot
        # plays (how many actions were played is secret until the end).
        playing = (await arena.http.get(f"/api/matches/{match}")).json()
        assert playing["status"] == "playing"
        assert playing["seats"][1] == {"seat": 1, **bobs, "occupants": [
            {**bobs, "from_step": 1}, {**bots, "from_step": None}]}

        async def over() -> bool:
            """Answer Ann's decision when she is asked (the bot answers seat 1's)."""
            held = port.match()
            if held is None or held.over:
                return True
            if 0 in held.prompts:
                await port.act(0, held.prompts[0], port.render(0)["legal"][0])
            return False

        await wait_until(over, "the end of the match", timeout=30, every=0.01)
        async with arena.app.state.arena.sessions() as session:
            rows = await repo.match_actions(session, match)
            rated = await session.scalar(select(func.count()).select_from(Rating))
        # Bob's clock played actions 2, 3 and 5 (Ann answered 1 and 4): the bot holds seat 1
        # from action 6 on (Ann's), answers its first decision at 7 and plays it to the end.
        assert [(row.seq, row.timeout) for row in rows if row.seat == 1][:4] == [
            (2, True), (3, True), (5, True), (7, False)]
        assert not any(row.timeout for row in rows[5:])
        assert rows[-1].seq > 7 and rated == 0  # finished by the bot; a match with a bot: unrated

        detail = (await arena.http.get(f"/api/matches/{match}")).json()
        assert detail["status"] == "finished"
        assert detail["seats"] == [
            {"seat": 0, "player_id": ann["id"], "name": "Ann", "bot_level": None, "occupants": [
                {"player_id": ann["id"], "name": "Ann", "bot_level": None, "from_step": 1}]},
            {"seat": 1, **bobs, "occupants": [{**bobs, "from_step": 1}, {**bots, "from_step": 6}]}]
        played_by = [ann["id"] if row.seat == 0 else bob["id"] if row.seq < 6
                     else bot["player_id"] for row in rows]
        assert [(a["seq"], a["seat"], a["player_id"]) for a in detail["actions"]] == [
            (row.seq, row.seat, who) for row, who in zip(rows, played_by)]
        assert played_by[:7] == [ann["id"], bob["id"], bob["id"], ann["id"], bob["id"], ann["id"],
                                 bot["player_id"]]
        replay = (await arena.http.get(f"/api/matches/{match}/replay")).json()
        assert replay["seats"] == detail["seats"]
        assert [step["player_id"] for step in replay["steps"]] == [None, *played_by]
        # The history lists the match for Bob, for the bot and for Ann, with the same seats.
        for player in (bob["id"], bot["player_id"], ann["id"]):
            page = (await arena.http.get("/api/matches", params={"player": player})).json()
            assert [(m["id"], m["seats"]) for m in page["items"]] == [(match, detail["seats"])]


# ------------------------------------------------------------------ my games

async def test_my_games_lists_the_rooms_i_am_seated_in(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    mine = (await arena.room(bob, HALF))["code"]
    secret = (await arena.http.post("/api/rooms", headers=auth(bob), json={
        "game": "reverse_curse", "options": HALF, "private": True})).json()["code"]
    other = (await arena.room(bob, HALF))["code"]
    await arena.sit(mine, 1, ann)
    await arena.sit(secret, 0, ann)
    await arena.sit(other, 0, bob)
    listed = (await arena.http.get("/api/account/rooms", headers=auth(ann))).json()
    assert [room["code"] for room in listed] == [secret, mine]  # newest first
    assert [room["code"] for room in
            (await arena.http.get("/api/account/rooms", headers=auth(bob))).json()] == [other]
    anonymous = await arena.http.get("/api/account/rooms")
    assert anonymous.status_code == 401
