"""Team formats: a teammate's answer ends the side's decision (``already_played``); team chat
stays in the team; a team's turn timeout plays a card of the whole side (rules/reverse_curse.md
"Formats", "Match flow" 6)."""

from __future__ import annotations

import asyncio

from app.db import repositories as repo
from tests.app.conftest import SEED
from tests.app.rc import GAME

OPTIONS = {"format": "2v2", "monsters": False}


async def test_team_decisions_and_team_chat(arena):
    players = [await arena.player(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    room = await arena.room(players[0], OPTIONS)
    code = room["code"]
    # The teams are known before the start (the engine's sides); their names after it.
    assert room["teams"] == [[0, 2], [1, 3]]
    assert [(s["team"], s["side"]) for s in room["seats"]] == [(0, None), (1, None)] * 2
    for seat, player in enumerate(players):
        await arena.sit(code, seat, player)
    clients = [await arena.connect(code, p["token"]) for p in players]
    spectator = await arena.connect(code)
    state = GAME.new_game(GAME.validate_options(OPTIONS), 4, SEED)
    sides = GAME.view(state, None)["sides"]
    assert sides == {"UP": [1, 3], "DOWN": [0, 2]}
    assert [(s["team"], s["side"]) for s in clients[0].welcome["room"]["seats"]] == [
        (0, "DOWN"), (1, "UP"), (0, "DOWN"), (1, "UP")]

    mate_prompt = clients[2].last["prompt"]
    await clients[0].act({"type": "mulligan", "card": None})
    for client in (clients[0], clients[2]):  # only DOWN learns that DOWN answered
        assert (await client.next("update"))["version"] == 0  # hidden: not a public step
    assert clients[2].last["prompt"] is None and clients[2].last["legal"] == []
    for client in (clients[1], clients[3], spectator):  # no frame at all for the others
        assert await client.settle() == []
    await clients[2].act({"type": "mulligan", "card": None}, prompt=mate_prompt)
    assert (await clients[2].next("error"))["code"] == "already_played"
    await clients[1].act({"type": "mulligan", "card": None})
    for client in (*clients, spectator):
        assert (await client.until_version(1))[-1]["version"] == 1  # the close: +1
    assert await arena.action_count(clients[0].welcome["room"]["match_id"]) == 2

    await clients[0].send({"type": "chat", "text": "go second?", "team": True})
    for mate in (clients[0], clients[2]):
        line = await mate.next("chat")
        assert (line["seat"], line["name"], line["text"], line["team"]) == (
            0, "Ann", "go second?", True)
    heard = await asyncio.gather(*(c.silent() for c in (clients[1], clients[3], spectator)))
    assert [f for frames in heard for f in frames if f["type"] == "chat"] == []


async def test_a_team_turn_timeout_plays_the_drawn_card_as_its_member(arena):
    # 3v3 from the tests' fixed seed: after both sides keep, UP (seats 1, 3, 5) deploys first
    # and all three clocks run out at once. The timeout draws one of UP's six cards — seat 3's
    # DOUBLE_BUBBLE — and the room plays it as seat 3, not as the lowest seat on the clock.
    options = {"format": "3v3", "monsters": False}
    players = [await arena.player(name) for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")]
    room = await arena.room(players[0], options)
    code = room["code"]
    for seat, player in enumerate(players):
        await arena.sit(code, seat, player)
    clients = [await arena.connect(code, p["token"]) for p in players]
    state = GAME.new_game(GAME.validate_options(options), 6, SEED)
    for seat in (0, 1):  # one member of each side keeps
        await clients[seat].act({"type": "mulligan", "card": None})
        state, _ = GAME.apply(state, seat, {"type": "mulligan", "card": None})
    await clients[3].until_version(1)
    assert GAME.to_act(state) == {1, 3, 5}
    assert [state.hands[s] for s in (1, 3, 5)] == [
        ("-1", "+1"), ("DOUBLE_BUBBLE", "-2"), ("+1", "-2")]
    arena.clock.advance(30)
    frames = await clients[3].until_version(2)
    events = [(e["kind"], e["data"]) for f in frames for e in f["events"]]
    assert events == [("timeout", {"seat": 3}), ("card_played", {
        "turn": 1, "seat": 3, "side": "UP", "face_up": False, "card": None})]
    view = frames[-1]["view"]  # seat 3's side sees its face-down card
    assert view["field"] == [{"turn": 1, "seat": 3, "side": "UP", "card": "DOUBLE_BUBBLE",
                              "face_up": False}]
    assert view["hands"] == {"1": ["-1", "+1"], "3": ["-2"], "5": ["+1", "-2"]}
    async with arena.app.state.arena.sessions() as session:
        rows = await repo.match_actions(session, clients[0].welcome["room"]["match_id"])
    assert [(row.seat, row.action, row.timeout) for row in rows] == [
        (0, {"type": "mulligan", "card": None}, False),
        (1, {"type": "mulligan", "card": None}, False),
        (3, {"type": "play", "card": "DOUBLE_BUBBLE"}, True)]
