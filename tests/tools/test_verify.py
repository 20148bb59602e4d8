"""``tools.verify``: a genuine match verifies; a wrong commitment, a tampered action and a
tampered outcome each fail with the right message."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.registry import GAMES
from tools.verify import main, verify_match

ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))
COMMITMENT = hashlib.sha256(SEED).hexdigest()
AT = "2026-11-30T06:00:00+00:00"


def _detail(game_id: str, options: dict, log: list[tuple[int, dict]], outcome: dict) -> dict:
    """A ``MatchDetail`` as ``GET /api/matches/{id}`` returns it (docs/protocol.md)."""
    game = GAMES[game_id]
    seats = game.seats(game.validate_options(options))
    return _json({
        "id": 7, "game": game_id, "room_code": "ABCD", "status": "finished",
        "options": options, "seats": [{"seat": s, "player_id": s + 1, "name": f"p{s}"}
                                      for s in range(seats)],
        "outcome": outcome, "started_at": AT, "finished_at": AT,
        "seed_commitment": COMMITMENT, "seed": SEED.hex(),
        "actions": [{"seq": i, "seat": seat, "action": action, "at": AT}
                    for i, (seat, action) in enumerate(log, start=1)],
    })


def _json(data: dict) -> dict:
    """``data`` as a client reads it back (tuples become lists, as in the database's JSON)."""
    return json.loads(json.dumps(data))


def _resigned() -> dict:
    """Reverse Curse, seat 0 resigns at once: its side (seat 0 alone in 1v1) ranks 2, seat 1
    ranks 1, position 0 (rulings "Match flow" 8; core ``Outcome.to_json``)."""
    outcome = {"ranks": [2, 1], "reason": "resign", "winners": [1], "draw": False,
               "detail": {"position": 0}}
    return _detail("reverse_curse", {}, [(0, {"type": "resign"})], outcome)


#: Short matches per game for the every-game check.
SHORT = {"zipai": {"hands": 1}, "grid_reversal": {"width": 3}, "reverse_curse":
         {"regulation": "half"}}


def _played(game_id: str = "reverse_curse") -> dict:
    """A whole match of random legal actions (a half-regulation one for Reverse Curse), as the
    server logs it; its outcome is the engine's (what the server stores)."""
    game = GAMES[game_id]
    options = SHORT.get(game_id, {})
    full = game.validate_options(options)
    state = game.new_game(full, game.seats(full), SEED)
    chooser, log = random.Random(5), []
    while game.to_act(state):
        seat = chooser.choice(sorted(game.to_act(state)))
        action = chooser.choice(game.legal_actions(state, seat))
        log.append((seat, action))
        state, _ = game.apply(state, seat, action)
    return _detail(game_id, options, log, game.outcome(state).to_json())


def test_a_genuine_resigned_match_verifies_with_every_check_listed():
    report = verify_match(_resigned())
    assert report.ok and report.failure is None
    assert report.game == "reverse_curse" and report.actions == 1
    assert report.text() == "\n".join([
        "  ok  finished reverse_curse match",
        f"  ok  sha256(seed) = seed_commitment = {COMMITMENT}",
        "  ok  options valid, 2 seats",
        "  ok  dealt from the seed and replayed 1 logged action(s), all legal",
        "  ok  outcome resign, ranks [2, 1], as recorded",
        "OK: the match verifies.",
    ])


def test_a_genuine_played_match_verifies():
    data = _played()
    report = verify_match(data)
    assert report.ok, report.failure
    assert report.actions == len(data["actions"]) and len(report.checks) == 5


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_genuine_match_of_every_game_verifies(game_id):
    data = _played(game_id)
    report = verify_match(data)
    assert report.ok, report.failure
    assert report.game == game_id and report.actions == len(data["actions"])


def test_a_wrong_commitment_fails_before_any_replay():
    data = _resigned()
    data["seed_commitment"] = hashlib.sha256(b"another seed").hexdigest()
    report = verify_match(data)
    assert not report.ok and report.actions == 0
    assert report.failure == (
        f"the seed does not match the commitment: sha256(seed) = {COMMITMENT}, "
        f"seed_commitment = {data['seed_commitment']}.")
    assert report.checks == ("finished reverse_curse match",)


def test_a_tampered_action_fails_at_its_seq():
    data = _played()
    # Set 1 opens with the mulligan (rulings "Match flow" 3-4): a play is not possible yet.
    data["actions"][0] = {"seq": 1, "seat": 0, "action": {"type": "play", "card": "+1"},
                          "at": AT}
    report = verify_match(data)
    assert report.failure == ("seq 1: seat 0's action {'type': 'play', 'card': '+1'} is "
                              "refused: wrong_phase: 'play' is not possible in the mulligan.")
    assert report.actions == 0


def test_an_action_after_the_end_is_refused():
    data = _resigned()
    data["actions"].append({"seq": 2, "seat": 1, "action": {"type": "mulligan", "card": None},
                            "at": AT})
    report = verify_match(data)
    assert report.failure == ("seq 2: seat 1's action {'type': 'mulligan', 'card': None} is "
                              "refused: game_over: The match is over.")
    assert report.actions == 1


def test_a_tampered_outcome_fails_naming_both_outcomes():
    data = _resigned()
    data["outcome"] = {**data["outcome"], "ranks": [1, 2], "winners": [0]}
    report = verify_match(data)
    assert report.failure == (
        'the outcome differs: recorded {"detail": {"position": 0}, "draw": false, '
        '"ranks": [1, 2], "reason": "resign", "winners": [0]}, replayed {"detail": '
        '{"position": 0}, "draw": false, "ranks": [2, 1], "reason": "resign", "winners": [1]}.')
    assert report.actions == 1


def test_an_unfinished_match_a_gap_and_a_bad_seat_count_fail():
    unfinished = {**_resigned(), "seed": None, "actions": None}
    assert verify_match(unfinished).failure == (
        "the match is not finished: no seed or no actions were published.")
    gap = _played()
    del gap["actions"][1]
    assert verify_match(gap).failure == "the log has no action with seq 2."
    seats = _resigned()
    seats["seats"] = seats["seats"][:1]
    assert verify_match(seats).failure == "the options give 2 seats, the match lists 1."
    assert verify_match([]).failure == "the match JSON must be an object."


def test_hostile_values_give_a_report_not_a_crash():
    data = _resigned()
    data["actions"][0]["seat"] = "0"
    assert verify_match(data).failure == "seq 1: no seat '0' in this match."
    data = _resigned()
    data["seed"] = "not hex"
    assert verify_match(data).failure == "the seed is not hex text."


def test_the_command_line_exits_0_when_verified_and_1_on_the_first_failure(tmp_path, capsys):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(_resigned()))
    tampered = copy.deepcopy(_resigned())
    tampered["outcome"]["reason"] = "ko"
    bad.write_text(json.dumps(tampered))
    assert main([str(good)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "OK: the match verifies."
    assert main([str(bad)]) == 1
    assert capsys.readouterr().out.splitlines()[-1].startswith("FAILED: the outcome differs")
    assert main([str(tmp_path / "missing.json")]) == 1
    assert capsys.readouterr().out.startswith("FAILED: cannot read")


def test_python_dash_m_tools_verify_runs(tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(_resigned()))
    done = subprocess.run([sys.executable, "-m", "tools.verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.endswith("OK: the match verifies.\n")
