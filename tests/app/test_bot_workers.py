"""The bots' decisions off the event loop (``app.rooms.bot_workers``): inline levels, the worker
pool, the late and crashed fallbacks to the greedy action, the CPU-time cap."""

from __future__ import annotations

import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from app.rooms.bot_workers import (
    Thinker,
    Thought,
    default_workers,
    load_decide,
    process_pool,
    think,
)
from engine.bots import decide
from engine.registry import GAMES
from tests.app.bot_fakes import CRASH_SEED, HangingExecutor

SEED = bytes(range(32))
OTHER_SEED = b"\x07" * 32


def seat_frame(game_id: str = "numgr", seat: int = 0) -> tuple[dict, list[dict]]:
    """Return the view and legal actions of ``seat`` at the start of a match of ``game_id``."""
    game = GAMES[game_id]
    state = game.new_game(game.validate_options({}), 2, SEED)
    return game.view(state, seat), game.legal_actions(state, seat)


def fake(name: str) -> str:
    return f"tests.app.bot_fakes:{name}"


def records(caplog, message: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.getMessage() == message]


async def test_easy_and_normal_decide_inline_without_a_pool():
    view, legal = seat_frame()
    thinker = Thinker(1, executor_factory=lambda n: pytest.fail("no pool for inline levels"))
    for level in ("easy", "normal"):
        assert await thinker.decide("numgr", level, view, legal, SEED) == \
            decide("numgr", level, view, legal, SEED)
    assert not thinker.running()


async def test_mahjong_decides_its_greedy_action_in_a_thread_the_others_on_the_loop():
    game = GAMES["mahjong"]
    state = game.new_game(game.validate_options({}), 4, SEED)
    seat = min(game.to_act(state))
    mahjong = (game.view(state, seat), game.legal_actions(state, seat))
    numgr = seat_frame()
    thinker = Thinker(1, executor_factory=lambda n: pytest.fail("no pool for inline levels"))
    threads: dict[str, int] = {}

    def recording(game_id, level, view, legal, seed):
        threads[game_id] = threading.get_ident()
        return decide(game_id, level, view, legal, seed)

    thinker._inline = recording
    assert await thinker.decide("mahjong", "normal", *mahjong, SEED) == \
        decide("mahjong", "normal", *mahjong, SEED)
    assert await thinker.decide("numgr", "normal", *numgr, SEED) == \
        decide("numgr", "normal", *numgr, SEED)
    assert threads["numgr"] == threading.get_ident()
    assert threads["mahjong"] != threading.get_ident()


async def test_a_search_runs_in_the_pool_and_returns_its_answer():
    view, legal = seat_frame()
    thinker = Thinker(2, decide_path=fake("first_legal"), executor_factory=ThreadPoolExecutor)
    try:
        assert await thinker.decide("numgr", "hard", view, legal, SEED) == legal[0]
        assert thinker.counts == {"searched": 1, "late": 0, "crashed": 0, "failed": 0}
    finally:
        await thinker.close()
    assert not thinker.running()


async def test_a_late_search_plays_the_greedy_action_and_is_logged(caplog):
    view, legal = seat_frame()
    pools: list[HangingExecutor] = []
    thinker = Thinker(1, budgets={"hard": 0.01},
                      executor_factory=lambda n: pools.append(HangingExecutor(n)) or pools[-1])
    with caplog.at_level(logging.WARNING, logger="app.rooms.bot_workers"):
        action = await thinker.decide("numgr", "hard", view, legal, SEED)
    assert action == decide("numgr", "normal", view, legal, SEED)
    assert thinker.counts["late"] == 1 and thinker.counts["searched"] == 0
    [late] = records(caplog, "bot search late: greedy action played")
    assert (late.game, late.level, late.deadline) == ("numgr", "hard", 0.02)
    assert late.waited >= 0.02
    assert pools[0].futures[0].cancelled()  # never started once late
    await thinker.close()
    assert pools[0].shut


async def test_a_crashed_worker_plays_greedy_and_the_pool_is_rebuilt(caplog):
    view, legal = seat_frame()
    pools = []

    def factory(workers):
        pools.append(process_pool(workers))
        return pools[-1]

    thinker = Thinker(1, budgets={"hard": 30.0}, decide_path=fake("crash_on_zero_seed"),
                      executor_factory=factory)
    try:
        with caplog.at_level(logging.ERROR, logger="app.rooms.bot_workers"):
            action = await thinker.decide("numgr", "hard", view, legal, CRASH_SEED)
        assert action == decide("numgr", "normal", view, legal, CRASH_SEED)
        assert thinker.counts["crashed"] == 1 and not thinker.running()
        assert len(records(caplog, "bot worker crashed: greedy action played, pool rebuilt")) == 1
        answer = await thinker.decide("numgr", "hard", view, legal, OTHER_SEED)
        assert len(pools) == 2 and thinker.counts["searched"] == 1
        worker = answer["worker"]
        assert worker != os.getpid()
    finally:
        await thinker.close()
    with pytest.raises(ProcessLookupError):  # the pool's worker is gone after close()
        os.kill(worker, 0)


async def test_the_cpu_cap_cuts_a_search_and_is_logged(caplog):
    view, legal = seat_frame()
    thinker = Thinker(1, budgets={"hard": 60.0}, cpu_cap_factor=0.0005,  # a 0.03 s CPU cap
                      decide_path=fake("spin_until_stopped"), executor_factory=ThreadPoolExecutor)
    try:
        with caplog.at_level(logging.WARNING, logger="app.rooms.bot_workers"):
            action = await thinker.decide("numgr", "hard", view, legal, SEED)
    finally:
        await thinker.close()
    assert action == legal[-1] and thinker.counts["searched"] == 1
    [cut] = records(caplog, "bot search cut by its CPU-time cap")
    assert (cut.game, cut.level) == ("numgr", "hard") and cut.cpu_seconds >= 0.03


def test_think_reports_what_cut_the_search():
    view, legal = seat_frame()
    later = time.monotonic() + 600
    quick = think("engine.bots:decide", 60.0, later, "numgr", "normal", view, legal, SEED)
    assert quick.action == decide("numgr", "normal", view, legal, SEED) and quick.cut is None
    capped = think(fake("spin_until_stopped"), 0.01, later, "numgr", "hard", view, legal, SEED)
    assert capped.action == legal[-1] and capped.cut == "cpu" and capped.cpu_seconds >= 0.01
    soon = time.monotonic() + 0.02
    stopped = think(fake("spin_until_stopped"), 60.0, soon, "numgr", "hard", view, legal, SEED)
    assert stopped.action == legal[-1] and stopped.cut == "deadline"
    assert time.monotonic() >= soon


def test_think_does_not_start_a_search_whose_deadline_passed():
    view, legal = seat_frame()
    missed = think(fake("spin_until_stopped"), 60.0, time.monotonic(), "numgr", "hard", view,
                   legal, SEED)
    assert missed == Thought(None, 0.0, "deadline")


def test_helpers():
    assert default_workers() == len(os.sched_getaffinity(0))
    assert load_decide("engine.bots:decide") is decide
    with pytest.raises(ValueError):
        load_decide("engine.bots.decide")


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_workers_run_in_the_idle_scheduling_class():
    pool = process_pool(1)
    try:
        assert pool.submit(os.sched_getscheduler, 0).result(timeout=30) == os.SCHED_IDLE
    finally:
        pool.shutdown()
