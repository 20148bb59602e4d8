"""``make bench``: the standard benchmark set, each run in its own process, one JSON line each.

The standard set (``make bench``, about 5 minutes on the 2-core machine): the engine speeds;
peak throughput (think time 0) of the app and of the ceiling with frames of the app's measured
sizes (the ratio is taken within this one suite run); the target load (1,000 Reverse Curse
rooms, 2 players + 2 spectators each, one move per second per room) against the app on SQLite.

Optional, adding 3-6 minutes: ``--postgres`` runs the target load against two app processes on PostgreSQL + Redis (both must
answer on 127.0.0.1; the database is dropped and recreated). Then a summary line with every
target and whether it was met.

Usage: ``python -m bench.suite [--quick] [--peak] [--postgres [--postgres-url URL]
[--redis-url URL]] [--out FILE]`` (``--quick``: 100 rooms, short windows; for trying the
suite, not for figures; ``--peak``: only the peak pair, app then ceiling, and their ratio).
In the peak runs the players ask for a rematch whenever a match ends (``bench.load``), so every
room plays for the whole window against both servers (the ceiling's matches never end).
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.servers import HOST, ROOT

#: Room options of every load run: long clocks so no timeout plays a move during set-up.
OPTIONS = json.dumps({"turn_seconds": 120, "shop_seconds": 120})


def run_module(module: str, args: Sequence[str], timeout: float) -> list[dict[str, Any]]:
    """Run ``python -m module args`` and return the JSON lines it printed.

    A run that fails or times out yields ``[{"bench": module, "error": ...}]`` instead.
    """
    command = [sys.executable, "-m", module, *args]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [{"bench": module, "args": list(args), "error": f"timed out after {timeout} s"}]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return [{"bench": module, "args": list(args), "error": done.stderr.strip()[-2000:]}]
    return lines


def load(kind: str, rooms: int, think: float, seconds: float, port: int,
         extra: Sequence[str] = (), label: str = "") -> dict[str, Any]:
    """Run one ``bench.load`` against a server of ``kind`` it starts on ``port``."""
    args = ["--start", kind, "--port", str(port), "--rooms", str(rooms), "--spectators", "2",
            "--think", str(think), "--seconds", str(seconds), "--options", OPTIONS, *extra]
    return {"run": f"{kind}{label} think={think} rooms={rooms}",
            **run_module("bench.load", args, timeout=600)[0]}


def answers(url: str, default_port: int) -> bool:
    """Return whether the host:port of ``url`` (only 127.0.0.1/localhost) accepts TCP."""
    netloc = url.split("://", 1)[-1].split("/", 1)[0].rpartition("@")[2]
    host, _, port = netloc.partition(":")
    if host not in (HOST, "localhost"):
        return False
    try:
        with socket.create_connection((host, int(port or default_port)), timeout=1):
            return True
    except OSError:
        return False


def _p99(line: dict[str, Any]) -> float | None:
    """Return a load line's round-trip p99 (ms); ``inf`` when it ran but no move came back."""
    if "error" in line or "rtt_ms" not in line:
        return None
    p99 = line["rtt_ms"]["p99"]
    return float("inf") if p99 is None else p99


def targets(engines: list[dict], peak: dict, ceiling: dict, target: dict) -> dict[str, Any]:
    """Return each benchmark target (bench/RESULTS.md) with the measured figure and whether it was met."""
    def get(line: dict, *path: str) -> Any:
        value: Any = line
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        return value
    speed = {e.get("game"): e.get("actions_per_cpu_s") for e in engines}
    ratio = None
    if get(peak, "moves_per_s") and get(ceiling, "moves_per_s"):
        ratio = round(peak["moves_per_s"] / ceiling["moves_per_s"], 3)
    p99, errors = _p99(target), get(target, "error_count")
    rss, idle = get(target, "server", "rss_peak_mb"), get(target, "server", "idle_room_kb")
    checks = {
        "peak_moves_per_s": (get(peak, "moves_per_s"), None, None),
        "ceiling_moves_per_s": (get(ceiling, "moves_per_s"), None, None),
        "rc_actions_per_cpu_s>=20000": (speed.get("reverse_curse"), 20_000, ">="),
        "zipai_actions_per_cpu_s>=10000": (speed.get("zipai"), 10_000, ">="),
        "peak_ratio_to_ceiling>=0.35": (ratio, 0.35, ">="),
        "target_rtt_p99_ms<=50": (p99, 50, "<="),
        "target_errors==0": (errors, 0, "<="),
        "target_rss_peak_mb<=400": (rss, 400, "<="),
        "idle_room_kb<=90": (idle, 90, "<="),
    }
    out = {}
    for name, (value, limit, op) in checks.items():
        met = None if value is None or op is None else (
            value >= limit if op == ">=" else value <= limit)
        out[name] = {"value": value, "met": met}
    return out


def peak_pair(rooms: int, seconds: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the peak load (think 0) against the app, then against the ceiling with frames of the
    sizes the app sent; return both lines."""
    peak = load("app", rooms, 0, seconds, 8201)
    sizes = peak.get("frame_bytes", {})
    ceiling_args = (f"--update-bytes {sizes.get('update', 3000)} "
                    f"--welcome-bytes {sizes.get('welcome', 1000)}")
    return peak, load("ceiling", rooms, 0, seconds, 8202, ["--ceiling-args", ceiling_args])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the standard set; print every result line, then the summary; return 0."""
    parser = argparse.ArgumentParser(prog="python -m bench.suite", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--peak", action="store_true", help="only the peak pair")
    parser.add_argument("--postgres", action="store_true",
                        help="also run PostgreSQL + Redis with two processes")
    parser.add_argument("--postgres-url",
                        default="postgresql+asyncpg://postgres@127.0.0.1:5432/bench_arena")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    parser.add_argument("--out", help="also append the JSON lines to this file")
    args = parser.parse_args(argv)
    rooms, peak_rooms, window = (100, 50, 8) if args.quick else (1000, 200, 20)
    began = time.monotonic()

    def emit(line: dict[str, Any]) -> dict[str, Any]:
        print(json.dumps(line), flush=True)
        if args.out:
            with open(args.out, "a") as handle:
                handle.write(json.dumps(line) + "\n")
        return line

    if args.peak:
        peak, ceiling = map(emit, peak_pair(peak_rooms, window / 2))
        checks = targets([], peak, ceiling, {})
        emit({"bench": "summary", "app": {k: checks[k] for k in (
            "peak_moves_per_s", "ceiling_moves_per_s", "peak_ratio_to_ceiling>=0.35")},
            "minutes": round((time.monotonic() - began) / 60, 1)})
        return 0
    engines = [emit(line) for line in run_module(
        "bench.engines", ["--seconds", "2" if args.quick else "5"], timeout=300)]
    peak, ceiling = map(emit, peak_pair(peak_rooms, window / 2))
    target = emit(load("app", rooms, 1.0, window, 8203))
    summary: dict[str, Any] = {"bench": "summary", "machine": "see bench/RESULTS.md",
               "app": targets(engines, peak, ceiling, target)}
    if not args.postgres:
        pass
    elif answers(args.postgres_url, 5432) and answers(args.redis_url, 6379):
        scaled = emit(load("app", rooms, 1.0, window, 8206, [
            "--database-url", args.postgres_url, "--redis-url", args.redis_url, "--workers", "2",
            "--connect-rate", "40", "--rest-concurrency", "4"], label="-postgres-redis-x2"))
        p99 = _p99(scaled)
        summary["postgres_redis_2_processes"] = {
            "target_rtt_p99_ms<=100": {"value": p99, "met": None if p99 is None else p99 <= 100},
            "target_errors==0": {"value": scaled.get("error_count"),
                                 "met": scaled.get("error_count") == 0}}
    else:
        summary["postgres_redis_2_processes"] = "skipped: PostgreSQL or Redis not answering"
    summary["minutes"] = round((time.monotonic() - began) / 60, 1)
    emit(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
