"""Settings from the environment, the SQLite folder, and the websocket origin rule."""

from __future__ import annotations

from app.realtime.endpoint import origin_allowed
from app.settings import DEFAULT_DATABASE_URL, Settings, ensure_sqlite_folder


def test_settings_read_the_environment(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    defaults = Settings()
    assert (defaults.database_url, defaults.redis_url) == (DEFAULT_DATABASE_URL, None)
    assert (defaults.max_frame_bytes, defaults.chat_max_length) == (16384, 300)
    assert defaults.clock_grace_seconds == 10.0 and defaults.allowed_origins == []
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://db/arena")
    monkeypatch.setenv("REDIS_URL", "redis://cache:6379/0")
    monkeypatch.setenv("ARENA_ALLOWED_ORIGINS", '["https://arena.example"]')
    monkeypatch.setenv("ARENA_CLOCK_GRACE_SECONDS", "3")
    custom = Settings()
    assert custom.database_url == "postgresql+asyncpg://db/arena"
    assert custom.redis_url == "redis://cache:6379/0"
    assert custom.allowed_origins == ["https://arena.example"]
    assert custom.clock_grace_seconds == 3.0


def test_sqlite_folder_is_created(tmp_path):
    ensure_sqlite_folder(f"sqlite+aiosqlite:///{tmp_path}/data/nested/arena.db")
    assert (tmp_path / "data" / "nested").is_dir()
    ensure_sqlite_folder("postgresql+asyncpg://db/arena")  # nothing to create


def socket(origin, host="arena.example:8000", scheme="ws"):
    """The upgrade request's headers and the socket's scheme."""
    headers = {"host": host} if origin is None else {"host": host, "origin": origin}
    return headers, scheme


def test_origin_rule():
    assert origin_allowed(*socket(None), [])
    assert origin_allowed(*socket("http://arena.example:8000"), [])
    assert not origin_allowed(*socket("http://evil.example"), [])
    assert origin_allowed(*socket("https://friend.example"), ["https://friend.example/"])
    assert origin_allowed(*socket("https://anyone.example"), ["*"])


def test_origin_rule_compares_scheme_host_and_port():
    assert not origin_allowed(*socket("https://arena.example:8000"), [])  # ws socket, https page
    assert origin_allowed(*socket("https://arena.example:8000", scheme="wss"), [])
    assert not origin_allowed(*socket("http://arena.example:8000", scheme="wss"), [])
    assert origin_allowed(*socket("https://arena.example", "arena.example", "wss"), [])
    assert origin_allowed(*socket("https://arena.example:443", "arena.example", "wss"), [])
    assert not origin_allowed(*socket("http://arena.example:8001"), [])
    assert origin_allowed(*socket("http://ARENA.example:8000"), [])
    assert not origin_allowed(*socket("ftp://arena.example:8000"), [])
    assert not origin_allowed(*socket("null"), [])
