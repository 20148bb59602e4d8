"""The limit building blocks on their own: per-IP rates, open sockets, JSON depth, floods."""

from __future__ import annotations

import json

import pytest

from app.limits import ConnectionCounter, RateByKey
from app.realtime import frames
from app.realtime.frames import FloodGuard, FrameError, json_depth, parse_frame


class Now:
    """A hand-moved time source (seconds)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_rate_by_key_allows_count_per_window_then_refills():
    now = Now()
    limit = RateByKey(3, 60.0, now)
    assert [limit.take("1.2.3.4") for _ in range(3)] == [0.0, 0.0, 0.0]
    # 3 a minute: one token comes back every 20 s, so the 4th waits 20 s.
    assert limit.take("1.2.3.4") == pytest.approx(20.0)
    assert limit.take("5.6.7.8") == 0.0  # another address has its own budget
    now.t += 10.0  # half a token back
    assert limit.take("1.2.3.4") == pytest.approx(10.0)
    now.t += 10.0
    assert limit.take("1.2.3.4") == 0.0
    assert limit.take("1.2.3.4") == pytest.approx(20.0)


def test_rate_by_key_zero_disables():
    limit = RateByKey(0, 60.0, Now())
    assert not limit.enabled
    assert {limit.take("x") for _ in range(1000)} == {0.0}


def test_rate_by_key_forgets_refilled_addresses(monkeypatch):
    monkeypatch.setattr("app.limits.PRUNE_AT", 3)
    now = Now()
    limit = RateByKey(2, 60.0, now)
    for ip in ("a", "b", "c"):
        limit.take(ip)
    now.t += 30.0  # one token back each: all full again
    limit.take("d")
    assert set(limit._buckets) == {"d"}


def test_connection_counter():
    sockets = ConnectionCounter(2)
    assert [sockets.acquire("ip"), sockets.acquire("ip"), sockets.acquire("ip")] == [
        True, True, False]
    assert sockets.open("ip") == 2 and sockets.acquire("other")
    sockets.release("ip")
    assert sockets.open("ip") == 1 and sockets.acquire("ip")
    sockets.release("ip"), sockets.release("ip")
    assert sockets.open("ip") == 0
    unlimited = ConnectionCounter(0)
    assert all(unlimited.acquire("ip") for _ in range(500))


@pytest.mark.parametrize("text, depth", [
    ('{"type": "ping"}', 1),
    ('{"type": "act", "action": {"cells": [[0, 1], [2, 3]]}}', 4),
    ('{"type": "chat", "text": "[[[{{{"}', 1),               # brackets inside a string
    ('{"type": "chat", "text": "\\"[[["}', 1),               # an escaped quote
    ('{"type": "chat", "text": "\\\\"}', 1),                 # an escaped backslash
    ("[" * 40 + "]" * 40, 40),
])
def test_json_depth(text, depth):
    assert json_depth(text) == depth


def test_deep_nesting_is_refused_before_parsing():
    # 5000 levels fit in 16 KiB and would make json.loads raise RecursionError.
    deep = '{"type": "act", "prompt": "x", "action": ' + "[" * 5000 + "]" * 5000 + "}"
    with pytest.raises(FrameError) as refused:
        parse_frame(deep, 16 * 1024, 300, max_depth=16)
    assert refused.value.code == "bad_frame"
    assert "nest" in refused.value.message
    nested: list = [1]
    for _ in range(13):  # the frame, the action and 14 lists: 16 levels
        nested = [nested]
    at_limit = json.dumps({"type": "act", "prompt": "x", "action": {"a": nested}})
    assert json_depth(at_limit) == 16
    assert parse_frame(at_limit, 16 * 1024, 300, max_depth=16).action == {"a": nested}
    with pytest.raises(FrameError):
        parse_frame(json.dumps({"type": "act", "prompt": "x", "action": {"a": [nested]}}),
                    16 * 1024, 300, max_depth=16)


def test_brackets_inside_strings_do_not_count_toward_the_depth():
    chat = '{"type":"chat","text":"[[[{{{"}'  # 7 brackets, all in a string: depth 1
    assert parse_frame(chat, 4096, 200, max_depth=1).text == "[[[{{{"
    act = '{"type":"act","prompt":"1.0.ab","action":{"type":"play","card":"+1"}}'  # depth 2
    assert parse_frame(act, 4096, 200, max_depth=2).action == {"type": "play", "card": "+1"}
    with pytest.raises(FrameError) as refused:
        parse_frame('{"type":"act","action":{"a":[[1]]}}', 4096, 200, max_depth=3)  # depth 4
    assert (refused.value.code, refused.value.message) == (
        "bad_frame", "A frame may nest arrays and objects at most 3 deep.")


def test_recursion_in_the_parser_is_bad_json(monkeypatch):
    def boom(text):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(frames.json, "loads", boom)
    with pytest.raises(FrameError) as refused:
        parse_frame('{"type": "ping"}', 16 * 1024, 300)
    assert refused.value.code == "bad_json"


def test_flood_guard_refuses_then_closes(monkeypatch):
    clock = Now()
    monkeypatch.setattr(frames.time, "monotonic", clock)
    guard = FloodGuard(rate=5.0, close_after=4)
    # A burst of 2 × 5 passes, the next 4 are refused, the 5th refused one closes.
    verdicts = [guard.check() for _ in range(15)]
    assert verdicts == [FloodGuard.PASS] * 10 + [FloodGuard.REFUSE] * 4 + [FloodGuard.CLOSE]


def test_flood_guard_forgives_an_occasional_burst(monkeypatch):
    clock = Now()
    monkeypatch.setattr(frames.time, "monotonic", clock)
    guard = FloodGuard(rate=5.0, close_after=4)
    for _ in range(6):  # six bursts of 13, 10 s apart: 3 refused each time, never closed
        verdicts = [guard.check() for _ in range(13)]
        assert verdicts == [FloodGuard.PASS] * 10 + [FloodGuard.REFUSE] * 3
        clock.t += 10.0
