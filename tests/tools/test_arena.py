"""The arena tool: seeded bot-vs-bot matches, seats rotated, and its summary figures."""

from __future__ import annotations

import io
import json
import math

import pytest

from tools import arena


def test_intervals_and_percentiles():
    half = 1.96 * math.sqrt(1 / 3) / 2          # sample stdev sqrt(1/3), n = 4
    assert arena.interval([1.0, 0.0, 1.0, 0.0]) == pytest.approx((0.5, 0.5 - half, 0.5 + half))
    assert arena.interval([3.0]) == (3.0, 3.0, 3.0)
    assert arena.percentile([5, 1, 4, 2, 3], 50) == 3
    assert arena.percentile([5, 1, 4, 2, 3], 99) == 5
    assert arena.percentile([], 50) == 0.0


def test_hand_rows_rank_ties_by_their_mean_rank():
    assert arena._hand_row({"scores": [6, -2, -2, -2]}, 0) == (8.0, 1.0)
    assert arena._hand_row({"payments": [-3, 6, -3]}, 0) == (-4.5, 2.5)


def test_a_two_player_run_rotates_seats_and_prints_a_json_summary():
    out = io.StringIO()
    summary = arena.main(["numgr", "--bots", "normal,easy", "--games", "2", "--seed", "t"], out)
    assert summary["games"] == 2 and summary["bots"] == ["normal", "easy"]
    records = [arena.play("numgr", ("normal", "easy"), n, "t", {}) for n in range(2)]
    assert summary["win_rate"]["mean"] == sum(r.result for r in records) / 2
    line = out.getvalue().strip().splitlines()[-1]
    assert json.loads(line)["summary"]["win_rate"] == summary["win_rate"]


def test_a_four_player_run_reports_per_hand_scores_and_ranks():
    summary = arena.main(["mahjong", "--bots", "normal,easy", "--games", "1",
                          "--options", '{"hands": 4}'], io.StringIO())
    assert summary["hands"] == 4
    assert set(summary) >= {"score_diff", "rank", "cpu_A", "cpu_B"}
    assert 1.0 <= summary["rank"]["mean"] <= 4.0


def test_unknown_levels_are_refused():
    with pytest.raises(SystemExit):
        arena.main(["numgr", "--bots", "hard"], io.StringIO())
    with pytest.raises(SystemExit):
        arena.main(["numgr", "--bots", "hard,greedy"], io.StringIO())


def test_a_duplicate_run_seats_a_everywhere_and_cancels_the_deal():
    # The same bot in every seat plays each seating alike: each match's mean row is 0.
    summary = arena.main(["mahjong", "--bots", "normal,normal", "--games", "1", "--duplicate",
                          "--options", '{"hands": 4}'], io.StringIO())
    assert summary["duplicate"] is True and summary["hands"] == 16
    assert summary["score_diff"]["mean"] == pytest.approx(0.0, abs=1e-9)
    assert summary["rank"]["mean"] == pytest.approx(2.5)
    with pytest.raises(SystemExit):
        arena.main(["numgr", "--bots", "normal,easy", "--duplicate"], io.StringIO())
