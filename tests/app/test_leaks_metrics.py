"""``/metrics`` answers only the allowed client addresses (docs/security.md §2 "Version jumps",
§3): it counts every stored action live, hidden answers included, so on a quiet server it would
show each one to anyone."""

from __future__ import annotations

import ipaddress

import pydantic
import pytest

from app.api.ops import address_allowed
from app.settings import Settings, networks
from tests.app.conftest import running_arena

DEFAULT = Settings().metrics_networks


def test_the_default_allows_only_the_loopback_addresses():
    assert DEFAULT == (ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("::1/128"))
    assert [address_allowed(host, DEFAULT) for host in (
        "127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.2", "10.0.0.1", "", None,
        "testclient")] == [True, True, True, False, False, False, False, False]


def test_networks_and_mapped_addresses():
    allowed = networks(" 10.0.0.0/8 , 2001:db8::/32,,192.168.1.7")
    assert [address_allowed(host, allowed) for host in (
        "10.200.3.4", "::ffff:10.1.2.3", "2001:db8::5", "192.168.1.7", "192.168.1.8",
        "11.0.0.1")] == [True, True, True, True, False, False]


@pytest.mark.parametrize("bad", ["localhost", "10.0.0.1/8", "127.0.0.1;::1"])
def test_a_bad_setting_fails_at_start(bad):
    with pytest.raises(pydantic.ValidationError):
        Settings(metrics_allow=bad)


async def test_an_allowed_client_gets_the_metrics(arena):
    answer = await arena.http.get("/metrics")  # the tests' client connects from 127.0.0.1
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert "arena_actions_applied_total" in answer.text


async def test_another_client_gets_404(db_path):
    async with running_arena(db_path, metrics_allow="10.0.0.0/8") as arena:
        answer = await arena.http.get("/metrics")
        assert answer.status_code == 404
        assert answer.json() == {"detail": {"code": "not_found", "message": "Not Found"}}
