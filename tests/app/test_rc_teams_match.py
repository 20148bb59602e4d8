"""A whole 2v2 Reverse Curse match with monsters over real websockets.

Four players and a spectator; every seat plays "the first legal action of the lowest seat
asked" (summons are listed first, so monsters are recruited and summoned). The test replays the
same actions on the engine and checks every frame: each seat's view equals the engine's view for
it, teammates see each other's hands, the other side and the spectator never do (nor a
face-down card they did not play — a VEIL SNAIL number included), and at the end the stored
ladder, outcome and every member's rating are exact.
"""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from engine.reverse_curse import ladder
from tests.app.conftest import SEED
from tests.app.rc import GAME
from tests.app.rc_play import leaderboard, match_id, play_out, seated_room

OPTIONS = {"format": "2v2"}  # monsters on by default
SIDES = {"UP": [1, 3], "DOWN": [0, 2]}  # the seed's coin toss (tests/app/test_ws_teams.py)


class Mirror:
    """The engine run next to the server with the same actions."""

    def __init__(self) -> None:
        self.state = GAME.new_game(GAME.validate_options(OPTIONS), 4, SEED)
        self.veiled_seen = 0  # face-down numbers (VEIL SNAIL) checked hidden

    def apply(self, seat: int, action: dict[str, Any]) -> None:
        self.state, _ = GAME.apply(self.state, seat, action)

    def check(self, clients) -> None:
        """Every viewer's frame is the engine's view for it, with the team's hands only."""
        for viewer, client in clients.items():
            view = client.last["view"]
            assert view == GAME.view(self.state, viewer)
            side = None if viewer is None else ("UP" if viewer in SIDES["UP"] else "DOWN")
            assert set(view["hands"]) == {str(s) for s in SIDES.get(side, [])}
            for entry in view["field"]:
                if not entry["face_up"] and entry["side"] != side:
                    assert entry["card"] is None, (viewer, entry)
        spectator_field = clients[None].last["view"]["field"]
        for entry, card in zip(spectator_field, self.state.field):
            if not card.face_up and card.card[0] in "+-":
                self.veiled_seen += 1
                mate = SIDES[card.side][0]
                assert clients[mate].last["view"]["field"][entry["turn"] - 1]["card"] == card.card


async def test_a_2v2_match_with_monsters_to_its_end(arena):
    players = [await arena.player(n) for n in ("Ann", "Bob", "Cat", "Dan")]
    code, clients = await seated_room(arena, players, OPTIONS, spectator=True)
    assert clients[0].last["view"]["sides"] == SIDES
    mirror = Mirror()
    mirror.check(clients)

    def check(current, seat: int, action: dict[str, Any]) -> None:
        mirror.apply(seat, action)
        mirror.check(current)

    log = await play_out(clients, check=check)
    kinds = [action["type"] for _, action in log]
    assert kinds.count("summon") >= 1 and kinds.count("recruit") >= 1
    assert mirror.veiled_seen > 0

    # Exact end: decision for DOWN at -19 after six sets (rulings "Match flow" 8).
    outcome = clients[None].last["view"]["outcome"]
    assert outcome == {"ranks": [1, 2, 1, 2], "reason": "decision", "winners": [0, 2],
                       "draw": False, "detail": {"position": -19}}
    stored = (await arena.http.get(f"/api/matches/{match_id(clients)}/ladder")).json()["sets"]
    assert stored == ladder(mirror.state)
    assert [(s["set"], s["result"], s["position_after"]) for s in stored] == [
        (1, -6, -6), (2, 13, 7), (3, 2, 9), (4, -20, -11), (5, -1, -12), (6, -7, -19)]
    # Set 1's first side is the coin toss (UP); later the side behind chooses and the policy's
    # first legal choice is "go first": behind at -6 is UP, at +7 and +9 DOWN, at -11, -12 UP.
    assert [s["first_side"] for s in stored] == ["UP", "UP", "DOWN", "DOWN", "UP", "UP"]
    for before, entry in zip([0] + [s["position_after"] for s in stored], stored):
        assert entry["position_after"] == before + entry["result"]
        assert [card["side"] for card in entry["field"]] == (
            ["UP", "DOWN"] * 6 if entry["first_side"] == "UP" else ["DOWN", "UP"] * 6)

    model = PlackettLuce()
    new = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                     ranks=[1, 2])
    rows = {row["player"]["id"]: row for row in await leaderboard(arena, "reverse_curse")}
    for seat, player in enumerate(players):
        team = 0 if seat in SIDES["DOWN"] else 1
        row = rows[player["id"]]
        assert row["mu"] == pytest.approx(new[team][0].mu, abs=1e-9)
        assert row["sigma"] == pytest.approx(new[team][0].sigma, abs=1e-9)
        assert (row["matches"], row["wins"], row["kos"]) == (1, 1 - team, 0)

