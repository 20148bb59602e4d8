"""Tests of the chaos run's client notes and checks (``pytest bench/``; not in ``make test``).

Frames are fed to ``ChaosPlayer._on_frame`` by hand; logs are replayed ``LiveMatch``es of a
Reverse Curse match played with its first legal action each time.
"""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

import orjson

from app.rooms.live import LiveMatch
from bench.chaos.checks import check_acks, check_welcomes
from bench.chaos.clients import Ack, Chaos, ChaosPlayer, Observations, Welcome
from bench.chaos.log import MatchLog, Violations
from bench.clients import Pace, Rebuilt, RoomWatch
from bench.metrics import Recorder
from engine.registry import GAMES

GAME = GAMES["reverse_curse"]
OPTIONS = GAME.validate_options({"monsters": False})


def player() -> tuple[ChaosPlayer, Observations]:
    seen = Observations()
    pace = Pace(1.0, asyncio.Event(), asyncio.Event())

    async def head(code: str) -> tuple[int | None, int]:
        return None, 0
    client = ChaosPlayer("token", "ROOM", RoomWatch(), Recorder(), pace, random.Random(1),
                         Chaos(["ws://127.0.0.1:1"], head, 10.0), seen)
    return client, seen


def frame(kind: str, match: int, version: int, prompt: str | None, events=()) -> dict:
    return {"type": kind, "seat": 0, "room": {"match_id": match, "seats": []},
            "version": version, "view": {}, "prompt": prompt, "legal": [{"type": "x"}],
            "events": list(events)}


def test_an_act_is_acknowledged_by_its_pong_without_an_error_before_it():
    client, seen = player()
    client._on_frame(frame("welcome", 7, 3, "p1"), 0.0)
    client._act_frame()
    client._on_frame(frame("update", 7, 4, "p2"), 0.1)  # an update is no answer
    assert seen.acks == []
    client._on_frame({"type": "pong"}, 0.2)
    assert [(a.match, a.seat, a.prompt, a.action, a.refused) for a in seen.acks] == [
        (7, 0, "p1", {"type": "x"}, False)]


def test_an_error_before_the_pong_refuses_the_oldest_act_only():
    client, seen = player()
    client._on_frame(frame("welcome", 7, 3, "p1"), 0.0)
    client._act_frame()
    client._on_frame(frame("update", 7, 4, "p2"), 0.1)  # another seat's change arrives first
    client._act_frame()                                 # a second act before the first pong
    client._on_frame({"type": "error", "code": "stale_prompt"}, 0.2)
    client._on_frame({"type": "pong"}, 0.3)              # the first act's: refused
    assert seen.acks == []
    client._on_frame({"type": "pong"}, 0.4)              # the second act's: stored
    assert [(a.prompt, a.refused) for a in seen.acks] == [("p2", False)]
    client._on_frame({"type": "pong"}, 0.5)              # a pong of no act changes nothing
    assert len(seen.acks) == 1


def test_an_ack_keeps_the_action_sent_when_a_patch_changes_the_legal_list_in_place():
    # The kept legal list is patched in place (["=", "~l/0/type", ...] or a replace map): the
    # entry the act was chosen from becomes the next decision's. The chaos run of 2026-12-07
    # counted 630 acks "missing" this way: stored under their prompt, with the action sent.
    client, seen = player()
    rebuilt = Rebuilt()

    def rebuilt_whole(data: dict) -> dict:
        whole = rebuilt.take(data)
        assert whole is not None
        return whole
    client._on_frame(rebuilt_whole({
        "type": "welcome", "seq": 0, "seat": 0, "room": {"match_id": 40, "seats": []},
        "version": 0, "view": {}, "prompt": "40.0.a", "deadline": None, "clocks": {},
        "legal": [{"type": "choose_mother", "card": "2"}]}), 0.0)
    sent = orjson.loads(orjson.dumps(client._act_frame()))
    client._on_frame(rebuilt_whole({
        "type": "update", "seq": 1, "prompt": "40.0.b", "events": [],
        "patch": [{"~l/0/type": "discard"}]}), 0.1)
    assert client.legal == [{"type": "discard", "card": "2"}]  # the entry changed in place
    client._on_frame({"type": "pong"}, 0.2)
    assert sent == {"type": "act", "prompt": "40.0.a",
                    "action": {"type": "choose_mother", "card": "2"}}
    assert [(a.prompt, a.action) for a in seen.acks] == [
        ("40.0.a", {"type": "choose_mother", "card": "2"})]


def test_a_lower_version_or_an_older_match_is_a_regression():
    client, seen = player()
    client._on_frame(frame("welcome", 7, 3, None), 0.0)
    client._on_frame(frame("update", 7, 3, None), 0.1)  # equal: fine
    client._on_frame(frame("welcome", 7, 2, None), 0.2)
    client._on_frame(frame("update", 8, 0, None), 0.3)  # a new match starts at 0: fine
    client._on_frame(frame("update", 7, 9, None), 0.4)
    assert [(r["shown"], r["now"]) for r in seen.regressions] == [([7, 3], [7, 2]),
                                                                  ([8, 0], [7, 9])]


def played_log(actions: int) -> tuple[MatchLog, list]:
    """Return the log of a match after ``actions`` first-legal actions, and its rows."""
    live = LiveMatch.start(GAME, 7, 1, "ROOM", OPTIONS, 2, bytes(32), 1000.0)
    rows, state = [], live
    for seq in range(1, actions + 1):
        seat = min(GAME.to_act(state.state))
        action = dict(state.legal[seat][0])
        rows.append(SimpleNamespace(seq=seq, seat=seat, action=action, timeout=False, forfeit=None,
                                    at=SimpleNamespace(timestamp=lambda s=seq: 1000.0 + s),
                                    prompt=state.prompt_id(seat)))
        state, _ = state.replay(seat, action, 1000.0 + seq, False)
    log = MatchLog("ROOM", live, {}, None, Violations())
    for row in rows:
        log._replay(row)
    return log, rows


def test_an_acked_action_must_be_stored_under_its_prompt():
    log, rows = played_log(3)
    violations = Violations()
    stored = Ack("ROOM", 7, rows[1].seat, rows[1].prompt, rows[1].action)
    wrong_prompt = Ack("ROOM", 7, rows[1].seat, rows[0].prompt, rows[1].action)
    refused = Ack("ROOM", 7, 0, "nothing", {}, refused=True)
    assert check_acks([stored, wrong_prompt, refused], {7: log}, violations) == 2
    assert violations.counts == {"acked_action_missing": 1}
    assert violations.examples["acked_action_missing"][0]["prompt"] == rows[0].prompt


def test_a_welcome_must_be_as_new_as_the_log_it_opened_on():
    log, _ = played_log(3)
    assert log.seq == 3 and log.public[0] == 0 and log.public[3] >= 1
    needed = log.public[3]
    violations = Violations()
    check_welcomes([Welcome("ROOM", (7, 3), 7, needed, "u"),       # as new: fine
                    Welcome("ROOM", (7, 3), 8, 0, "u"),            # a newer match: fine
                    Welcome("ROOM", (None, 0), None, 0, "u"),      # no match yet: fine
                    Welcome("ROOM", (7, 3), 7, needed - 1, "u"),   # older
                    Welcome("ROOM", (7, 3), 6, 50, "u")],          # an older match
                   {7: log}, violations)
    assert violations.counts == {"welcome_older_than_log": 2}


def test_a_seq_gap_is_reported():
    log, rows = played_log(2)
    fresh = MatchLog("ROOM", LiveMatch.start(GAME, 7, 1, "ROOM", OPTIONS, 2, bytes(32), 1000.0),
                     {}, None, Violations())
    fresh._replay(rows[0])
    fresh._replay(SimpleNamespace(**{**vars(rows[1]), "seq": 3}))
    assert fresh._violations.counts == {"seq_gap": 1}
