"""Mahjong over real websockets: a whole seeded Hebei match and a seeded competition-rules round,
each played by four clients with a spectator watching, to their known final scores.

The players follow the greedy test policy (``tests.engine.mahjong.policy``: win when offered,
every kong, a claim that brings the hand nearer to ready, else the discard that leaves it
nearest); the test replays the same actions on the engine and checks that every viewer gets
exactly the frames it must (a claim window's answers show the others nothing until it closes),
that every frame equals the engine's view for that viewer and shows no other hand, no concealed
kong's tiles and no revealed hand before the end, and that the stored match, its final view
(``/api/matches/{id}/final``) and the four players' ratings (free-for-all, like zipai's three)
are exact.
"""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from engine.mahjong import GAME
from tests.app.conftest import SEED
from tests.app.expect import Expect, play_seeded
from tests.app.rc_play import leaderboard
from tests.engine.mahjong.policy import choose

NAMES = ("Ann", "Bob", "Cid", "Dee")


def assert_private(view: dict, viewer: int | None) -> None:
    """Only the viewer's own tiles: no hand revealed before the end, another seat's concealed
    kong face down, and a spectator has no ``me``."""
    assert (view["me"] is None) == (viewer is None)
    if view["phase"] == "finished":
        return
    for player in view["players"]:
        assert player["revealed"] is None
        if player["seat"] != viewer:
            for meld in player["melds"]:
                if meld["kind"] == "concealed_kong":
                    assert meld["tiles"] == [None] * 4


async def play_match(arena, options: dict) -> tuple[dict, Expect, list[dict], dict]:
    """Seat four players, play the match through their sockets with the test policy; return
    (room, expect, the people, the spectator's last frame)."""
    people = [await arena.player(name) for name in NAMES]
    room = await arena.room(people[0], options, game="mahjong")
    code = room["code"]
    clients, viewers = await arena.seat_table(code, people)
    state = GAME.new_game(GAME.validate_options(options), 4, SEED)
    for viewer, client in viewers.items():
        await client.until_version(0)
        assert client.last["view"] == GAME.view(state, viewer)
    _, expect = await play_seeded(GAME, state, clients, viewers, policy, assert_private)
    return room, expect, people, viewers[None].last


def policy(state) -> tuple[int, dict]:
    """The lowest seat to act and the test policy's action for it."""
    seat = min(GAME.to_act(state))
    return seat, choose(state, seat)


def brief(sheet: dict) -> tuple:
    return (sheet["hand"], sheet["dealer"], sheet["winner"], sheet["payer"], sheet["way"],
            sheet["total"], sheet["scores"])


async def check_stored(arena, final: dict, people: list[dict], ranks: list[int]) -> None:
    """The history lists the match with its outcome; its final view is the spectator's; the four
    players are rated as four teams of one by their ranks (openskill called directly)."""
    match_id = final["room"]["match_id"]
    [summary] = (await arena.http.get("/api/matches", params={"player": people[3]["id"]})).json()["items"]
    assert (summary["id"], summary["game"], summary["status"]) == (match_id, "mahjong", "finished")
    assert summary["outcome"] == final["view"]["outcome"]
    assert [s["name"] for s in summary["seats"]] == list(NAMES)
    stored = (await arena.http.get(f"/api/matches/{match_id}/final")).json()
    assert stored == {"match_id": match_id, "view": final["view"]}
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in people], ranks=ranks)
    rows = {row["player"]["id"]: row for row in await leaderboard(arena, "mahjong")}
    for person, [rating] in zip(people, expected):
        assert (rows[person["id"]]["mu"], rows[person["id"]]["sigma"]) == (
            pytest.approx(rating.mu), pytest.approx(rating.sigma))
    assert [rows[p["id"]]["wins"] for p in people] == [int(r == 1) for r in ranks]


async def test_four_clients_play_a_seeded_hebei_match(arena):
    _, expect, people, final = await play_match(arena, {"hands": 4})
    view = final["view"]
    # 180 actions, each shown to the spectator (no window here asked two seats at once).
    assert (expect.version, expect.public) == (180, 180)
    assert view["totals"] == [0, 7, -7, 0]
    assert view["outcome"] == {"ranks": [2, 1, 4, 2], "reason": "final_score", "winners": [1],
                               "draw": False, "detail": {"totals": [0, 7, -7, 0], "hands_played": 4}}
    sheets = view["results"]
    # The dealer stays after its own win or a draw; here every win is another seat's, so the
    # deal passes to the dealer's 下家 each hand: 1, 2, 3, 0.
    assert [brief(s) for s in sheets] == [
        (1, 1, 0, 3, "discard", 1, [4, 0, -3, -1]),
        (2, 2, 3, 0, "discard", 1, [-2, 3, -1, 0]),
        (3, 3, 1, 2, "discard", 1, [0, 4, -1, -3]),
        (4, 0, 1, 3, "discard", 2, [-2, 0, -2, 4])]
    # Hand 1: value 1 (no doubling) paid by the discarder, seat 3; seat 0's 明杠 on seat 2's
    # discard costs seat 2 three.
    assert (sheets[0]["payments"], sheets[0]["kong_points"]) == ([1, 0, 0, -1], [3, 0, -3, 0])
    # Hand 4: 门清 doubles 1 to 2, paid by seat 3 alone; seat 3's 暗杠 takes 2 from each other.
    assert sheets[3]["doublings"] == ["concealed_hand"]
    assert (sheets[3]["payments"], sheets[3]["kong_points"]) == ([0, 2, 0, -2], [-2, -2, -2, 6])
    assert [s["totals"] for s in sheets] == [[4, 0, -3, -1], [2, 3, -4, -1], [2, 7, -5, -4],
                                             [0, 7, -7, 0]]
    await check_stored(arena, final, people, [2, 1, 4, 2])


async def test_four_clients_play_a_seeded_competition_round(arena):
    _, expect, people, final = await play_match(arena, {"rules": "mcr"})
    view = final["view"]
    # 289 actions; 2 were answers that left a claim window open: nobody else got a frame.
    assert (expect.version, expect.public) == (289, 287)
    assert view["totals"] == [95, -16, -66, -13]
    assert view["outcome"]["ranks"] == [1, 3, 4, 2]
    sheets = view["results"]
    assert [s["prevalent_wind"] for s in sheets] == ["E"] * 4
    assert [brief(s) for s in sheets] == [
        (1, 1, 0, None, "self_drawn", 13, [63, -21, -21, -21]),
        (2, 2, 1, 2, "discard", 13, [-8, 37, -21, -8]),
        (3, 3, 0, None, "self_drawn", 8, [48, -16, -16, -16]),
        (4, 0, 3, 1, "discard", 8, [-8, -16, -8, 32])]
    # Hand 2: 全不靠 12 + a flower 1 = 13; the discarder pays 8 + 13, the other two 8 each.
    assert sheets[1]["fans"] == [["lesser_honors_and_knitted_tiles", 12], ["flower_tiles", 1]]
    # Hand 4: 无番和, 8 points: the discarder, seat 1, pays 16.
    assert sheets[3]["fans"] == [["chicken_hand", 8]]
    # Self-drawn, 8 + 13 from each of the three.
    assert sum(points for _, points in sheets[0]["fans"]) == 13
    await check_stored(arena, final, people, [1, 3, 4, 2])


async def test_the_final_view_waits_for_the_end(arena):
    unknown = await arena.http.get("/api/matches/999/final")
    assert (unknown.status_code, unknown.json()["detail"]["code"]) == (404, "match_not_found")
    people = [await arena.player(name) for name in NAMES]
    room = await arena.room(people[0], {}, game="mahjong")
    for seat, person in enumerate(people):
        assert (await arena.sit(room["code"], seat, person)).status_code == 200
    client = await arena.connect(room["code"], people[0]["token"])
    await client.until_version(0)
    running = await arena.http.get(f"/api/matches/{client.last['room']['match_id']}/final")
    assert (running.status_code, running.json()["detail"]["code"]) == (409, "match_not_finished")
