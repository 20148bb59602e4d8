"""Pins of measured tuning (run with ``pytest bench/``; not part of ``make test``): each holds
a setting or a fast path that a benchmark showed pays (bench/HISTORY.md §3, §3b). A failure
here says "measure again", not that the server behaves wrongly: the behaviour itself is tested
in ``tests/``."""

from __future__ import annotations

import gc
from pathlib import Path

from app.main import create_app
from app.realtime import frames
from app.realtime.schemas import Act, Chat
from app.runtime import tune_gc
from app.settings import Settings


async def test_a_server_collects_garbage_at_the_tuned_thresholds(tmp_path: Path):
    """The thresholds of bench/HISTORY.md §3b "tail", set when a server starts."""
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # CPython's defaults
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'gc.db'}",
                              redis_url=None))
    try:
        async with app.router.lifespan_context(app):
            assert gc.get_threshold() == (50_000, 0, 100)
    finally:
        gc.set_threshold(*before)


def test_a_middle_collection_follows_each_young_one():
    """At the tuned thresholds a middle collection follows each young one, so it walks the
    survivors of at most 2 × 50,000 allocations (at ``(50000, 20, 100)`` it came after 20
    young ones: 1 M objects at 1,000 rooms, one 260-350 ms pause; bench/HISTORY.md §3b
    "tail")."""
    seen: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    before = gc.get_threshold()
    gc.collect()  # every generation's count back to 0
    tune_gc()
    gc.callbacks.append(record)
    try:
        kept: list[list[int]] = [[] for _ in range(6 * 50_000 + 100)]  # tracked, surviving
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*before)
    assert len(kept) == 300_100
    assert seen == [0, 1, 0, 1, 0, 1]


def test_a_frame_with_few_brackets_skips_the_depth_loop(monkeypatch):
    """``json_depth`` walks the text in Python; a frame with at most ``max_depth`` opening
    brackets cannot nest deeper, so it is not walked (every ``act`` frame; bench/HISTORY.md
    §3). The walk is watched, not replaced: every verdict is the real one."""
    walked: list[str] = []
    depth = frames.json_depth

    def watched(text: str) -> int:
        walked.append(text)
        return depth(text)

    monkeypatch.setattr(frames, "json_depth", watched)
    act = '{"type":"act","prompt":"1.0.ab","action":{"type":"play","card":"+1"}}'
    assert isinstance(frames.parse_frame(act, 4096, 200, max_depth=2), Act)
    assert walked == []
    chat = '{"type":"chat","text":"[[[{{{"}'  # 7 brackets, all in a string: depth 1
    parsed = frames.parse_frame(chat, 4096, 200, max_depth=6)
    assert isinstance(parsed, Chat) and parsed.text == "[[[{{{"
    assert walked == [chat]
