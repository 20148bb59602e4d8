"""``bench.bot_lag``'s pure parts: the verdict and the burning stand-in decision."""

from __future__ import annotations

from bench.bot_lag import verdict


def figures(lag_p99: float | None, rtt_p99: float | None) -> dict:
    return {"lag_ms": {"p99": lag_p99}, "rtt_ms": {"p99": rtt_p99}}


def test_the_verdict_checks_the_lag_and_the_round_trip_ratio():
    assert verdict(figures(1.0, 10.0), figures(20.0, 15.0)) == {
        "lag_p99_ms": 20.0, "lag_ok": True, "rtt_p99_ratio": 1.5, "rtt_ok": True, "ok": True}
    assert verdict(figures(1.0, 10.0), figures(20.5, 15.1)) == {
        "lag_p99_ms": 20.5, "lag_ok": False, "rtt_p99_ratio": 1.51, "rtt_ok": False,
        "ok": False}
    assert verdict(figures(1.0, None), figures(None, None))["ok"] is False
