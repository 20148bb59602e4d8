"""A real server in a background thread (its own event loop), for synchronous clients:
hypothesis property tests and schemathesis drive it with blocking websockets and HTTP."""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any, Iterator

import uvicorn

from tests.conftest import free_port


@contextlib.contextmanager
def threaded_server(app: Any) -> Iterator[str]:
    """Serve ``app`` under uvicorn on a free port (64 KiB websocket frames); yield its URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="on",
                                           log_level="warning", ws_max_size=64 * 1024))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the threaded server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
