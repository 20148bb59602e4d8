"""Fair dealing on the server: the commitment is public from the start and the
seed secret until the end; ``GET /api/matches/{id}/verify`` replays a finished match with
``tools.verify`` and reports a tampered log."""

from __future__ import annotations

import hashlib
import json
import sqlite3

from tests.app.conftest import SEED
from tests.app.hostile import start_match
from tests.app.rc import GAME

COMMITMENT = hashlib.sha256(SEED).hexdigest()


async def finished_match(arena):
    """Play 3 actions of the tests' policy, then the idle seat resigns (4 logged actions)."""
    match = await start_match(arena)
    await match.play(3)
    idle = 1 - match.acting
    match.before_resign = match.replay.state
    await match.seats[idle].send({"type": "act", "prompt": None, "action": {"type": "resign"}})
    match.replay.resign(idle)
    for client in match.clients:
        await client.until_version(match.replay.public)
    return match, idle


async def test_commitment_public_from_the_start_seed_only_at_the_end(arena):
    match = await start_match(arena)
    match_id = match.room["match_id"]
    playing = (await arena.http.get(f"/api/matches/{match_id}")).json()
    assert (playing["seed_commitment"], playing["seed"], playing["actions"]) == (
        COMMITMENT, None, None)
    refused = await arena.http.get(f"/api/matches/{match_id}/verify")
    assert refused.status_code == 409
    assert refused.json()["detail"]["code"] == "match_not_finished"
    missing = await arena.http.get("/api/matches/77/verify")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "match_not_found"


async def test_verify_replays_a_finished_match(arena):
    match, idle = await finished_match(arena)
    match_id = match.room["match_id"]
    answer = await arena.http.get(f"/api/matches/{match_id}/verify")
    assert answer.status_code == 200
    # The resigning seat ranks 2nd, the other 1st (Reverse Curse: resign → the other side wins).
    ranks = [2, 1] if idle == 0 else [1, 2]
    assert answer.json() == {
        "match_id": match_id, "ok": True, "failure": None, "actions": 4,
        "checks": ["finished reverse_curse match",
                   f"sha256(seed) = seed_commitment = {COMMITMENT}",
                   "options valid, 2 seats",
                   "dealt from the seed and replayed 4 logged action(s), all legal",
                   f"outcome resign, ranks {ranks}, as recorded"]}
    again = await arena.http.get(f"/api/matches/{match_id}/verify")
    assert again.json() == answer.json()


async def test_verify_reports_a_tampered_log(arena):
    match, idle = await finished_match(arena)
    match_id = match.room["match_id"]
    with sqlite3.connect(arena.db_path) as db:  # rewrite history: seq 4 was the resign
        db.execute("UPDATE match_actions SET seat = ? WHERE match_id = ? AND seq = 4",
                   (1 - idle, match_id))
    report = (await arena.http.get(f"/api/matches/{match_id}/verify")).json()
    assert report["ok"] is False and report["actions"] == 4
    assert report["checks"][-1] == "dealt from the seed and replayed 4 logged action(s), all legal"
    recorded = (await arena.http.get(f"/api/matches/{match_id}")).json()["outcome"]
    assert recorded["ranks"] == ([2, 1] if idle == 0 else [1, 2])
    replayed = GAME.outcome(GAME.resign(match.before_resign, 1 - idle)[0]).to_json()
    assert replayed["ranks"] == recorded["ranks"][::-1]
    assert report["failure"] == (
        f"the outcome differs: recorded {json.dumps(recorded, sort_keys=True)}, "
        f"replayed {json.dumps(replayed, sort_keys=True)}.")
