"""Ratings: openskill Plackett-Luce, one rating per player and game, rated
once when a match ends; team-aware for Reverse Curse, free-for-all for 3-player zipai; a match
with a bot is not rated.

The reference is openskill itself, called directly on the known sequence of results; the first
1v1 result is also computed by hand from the Weng-Lin Plackett-Luce update.
"""

from __future__ import annotations

from math import exp, sqrt

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import update

from app.db.models import Player
from app.rooms.ratings import ordinal, rate, rating_teams
from engine.registry import GAMES
from tests.app.conftest import SEED
from tests.app.rc import GAME
from tests.app.rc_play import leaderboard, resign_match

MU, SIGMA = 25.0, 25.0 / 3  # openskill's defaults: a new player


def first_1v1_by_hand() -> tuple[float, float, float]:
    """Return (winner mu, loser mu, both sigmas) of two new players after one decisive match.

    Weng-Lin Plackett-Luce: sigma² grows by tau² (tau = 25/300) first; beta = 25/6;
    c² = Σ(sigma² + beta²); with equal mus each side's share is exp(mu/c) / C = 1/2, so
    omega = ±sigma²/c · 1/2 and delta = (sigma/c)·(sigma²/c²)·(1/2)(1/2).
    """
    sigma = sqrt(SIGMA ** 2 + (25 / 300) ** 2)
    c = sqrt(2 * (sigma ** 2 + (25 / 6) ** 2))
    share = exp(MU / c) / (2 * exp(MU / c))
    omega = sigma ** 2 / c * (1 - share)
    delta = (sigma / c) * (sigma ** 2 / c ** 2) * share * (1 - share)
    return MU + omega, MU - omega, sigma * sqrt(1 - delta)


class Reference:
    """The expected ratings: openskill called directly, match by match."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.ratings: dict[int, tuple[float, float]] = {}

    def result(self, teams: list[list[int]], ranks: list[int]) -> None:
        prior = [[self.model.rating(*self.ratings.get(p, (MU, SIGMA))) for p in team]
                 for team in teams]
        for team, new in zip(teams, self.model.rate(prior, ranks=ranks)):
            for player, rating in zip(team, new):
                self.ratings[player] = (rating.mu, rating.sigma)


def test_one_decisive_1v1_by_hand_and_pinned():
    winner, loser, sigma = first_1v1_by_hand()
    [[(w_mu, w_sigma)], [(l_mu, l_sigma)]] = rate([[(MU, SIGMA)], [(MU, SIGMA)]], [1, 2])
    assert (w_mu, l_mu) == (pytest.approx(winner, abs=1e-12), pytest.approx(loser, abs=1e-12))
    assert w_sigma == pytest.approx(sigma, abs=1e-12) and l_sigma == pytest.approx(sigma, abs=1e-12)
    assert w_mu == pytest.approx(27.635389493, abs=1e-9)
    assert w_sigma == pytest.approx(8.065901414, abs=1e-9)
    assert ordinal(w_mu, w_sigma) == pytest.approx(w_mu - 3 * w_sigma, abs=1e-12)


def test_teams_are_the_sides_else_one_per_seat():
    assert rating_teams(4, ((2, 0), (3, 1))) == [[0, 2], [1, 3]]
    assert rating_teams(4, GAME.sides(GAME.validate_options({"format": "2v2"}), 4)) == [
        [0, 2], [1, 3]]
    assert rating_teams(3, GAMES["zipai"].sides({}, 3)) == [[0], [1], [2]]
    assert rating_teams(3, ()) == [[0], [1], [2]]


def sides_1v1() -> dict[str, list[int]]:
    """The sides of a 1v1 match dealt from the tests' seed (coin toss, rulings "Match flow" 1)."""
    return GAME.view(GAME.new_game(GAME.validate_options({}), 2, SEED), None)["sides"]


def rows_by_player(rows: list[dict]) -> dict[int, dict]:
    return {row["player"]["id"]: row for row in rows}


async def test_a_known_sequence_of_1v1_results(arena):
    ann, bob, cat = [await arena.player(n) for n in ("Ann", "Bob", "Cat")]
    ref = Reference()
    # The same seed deals every match: seat 0 is DOWN and seat 1 is UP; a resigner's side loses.
    assert sides_1v1() == {"UP": [1], "DOWN": [0]}
    for seat0, seat1, loser in ((ann, bob, 1), (bob, cat, 1), (cat, ann, 1), (ann, cat, 0)):
        await resign_match(arena, [seat0, seat1], loser, {"regulation": "half"})
        ranks = [2, 1] if loser == 0 else [1, 2]
        ref.result([[seat0["id"]], [seat1["id"]]], ranks)

    rows = await leaderboard(arena, "reverse_curse")
    by_player = rows_by_player(rows)
    expected = {p["id"]: ref.ratings[p["id"]] for p in (ann, bob, cat)}
    for pid, (mu, sigma) in expected.items():
        row = by_player[pid]
        assert row["mu"] == pytest.approx(mu, abs=1e-9)
        assert row["sigma"] == pytest.approx(sigma, abs=1e-9)
        assert row["rating"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
    # Ann: won, lost, lost (to Cat twice); Bob: lost, won; Cat: lost, won, won.
    counts = {p["name"]: (by_player[p["id"]]["matches"], by_player[p["id"]]["wins"],
                          by_player[p["id"]]["kos"]) for p in (ann, bob, cat)}
    assert counts == {"Ann": (3, 1, 0), "Bob": (2, 1, 0), "Cat": (3, 2, 0)}
    best_first = sorted(expected, key=lambda p: -(expected[p][0] - 3 * expected[p][1]))
    assert [row["player"]["id"] for row in rows] == best_first
    assert [row["rank"] for row in rows] == [1, 2, 3]
    assert rows[0]["player"] == {"id": cat["id"], "name": "Cat"}


async def test_a_team_match_rates_every_member_of_both_sides(arena):
    players = [await arena.player(n) for n in ("Ann", "Bob", "Cat", "Dan")]
    await resign_match(arena, players, 0, {"format": "2v2", "regulation": "half"})
    # Seed sides: DOWN = seats 0, 2 and UP = seats 1, 3 (tests/app/test_ws_teams.py); seat 0
    # resigned, so DOWN (Ann, Cat) is ranked 2 and UP (Bob, Dan) 1.
    ref = Reference()
    ref.result([[players[0]["id"], players[2]["id"]], [players[1]["id"], players[3]["id"]]],
               [2, 1])
    by_player = rows_by_player(await leaderboard(arena, "reverse_curse"))
    for seat, player in enumerate(players):
        row = by_player[player["id"]]
        assert (row["mu"], row["sigma"]) == (pytest.approx(ref.ratings[player["id"]][0]),
                                             pytest.approx(ref.ratings[player["id"]][1]))
        assert (row["matches"], row["wins"]) == (1, seat % 2)
    # Teammates move together; the winners gain exactly what the losers lose (equal priors).
    assert by_player[players[0]["id"]]["mu"] == by_player[players[2]["id"]]["mu"]
    assert by_player[players[1]["id"]]["mu"] - MU == pytest.approx(
        MU - by_player[players[0]["id"]]["mu"], abs=1e-9)
    # Equal ratings share a rank (1, 1, 3, 3), also on a page that starts inside a tie.
    rows = await leaderboard(arena, "reverse_curse")
    assert [(row["rank"], row["player"]["id"]) for row in rows] == [
        (1, players[1]["id"]), (1, players[3]["id"]), (3, players[0]["id"]),
        (3, players[2]["id"])]
    page = (await arena.http.get("/api/ladders/reverse_curse?offset=1&limit=2")).json()
    assert [(row["rank"], row["player"]["id"]) for row in page["players"]] == [
        (1, players[3]["id"]), (3, players[0]["id"])]
    page = (await arena.http.get("/api/ladders/reverse_curse?offset=3&limit=2")).json()
    assert [(row["rank"], row["player"]["id"]) for row in page["players"]] == [
        (3, players[2]["id"])]


async def test_three_player_zipai_is_rated_free_for_all(arena):
    players = [await arena.player(n) for n in ("Ann", "Bob", "Cat")]
    await resign_match(arena, players, 2, game="zipai")
    # Zipai ranks a resigner last and the others by their totals (0 and 0): ranks (1, 1, 3).
    ref = Reference()
    ref.result([[p["id"]] for p in players], [1, 1, 3])
    by_player = rows_by_player(await leaderboard(arena, "zipai"))
    for player in players:
        row = by_player[player["id"]]
        assert (row["mu"], row["sigma"]) == (pytest.approx(ref.ratings[player["id"]][0]),
                                             pytest.approx(ref.ratings[player["id"]][1]))
    assert [by_player[p["id"]]["wins"] for p in players] == [1, 1, 0]
    # One rating per player and game: Reverse Curse has none of them.
    assert await leaderboard(arena, "reverse_curse") == []


async def test_a_match_with_a_bot_is_not_rated(arena):
    ann, bot = await arena.player("Ann"), await arena.player("Robo")
    async with arena.app.state.arena.sessions() as session, session.begin():
        await session.execute(update(Player).where(Player.id == bot["id"]).values(bot=True))
    await resign_match(arena, [ann, bot], 1, {"regulation": "half"})
    assert await leaderboard(arena, "reverse_curse") == []
    profile = (await arena.http.get(f"/api/players/{ann['id']}")).json()
    assert profile["ratings"] == [] and len(profile["recent_matches"]) == 1


async def test_unknown_game_leaderboard_is_refused(arena):
    answer = await arena.http.get("/api/ladders/chess")
    assert answer.status_code == 404 and answer.json()["detail"]["code"] == "unknown_game"
