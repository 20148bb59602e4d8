"""The collector's pauses in ``/metrics``: ``Metrics.watch_collector``."""

from __future__ import annotations

import gc

from app.metrics import Metrics


def _count(metrics: Metrics, generation: str) -> float:
    value = metrics.registry.get_sample_value("arena_gc_pause_seconds_count",
                                              {"generation": generation})
    return 0.0 if value is None else value


def test_each_collection_is_one_pause_of_its_generation_until_unwatched():
    metrics = Metrics()
    enabled = gc.isenabled()
    gc.disable()  # only the collections asked here
    unwatch = metrics.watch_collector()
    try:
        gc.collect(0)
        gc.collect(0)
        gc.collect(2)
    finally:
        unwatch()
    young, full = _count(metrics, "0"), _count(metrics, "2")
    gc.collect(2)  # not watched any more
    if enabled:
        gc.enable()
    assert (young, _count(metrics, "1"), full) == (2.0, 0.0, 1.0)
    assert _count(metrics, "2") == 1.0
    assert metrics.registry.get_sample_value("arena_gc_pause_seconds_sum",
                                             {"generation": "2"}) > 0.0
