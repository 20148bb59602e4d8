"""Team formats: a teammate's answer ends the side's decision (``already_played``); team chat
stays in the team; a team's turn timeout plays a card of the whole side (rules/reverse_curse.md
"Formats", "Match flow" 6)."""

from __future__ import annotations

import asyncio

from app.db import repositories as repo
from app.rooms.live import LiveMatch
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


async def test_a_decision_taken_two_decisions_ago_is_already_played(arena):
    """A late answer to any decision the seat's side took gets ``already_played`` while the
    seat is not asked — however many decisions of the seat were taken since — and
    ``stale_prompt`` once it is asked again (docs/protocol.md "Websocket error codes"). From
    the fixed seed: Ann (0) and Bob (1) keep their hands, which ends Dan's (3) mulligan; Bob
    plays, which ends Dan's first turn; Ann plays."""
    players = [await arena.player(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    code = (await arena.room(players[0], OPTIONS))["code"]
    for seat, player in enumerate(players):
        await arena.sit(code, seat, player)
    clients = [await arena.connect(code, p["token"]) for p in players]
    mulligans = {seat: clients[seat].last["prompt"] for seat in (0, 3)}
    keep = {"type": "mulligan", "card": None}

    async def play(seat: int, action: dict, version: int) -> None:
        await clients[seat].act(action)
        for client in clients:
            await client.until_version(version)

    await clients[0].act(keep)
    await clients[0].next("update")  # hidden from UP: still version 0
    await play(1, keep, 1)
    dans_turn = clients[3].last["prompt"]
    assert clients[3].last["legal"][0] == {"type": "play", "card": "ECHO_FLOW"}
    await play(1, {"type": "play", "card": "+1"}, 2)
    await play(0, {"type": "play", "card": "-3"}, 3)
    assert clients[3].last["prompt"] is not None  # UP's turn again: Dan asked anew

    async def refusal(seat: int, prompt: str, action: dict) -> tuple[str, str]:
        await clients[seat].act(action, prompt=prompt)
        error = await clients[seat].next("error")
        await clients[seat].silent()  # the update that may follow a refusal
        return error["code"], error["message"]

    match = clients[0].welcome["room"]["match_id"]
    played = {"type": "play", "card": "ECHO_FLOW"}
    taken = ("already_played",
             "This decision was already answered (by a teammate or another socket).")
    # Ann (not asked): her mulligan, taken by herself two decisions ago (another tab's).
    assert await refusal(0, mulligans[0], keep) == taken
    assert await refusal(0, "1.0.0000000000000000", keep) == (
        "not_your_turn", "It is not your turn.")  # no decision of hers
    # Dan, asked again: his mulligan and his first turn, both ended by Bob, are stale.
    stale = ("stale_prompt", "That decision is no longer the current one.")
    assert await refusal(3, mulligans[3], keep) == stale
    assert await refusal(3, dans_turn, played) == stale
    await play(1, {"type": "play", "card": "+1"}, 4)
    assert clients[3].last["prompt"] is None  # DOWN's turn: Dan not asked
    assert await refusal(3, mulligans[3], keep) == taken  # three decisions ago
    assert await refusal(3, dans_turn, played) == taken
    assert await arena.action_count(match) == 5  # the refusals stored nothing


def test_only_the_exact_id_of_a_decision_the_side_took_counts_as_taken():
    """``LiveMatch.taken_by_side`` (what ``already_played`` rests on): the id as it was sent,
    of that seat and match; not another spelling, nor eight bytes that straddle two kept
    tokens, nor a decision the seat is still asked (the same play as the test above)."""
    live = LiveMatch.start(GAME, 7, 1, "ROOM", GAME.validate_options(OPTIONS), 4, SEED, 0.0)
    first = {seat: live.prompt_id(seat) for seat in range(4)}
    for seat, action in ((0, {"type": "mulligan", "card": None}),
                         (1, {"type": "mulligan", "card": None}),
                         (1, {"type": "play", "card": "+1"})):
        live = live.after(live.propose(seat, action, 1.0))
    assert sorted(live.prompts) == [0, 2] and len(live.taken[3]) == 16  # two of Dan's, by Bob
    assert [live.taken_by_side(seat, first[seat]) for seat in range(4)] == [True] * 4
    dan = first[3]
    straddle = live.taken[3][4:12].hex()
    assert [live.taken_by_side(3, text) for text in (
        dan.upper(), dan.replace("7.3.", "8.3."), dan.replace("7.3.", "7.1."), dan + "0",
        f"7.3.{straddle}", live.prompt_id(0), "", "7.3.", "7.3.zz")] == [False] * 9
    assert live.taken_by_side(0, live.prompt_id(0)) is False  # asked now: not taken
