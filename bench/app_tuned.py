"""A what-if server for issue 10: the real app with candidate fixes patched in at start.

It starts ``app.main:app`` as ``uvicorn`` would, after applying the patches named in
``BENCH_FIXES`` (comma-separated; default: every one in ``FIXES``). Nothing in ``app/`` is
changed: a patch here only measures what a fix recommended in ``bench/RESULTS.md`` would give,
so it can be compared with the plain app in one suite run before it is applied for real.

Every fix measured so far (SQLite WAL, the room served from memory, no log read before an act
with one process, the SQLite write lock) is now in ``app/`` itself, so ``FIXES`` is empty and
``app-tuned`` serves the plain app; add a patch here to measure the next candidate (the group
commit of bench/RESULTS.md section 3).

Usage: ``BENCH_FIXES=name python -m bench.app_tuned --port 8200`` (``DATABASE_URL`` from the
environment).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Sequence

import uvicorn

#: Fix name -> what patches it in at start (a ``KeyError`` names an unknown fix).
FIXES: dict[str, Callable[[], None]] = {}


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the app, with the ``BENCH_FIXES`` patches, on 127.0.0.1:PORT until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m bench.app_tuned")
    parser.add_argument("--port", type=int, default=8200)
    args = parser.parse_args(argv)
    for name in filter(None, os.environ.get("BENCH_FIXES", ",".join(FIXES)).split(",")):
        FIXES[name]()
    uvicorn.run("app.main:app", host="127.0.0.1", port=args.port, access_log=False,
                log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
