"""``bench.bot_lag``'s pure parts: the verdict, and reading the playing rooms page by page."""

from __future__ import annotations

import asyncio

import httpx

from bench.bot_lag import playing_codes, verdict


def figures(lag_p99: float | None, rtt_p99: float | None) -> dict:
    return {"lag_ms": {"p99": lag_p99}, "rtt_ms": {"p99": rtt_p99}}


def test_the_verdict_checks_the_lag_and_the_round_trip_ratio():
    assert verdict(figures(1.0, 10.0), figures(20.0, 15.0)) == {
        "lag_p99_ms": 20.0, "lag_ok": True, "rtt_p99_ratio": 1.5, "rtt_ok": True, "ok": True}
    assert verdict(figures(1.0, 10.0), figures(20.5, 15.1)) == {
        "lag_p99_ms": 20.5, "lag_ok": False, "rtt_p99_ratio": 1.51, "rtt_ok": False,
        "ok": False}
    assert verdict(figures(1.0, None), figures(None, None))["ok"] is False


def test_the_playing_rooms_are_read_from_every_page():
    pages = {None: {"items": [{"code": "AAAA"}, {"code": "BBBB"}], "next_cursor": "c1"},
             "c1": {"items": [{"code": "CCCC"}], "next_cursor": None}}
    asked = []

    def serve(request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params)
        asked.append(params)
        return httpx.Response(200, json=pages[params.get("cursor")])

    async def read() -> set[str]:
        async with httpx.AsyncClient(base_url="http://bench",
                                     transport=httpx.MockTransport(serve)) as client:
            return await playing_codes(client)

    assert asyncio.run(read()) == {"AAAA", "BBBB", "CCCC"}
    assert asked == [{"status": "playing", "limit": "200"},
                     {"status": "playing", "limit": "200", "cursor": "c1"}]
