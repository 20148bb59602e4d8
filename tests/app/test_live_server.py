"""The ``live_server`` fixture (for the browser tests) serves the real app on a free port."""

from __future__ import annotations

import httpx


def test_live_server_serves_the_api(live_server):
    assert live_server.startswith("http://127.0.0.1:")
    games = httpx.get(f"{live_server}/api/games", timeout=10).json()
    assert "reverse_curse" in [g["id"] for g in games]
    created = httpx.post(f"{live_server}/api/players", json={"name": "Ann"}, timeout=10)
    assert created.status_code == 201 and created.json()["id"] == 1
