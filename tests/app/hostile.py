"""Helpers of the hostile-input tests: a running match, the documented error codes, checks that
nothing changed, and a seeded generator of hostile frames (the scripted fuzzer)."""

from __future__ import annotations

import json
import random
import string
from dataclasses import dataclass
from typing import Any

from tests.app.conftest import SEED
from tests.app.rc import GAME, Replay

#: Error codes of docs/protocol.md (websocket) …
PROTOCOL_CODES = {
    "bad_json", "bad_frame", "unknown_type", "hello_first", "not_seated", "stale_prompt",
    "already_played", "not_your_turn", "illegal_action", "malformed_action", "game_over",
    "match_not_started", "frame_too_large", "chat_too_long", "rate_limited", "room_not_found",
    "too_many_connections",
}
#: … and the Reverse Curse engine's own (docs/protocol.md "Reverse Curse view").
RC_CODES = {"wrong_phase", "card_not_in_hand", "not_offered", "not_enough_energy", "no_monster",
            "summon_not_allowed", "unknown_action"}
KNOWN_CODES = PROTOCOL_CODES | RC_CODES
#: Frames a hostile socket may get back besides ``error`` (``update`` only after stale_prompt).
QUIET = {"presence", "room", "chat", "chat_history", "pong"}


@dataclass
class Match:
    """A Reverse Curse 1v1 match in progress: room, players, socket per seat, spectator, engine."""

    room: dict[str, Any]
    players: tuple[dict[str, Any], dict[str, Any]]
    seats: dict[int, Any]
    spectator: Any
    replay: Replay

    @property
    def clients(self) -> list[Any]:
        return [self.seats[0], self.seats[1], self.spectator]

    @property
    def acting(self) -> int:
        """The lowest seat the engine asks now."""
        return min(GAME.to_act(self.replay.state))

    async def play(self, count: int) -> None:
        """Play ``count`` actions of the tests' policy; after each, wait for the actor's
        ``update`` and let every other socket catch up (``settle``)."""
        for _ in range(count):
            seat, action = self.replay.policy()
            await self.seats[seat].act(action)
            self.replay.apply(seat, action)
            await self.seats[seat].next("update")  # the actor always hears its action
            for client in self.clients:
                await settle(client)


async def settle(client) -> None:
    """Receive everything already queued for ``client`` (``Client.settle``: a ``ping``, up to
    its ``pong``). A viewer for whom an action changed nothing gets no ``update`` (a hidden
    answer must not show, not even by a frame); call it once the actor has its ``update``."""
    await client.settle()


async def start_match(arena, names=("Ann", "Bob"), options=None) -> Match:
    """Open a Reverse Curse room (no monsters unless ``options``), seat two new players, connect
    both and a spectator; return the ``Match`` at version 0."""
    options = {"monsters": False} if options is None else options
    ann, bob = [await arena.player(name) for name in names]
    room = await arena.room(ann, options)
    await arena.sit(room["code"], 0, ann)
    room = (await arena.sit(room["code"], 1, bob)).json()
    seats = {0: await arena.connect(room["code"], ann["token"]),
             1: await arena.connect(room["code"], bob["token"])}
    spectator = await arena.connect(room["code"])
    match = Match(room, (ann, bob), seats, spectator, Replay(options, SEED))
    for client in match.clients:
        await client.until_version(0)
        await settle(client)
    return match


async def expect_unchanged(arena, match: Match) -> None:
    """Assert the room is where the engine says: the log holds ``replay.version`` actions and a
    newcomer is welcomed at the public version ``replay.public`` with the engine's spectator
    view."""
    assert await arena.action_count(match.room["match_id"]) == match.replay.version
    late = await arena.connect(match.room["code"])
    assert late.welcome["version"] == match.replay.public
    assert late.welcome["view"] == match.replay.view(None)
    await late.socket.close()


async def answers_to(client, text: Any) -> list[dict[str, Any]]:
    """Send ``text`` (str or bytes) and return the frames answering it, up to its ``error``
    (plus the fresh ``update`` that follows ``stale_prompt``), skipping quiet frames."""
    await client.socket.send(text)
    frames = [await client.next("error")]
    if frames[0]["code"] == "stale_prompt":
        frames.append(await client.next("update"))
    return frames


def assert_clear_error(frames: list[dict[str, Any]], version: int) -> None:
    """Assert ``frames`` are one documented ``error`` (and at most a resync at ``version``)."""
    error = frames[0]
    assert error["type"] == "error" and error["code"] in KNOWN_CODES, error
    assert isinstance(error["message"], str) and error["message"], error
    for update in frames[1:]:
        assert update["version"] == version and update["events"] == []


# ---------------------------------------------------------------------- the scripted fuzzer

WORDS = ["hello", "act", "chat", "ping", "HELLO", "Act", "", " ", "update", "welcome", "error",
         "__proto__", "constructor", "resign", "play", "seat", "<script>", "null", "0"]
SCALARS = [None, True, False, 0, -1, 2 ** 63, 1e308, -0.0, "", "x", "+1", "\u0000", "\ud7ff",
           "💥" * 3, [], {}]


def junk_value(rng: random.Random, depth: int = 0) -> Any:
    """Return a random JSON value (nesting at most 4 deep)."""
    roll = rng.random()
    if depth >= 3 or roll < 0.5:
        return rng.choice(SCALARS + WORDS)
    if roll < 0.75:
        return [junk_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(WORDS + ["type", "card", "prompt", "token", "text", "team"]):
            junk_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def junk_action(rng: random.Random, legal_elsewhere: list[dict[str, Any]]) -> dict[str, Any]:
    """Return a hostile action: another seat's legal one, a mangled one, or nonsense."""
    roll = rng.random()
    if roll < 0.3 and legal_elsewhere:
        return dict(rng.choice(legal_elsewhere))
    if roll < 0.6:
        return {"type": rng.choice(["play", "mulligan", "choose_order", "summon", "recruit",
                                    "pass", rng.choice(WORDS)]),
                rng.choice(["card", "first", "monster", "x"]): junk_value(rng, 2)}
    value = junk_value(rng, 1)
    return value if isinstance(value, dict) else {"type": value}


def is_benign(text: str | bytes) -> bool:
    """Return whether ``text`` is a frame the server rightly accepts (a ping, a chat line, an
    exact resign): the fuzzer does not count those as hostile."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    if not isinstance(data, dict):
        return False
    if data == {"type": "ping"}:
        return True
    if data.get("type") == "chat":
        return isinstance(data.get("text"), str) and 0 < len(data["text"]) <= 300 \
            and set(data) <= {"type", "text", "team"}
    return data.get("type") == "act" and data.get("action") == {"type": "resign"} \
        and set(data) <= {"type", "prompt", "action"}


def hostile_frame(rng: random.Random, prompts: list[Any],
                  legal_elsewhere: list[dict[str, Any]]) -> str | bytes:
    """Return one hostile frame: garbage, a wrong type, an unknown type, a huge or deeply nested
    frame, an act with a wrong prompt or action, a second hello, a binary frame…"""
    kind = rng.randrange(10)
    if kind == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 60)))
    if kind == 1:
        return json.dumps(junk_value(rng))
    if kind == 2:
        return json.dumps({"type": rng.choice(SCALARS[:8] + [[], {}])})
    if kind == 3:
        return json.dumps({"type": rng.choice(WORDS[7:]) + str(rng.randrange(99))})
    if kind == 4:
        return json.dumps({"type": "chat", "text": "x" * rng.randrange(17_000, 40_000)})
    if kind == 5:
        depth = rng.randrange(17, 6000)
        return '{"type": "act", "prompt": null, "action": ' + "[" * depth + "]" * depth + "}"
    if kind == 6:
        return json.dumps({"type": "hello", "token": rng.choice(["forged", None, "x" * 500])})
    if kind == 7:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if kind == 8:
        frame = {"type": "act", "prompt": rng.choice(prompts), "action": {"type": "resign"}}
        frame[rng.choice(["seat", "player", "version"])] = rng.randrange(3)
        return json.dumps(frame)  # an extra key: refused whole, even a resign
    return json.dumps({"type": "act", "prompt": rng.choice(prompts),
                       "action": junk_action(rng, legal_elsewhere)})
