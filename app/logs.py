"""Structured logs: one line per record, JSON (``ARENA_LOG_FORMAT=json``) or ``key=value`` text.

Fields given through ``extra={...}`` (``room``, ``match``, ``seq``…) become keys of the line.
A JSON line is ``{"ts": ISO 8601 UTC, "level", "logger", "msg", …extra, "exc"?}``.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from app.rooms.observe import Applied

#: Attributes every ``LogRecord`` has; anything else on a record came from ``extra``.
STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
#: The loggers that get our handler: the app's own; uvicorn's keep theirs, re-formatted.
APP_LOGGER = "app"
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")

log = logging.getLogger(__name__)


def extras(record: logging.LogRecord) -> dict[str, object]:
    """Return the ``extra`` fields of ``record`` (its non-standard attributes)."""
    return {k: v for k, v in vars(record).items() if k not in STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON object (non-JSON values through ``str``)."""

    def format(self, record: logging.LogRecord) -> str:
        data = {"ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
                "level": record.levelname.lower(), "logger": record.name,
                "msg": record.getMessage(), **extras(record)}
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


class TextFormatter(logging.Formatter):
    """Formats a record as ``time level logger: message key=value…`` for people."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        pairs = " ".join(f"{k}={v}" for k, v in extras(record).items())
        text = super().format(record)
        return f"{text} {pairs}" if pairs else text


def formatter(fmt: str) -> logging.Formatter:
    """Return the formatter of ``fmt`` (``"json"`` or ``"text"``).

    Raises:
        ValueError: another format.
    """
    if fmt == "json":
        return JsonFormatter()
    if fmt == "text":
        return TextFormatter()
    raise ValueError(f"log format must be 'json' or 'text', not {fmt!r}")


def configure_logging(fmt: str, level: str) -> None:
    """Send the ``app`` loggers to stderr with ``fmt`` at ``level``; re-format uvicorn's.

    Idempotent: a second call replaces the handler it installed (one app per test is fine).
    """
    chosen = formatter(fmt)
    logger = logging.getLogger(APP_LOGGER)
    for handler in [h for h in logger.handlers if getattr(h, "arena", False)]:
        logger.removeHandler(handler)
    handler = logging.StreamHandler()
    handler.arena = True  # type: ignore[attr-defined]
    handler.setFormatter(chosen)
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    if fmt == "json":
        for name in UVICORN_LOGGERS:
            for other in logging.getLogger(name).handlers:
                other.setFormatter(chosen)


def log_applied(applied: Applied) -> None:
    """Log one stored action at INFO (an observer of ``RoomService.observe``)."""
    log.info("action applied", extra={
        "game": applied.game, "room": applied.code, "match": applied.match_id,
        "seq": applied.version, "seat": applied.seat, "timeout": applied.timeout,
        "ms": None if applied.seconds is None else round(applied.seconds * 1000, 2)})
