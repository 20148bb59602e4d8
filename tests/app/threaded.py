"""A real server in a background thread (its own event loop), for synchronous clients:
hypothesis property tests and schemathesis drive it with blocking websockets and HTTP."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from tests import conftest


@contextlib.contextmanager
def threaded_server(app: Any) -> Iterator[str]:
    """Serve ``app`` like ``tests.conftest.threaded_server`` with a 64 KiB websocket frame
    limit (as ``tests.app.conftest.serve``); yield its URL."""
    with conftest.threaded_server(app, ws_max_size=64 * 1024) as url:
        yield url
