"""A ``Link`` (``app.realtime.endpoint``) that records what a session or a hub connection
sends, for tests that drive them without a socket."""

from __future__ import annotations

import json
from typing import Any


class RecordingLink:
    """Records sent frames (decoded) and closes; ``open`` until closed (or made ``gone``)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closes: list[tuple[int, str]] = []
        self.gone = False
        self.greeted = False

    @property
    def open(self) -> bool:
        return not self.gone and not self.closes

    def send_text(self, text: str) -> None:
        if self.open:
            self.sent.append(json.loads(text))

    def close(self, code: int, reason: str = "") -> None:
        if self.open:
            self.closes.append((code, reason))

    async def flush(self, timeout: float) -> None:
        return None

    def hello_seen(self) -> None:
        self.greeted = True
