"""Tests of the benchmark helpers (run with ``pytest bench/``; not part of ``make test``).

Expected values are worked out by hand in the comments.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from typing import Any

import httpx
import pytest

from bench import procstat
from bench.ceiling import Ceiling, CeilingRoom
from bench.clients import (
    Pace,
    Player,
    Rebuilt,
    RoomWatch,
    Spectator,
    Templates,
    apply_patch,
    match_of,
)
from bench.engines import EngineRun, play_random_game
from bench.load import (
    LoadConfig,
    RoomPlan,
    Window,
    _collector_figures,
    _launch,
    ask_rematch,
    collector_pauses,
    http_limits,
    player_seeds,
    report,
)
from bench.metrics import Recorder, RoomTrace, Samples, percentile, summary_ms
from bench.suite import targets
from engine.registry import GAMES


def test_percentile_is_nearest_rank():
    values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]  # sorted: 1..10
    assert percentile(values, 50) == 5    # ceil(0.5 * 10) = 5th value
    assert percentile(values, 95) == 10   # ceil(9.5) = 10th
    assert percentile(values, 10) == 1    # ceil(1.0) = 1st
    assert percentile(values, 11) == 2    # ceil(1.1) = 2nd
    assert percentile([], 50) is None


def test_summary_is_in_milliseconds():
    assert summary_ms([0.001, 0.002, 0.004]) == {"n": 3, "p50": 2.0, "p95": 4.0, "p99": 4.0,
                                                 "max": 4.0}
    assert summary_ms([]) == {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}


def test_fan_out_counts_only_versions_every_spectator_saw():
    trace = RoomTrace()
    trace.caused = {1: 10.0, 2: 20.0, 3: 30.0}
    trace.spectator_reached(0, 1, 10.5)   # spectator A: v1 at 10.5
    trace.spectator_reached(0, 2, 20.25)  # spectator B: v1 and v2 at 20.25 (skipped v1)
    trace.spectator_reached(1, 3, 30.5)   # spectator A: v2 and v3 at 30.5
    # v1: last of (10.5, 20.25) - 10 = 10.25; v2: last of (20.25, 30.5) - 20 = 10.5;
    # v3: only A saw it -> not counted.
    assert trace.fan_out_delays(2) == [10.25, 10.5]
    assert trace.fan_out_delays(0) == []


def test_recorder_counts_moves_only_inside_the_window():
    recorder = Recorder(start=100.0, end=110.0)
    recorder.move(99.0, 99.5)    # before the window
    recorder.move(100.0, 100.25)
    recorder.move(109.0, 109.5)
    recorder.move(110.0, 110.5)  # the window is half-open
    assert recorder.rtts == [0.25, 0.5]
    recorder.frame("welcome", 100)
    recorder.frame("welcome", 300)
    assert recorder.welcomed == 2
    assert recorder.samples([], 2).mean_frame_bytes() == {"welcome": 200}
    result = recorder.result([], 2)
    assert (result["moves"], result["moves_per_s"]) == (2, 0.2)  # 2 moves / 10 s


# ------------------------------------------------------------------ several generator processes


def two_processes() -> tuple[Samples, Samples]:
    """What two generator processes measured (times in seconds)."""
    one = Samples(rtts=[0.001, 0.002], fan_out=[0.004], restarts=[1.5],
                  errors={"stale_prompt": 1, "rematch_502": 2},
                  frame_bytes={"update": [100, 200], "welcome": [1000]},
                  update_bytes={"player": [100], "spectator": [200]},
                  finished=3, welcomed=8, cpu_seconds=1.5)
    two = Samples(rtts=[0.010, 0.020, 0.030], fan_out=[0.001, 0.002], restarts=[],
                  errors={"rematch_502": 3, "connect_failed": 1},
                  frame_bytes={"update": [300], "presence": [40]},
                  update_bytes={"player": [300, 500]}, finished=2, welcomed=7, cpu_seconds=2.5)
    return one, two


def test_merged_samples_join_lists_and_add_counts():
    merged = Samples.merged(two_processes())
    assert merged == Samples(
        rtts=[0.001, 0.002, 0.010, 0.020, 0.030], fan_out=[0.004, 0.001, 0.002],
        restarts=[1.5], errors={"stale_prompt": 1, "rematch_502": 5, "connect_failed": 1},
        frame_bytes={"update": [100, 200, 300], "welcome": [1000], "presence": [40]},
        update_bytes={"player": [100, 300, 500], "spectator": [200]},
        finished=5, welcomed=15, cpu_seconds=4.0)
    assert Samples.merged([]) == Samples()


def test_percentiles_come_from_the_merged_samples_not_from_each_process():
    one, two = two_processes()
    figures = Samples.merged([one, two]).figures(10.0)
    # sorted round-trips 1, 2, 10, 20, 30 ms: p50 = 3rd (ceil 2.5), p95 = p99 = 5th; the mean
    # of the two processes' p50s (2 and 20 ms) would say 11 ms
    assert figures["rtt_ms"] == {"n": 5, "p50": 10.0, "p95": 30.0, "p99": 30.0, "max": 30.0}
    # fan-out 1, 2, 4 ms: p50 = 2nd
    assert figures["spectator_ms"] == {"n": 3, "p50": 2.0, "p95": 4.0, "p99": 4.0, "max": 4.0}
    assert (figures["moves"], figures["moves_per_s"], figures["window_s"]) == (5, 0.5, 10.0)
    assert figures["errors"] == {"stale_prompt": 1, "rematch_502": 5, "connect_failed": 1}
    assert figures["error_count"] == 7
    # means (100 + 200 + 300) / 3, 1000, 40; medians of (100, 300, 500) and (200)
    assert figures["frame_bytes"] == {"presence": 40, "update": 200, "welcome": 1000}
    assert figures["update_bytes_median"] == {"player": 300, "spectator": 200}
    assert figures["finished_matches"] == 5


def test_samples_cross_the_pipe_unchanged():
    one, _ = two_processes()
    assert Samples.from_json(json.loads(json.dumps(one.to_json()))) == one


def test_the_report_of_merged_processes():
    config = LoadConfig(rooms=2, spectators=2, think=1.0, game="reverse_curse")
    plans = [RoomPlan("A", ["a0", "a1"]), RoomPlan("B", ["b0", "b1"])]
    window = Window(start=100.0, end=120.0, first=None, last=None, peak=0)
    line = report(config, plans, Samples.merged(two_processes()), 12.34, 5.67, window, None)
    assert {k: line[k] for k in ("rooms", "players", "spectators", "connections", "welcomed",
                                 "setup_s", "launch_s", "window_s", "moves", "moves_per_s",
                                 "rematches", "client_cpu_percent", "server")} == {
        "rooms": 2, "players": 4, "spectators": 4, "connections": 8, "welcomed": 15,
        "setup_s": 12.3, "launch_s": 5.7, "window_s": 20.0, "moves": 5, "moves_per_s": 0.2,
        "rematches": 1,
        "client_cpu_percent": 20.0, "server": None}  # 4 CPU seconds of 2 processes in 20 s
    assert line["rematch_ms"] == {"n": 1, "p50": 1500.0, "p95": 1500.0, "p99": 1500.0,
                                  "max": 1500.0}
    assert list(line)[:9] == ["bench", "game", "rooms", "players", "spectators", "think_s",
                              "connections", "welcomed", "setup_s"]


def test_a_recorder_gives_its_samples():
    recorder = Recorder(start=100.0, end=110.0)
    recorder.move(100.0, 100.25)
    recorder.errors["stale_prompt"] += 2
    recorder.frame("welcome", 900)
    recorder.frame("update", 300, "player", 100.5)
    recorder.frame("update", 700, "player", 99.5)  # the warm-up's: counted by kind only
    recorder.finished.add(("r1", 1))
    trace = RoomTrace(caused={1: 101.0}, seen={1: [101.5]})
    assert recorder.samples([trace], 1, [2.5], 0.75) == Samples(
        rtts=[0.25], fan_out=[0.5], restarts=[2.5], errors={"stale_prompt": 2},
        frame_bytes={"welcome": [900], "update": [300, 700]}, update_bytes={"player": [300]},
        finished=1, welcomed=1, cpu_seconds=0.75)


def test_each_room_keeps_its_players_seeds_whichever_process_plays_it():
    plans = [RoomPlan(code, ["t0", "t1"]) for code in "ABC"]
    seeds = player_seeds(7, plans)
    draws = random.Random(7)  # room by room, seat by seat
    assert seeds == [[draws.random(), draws.random()] for _ in plans]
    assert seeds[1::2] == [seeds[1]]  # process 1 of 2 plays room B with B's seeds


def test_engine_run_rates():
    run = EngineRun("reverse_curse", games=10, actions=50_000, seconds=2.0, cpu_seconds=2.5)
    line = run.to_json()
    assert line["games_per_s"] == 5.0
    assert line["actions_per_s"] == 25_000
    assert line["actions_per_cpu_s"] == 20_000  # 50,000 / 2.5
    assert line["met"] is True                  # exactly the 20,000 target


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_game_ends_within_max_length(game_id):
    game = GAMES[game_id]
    taken = play_random_game(game, 7, random.Random(7))
    assert 0 < taken <= game.spec.max_length


def test_procstat_reads_this_process():
    sample = procstat.sample(os.getpid())
    assert sample.processes >= 1
    assert sample.rss_bytes > 1024 * 1024
    assert sample.cpu_seconds >= 0
    with pytest.raises(ProcessLookupError):
        procstat.sample(2 ** 22 + 1)  # above the kernel's pid_max limit


def test_ceiling_pads_frames_to_the_requested_size():
    ceiling = Ceiling(seats=2, update_bytes=2000, welcome_bytes=900)
    room = CeilingRoom("c1", 2, ["t1", "t2"], version=3)  # seat 3 % 2 = 1 is asked
    asked = json.loads(ceiling.frame(room, 1, "update", 2000))
    other = ceiling.frame(room, 0, "update", 2000)
    assert len(ceiling.frame(room, 1, "update", 2000)) == 2000
    assert len(other) == 2000
    assert (asked["prompt"], asked["legal"]) == ("3", [{"type": "go"}])
    assert json.loads(other)["legal"] == []


def test_targets_compare_against_the_issue_limits():
    engines = [{"game": "reverse_curse", "actions_per_cpu_s": 25_000},
               {"game": "zipai", "actions_per_cpu_s": 9_999}]
    peak, ceiling = {"moves_per_s": 210.0}, {"moves_per_s": 600.0}
    target = {"rtt_ms": {"p99": 50.0}, "error_count": 1,
              "server": {"rss_peak_mb": 400.5, "idle_room_kb": 90.0}}
    out = targets(engines, peak, ceiling, target)
    assert out["rc_actions_per_cpu_s>=20000"]["met"] is True
    assert out["zipai_actions_per_cpu_s>=10000"]["met"] is False
    assert out["peak_ratio_to_ceiling>=0.35"] == {"value": 0.35, "met": True}
    assert out["target_rtt_p99_ms<=50"]["met"] is True
    assert out["target_errors==0"]["met"] is False
    assert out["target_rss_peak_mb<=400"]["met"] is False
    assert out["idle_room_kb<=90"] == {"value": 90.0, "met": True}


# ------------------------------------------------------------------ rematches (rooms keep playing)

def frame(match, version, prompt=None, outcome=None, kind="update", deadline=None):
    """Return a server frame of room r1's ``match`` (only the fields the clients read)."""
    view = {"outcome": outcome} if outcome else {"outcome": None}
    return {"type": kind, "version": version, "prompt": prompt,
            "legal": [{"type": "go"}] if prompt else [], "view": view, "deadline": deadline,
            "room": {"code": "r1", "match_id": match}}


def make_player(asked: list, rematch=True) -> tuple[Player, RoomWatch, Recorder]:
    async def rematch_call(code, token):
        asked.append((code, token))
    recorder, watch = Recorder(start=100.0, end=200.0), RoomWatch()
    pace = Pace(0, asyncio.Event(), asyncio.Event(), rematch_call if rematch else None)
    return Player("ws://x", "t1", "r1", watch, recorder, pace, random.Random(0)), watch, recorder


class SentFrames:
    """A socket that keeps the frames sent on it."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send(self, message: bytes, text: bool = False) -> None:
        assert text  # sent as a text frame
        self.sent.append(json.loads(message))


async def test_before_the_start_a_player_answers_only_a_prompt_whose_clock_runs_out_soon():
    player, _, recorder = make_player([])
    player.socket = SentFrames()
    actor = asyncio.ensure_future(player._act_loop())
    player._on_frame(frame(1, 0, prompt="1.0.a", kind="welcome", deadline=time.time() + 60), 1.0)
    await asyncio.sleep(0.05)
    assert player.socket.sent == []  # 60 s left: it waits for the start
    player._on_frame(frame(1, 0, prompt="1.0.b", deadline=time.time() + 14.9), 2.0)
    await asyncio.sleep(0.05)
    assert player.socket.sent == [{"type": "act", "prompt": "1.0.b", "action": {"type": "go"}}]
    player._on_frame(frame(1, 1, prompt="1.0.c", deadline=time.time() + 15.1), 3.0)
    await asyncio.sleep(0.15)  # 0.1 s past 15 s before its clock runs out: answered then
    assert [sent["prompt"] for sent in player.socket.sent] == ["1.0.b", "1.0.c"]
    player._on_frame(frame(1, 2, prompt="1.0.d", deadline=time.time() + 90), 4.0)
    player.pace.go.set()  # the start: the prompt it held is answered (think 0)
    await asyncio.sleep(0.05)
    assert [sent["prompt"] for sent in player.socket.sent] == ["1.0.b", "1.0.c", "1.0.d"]
    assert recorder.errors == {}
    actor.cancel()


async def test_the_launch_overlaps_the_claims_and_starts_each_rooms_clients_after_its_claim(
        monkeypatch):
    events: list[str] = []
    in_flight = [0, 0]  # now, most

    async def claim(client: httpx.AsyncClient, plan: RoomPlan) -> None:
        in_flight[0] += 1
        in_flight[1] = max(in_flight)
        events.append(f"claim {plan.code}")
        await asyncio.sleep(0.05)
        events.append(f"claimed {plan.code}")
        in_flight[0] -= 1

    class Client:
        def __init__(self, name: str) -> None:
            self.name = name

        async def run(self) -> None:
            events.append(f"run {self.name}")

    monkeypatch.setattr("bench.load.start_match", claim)
    plans = [RoomPlan(code, ["t0", "t1"]) for code in "ABCDE"]
    clients = [[Client(f"{code}{i}") for i in range(2)] for code in "ABCDE"]
    tasks = await _launch(LoadConfig(rest_concurrency=2, connect_rate=0), plans, clients)
    await asyncio.gather(*tasks)
    assert len(tasks) == 10
    assert in_flight == [0, 2]  # two claims at a time, never more
    assert events[:2] == ["claim A", "claim B"]  # B's claim did not wait for A's answer
    for code in "ABCDE":  # a room's clients start once its match started
        assert events.index(f"run {code}0") > events.index(f"claimed {code}")
        assert events.index(f"run {code}1") > events.index(f"claimed {code}")


def test_the_generator_drops_idle_connections_before_the_server_does():
    import uvicorn  # the bench's servers run uvicorn with its default keep-alive timeout

    assert http_limits(16).keepalive_expiry == 2.0
    assert uvicorn.Config(app="app.main:app").timeout_keep_alive == 5


def test_match_of_reads_the_room_match_id():
    assert match_of(frame(7, 0)) == 7
    assert match_of({"type": "update", "version": 3}) is None  # the ceiling sends no room


async def test_a_player_asks_once_for_a_rematch_and_follows_the_new_match():
    asked: list = []
    player, watch, recorder = make_player(asked)
    player._on_frame(frame(1, 3, prompt="1.0.a", kind="welcome"), 100.5)
    player.pending = (101.0, 3, 1)  # it answered 1.0.a at 101.0
    player._on_frame(frame(1, 4, outcome={"winners": [0]}), 101.5)
    player._on_frame(frame(1, 4, outcome={"winners": [0]}), 101.6)  # a repeat: no 2nd ask
    await asyncio.sleep(0)
    assert asked == [("r1", "t1")]
    assert recorder.rtts == [0.5]                    # 101.5 - 101.0
    assert watch.traces[1].caused == {4: 101.0}
    assert recorder.finished == {("r1", 1)}
    assert watch.ended == {1: 101.5}
    player._on_frame(frame(2, 0, prompt="2.0.b"), 102.25)  # the rematch, from version 0
    assert (player.match, player.version, player.prompt) == (2, 0, "2.0.b")
    assert player._wants_to_act()                   # a new prompt: it plays on
    assert watch.restarts == [0.75]                 # 102.25 - 101.5
    assert list(watch.traces) == [1, 2] and watch.traces[2].caused == {}


async def test_an_update_of_another_match_closes_no_move():
    player, watch, recorder = make_player([])
    player._on_frame(frame(1, 5, prompt="1.0.c", kind="welcome"), 100.0)
    player.pending = (101.0, 5, 1)
    player._on_frame(frame(2, 0, prompt="2.0.d"), 101.5)
    assert recorder.rtts == [] and player.pending is None
    assert watch.traces[2].caused == {} and watch.restarts == []  # match 1 never seen over


async def test_a_late_refusal_does_not_make_the_player_answer_its_prompt_twice():
    player, _, recorder = make_player([])
    player._on_frame(frame(1, 5, prompt="1.0.a", kind="welcome"), 100.0)
    player.answered, player.pending = "1.0.a", (100.5, 5, 1)  # it acted on 1.0.a ...
    player._on_frame(frame(1, 6, prompt="1.0.b"), 101.0)  # ... an update came first ...
    assert player._wants_to_act()
    player.answered, player.pending = "1.0.b", (101.5, 6, 1)  # ... and it acted on 1.0.b
    player._on_frame({"type": "error", "code": "stale_prompt"}, 102.0)  # 1.0.a's refusal
    assert recorder.errors == {"stale_prompt": 1}
    assert player.answered == "1.0.b"
    assert player.pending is None
    assert not player._wants_to_act()
    player._on_frame(frame(1, 7, prompt="1.0.c"), 102.5)  # the fresh update: play on
    assert player._wants_to_act()


async def test_without_rematch_a_finished_room_stops():
    asked: list = []
    player, watch, recorder = make_player(asked, rematch=False)
    player._on_frame(frame(1, 9, outcome={"winners": [1]}), 150.0)
    await asyncio.sleep(0)
    assert asked == [] and recorder.finished == {("r1", 1)}


async def test_a_spectator_counts_each_match_from_version_zero():
    watch, recorder = RoomWatch(), Recorder(start=100.0, end=200.0)
    spectator = Spectator("ws://x", watch, recorder, Pace(0, asyncio.Event(), asyncio.Event()))
    spectator._on_frame(frame(1, 40, kind="welcome"), 100.0)
    spectator._on_frame(frame(1, 41), 100.5)
    spectator._on_frame(frame(2, 0), 101.0)   # the rematch's first frame: nothing to record
    spectator._on_frame(frame(2, 2), 101.25)  # versions 1 and 2 of match 2 (1 skipped)
    assert watch.traces[1].seen == {**{v: [100.0] for v in range(1, 41)}, 41: [100.5]}
    assert watch.traces[2].seen == {1: [101.25], 2: [101.25]}
    watch.traces[2].caused = {1: 101.0, 2: 101.125}
    assert watch.traces[2].fan_out_delays(1) == [0.25, 0.125]


async def test_ask_rematch_posts_with_the_token_and_counts_refusals():
    seen = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.path, request.headers["authorization"]))
        if len(seen) == 1:
            return httpx.Response(200, json={"status": "finished", "rematch": [0]})
        if len(seen) == 2:
            return httpx.Response(409, json={"detail": {"code": "room_not_finished",
                                                        "message": "Play again once over."}})
        return httpx.Response(502, text="bad gateway")
    recorder = Recorder()
    async with httpx.AsyncClient(base_url="http://127.0.0.1:1",
                                 transport=httpx.MockTransport(answer)) as client:
        for _ in range(3):
            await ask_rematch(client, recorder, "AB12", "tok")
    assert seen == [("/api/rooms/AB12/rematch", "Bearer tok")] * 3
    assert recorder.errors == {"rematch_room_not_finished": 1, "rematch_502": 1}


# ------------------------------------------------------------------ patched updates


def test_apply_patch_edits_in_place_with_escaped_paths_templates_and_event_copies():
    view: dict[str, Any] = {"a/b": [1, 2], "m~n": 3, "field": [], "n": 0}
    legal = [{"type": "play", "card": "+1"}, {"type": "pass"}]
    events = [{"turn": 1, "card": None}]
    templates = Templates()
    ops: list[Any] = [{"n": 1, "m~0n": 2}, ["+", "a~1b/1", 9], ["-", "a~1b/0"],
                      ["+", "new", None], ["&", "field/0", 0], ["-", "~l/1"],
                      ["+", "s", {"seat": 3, "hp": 4}], [0, 5, 6], ["=", "s", 1, 7, 8],
                      ["+", "t", {"0": "digits"}]]
    assert apply_patch(view, ops, events, templates, legal) == {
        "a/b": [9, 2], "m~n": 6, "new": None, "field": [{"turn": 1, "card": None}], "n": 5,
        "s": {"seat": 7, "hp": 8}, "t": {"0": "digits"}}
    assert legal == [{"type": "play", "card": "+1"}]
    assert view["field"][0] is not events[0]
    assert templates.keys == [(None, ("n", "m~0n")), (None, ("seat", "hp"))]
    for bad in (["-", "gone"], ["=", "a~1b/2", 1], ["+", "a~1b/5", 1], ["?", "m~0n"],
                ["&", "field/0", 3], [2, 1], [0, 1], ["+", "u", 0, 1], ["-", "~l/1"]):
        with pytest.raises((KeyError, IndexError, ValueError, TypeError)):
            apply_patch(view, [bad], events, templates, legal)


def test_rebuilt_frames_follow_seq_and_drop_until_a_full_update():
    rebuilt = Rebuilt()
    welcome = {"type": "welcome", "seq": 0, "seat": None, "version": 0, "view": {"n": 1},
               "prompt": None, "legal": [], "deadline": None, "clocks": {}, "room": {"r": 1}}
    assert rebuilt.take(welcome) is welcome
    patch = {"type": "update", "seq": 1, "clocks": {"0": 1500}, "events": [["x", {"n": 2}]],
             "patch": [{"n": 2}]}  # the last deadline null: times count from 0
    assert rebuilt.take(patch) == {
        "type": "update", "version": 1, "view": {"n": 2}, "prompt": None, "legal": [],
        "deadline": 1.5, "clocks": {"0": 1.5}, "events": [{"kind": "x", "data": {"n": 2}}],
        "room": {"r": 1}}
    assert rebuilt.take({**patch, "seq": 3}) is None  # a gap
    bad = {**patch, "seq": 2, "events": [], "patch": [["-", "gone"]]}
    assert rebuilt.take(bad) is None  # does not apply
    full = {"type": "update", "seq": 4, "version": 1, "view": {"n": 2}, "prompt": "p",
            "legal": [{"type": "a"}, {"type": "b"}], "deadline": None, "clocks": {},
            "events": [], "room": {"r": 2}}
    rebuilt.syncing = True
    assert rebuilt.take({**patch, "seq": 2}) is None  # waiting for the sync's answer
    assert rebuilt.take(full) is full and (rebuilt.seq, rebuilt.syncing) == (4, False)
    # prompt null keeps the legal list; the next one is patched against it
    assert rebuilt.take({"type": "update", "seq": 5, "prompt": None, "events": []}) == {
        **{k: v for k, v in full.items() if k != "seq"}, "version": 2, "prompt": None,
        "legal": []}
    again = rebuilt.take({"type": "update", "seq": 6, "version": 7, "prompt": "q",
                          "patch": [["-", "~l/0"]], "deadline": 9000,
                          "clocks": {"0": 9000, "1": 9500}, "events": [["x", {"n": 3}]]})
    # (the last deadline was null: the times count from 0)
    assert again is not None
    assert (again["version"], again["legal"], again["deadline"], again["clocks"]) == (
        7, [{"type": "b"}], 9.0, {"0": 9.0, "1": 9.5})
    assert again["events"] == [{"kind": "x", "data": {"n": 3}}]
    templated = rebuilt.take({"type": "update", "seq": 7, "events": [[0, 4]],
                              "legal": [{"type": "c"}, [1, "d"]]})
    assert templated is not None and templated["events"] == [{"kind": "x", "data": {"n": 4}}]
    assert templated["legal"] == [{"type": "c"}, {"type": "d"}]
    assert templated["deadline"] is None  # two clocks, none sent
    later = rebuilt.take({"type": "update", "seq": 8, "clocks": {"1": 9250}, "events": []})
    assert later is not None and (later["deadline"], later["clocks"]) == (9.25, {"1": 9.25})
    later = rebuilt.take({"type": "update", "seq": 9, "clocks": {"0": 750}, "events": []})
    assert later is not None  # 750 ms after the last deadline
    assert (later["deadline"], later["clocks"]) == (10.0, {"0": 10.0})


async def test_movepath_plays_the_moves_it_was_asked_through_the_real_app():
    from bench.movepath import run

    result = await run(rooms=2, spectators=1, moves=40, seed=0, concurrency=1, profile=None)
    again = await run(rooms=2, spectators=1, moves=40, seed=0, concurrency=1, profile=None)
    assert (result["rooms"], result["spectators"], result["moves"]) == (2, 1, 40)
    # The same seeded play, deals included (random match seeds let about 1 run in 20 end a
    # match inside the window: a rematch, other frames).
    assert (result["updates_per_move"], result["rematches"]) == (2.82, 0)
    assert (again["updates_per_move"], again["rematches"]) == (2.82, 0)


async def test_the_servers_collector_pauses_over_the_window():
    window = Window(10.0, 30.0, None, None, 0, {"0": {"count": 3.0, "sum": 0.15},
                                                "1": {"count": 1.0, "sum": 0.25},
                                                "2": {"count": 0.0, "sum": 0.0}})
    assert _collector_figures(window) == {
        "gc": {"0": {"count": 3, "seconds": 0.15}, "1": {"count": 1, "seconds": 0.25},
               "2": {"count": 0, "seconds": 0.0}},
        "gc_percent": 2.0}
    assert _collector_figures(Window(10.0, 30.0, None, None, 0)) == {}
    assert await collector_pauses(None) is None  # several workers: not read
