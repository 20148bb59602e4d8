"""Server settings from the environment (pydantic-settings).

``DATABASE_URL`` and ``REDIS_URL`` are read without prefix (the usual names); every other
setting uses the ``ARENA_`` prefix, e.g. ``ARENA_ALLOWED_ORIGINS='["https://example.org"]'``.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/arena.db"


class Settings(BaseSettings):
    """All server settings.

    Attributes:
        database_url: SQLAlchemy async URL (SQLite via aiosqlite, or PostgreSQL via asyncpg).
        redis_url: ``redis://…`` to fan room events out across processes; ``None`` = in-memory.
        allowed_origins: websocket ``Origin`` values accepted besides the server's own host
            (a request without ``Origin`` — a non-browser client — is always accepted).
        max_frame_bytes: the largest websocket frame accepted (bytes; 16 KiB).
        max_body_bytes: the largest HTTP request body accepted (bytes; 64 KiB; the largest
            legitimate body, a room with its options, is well under 1 KiB); a larger one is
            refused with 413 ``request_too_large`` before it is read (``app.api.body_limit``).
        chat_max_length: the longest chat text (characters).
        bot_delay_min, bot_delay_max: a bot's thinking time before each answer, seconds
            (uniform between the two, seeded jitter; 0 and 0 answer at once); a search level
            answers after the longer of that delay and its search.
        bot_workers: worker processes for the search levels' decisions (0: one per CPU this
            process may use; ``app.rooms.bot_workers``).
        bot_budgets: ``{level: seconds}``, the wall-clock budget of a search level's decision,
            counted from when the room asks (past twice that the greedy action is played).
        bot_cpu_cap: a worker's CPU-time cap per decision, in budgets (a safety net).
        bot_decide: ``module:function`` the workers run (``engine.bots.decide``'s signature).
        bot_secret: hex key of the bots' random streams (``app.rooms.bots``);
            ``None`` (the default) = a fresh random key per process. Processes given one key
            answer a decision alike, and a checker that holds it can recompute every answer.
        bot_lease_seconds: how long one process keeps driving a room's bots after its last
            answer there before another may take over (``app.rooms.bot_lease``; seconds).
        presence_seconds: how long a process's presence entry counts without being renewed
            (it renews its entries every third of that; seconds).
        gc_freeze_seconds: how often the server freezes every GC-tracked object (seconds;
            ``app.runtime.Collector``).
        gc_full_seconds: how often the server collects every generation, frozen objects
            included (the longest a garbage cycle is kept; seconds).
        clock_grace_seconds: seconds granted after a restart to a clock that expired while the
            server was down.
        commit_delay_ms: how long the group writer lets a transaction wait for more actions
            while it is in steady use and fewer than ``COMMIT_SIBLINGS`` are queued
            (milliseconds; 0 = never: ``app.db.writer.GroupWriter``; PostgreSQL's
            ``commit_delay`` and ``commit_siblings``).
        frames_per_second: inbound frames a socket may send per second (burst of twice that)
            before getting ``rate_limited``.
        flood_close_after: refused (``rate_limited``) frames a socket may pile up (the pile
            drains at ``frames_per_second``) before it is closed with 1008 (a flood).
        max_json_depth: the deepest nesting of arrays/objects an inbound frame may have.
        max_connections_per_ip: websockets one client IP may hold open at once (0 = no limit).
        hello_timeout_seconds: how long a new websocket may wait before its ``hello``.
        players_per_minute: ``POST /api/players`` per client IP per minute (0 = no limit).
        rooms_per_minute: ``POST /api/rooms`` per client IP per minute (0 = no limit).
        frontend_dir: the folder served at ``/static/`` and holding the pages.
        log_format: ``text`` (``time level logger: message key=value…``) or ``json`` (one JSON
            object per line: ``app.logs``).
        log_level: the level of the ``app`` loggers (``DEBUG``, ``INFO``, ``WARNING``…).
        metrics_allow: the client addresses ``/metrics`` answers, comma-separated IPs or
            networks (``10.0.0.0/8``); others get 404 (docs/security.md §3). A bad entry
            fails at start (``ValueError``).
    """

    model_config = SettingsConfigDict(env_prefix="ARENA_", extra="ignore")

    database_url: str = Field(
        DEFAULT_DATABASE_URL,
        validation_alias=AliasChoices("DATABASE_URL", "ARENA_DATABASE_URL"))
    redis_url: str | None = Field(
        None, validation_alias=AliasChoices("REDIS_URL", "ARENA_REDIS_URL"))
    allowed_origins: list[str] = []
    max_frame_bytes: int = 16 * 1024
    max_body_bytes: int = Field(64 * 1024, gt=0)
    chat_max_length: int = 300
    clock_grace_seconds: float = 10.0
    commit_delay_ms: float = Field(2.0, ge=0, le=50)
    bot_lease_seconds: float = Field(5.0, gt=0)
    presence_seconds: float = Field(30.0, gt=0)
    gc_freeze_seconds: float = Field(1.0, gt=0)
    gc_full_seconds: float = Field(600.0, gt=0)
    bot_delay_min: float = 0.6
    bot_delay_max: float = 1.2
    bot_workers: int = Field(0, ge=0)
    bot_budgets: dict[str, float] = {"hard": 0.5, "expert": 2.5}
    bot_cpu_cap: float = Field(2.0, gt=0)
    bot_decide: str = "engine.bots:decide"
    bot_secret: str | None = Field(None, pattern="^([0-9a-fA-F]{2})+$")
    frames_per_second: float = 20.0
    flood_close_after: int = 100
    max_json_depth: int = 16
    max_connections_per_ip: int = 32
    hello_timeout_seconds: float = 30.0
    players_per_minute: int = 30
    rooms_per_minute: int = 30
    frontend_dir: Path = Path(__file__).resolve().parent.parent / "frontend"
    log_format: Literal["text", "json"] = "text"
    log_level: str = "INFO"
    metrics_allow: str = "127.0.0.1,::1"

    @field_validator("metrics_allow")
    @classmethod
    def _check_networks(cls, value: str) -> str:
        networks(value)
        return value

    @property
    def metrics_networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        """``metrics_allow`` parsed (``networks``)."""
        return networks(self.metrics_allow)


def networks(text: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """Return the networks of a comma-separated list of IPs/networks (``"127.0.0.1,10.0.0.0/8"``;
    an IP is a one-address network; blanks are ignored).

    Raises:
        ValueError: an entry is neither an IP address nor a network (host bits set count too).
    """
    return tuple(ipaddress.ip_network(part.strip()) for part in text.split(",") if part.strip())


def ensure_sqlite_folder(database_url: str) -> None:
    """Create the parent folder of a file-based SQLite database (``./data`` by default).

    Does nothing for other databases or for in-memory SQLite.
    """
    if not database_url.startswith("sqlite"):
        return
    _, _, path = database_url.partition(":///")
    if path and not path.startswith(":memory:"):
        Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
