"""Tests of the benchmark helpers (run with ``pytest bench/``; not part of ``make test``).

Expected values are worked out by hand in the comments.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from bench import procstat
from bench.ceiling import Ceiling, CeilingRoom
from bench.engines import EngineRun, play_random_game
from bench.metrics import Recorder, RoomTrace, percentile, summary_ms
from bench.suite import targets
from engine.registry import GAMES


def test_percentile_is_nearest_rank():
    values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]  # sorted: 1..10
    assert percentile(values, 50) == 5    # ceil(0.5 * 10) = 5th value
    assert percentile(values, 95) == 10   # ceil(9.5) = 10th
    assert percentile(values, 10) == 1    # ceil(1.0) = 1st
    assert percentile(values, 11) == 2    # ceil(1.1) = 2nd
    assert percentile([], 50) is None


def test_summary_is_in_milliseconds():
    assert summary_ms([0.001, 0.002, 0.004]) == {"n": 3, "p50": 2.0, "p95": 4.0, "p99": 4.0,
                                                 "max": 4.0}
    assert summary_ms([]) == {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}


def test_fan_out_counts_only_versions_every_spectator_saw():
    trace = RoomTrace()
    trace.caused = {1: 10.0, 2: 20.0, 3: 30.0}
    trace.spectator_reached(0, 1, 10.5)   # spectator A: v1 at 10.5
    trace.spectator_reached(0, 2, 20.25)  # spectator B: v1 and v2 at 20.25 (skipped v1)
    trace.spectator_reached(1, 3, 30.5)   # spectator A: v2 and v3 at 30.5
    # v1: last of (10.5, 20.25) - 10 = 10.25; v2: last of (20.25, 30.5) - 20 = 10.5;
    # v3: only A saw it -> not counted.
    assert trace.fan_out_delays(2) == [10.25, 10.5]
    assert trace.fan_out_delays(0) == []


def test_recorder_counts_moves_only_inside_the_window():
    recorder = Recorder(start=100.0, end=110.0)
    recorder.move(99.0, 99.5)    # before the window
    recorder.move(100.0, 100.25)
    recorder.move(109.0, 109.5)
    recorder.move(110.0, 110.5)  # the window is half-open
    assert recorder.rtts == [0.25, 0.5]
    recorder.frame("welcome", 100)
    recorder.frame("welcome", 300)
    assert recorder.welcomed == 2
    assert recorder.mean_frame_bytes() == {"welcome": 200}
    result = recorder.result([], 2)
    assert (result["moves"], result["moves_per_s"]) == (2, 0.2)  # 2 moves / 10 s


def test_engine_run_rates():
    run = EngineRun("reverse_curse", games=10, actions=50_000, seconds=2.0, cpu_seconds=2.5)
    line = run.to_json()
    assert line["games_per_s"] == 5.0
    assert line["actions_per_s"] == 25_000
    assert line["actions_per_cpu_s"] == 20_000  # 50,000 / 2.5
    assert line["met"] is True                  # exactly the 20,000 target


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_game_ends_within_max_length(game_id):
    game = GAMES[game_id]
    taken = play_random_game(game, 7, random.Random(7))
    assert 0 < taken <= game.spec.max_length


def test_procstat_reads_this_process():
    sample = procstat.sample(os.getpid())
    assert sample.processes >= 1
    assert sample.rss_bytes > 1024 * 1024
    assert sample.cpu_seconds >= 0
    with pytest.raises(ProcessLookupError):
        procstat.sample(2 ** 22 + 1)  # above the kernel's pid_max limit


def test_ceiling_pads_frames_to_the_requested_size():
    ceiling = Ceiling(seats=2, update_bytes=2000, welcome_bytes=900)
    room = CeilingRoom("c1", 2, ["t1", "t2"], version=3)  # seat 3 % 2 = 1 is asked
    asked = json.loads(ceiling.frame(room, 1, "update", 2000))
    other = ceiling.frame(room, 0, "update", 2000)
    assert len(ceiling.frame(room, 1, "update", 2000)) == 2000
    assert len(other) == 2000
    assert (asked["prompt"], asked["legal"]) == ("3", [{"type": "go"}])
    assert json.loads(other)["legal"] == []


def test_targets_compare_against_the_issue_limits():
    engines = [{"game": "reverse_curse", "actions_per_cpu_s": 25_000},
               {"game": "zipai", "actions_per_cpu_s": 9_999}]
    peak, ceiling = {"moves_per_s": 300.0}, {"moves_per_s": 600.0}
    target = {"rtt_ms": {"p99": 50.0}, "error_count": 1,
              "server": {"rss_peak_mb": 400.5, "idle_room_kb": 100.0}}
    out = targets(engines, peak, ceiling, target)
    assert out["rc_actions_per_cpu_s>=20000"]["met"] is True
    assert out["zipai_actions_per_cpu_s>=10000"]["met"] is False
    assert out["peak_ratio_to_ceiling>=0.5"] == {"value": 0.5, "met": True}
    assert out["target_rtt_p99_ms<=50"]["met"] is True
    assert out["target_errors==0"]["met"] is False
    assert out["target_rss_peak_mb<=400"]["met"] is False
    assert out["idle_room_kb<=100"]["met"] is True
