"""The ladders of a seeded Reverse Curse match: the stored per-set record,
the leaderboard with KOs, and the player page's ratings and recent matches.

The match: half regulation (KO at ±12), 1v1, the tests' seed, both seats playing the first legal
action of the lowest seat asked. Set 1's field (T1 first), as dealt and played:
DOUBLE_BUBBLE, -3, -2, SILENCE_SIREN, FLIP_TRAP, -1, ECHO_FLOW, +1, +1, +1, -2, +3.
Resolved by hand, LIFO from T12 (rulings "LIFO resolution"): +3 → 3; -2 → 1; +1, +1, +1 → 4;
ECHO → factor 2; -1×2 → 2; FLIP → -2; SIREN silences the -2 below it; -3×2 → -8; DOUBLE → -16.
-16 ≤ -12 is a K.O. for DOWN (seat 0) right after set 1.
"""

from __future__ import annotations

from math import exp, sqrt

import pytest

from tests.app.rc_play import leaderboard, match_id, play_out, seated_room

OPTIONS = {"regulation": "half"}
SET_1_FIELD = ["DOUBLE_BUBBLE", "-3", "-2", "SILENCE_SIREN", "FLIP_TRAP", "-1", "ECHO_FLOW",
               "+1", "+1", "+1", "-2", "+3"]


def decisive_1v1_from_defaults() -> tuple[float, float, float]:
    """Winner mu, loser mu and both sigmas of two new players after one decisive match, by hand
    (Weng-Lin Plackett-Luce: tau = 25/300 widens sigma first, beta = 25/6, equal shares 1/2)."""
    sigma = sqrt((25 / 3) ** 2 + (25 / 300) ** 2)
    c = sqrt(2 * (sigma ** 2 + (25 / 6) ** 2))
    share = exp(25 / c) / (exp(25 / c) + exp(25 / c))
    omega = sigma ** 2 / c * (1 - share)
    delta = (sigma / c) * (sigma ** 2 / c ** 2) * share * (1 - share)
    return 25 + omega, 25 - omega, sigma * sqrt(1 - delta)


async def test_seeded_ko_match_ladder_leaderboard_and_player_page(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code, clients = await seated_room(arena, [ann, bob], OPTIONS, spectator=True)
    log = await play_out(clients)
    mid = match_id(clients)
    # 2 mulligans, 2 shop decisions, 12 cards: the match ends at the KO after set 1.
    assert len(log) == 16
    assert clients[None].last["view"]["outcome"] == {
        "ranks": [1, 2], "reason": "ko", "winners": [0], "draw": False,
        "detail": {"position": -16}}

    ladder = (await arena.http.get(f"/api/matches/{mid}/ladder")).json()
    assert ladder["match_id"] == mid
    [record] = ladder["sets"]
    assert record["set"] == 1 and record["first_side"] == "UP"
    assert [entry["card"] for entry in record["field"]] == SET_1_FIELD
    # UP (seat 1) went first, so UP played the odd turns T1, T3, … and DOWN (seat 0) the even.
    assert [(e["seat"], e["side"]) for e in record["field"]] == [(1, "UP"), (0, "DOWN")] * 6
    assert (record["result"], record["position_after"]) == (-16, -16)

    winner_mu, loser_mu, sigma = decisive_1v1_from_defaults()
    rows = await leaderboard(arena, "reverse_curse")
    assert [(r["rank"], r["player"], r["matches"], r["wins"], r["kos"]) for r in rows] == [
        (1, {"id": ann["id"], "name": "Ann"}, 1, 1, 1),
        (2, {"id": bob["id"], "name": "Bob"}, 1, 0, 0)]
    assert rows[0]["mu"] == pytest.approx(winner_mu, abs=1e-9)
    assert rows[1]["mu"] == pytest.approx(loser_mu, abs=1e-9)
    assert rows[0]["sigma"] == pytest.approx(sigma, abs=1e-9)
    assert rows[0]["rating"] == pytest.approx(winner_mu - 3 * sigma, abs=1e-9)
    assert rows[0]["mu"] == pytest.approx(27.635389493, abs=1e-9)  # pinned

    profile = (await arena.http.get(f"/api/players/{ann['id']}")).json()
    assert (profile["id"], profile["name"]) == (ann["id"], "Ann")
    assert profile["ratings"] == [{
        "game": "reverse_curse", "rating": pytest.approx(winner_mu - 3 * sigma, abs=1e-9),
        "mu": pytest.approx(winner_mu, abs=1e-9), "sigma": pytest.approx(sigma, abs=1e-9),
        "matches": 1, "wins": 1, "kos": 1}]
    [recent] = profile["recent_matches"]
    assert (recent["id"], recent["room_code"], recent["status"]) == (mid, code, "finished")
    assert recent["outcome"]["reason"] == "ko"


async def test_player_page_of_a_new_player_and_a_missing_one(arena):
    cat = await arena.player("Cat")
    answer = await arena.http.get(f"/api/players/{cat['id']}")
    assert answer.json() == {"id": cat["id"], "name": "Cat", "ratings": [],
                             "recent_matches": []}
    missing = await arena.http.get("/api/players/999")
    assert missing.status_code == 404
    assert missing.json()["detail"]["code"] == "player_not_found"
