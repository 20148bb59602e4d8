"""The collector's schedule in a server (``app.runtime.Collector``): frozen objects are not
walked by the collections between two full ones; a full one finds the cycles frozen meanwhile."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.main import create_app
from app.runtime import Collector
from app.settings import Settings


class Node:
    """One half of a reference cycle (only the collector can free it)."""

    def __init__(self) -> None:
        self.other: Node | None = None


def garbage_cycle() -> weakref.ref[Node]:
    """Make two nodes that refer to each other, drop them, return a weak reference to one."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def quiet_collector() -> Iterator[None]:
    """Only the collections the test asks for; the process's collector restored after."""
    enabled = gc.isenabled()
    gc.disable()
    gc.collect()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def test_a_frozen_cycle_survives_collections_until_the_full_one(quiet_collector):
    collector = Collector(freeze_seconds=1.0, full_seconds=600.0)
    collector.tick(1000.0)               # the first tick: a full collection, then a freeze
    cycle = garbage_cycle()
    collector.tick(1001.0)               # frozen: out of every generation
    assert gc.get_freeze_count() > 0
    assert gc.get_count() == (0, 0, 0)
    gc.collect(2)                        # a collection walks none of the frozen objects
    assert cycle() is not None
    collector.tick(1599.0)               # not yet: still frozen
    assert cycle() is not None
    collector.tick(1600.0)               # 600 s after the last one: the full collection
    assert cycle() is None
    fresh = garbage_cycle()
    collector.tick(2199.0)               # the next one is 600 s after that one
    gc.collect(2)
    assert fresh() is not None
    collector.tick(2200.0)
    assert fresh() is None


async def test_a_failing_tick_is_logged_and_the_schedule_goes_on(quiet_collector, caplog,
                                                                  monkeypatch):
    freezes: list[int] = []
    freeze = gc.freeze

    def failing_once() -> None:
        freezes.append(1)
        if len(freezes) == 2:            # the first scheduled tick's
            raise RuntimeError("no freeze")
        freeze()

    monkeypatch.setattr(gc, "freeze", failing_once)
    caplog.set_level(logging.INFO, logger="app.runtime")
    collector = Collector(freeze_seconds=0.01, full_seconds=600.0)
    collector.tick(time.monotonic())     # the first full collection
    collector.start()
    try:
        for _ in range(500):
            if len(freezes) >= 3:
                break
            await asyncio.sleep(0.01)
    finally:
        await collector.stop()
    assert len(freezes) >= 3
    assert [r.getMessage() for r in caplog.records if r.name == "app.runtime"] == \
        ["full collection", "collector tick failed"]
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("freeze, full", [(0.0, 600.0), (1.0, 0.0), (-1.0, 600.0),
                                          (1.0, -1.0)])
def test_a_schedule_needs_positive_periods(freeze, full):
    with pytest.raises(ValueError, match="must be > 0"):
        Collector(freeze, full)


async def test_a_server_freezes_while_it_runs_and_unfreezes_when_it_stops(quiet_collector,
                                                                           tmp_path: Path):
    """The lifespan's schedule: frozen within a tick; the next full collection (every
    ``gc_full_seconds``) frees a cycle frozen before it (the automatic collections are off:
    only the schedule's full collection can free it)."""
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'gc.db'}",
                              gc_freeze_seconds=0.01, gc_full_seconds=1.0))

    async def frozen() -> bool:
        for _ in range(500):
            if gc.get_freeze_count() > 0:
                return True
            await asyncio.sleep(0.01)
        return False

    async with app.router.lifespan_context(app):
        assert await frozen()
        cycle = garbage_cycle()
        await asyncio.sleep(0.05)        # frozen by the ticks; kept until the full one
        assert cycle() is not None
        for _ in range(500):
            if cycle() is None:
                break
            await asyncio.sleep(0.01)
        assert cycle() is None
    assert gc.get_freeze_count() == 0
