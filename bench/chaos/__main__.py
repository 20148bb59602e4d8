"""``python -m bench.chaos``: one chaos run, its JSON summary on stdout (exit status 1 when a
check found a violation).

Usage::

    python -m bench.chaos                       # 50 rooms of every game, 180 s of faults
    python -m bench.chaos --rooms 4 --seconds 40 --kill-every 10   # a short run

Targets 127.0.0.1 only; needs PostgreSQL (the database of ``--database-url`` is dropped and
recreated) and ``redis-server`` (started here on ``--redis-port``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import uvloop

from bench import servers
from bench.chaos.run import ALL_GAMES, ChaosConfig, run_chaos


def parse_args(argv: Sequence[str] | None) -> ChaosConfig:
    """Return the run's ``ChaosConfig`` from the command line."""
    d = ChaosConfig()
    p = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ports", default=",".join(map(str, d.ports)),
                   help="one port per server process, comma-separated")
    p.add_argument("--redis-port", type=int, default=d.redis_port)
    p.add_argument("--database-url", default=d.database_url)
    p.add_argument("--folder", default=str(d.folder), help="server logs and Redis' folder")
    p.add_argument("--games", default=",".join(d.games), help="comma-separated game ids")
    p.add_argument("--rooms", type=int, default=d.rooms, help="rooms of every game")
    p.add_argument("--spectators", type=int, default=d.spectators, help="per room")
    p.add_argument("--think", type=float, default=d.think, help="mean seconds a person thinks")
    p.add_argument("--drop-mean", type=float, default=d.drop_mean,
                   help="mean seconds a client keeps a socket before dropping it")
    p.add_argument("--seconds", type=float, default=d.seconds, help="seconds of faults")
    p.add_argument("--kill-every", type=float, default=d.kill_every,
                   help="mean seconds between two process kills")
    p.add_argument("--redis-at", type=float, help="second Redis is killed (default: half-way)")
    p.add_argument("--redis-down", type=float, default=d.redis_down)
    p.add_argument("--converge-timeout", type=float, default=d.converge_timeout)
    p.add_argument("--seed", type=int, default=d.seed)
    a = p.parse_args(argv)
    games = tuple(a.games.split(","))
    unknown = [g for g in games if g not in ALL_GAMES]
    if unknown:
        p.error(f"unknown games: {', '.join(unknown)}")
    return ChaosConfig(tuple(int(x) for x in a.ports.split(",")), a.redis_port, a.database_url,
                       Path(a.folder), games, a.rooms, a.spectators, a.think, a.drop_mean,
                       a.seconds, a.kill_every, a.redis_at, a.redis_down, a.converge_timeout,
                       d.bot_delay, a.seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Run once; print the summary as one JSON line; 1 when there were violations."""
    config = parse_args(argv)
    servers.raise_fd_limit()
    summary = uvloop.run(run_chaos(config))
    print(json.dumps(summary), flush=True)
    return 1 if summary["violation_count"] else 0


if __name__ == "__main__":
    sys.exit(main())
