"""The service checks of tests/conftest.py: skip when a service is missing, fail under
``REQUIRE_SERVICES=1``."""

from __future__ import annotations

import pytest

from tests.conftest import free_port, port_problem, require


def test_a_missing_service_skips(monkeypatch):
    monkeypatch.delenv("REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Redis is not available: down"):
        require("Redis", "down")


def test_a_missing_service_fails_when_required(monkeypatch):
    monkeypatch.setenv("REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception, match="REQUIRE_SERVICES=1"):
        require("PostgreSQL", "nothing answers")


def test_a_present_service_passes(monkeypatch):
    monkeypatch.setenv("REQUIRE_SERVICES", "1")
    require("Chromium", None)


def test_port_problem_names_a_closed_port():
    port = free_port()
    assert f"127.0.0.1:{port}" in port_problem("127.0.0.1", port)
