"""Lasting identity: claim a guest profile with a password, log in elsewhere."""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import select

from app.accounts import login_of, verify
from app.db.models import Player, PlayerToken
from tests.app.conftest import auth

HALF = {"regulation": "half", "monsters": False}


def body(data):
    """``data`` as ASCII JSON (``\\u`` escapes carry any text, a lone surrogate too)."""
    return {"content": json.dumps(data), "headers": {"Content-Type": "application/json"}}


async def claim(arena, player, password, **extra):
    request = body({"password": password, **extra})
    request["headers"].update(auth(player))
    return await arena.http.post(f"/api/players/{player['id']}/claim", **request)


async def login(arena, name, password):
    return await arena.http.post("/api/login", **body({"name": name, "password": password}))


def code_of(answer):
    return answer.json()["detail"]["code"]


def test_login_is_the_case_folded_name():
    assert login_of("  Ann ") == "ann"
    assert login_of("STRASSE") == login_of("straße") == "strasse"


async def test_claim_stores_an_argon2_hash_and_refuses_what_it_must(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    assert (await arena.http.get("/api/account", headers=auth(ann))).json() == {
        "id": ann["id"], "name": "Ann", "claimed": False}
    other = await arena.http.post(f"/api/players/{bob['id']}/claim", headers=auth(ann),
                                  json={"password": "long enough"})
    assert other.status_code == 403 and code_of(other) == "not_your_profile"
    short = await claim(arena, ann, "7 chars")  # 8 to 128 characters (the schema says so)
    assert short.status_code == 422 and code_of(short) == "validation_error"
    anonymous = await arena.http.post(f"/api/players/{ann['id']}/claim",
                                      json={"password": "long enough"})
    assert anonymous.status_code == 401

    done = await claim(arena, ann, "correct horse")
    assert done.status_code == 200
    assert done.json() == {"id": ann["id"], "name": "Ann", "claimed": True}
    again = await claim(arena, ann, "another one")
    assert again.status_code == 409 and code_of(again) == "already_claimed"
    async with arena.app.state.arena.sessions() as session:
        row = await session.get(Player, ann["id"])
    assert row.login == "ann" and row.password_hash.startswith("$argon2id$")
    assert "correct horse" not in row.password_hash
    assert verify(row.password_hash, "correct horse") and not verify(row.password_hash, "x")

    # Another guest called "ANN" cannot save under that name, but may under a new one.
    ann2 = await arena.player("ANN")
    taken = await claim(arena, ann2, "password two")
    assert taken.status_code == 409 and code_of(taken) == "name_taken"
    renamed = await claim(arena, ann2, "password two", name="Annie")
    assert renamed.json() == {"id": ann2["id"], "name": "Annie", "claimed": True}
    profile = (await arena.http.get(f"/api/players/{ann2['id']}")).json()
    assert profile["name"] == "Annie"


async def test_login_from_another_browser_keeps_the_player_and_its_seat(arena):
    ann = await arena.player("Ann")
    await arena.player("Bob")
    room = await arena.room(ann, HALF)
    await arena.sit(room["code"], 1, ann)
    assert (await claim(arena, ann, "correct horse")).status_code == 200

    wrong = await login(arena, "Ann", "wrong horse")
    assert wrong.status_code == 401 and code_of(wrong) == "bad_login"
    unknown = await login(arena, "Nobody", "correct horse")
    assert unknown.status_code == 401 and code_of(unknown) == "bad_login"
    guest = await login(arena, "Bob", "correct horse")  # Bob never saved his profile
    assert guest.status_code == 401 and code_of(guest) == "bad_login"

    answer = await login(arena, "aNN", "correct horse")
    assert answer.status_code == 200
    second = answer.json()
    assert (second["id"], second["name"]) == (ann["id"], "Ann")
    assert second["token"] != ann["token"] and len(second["token"]) >= 22
    # Both browsers stay logged in as the same player.
    for token in (ann["token"], second["token"]):
        me = await arena.http.get("/api/account", headers={"Authorization": f"Bearer {token}"})
        assert me.json() == {"id": ann["id"], "name": "Ann", "claimed": True}
    # The new token is stored only as its SHA-256.
    async with arena.app.state.arena.sessions() as session:
        stored = (await session.scalars(select(PlayerToken))).all()
    assert [(t.player_id, t.token_hash) for t in stored] == [
        (ann["id"], hashlib.sha256(second["token"].encode()).hexdigest())]
    # The second browser holds Ann's seat: its socket is greeted as seat 1.
    socket = await arena.connect(room["code"], second["token"])
    assert socket.welcome["seat"] == 1
    mine = await arena.http.get("/api/account/rooms", headers={
        "Authorization": f"Bearer {second['token']}"})
    assert [r["code"] for r in mine.json()] == [room["code"]]


async def test_login_attempts_are_rate_limited_per_address(arena, monkeypatch):
    from app import accounts
    monkeypatch.setattr(accounts, "verify", lambda stored, password: False)  # fast: no argon2
    for _ in range(10):
        assert (await login(arena, "nobody", "whatever1")).status_code == 401
    limited = await login(arena, "nobody", "whatever1")
    assert limited.status_code == 429 and code_of(limited) == "rate_limited"
    assert limited.headers["Retry-After"] == "6"
    arena.clock.advance(6.0)  # 10 a minute: one more try every 6 s
    assert (await login(arena, "nobody", "whatever1")).status_code == 401


def test_a_password_has_8_to_128_characters():
    import pytest

    from app.accounts import check_password
    from app.rooms.errors import RoomError

    for good in ("x" * 8, "x" * 128):
        check_password(good)
    for bad in ("x" * 7, "x" * 129):
        with pytest.raises(RoomError) as refused:
            check_password(bad)
        assert (refused.value.code, refused.value.status) == ("bad_password", 422)


async def test_any_unicode_text_is_a_password_but_a_lone_surrogate_is_refused(arena):
    ann = await arena.player("Ann")
    lone = await claim(arena, ann, "pass \udabe wörd")
    assert lone.status_code == 422 and code_of(lone) == "validation_error"  # not JSON text
    assert (await claim(arena, ann, "pässwörd ✓ 逆转")).status_code == 200
    assert (await login(arena, "Ann", "pässwörd ✓ 逆转")).json()["id"] == ann["id"]
    assert (await login(arena, "Ann", "passwort ✓ 逆转")).status_code == 401
