"""Bot against bot on seeded matches: ``python -m tools.arena GAME --bots hard,normal --games N``.

Match ``n`` is dealt from ``arena/<seed>/<game>/<n>``. The first bot (A) holds seat ``n % seats``
and the second bot (B) every other seat, so A plays each seat equally often. Every decision is
made from the deciding seat's view and legal actions only (``engine.bots.make_bot``), its
``Rng`` derived from the match seed, the seat and the step.

Reported:

- 2-player games: A's win rate (a draw counts ½) with its 95 % interval (normal approximation,
  1.96 standard errors of the per-match result, clipped to 0 … 1);
- 3–4 players (zipai, mahjong): per hand, A's score less the mean of the B seats' scores, and
  A's rank among the seats by that hand's score (1 best, ties share the mean rank), each with
  its 95 % interval;
- CPU time per decision (``time.process_time``) p50 and p99 for each bot, and the greatest;
- one ``{"summary": ...}`` JSON line with every figure.

``--duplicate`` (3–4 players, a diagnostic): match ``n`` is played once with A in each seat,
from the same seed (so the same walls or decks hand by hand), and the score figure is the mean
over matches of each match's mean per-hand row, with its interval over the matches: the luck of
the deal, the same for every seating, cancels out (with B in every seat the figure is exactly 0
when the bots tie-break by seat). It measures the same quantity as the plain run with far fewer
matches, but it is not the gate's command.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bots import LEVELS, make_bot
from engine.core import Rng
from engine.registry import get_game

__all__ = ["MatchRecord", "play", "summarize", "interval", "percentile", "main"]


@dataclass
class MatchRecord:
    """One match: A's result (2 players: 1 win, ½ draw, 0 loss), the per-hand rows (3–4
    players: ``(A's score − mean B score, A's rank)``) and the CPU seconds of each decision."""

    result: float | None = None
    hands: list[tuple[float, float]] = field(default_factory=list)
    match: int = 0
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})


def _rank(scores: Sequence[float], seat: int) -> float:
    better = sum(1 for s in scores if s > scores[seat])
    equal = sum(1 for s in scores if s == scores[seat])
    return better + (equal + 1) / 2


def _hand_row(sheet: dict[str, Any], seat: int) -> tuple[float, float]:
    scores: Sequence[float] = sheet["scores"] if "scores" in sheet else sheet["payments"]
    others = [s for i, s in enumerate(scores) if i != seat]
    return scores[seat] - statistics.fmean(others), _rank(scores, seat)


def play(game_id: str, levels: tuple[str, str], n: int, seed: str,
         options: dict[str, Any], a_seat: int | None = None) -> MatchRecord:
    """Play match ``n`` (module doc) with A in ``a_seat`` (default ``n % seats``) and return its
    record."""
    game = get_game(game_id)
    opts = game.validate_options(options)
    seats = game.seats(opts)
    match_seed = f"arena/{seed}/{game_id}/{n}".encode()
    a_seat = n % seats if a_seat is None else a_seat
    bots = {"A": make_bot(game_id, levels[0]), "B": make_bot(game_id, levels[1])}
    state = game.new_game(opts, seats, match_seed)
    record = MatchRecord(match=n)
    for step in range(game.spec.max_length + 1):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = acting[0]
        who = "A" if seat == a_seat else "B"
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        began = time.process_time()
        action = bots[who].choose(game, view, legal, Rng.derive(match_seed, "bot", seat, step))
        if len(legal) > 1:
            record.cpu[who].append(time.process_time() - began)
        state, _ = game.apply(state, seat, action)
    outcome = game.outcome(state)
    assert outcome is not None, "the match loop ends only at an outcome"
    if seats == 2:
        record.result = 0.5 if outcome.draw else float(outcome.ranks[a_seat] == 1)
    else:
        record.hands = [_hand_row(sheet, a_seat) for sheet in state.results]
    return record


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Return ``(mean, low, high)``: the mean and its 95 % interval (1.96 standard errors)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], p: float) -> float:
    """Return the ``p``-th percentile (nearest rank) of ``values`` (0.0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def summarize(game_id: str, levels: tuple[str, str], records: Sequence[MatchRecord],
              options: dict[str, Any]) -> dict[str, Any]:
    """Return the figures of the module doc as a JSON-ready dict."""
    summary: dict[str, Any] = {"game": game_id, "options": options, "bots": list(levels),
                               "games": len(records)}
    if records and records[0].result is not None:
        mean, low, high = interval([r.result for r in records if r.result is not None])
        summary["win_rate"] = {"mean": mean, "low": max(0.0, low), "high": min(1.0, high)}
    else:
        rows = [row for r in records for row in r.hands]
        summary["hands"] = len(rows)
        groups: dict[int, list[MatchRecord]] = {}
        for r in records:
            groups.setdefault(r.match, []).append(r)
        duplicate = any(len(g) > 1 for g in groups.values())
        for name, column in (("score_diff", 0), ("rank", 1)):
            if duplicate:       # each match's mean over its seatings' mean rows
                values = [statistics.fmean(statistics.fmean(row[column] for row in r.hands)
                                           for r in g) for g in groups.values()]
            else:
                values = [row[column] for row in rows]
            mean, low, high = interval(values)
            summary[name] = {"mean": mean, "low": low, "high": high}
        summary["duplicate"] = duplicate
    for who, level in zip("AB", levels):
        cpu = [c for r in records for c in r.cpu[who]]
        summary[f"cpu_{who}"] = {"level": level, "decisions": len(cpu),
                                 "p50": percentile(cpu, 50), "p99": percentile(cpu, 99),
                                 "max": max(cpu, default=0.0)}
    return summary


def _print(summary: dict[str, Any], out: Any) -> None:
    a, b = summary["bots"]
    print(f"{summary['game']}: {a} (A) vs {b} (B), {summary['games']} matches", file=out)
    if "win_rate" in summary:
        w = summary["win_rate"]
        print(f"  A's win rate {w['mean']:.1%} (95 % {w['low']:.1%} … {w['high']:.1%})", file=out)
    else:
        d, r = summary["score_diff"], summary["rank"]
        print(f"  {summary['hands']} hands{' (duplicate)' if summary['duplicate'] else ''}: "
              f"A − mean B per hand {d['mean']:+.2f} "
              f"(95 % {d['low']:+.2f} … {d['high']:+.2f}); A's rank {r['mean']:.2f} "
              f"(95 % {r['low']:.2f} … {r['high']:.2f})", file=out)
    for who in "AB":
        c = summary[f"cpu_{who}"]
        print(f"  CPU per decision {who} ({c['level']}): p50 {c['p50'] * 1000:.0f} ms, "
              f"p99 {c['p99'] * 1000:.0f} ms, max {c['max'] * 1000:.0f} ms "
              f"({c['decisions']} decisions)", file=out)
    print(json.dumps({"summary": summary}), file=out)


def _play_star(args: tuple) -> MatchRecord:
    return play(*args)


def main(argv: Sequence[str] | None = None, out: Any = sys.stdout) -> dict[str, Any]:
    """Parse ``argv``, play the matches, print the figures; return the summary."""
    parser = argparse.ArgumentParser(prog="python -m tools.arena", description=__doc__)
    parser.add_argument("game", help="engine id, e.g. numgr")
    parser.add_argument("--bots", default="hard,normal", help="two levels, A,B")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--options", default="{}", help="room options as JSON")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--duplicate", action="store_true",
                        help="3-4 players: each match once with A in every seat (module doc)")
    args = parser.parse_args(argv)
    levels = tuple(args.bots.split(","))
    if len(levels) != 2 or any(level not in LEVELS for level in levels):
        parser.error(f"--bots takes two of {', '.join(LEVELS)}, e.g. hard,normal")
    options = json.loads(args.options)
    jobs: list[tuple] = [(args.game, levels, n, args.seed, options) for n in range(args.games)]
    if args.duplicate:
        game = get_game(args.game)
        seats = game.seats(game.validate_options(options))
        if seats < 3:
            parser.error("--duplicate is for games of 3-4 players")
        jobs = [(*job, seat) for job in jobs for seat in range(seats)]
    began = time.perf_counter()
    if args.jobs > 1:
        from multiprocessing import Pool
        with Pool(args.jobs) as pool:
            records = pool.map(_play_star, jobs, chunksize=1)
    else:
        records = [_play_star(job) for job in jobs]
    summary = summarize(args.game, levels, records, options)
    summary["wall_seconds"] = round(time.perf_counter() - began, 1)
    _print(summary, out)
    return summary


if __name__ == "__main__":
    main()
