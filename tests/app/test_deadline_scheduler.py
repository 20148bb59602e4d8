"""One deadline scheduler for every room (bench/HISTORY.md §4 "third pass"):
``DeadlineScheduler`` fires each watched room's due deadline actions from one ``Clock`` timer,
in deadline order, one at a time per room, until its match is over; ``drop``/``stop`` end it.
Also: a held match keeps the engine's own (shared) legal lists, not copies."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from app.bus.memory import MemoryBroker
from app.rooms.clocks import DeadlineScheduler, ManualClock, SystemClock, Timer
from app.rooms.live import LiveMatch
from app.rooms.live_rooms import LiveRooms
from app.rooms.publisher import Publisher
from engine.core import GameBase
from engine.registry import GAMES
from engine.reverse_curse import GAME
from tests.waiting import wait_until

START = 1_800_000_000.0  # ManualClock's default start


class CountingClock(ManualClock):
    """A ``ManualClock`` that records every ``call_at`` time."""

    def __init__(self) -> None:
        super().__init__(START)
        self.timers: list[float] = []

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        self.timers.append(when - START)
        return super().call_at(when, callback)


class Rooms:
    """Fake rooms: ``deadlines[code]`` are pending deadlines (s after ``START``); a fire plays
    (removes) the earliest due one and records ``(code, deadline)`` (``(code, None)`` when
    none is due); a room whose deadlines run out is over (``fire`` returns False). ``gate``
    (when set up) holds every fire."""

    def __init__(self, clock: ManualClock, **deadlines: list[float]) -> None:
        self.clock = clock
        self.deadlines = {code: sorted(START + d for d in ds) for code, ds in deadlines.items()}
        self.fired: list[tuple[str, float | None]] = []
        self.gate: asyncio.Event | None = None
        self.scheduler = DeadlineScheduler(clock, self.due, self.fire)

    def due(self, code: str) -> float | None:
        return self.deadlines[code][0] if self.deadlines.get(code) else None

    async def fire(self, code: str) -> bool:
        if self.gate is not None:
            await self.gate.wait()
        pending = self.deadlines[code]
        if pending and pending[0] <= self.clock.now():
            self.fired.append((code, pending.pop(0) - START))
        else:
            self.fired.append((code, None))  # asked to fire with nothing due
        return bool(pending)

    def set(self, code: str, *deadlines: float) -> None:
        """Replace ``code``'s deadlines and tell the scheduler (what a move does)."""
        self.deadlines[code] = sorted(START + d for d in deadlines)
        self.scheduler.changed(code)


async def settled(clock: ManualClock, scheduler: DeadlineScheduler) -> None:
    """Return once nothing more can fire until ``clock`` moves: every timer has seen the
    current time (``looked``) and no fire is in flight (a fire that ends arms a timer, which
    is looked at again)."""
    while True:
        await clock.looked()
        if not scheduler.firing():
            return
        await wait_until(lambda: not scheduler.firing(), "the fires in flight ending")


async def test_a_room_fires_when_its_deadline_passes_not_before():
    clock = ManualClock()
    rooms = Rooms(clock, a=[30, 60])
    rooms.scheduler.watch("a")
    clock.advance(29.9)
    await settled(clock, rooms.scheduler)
    assert rooms.fired == [] and rooms.scheduler.watched() == 1
    clock.advance(0.1)
    await wait_until(lambda: rooms.fired == [("a", 30)])
    clock.advance(30)
    await wait_until(lambda: rooms.fired == [("a", 30), ("a", 60)])
    assert rooms.scheduler.watched() == 0  # its deadlines ran out: over, no longer watched


async def test_all_overdue_deadlines_of_a_room_fire_in_order_then_it_waits_again():
    clock = ManualClock()
    rooms = Rooms(clock, a=[10, 10, 20, 100])
    rooms.scheduler.watch("a")
    clock.advance(25)
    await wait_until(lambda: len(rooms.fired) == 3)
    await settled(clock, rooms.scheduler)
    assert rooms.fired == [("a", 10), ("a", 10), ("a", 20)]
    assert rooms.scheduler.watched() == 1
    clock.advance(75)
    await wait_until(lambda: len(rooms.fired) == 4)


async def test_rooms_fire_in_deadline_order_from_one_timer():
    clock = CountingClock()
    rooms = Rooms(clock, a=[30, 90], b=[20, 90], c=[25, 90])
    for code in "abc":
        rooms.scheduler.watch(code)
    assert clock.timers == [30, 20]  # one timer, moved once to the earliest deadline
    clock.advance(40)
    await wait_until(lambda: len(rooms.fired) == 3)
    assert rooms.fired == [("b", 20), ("c", 25), ("a", 30)]
    assert clock.timers[2:] == [90]


async def test_an_earlier_deadline_moves_the_timer_a_later_one_does_not():
    clock = CountingClock()
    rooms = Rooms(clock, a=[30])
    rooms.scheduler.watch("a")
    rooms.set("a", 60)  # a move: the next decision is due later
    rooms.set("a", 90)
    assert clock.timers == [30]  # no timer per move
    clock.advance(30)
    await settled(clock, rooms.scheduler)
    assert rooms.fired == []  # the entry came up early: re-armed for 90
    assert clock.timers == [30, 90]
    rooms.set("a", 45)  # due earlier (e.g. a shorter clock): the timer moves
    assert clock.timers == [30, 90, 45]
    clock.advance(15)
    await wait_until(lambda: rooms.fired == [("a", 45)])


async def test_a_change_while_firing_is_read_after_the_fire():
    clock = ManualClock()
    rooms = Rooms(clock, a=[10, 50])
    rooms.gate = asyncio.Event()
    rooms.scheduler.watch("a")
    clock.advance(10)
    await wait_until(lambda: rooms.scheduler.watched() == 1 and rooms.scheduler.firing() == {"a"})
    rooms.deadlines["a"].append(START + 12)  # a change while the fire is held
    rooms.deadlines["a"].sort()
    rooms.scheduler.changed("a")  # a firing room is not armed: nothing happens now
    clock.advance(2)
    rooms.gate.set()
    await wait_until(lambda: len(rooms.fired) == 2)
    assert rooms.fired == [("a", 10), ("a", 12)]  # both due: fired one after the other
    await settled(clock, rooms.scheduler)
    assert rooms.fired == [("a", 10), ("a", 12)]


async def test_drop_cancels_a_fire_in_flight_and_forgets_the_room():
    clock = ManualClock()
    rooms = Rooms(clock, a=[10, 20], b=[10, 20])
    rooms.gate = asyncio.Event()
    for code in "ab":
        rooms.scheduler.watch(code)
    clock.advance(10)
    await wait_until(lambda: rooms.scheduler.firing() == {"a", "b"})
    task = rooms.scheduler._firing["a"]
    rooms.scheduler.drop("a")
    await asyncio.sleep(0)
    assert task.cancelled()
    rooms.gate.set()
    clock.advance(10)
    await wait_until(lambda: len(rooms.fired) == 2)
    await settled(clock, rooms.scheduler)
    assert rooms.fired == [("b", 10), ("b", 20)]
    assert rooms.scheduler.watched() == 0


async def test_a_fire_that_drops_its_own_room_is_not_cancelled():
    clock = ManualClock()
    done: list[str] = []

    async def fire(code: str) -> bool:
        scheduler.drop(code)  # what the room core does when a timeout ends the match
        await asyncio.sleep(0)
        done.append(code)
        return True

    scheduler = DeadlineScheduler(clock, lambda code: None if done else START + 5, fire)
    scheduler.watch("a")
    clock.advance(5)
    await wait_until(lambda: done == ["a"])
    await settled(clock, scheduler)
    assert done == ["a"] and scheduler.watched() == 0  # dropped: not armed again


async def test_stop_cancels_the_fires_in_flight_and_nothing_fires_afterwards():
    clock = ManualClock()
    rooms = Rooms(clock, a=[10], b=[30])
    rooms.gate = asyncio.Event()
    for code in "ab":
        rooms.scheduler.watch(code)
    clock.advance(10)
    await wait_until(lambda: "a" in rooms.scheduler.firing())
    task = rooms.scheduler._firing["a"]
    await rooms.scheduler.stop()
    assert task.cancelled() and rooms.scheduler.watched() == 0
    rooms.gate.set()
    clock.advance(30)
    await settled(clock, rooms.scheduler)  # the cancelled timer does not count: none pending
    assert rooms.fired == []
    # A room watched after the stop (a match loaded while the process shuts down) is not
    # armed: no timer, nothing fires.
    rooms.deadlines["c"] = [START + 35]
    rooms.scheduler.watch("c")
    rooms.scheduler.changed("c")
    rooms.scheduler.rearm()
    clock.advance(10)
    await settled(clock, rooms.scheduler)
    assert (rooms.fired, rooms.scheduler.watched(), rooms.scheduler._timer) == ([], 0, None)


async def test_watch_of_an_overdue_room_fires_at_once_and_watch_again_restarts_it():
    clock = ManualClock()
    rooms = Rooms(clock, a=[-5, 40])
    rooms.scheduler.watch("a")
    await wait_until(lambda: rooms.fired == [("a", -5)])
    rooms.scheduler.watch("a")  # a new match installed in the room: same single entry
    assert rooms.scheduler.watched() == 1
    clock.advance(40)
    await wait_until(lambda: len(rooms.fired) == 2)
    await settled(clock, rooms.scheduler)
    assert rooms.fired == [("a", -5), ("a", 40)]


async def test_manual_clock_sleep_and_system_clock_timers():
    clock = ManualClock()
    slept = asyncio.create_task(clock.sleep(10))
    await asyncio.sleep(0)  # the task's first step sets its timer
    clock.advance(9.9)
    await clock.looked()  # the timer saw the time 9.9 s on: not due
    assert not slept.done()
    clock.advance(0.1)
    await asyncio.wait_for(slept, 2)
    ran = asyncio.Event()
    SystemClock().call_at(time.time() + 0.01, ran.set)
    await asyncio.wait_for(ran.wait(), 2)
    # A cancelled timer never runs: a later system timer runs after its time, and manual
    # timers due at once look at the time in the order they were set.
    cancelled: list[int] = []
    system, manual = asyncio.Event(), asyncio.Event()
    now = time.time()
    SystemClock().call_at(now + 0.01, lambda: cancelled.append(1)).cancel()
    SystemClock().call_at(now + 0.02, system.set)
    clock.call_at(clock.now(), lambda: cancelled.append(2)).cancel()
    clock.call_at(clock.now(), manual.set)
    await asyncio.wait_for(asyncio.gather(system.wait(), manual.wait()), 2)
    assert cancelled == []


async def test_looked_waits_for_every_pending_timer_to_see_the_time():
    clock = ManualClock()
    await clock.looked()  # no timer: at once
    seen: list[str] = []
    clock.call_at(clock.now() + 5, lambda: seen.append("early"))
    clock.call_at(clock.now() + 9, lambda: seen.append("late"))
    clock.call_at(clock.now() + 1, lambda: seen.append("cancelled")).cancel()
    clock.advance(5)
    await clock.looked()
    assert seen == ["early"]  # the one due has fired; the other saw 5 s and waits
    clock.advance(4)
    await clock.looked()
    assert seen == ["early", "late"]


def held_rooms(clock: ManualClock) -> LiveRooms:
    """``LiveRooms`` with no database: enough to hold matches (nothing due fires)."""
    return LiveRooms(None, Publisher(MemoryBroker()), clock, None)  # type: ignore[arg-type]


def rc_match(number: int, now: float) -> LiveMatch:
    options = GAME.validate_options({"turn_seconds": 120, "shop_seconds": 120})
    return LiveMatch.start(GAME, number, number, f"R{number:03d}", options, 2,
                           bytes([number]) * 32, now)


async def test_held_matches_start_no_task_and_no_timer_per_room():
    clock = CountingClock()
    held = held_rooms(clock)
    tasks = len(asyncio.all_tasks())
    lives = [rc_match(n, clock.now()) for n in range(50)]
    for live in lives:
        held._install(held.enter(live.code), live, [])
    assert len(asyncio.all_tasks()) == tasks
    assert held.retained() == {"rooms": 50, "followed": 0, "clocks": 50}
    assert clock.timers == [120]  # every mulligan clock runs out at START + 120
    live = lives[0]
    seat = min(live.legal)
    step = live.propose(seat, live.legal[seat][0], clock.now() + 5)
    held._commit(held.entry(live.code), live, step)  # a move: the scheduler hears of it
    assert held.held(live.code).version == 1
    assert clock.timers == [120] and len(asyncio.all_tasks()) == tasks
    await held.stop()
    assert held.retained()["clocks"] == 0


def test_a_match_keeps_the_engines_shared_legal_lists():
    live = rc_match(1, START)
    for seat, legal in live.legal.items():
        assert legal is GAME.listed_actions(live.state, seat)  # one list: the engine's
        assert list(legal) == GAME.legal_actions(live.state, seat)
    frame = live.frame(0)
    assert frame["legal"] == GAME.legal_actions(live.state, 0)
    assert frame["legal"] is not live.legal[0]
    step = live.propose(0, frame["legal"][0], START + 1)
    assert step.legal[1] is GAME.listed_actions(step.state, 1)


def test_a_game_with_the_default_listed_actions_keeps_its_legal_actions():
    game = GAMES["zipai"]
    assert type(game).listed_actions is GameBase.listed_actions  # a fresh list per call
    options = game.validate_options({})
    live = LiveMatch.start(game, 1, 1, "Z", options, game.seats(options), bytes(32), START)
    for seat, legal in live.legal.items():
        assert legal == game.legal_actions(live.state, seat) and isinstance(legal, list)
