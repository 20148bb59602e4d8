"""Secrets and identity (server side): tokens are ≥128 random bits from
``secrets``, the database holds only their hashes, only their owner ever receives them; across a
whole seeded match no frame to any viewer carries a token, the match seed before the end, or a
raw-state key."""

from __future__ import annotations

import base64
import json
import secrets
import sqlite3
from typing import Any

from app import auth
from app.auth import hash_token, new_token
from app.rooms import service
from tests.app.conftest import SEED
from tests.app.conftest import auth as bearer
from tests.app.hostile import settle, start_match
from tests.app.rc import GAME, Replay

HALF = {"monsters": False, "regulation": "half"}


def test_tokens_are_128_random_bits_or_more_from_secrets(monkeypatch):
    asked, real = [], secrets.token_urlsafe

    def spy(nbytes=None):
        asked.append(nbytes)
        return real(nbytes)
    monkeypatch.setattr(auth.secrets, "token_urlsafe", spy)
    tokens = {new_token() for _ in range(200)}
    assert len(asked) == 200 and min(asked) >= 16
    assert len(tokens) == 200
    for token in tokens:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128


def test_match_seeds_are_256_bits_from_secrets(monkeypatch):
    asked, real = [], secrets.token_bytes

    def spy(nbytes=None):
        asked.append(nbytes)
        return real(nbytes)
    monkeypatch.setattr(service.secrets, "token_bytes", spy)
    seeds = {service.new_seed() for _ in range(50)}
    assert asked == [32] * 50 and len(seeds) == 50 and {len(s) for s in seeds} == {32}


def database_text(path) -> str:
    """Return every row of every table of the SQLite file as text (``iterdump``)."""
    with sqlite3.connect(path) as db:
        return "\n".join(db.iterdump())


async def test_the_database_holds_only_token_hashes(arena):
    match = await start_match(arena)
    await match.play(2)
    dump = database_text(arena.db_path)
    for player in match.players:
        assert player["token"] not in dump
        assert hash_token(player["token"]) in dump  # what it holds instead: SHA-256 hex


def collect_strings(value: Any) -> list[str]:
    """Return every key and string value inside a JSON value."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *collect_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in collect_strings(v)]
    return [value] if isinstance(value, str) else []


async def test_tokens_go_only_to_their_owner(arena):
    match = await start_match(arena)
    tokens = [p["token"] for p in match.players]
    code, match_id = match.room["code"], match.room["match_id"]
    answers = [await arena.http.get(path) for path in (
        "/api/rooms", f"/api/rooms/{code}", "/api/matches", f"/api/matches/{match_id}",
        *(f"/api/players/{p['id']}" for p in match.players))]
    answers.append(await arena.sit(code, 0, match.players[0]))  # refused: already playing
    answers.append(await arena.http.post("/api/rooms", json={"game": "reverse_curse"},
                                         headers=bearer(match.players[0])))
    for answer in answers:
        for token in tokens:
            assert token not in answer.text, answer.request.url
    frames = [c.welcome for c in match.clients]
    for token in tokens:
        assert all(token not in json.dumps(frame) for frame in frames)


def record(client) -> list[str]:
    """Record the raw text of every frame ``client`` receives from now on."""
    log: list[str] = []
    recv = client.socket.recv

    async def recording(*args, **kwargs):
        text = await recv(*args, **kwargs)
        log.append(text)
        return text
    client.socket.recv = recording
    return log


def keys_of(value: Any) -> set[str]:
    """Return every object key inside a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def raw_state_keys(replay: Replay, states: list[Any]) -> set[str]:
    """Return the keys of the engine's raw ``dump`` that no view or event ever uses."""
    used: set[str] = set()
    raw: set[str] = set()
    for state in states:
        raw |= keys_of(GAME.dump(state))
        for viewer in (0, 1, None):
            used |= keys_of(GAME.view(state, viewer))
    return raw - used


async def test_no_frame_leaks_a_token_the_seed_or_raw_state(arena):
    match = await start_match(arena, options=HALF)
    logs = {viewer: record(client) for viewer, client in zip((0, 1, None), match.clients)}
    await match.spectator.send({"type": "chat", "text": "hello"})  # chat and presence too
    states, events = [match.replay.state], set()
    while not match.replay.over:
        await match.play(1)
        states.append(match.replay.state)
        for viewer in (0, 1, None):
            events |= keys_of(match.replay.events_for(viewer))
    options = set(match.replay.options)  # public room options (in every frame's ``room``)
    raw = raw_state_keys(match.replay, states) - events - options
    assert {"deck", "seed"} <= raw  # the check below is not empty
    tokens = [p["token"] for p in match.players]
    seed_hex = SEED.hex()
    for viewer, log in logs.items():
        kinds = [json.loads(text)["type"] for text in log]
        assert {"update", "chat", "pong"} <= set(kinds), (viewer, set(kinds))
        for text in log:
            frame = json.loads(text)
            assert not any(token in text for token in tokens), (viewer, frame["type"])
            assert seed_hex not in text.lower(), (viewer, frame["type"])
            assert not keys_of(frame) & raw, (viewer, keys_of(frame) & raw)
    detail = (await arena.http.get(f"/api/matches/{match.room['match_id']}")).json()
    assert detail["seed"] == seed_hex  # revealed only now, by REST, once finished


async def test_clocks_never_show_who_is_still_asked(arena):
    match = await start_match(arena)  # the mulligan: both seats asked at once
    deadline = match.seats[1].last["deadline"]
    assert match.spectator.last["clocks"] == {} and match.spectator.last["deadline"] is None
    await match.seats[0].act({"type": "mulligan", "card": None})
    match.replay.apply(0, {"type": "mulligan", "card": None})
    assert (await match.seats[0].next("update"))["version"] == 0  # a hidden answer
    # Seat 1 alone is still asked: neither the spectator nor seat 0 may learn it from the
    # clocks (whether an unchanged viewer gets an update at all is the hub's business).
    assert (match.seats[0].last["clocks"], match.seats[0].last["deadline"]) == ({}, None)
    for client in (match.seats[1], match.spectator):
        await settle(client)
    assert (match.spectator.last["clocks"], match.spectator.last["deadline"]) == ({}, None)
    assert match.seats[1].last["clocks"] == {"1": deadline}
    await match.play(1)  # seat 1 answers: the window closes, the next decision is public
    assert len(GAME.to_act(match.replay.state)) == 1
    seat = match.acting
    for client in match.clients:
        assert client.last["version"] == 1  # the window's two answers: one public step
        assert list(client.last["clocks"]) == [str(seat)]
