"""Replay verifier: ``python -m tools.verify MATCH.json``.

``MATCH.json`` is the REST match detail of a finished match (``GET /api/matches/{id}``,
docs/protocol.md ``MatchDetail``): ``game``, ``options``, ``seats``, ``seed_commitment``,
``seed`` (hex), ``actions`` (``[{seq, seat, action, at}]``) and ``outcome``. The verifier checks,
in order, and stops at the first failure:

1. the match is finished (``seed`` and ``actions`` present) and its game is registered;
2. ``sha256(seed) == seed_commitment`` (ARCHITECTURE.md "Fairness": the commitment shown at the
   start binds the seed revealed at the end);
3. the options are valid for the game and give as many seats as the match has;
4. the log's ``seq`` run 1, 2, … without a gap;
5. replaying the log from ``new_game(options, seats, seed)`` (the deal) accepts every action:
   ``{"type": "resign"}`` through ``GAME.resign``, anything else must be one of
   ``GAME.legal_actions(state, seat)`` and is applied with ``GAME.apply``;
6. the replayed match is over and its outcome equals the recorded ``outcome``.

Exit status 0 when everything checks, 1 with the first failure (2 for a usage error).
``verify_match(data)`` is the same check for the server (a "verify" button) to reuse.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError, Game
from engine.registry import GAMES

RESIGN = {"type": "resign"}


class VerifyError(Exception):
    """The first check a match failed; ``str(error)`` is the report's failure line."""


@dataclass(frozen=True)
class VerifyReport:
    """What ``verify_match`` found.

    Attributes:
        ok: every check passed.
        checks: one line per passed check, in order.
        failure: the first failed check's message (``None`` when ``ok``).
        game: the match's game id (``None`` when unreadable).
        actions: how many logged actions were replayed successfully.
    """

    ok: bool
    checks: tuple[str, ...] = ()
    failure: str | None = None
    game: str | None = None
    actions: int = 0

    def text(self) -> str:
        """Return the short printable report: the passed checks, then OK or FAILED: reason."""
        lines = [f"  ok  {line}" for line in self.checks]
        lines.append("OK: the match verifies." if self.ok else f"FAILED: {self.failure}")
        return "\n".join(lines)


@dataclass
class _Run:
    """The verification in progress (checks passed so far, actions replayed)."""

    checks: list[str] = field(default_factory=list)
    game: str | None = None
    actions: int = 0

    def passed(self, line: str) -> None:
        self.checks.append(line)

    def report(self, failure: str | None = None) -> VerifyReport:
        return VerifyReport(failure is None, tuple(self.checks), failure, self.game, self.actions)


def _game(data: Mapping[str, Any], games: Mapping[str, Game]) -> Game:
    """Check step 1: a finished match of a registered game."""
    if not isinstance(data, Mapping):
        raise VerifyError("the match JSON must be an object.")
    if data.get("seed") is None or data.get("actions") is None:
        raise VerifyError("the match is not finished: no seed or no actions were published.")
    game_id = data.get("game")
    if not isinstance(game_id, str) or game_id not in games:
        raise VerifyError(f"unknown game {game_id!r}.")
    return games[game_id]


def check_commitment(seed_hex: Any, commitment: Any) -> bytes:
    """Return the seed bytes if ``sha256(seed)`` is ``commitment`` (step 2).

    Args:
        seed_hex: the revealed seed, hex text. commitment: the published SHA-256, hex text.

    Raises:
        VerifyError: the seed is not hex, or its SHA-256 differs from the commitment.
    """
    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        raise VerifyError("the seed is not hex text.") from None
    digest = hashlib.sha256(seed).hexdigest()
    if not isinstance(commitment, str) or digest != commitment.lower():
        raise VerifyError(f"the seed does not match the commitment: sha256(seed) = {digest}, "
                          f"seed_commitment = {commitment}.")
    return seed


def _options(game: Game, data: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """Check step 3: valid options whose seat count is the match's."""
    try:
        options = game.validate_options(data.get("options"))
    except ValueError as exc:
        raise VerifyError(f"invalid options: {exc}") from None
    seats = data.get("seats")
    count = game.seats(options)
    if not isinstance(seats, list) or len(seats) != count:
        got = len(seats) if isinstance(seats, list) else seats
        raise VerifyError(f"the options give {count} seats, the match lists {got}.")
    return options, count


def _log(actions: Any) -> list[Mapping[str, Any]]:
    """Check step 4: a list of ``{seq, seat, action}`` with seq 1, 2, … (returned in order)."""
    if not isinstance(actions, list) or not all(isinstance(a, Mapping) for a in actions):
        raise VerifyError("actions must be a list of objects.")
    ordered = sorted(actions, key=lambda a: a.get("seq") if isinstance(a.get("seq"), int) else -1)
    for expected, row in enumerate(ordered, start=1):
        if row.get("seq") != expected:
            raise VerifyError(f"the log has no action with seq {expected}.")
    return ordered


def _replay_one(game: Game, state: Any, players: int, row: Mapping[str, Any]) -> Any:
    """Return the state after the logged ``row`` (step 5).

    Raises:
        VerifyError: a bad seat, an action not legal now, or the engine refusing it.
    """
    seq, seat = row["seq"], row.get("seat")
    action: Any = row.get("action")  # any JSON (a missing one too): the engine judges it
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise VerifyError(f"seq {seq}: no seat {seat!r} in this match.")
    try:
        if action == RESIGN:
            return game.resign(state, seat)[0]
        if action not in game.legal_actions(state, seat):
            game.apply(state, seat, action)  # to name the engine's reason
            raise VerifyError(f"seq {seq}: seat {seat}'s action {action} is not legal now.")
        return game.apply(state, seat, action)[0]
    except EngineError as exc:
        raise VerifyError(f"seq {seq}: seat {seat}'s action {action} is refused: "
                          f"{exc.code}: {exc.message}") from None


def _plain(value: Any) -> Any:
    """Return ``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _outcome(game: Game, state: Any, recorded: Any) -> dict[str, Any]:
    """Check step 6: the replay is over with the recorded outcome; return it."""
    outcome = game.outcome(state)
    if outcome is None:
        raise VerifyError("the replayed match is not over.")
    replayed = _plain(outcome.to_json())
    if _plain(recorded) != replayed:
        raise VerifyError(f"the outcome differs: recorded {json.dumps(recorded, sort_keys=True)}"
                          f", replayed {json.dumps(replayed, sort_keys=True)}.")
    return replayed


def _verify(data: Any, games: Mapping[str, Game], run: _Run) -> None:
    game = _game(data, games)
    run.game = game.spec.id
    run.passed(f"finished {run.game} match")
    seed = check_commitment(data["seed"], data.get("seed_commitment"))
    run.passed(f"sha256(seed) = seed_commitment = {data['seed_commitment']}")
    options, players = _options(game, data)
    run.passed(f"options valid, {players} seats")
    log = _log(data["actions"])
    state = game.new_game(options, players, seed)
    for row in log:
        state = _replay_one(game, state, players, row)
        run.actions += 1
    run.passed(f"dealt from the seed and replayed {run.actions} logged action(s), all legal")
    replayed = _outcome(game, state, data.get("outcome"))
    run.passed(f"outcome {replayed['reason']}, ranks {replayed['ranks']}, as recorded")


def verify_match(data: Any, games: Mapping[str, Game] = GAMES) -> VerifyReport:
    """Verify a finished match's exported JSON (see the module docstring for the checks).

    Args:
        data: the ``MatchDetail`` JSON (parsed). games: ``{id: GAME}`` (default: the registry).

    Returns:
        A ``VerifyReport``: ``ok`` with every check listed, or the first failure. Never raises
        for bad data; an engine crash on hostile data is reported as a failure.
    """
    run = _Run()
    try:
        _verify(data, games, run)
    except VerifyError as exc:
        return run.report(str(exc))
    except Exception as exc:  # noqa: BLE001 - hostile input must give a report, not a trace
        return run.report(f"the engine crashed on this log: {type(exc).__name__}: {exc}")
    return run.report()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 verified, 1 failed)."""
    parser = argparse.ArgumentParser(prog="python -m tools.verify", description=__doc__.split(
        "\n")[0])
    parser.add_argument("match", help="the match detail JSON (GET /api/matches/{id})")
    args = parser.parse_args(argv)
    try:
        with open(args.match, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"FAILED: cannot read {args.match}: {exc}")
        return 1
    report = verify_match(data)
    print(report.text())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
