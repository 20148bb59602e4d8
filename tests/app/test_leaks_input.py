"""Hostile input the security tester found (docs/security.md §5, "Second attack"): a lone
surrogate token, a huge ladder offset, invisible and bot-like names, look-alike saved names,
chat controls and non-boolean flags."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from app.api.player_name import BOT_DISPLAY_NAMES, NAME_PATTERN
from app.auth import hash_token
from engine.bots import LEVELS
from tests.app.conftest import auth

ROOT = Path(__file__).resolve().parents[2]


def code_of(answer):
    return answer.json()["detail"]["code"]


def test_a_lone_surrogate_token_hashes_like_any_unknown_token():
    # U+D800 in UTF-8 with surrogatepass is ED A0 80.
    assert hash_token("\ud800") == hashlib.sha256(b"\xed\xa0\x80").hexdigest()


async def test_a_lone_surrogate_hello_makes_a_spectator(arena):
    ann = await arena.player("Ann")
    code = (await arena.room(ann))["code"]
    client = await arena.connect(code, hello=False)
    await client.send('{"type": "hello", "token": "\\ud800"}')
    welcome = await client.next("welcome")
    assert welcome["seat"] is None
    await client.send({"type": "ping"})
    assert await client.next("pong") == {"type": "pong"}  # the socket lives on


@pytest.mark.parametrize("offset", [2 ** 31, 2 ** 63, 2 ** 64])
async def test_a_ladder_offset_out_of_range_is_422(arena, offset):
    answer = await arena.http.get(f"/api/ladders/reverse_curse?offset={offset}")
    assert answer.status_code == 422 and code_of(answer) == "validation_error"


async def test_the_largest_ladder_offset_is_an_empty_page(arena):
    answer = await arena.http.get(f"/api/ladders/reverse_curse?offset={2 ** 31 - 1}")
    assert answer.status_code == 200 and answer.json()["players"] == []


INVISIBLE_NAMES = [
    "a\u200bb",        # zero-width space (Cf)
    "\u202eAnn",       # right-to-left override (Cf)
    "Ann\u2066",       # left-to-right isolate (Cf)
    "\ufeffAnn",       # zero-width no-break space (Cf)
    "Ann\ue000",       # private use (Co)
    "Ann\u0378",       # unassigned (Cn)
    "a\u2028b",        # line separator (Zl)
    "a\u2029b",        # paragraph separator (Zp)
    "\u3164",          # Hangul filler: shows nothing
]
BOT_NAMES = ["Easy bot", "NORMAL BOT", " hard Bot ", "Expert bot", "むずかしいCPU", "专家电脑",
             "简单电脑", "Ｈａｒｄ ｂｏｔ"]  # the last: full width, NFKC makes it "Hard bot"


@pytest.mark.parametrize("name", INVISIBLE_NAMES + BOT_NAMES)
async def test_invisible_and_bot_names_are_refused(arena, name):
    answer = await arena.http.post("/api/players", json={"name": name})
    assert answer.status_code == 422 and code_of(answer) == "validation_error"
    expected = ("body.name: That name belongs to the computer players." if name in BOT_NAMES
                else "body.name: A name may not contain invisible or format characters.")
    assert answer.json()["detail"]["message"] == expected


def test_the_schema_pattern_refuses_the_invisible_names_and_accepts_plain_ones():
    for name in INVISIBLE_NAMES:
        assert re.fullmatch(NAME_PATTERN, name) is None, ascii(name)
    for name in ("Ann", "Zoë", "张伟", " Ann ", "a b"):
        assert re.fullmatch(NAME_PATTERN, name) is not None, name


async def test_a_full_width_name_is_stored_nfkc(arena):
    answer = await arena.http.post("/api/players", json={"name": "Ａｎｎ"})
    assert answer.status_code == 201 and answer.json()["name"] == "Ann"


async def test_a_look_alike_of_a_saved_name_cannot_be_saved(arena):
    ann = await arena.player("Ann")
    saved = await arena.http.post(f"/api/players/{ann['id']}/claim", headers=auth(ann),
                                  json={"password": "correct horse"})
    assert saved.status_code == 200
    other = await arena.player("Bob")
    taken = await arena.http.post(f"/api/players/{other['id']}/claim", headers=auth(other),
                                  json={"password": "password two", "name": "ＡＮＮ"})
    assert taken.status_code == 409 and code_of(taken) == "name_taken"
    login = await arena.http.post("/api/login", json={"name": "ａｎｎ",
                                                      "password": "correct horse"})
    assert login.status_code == 200 and login.json()["id"] == ann["id"]


def test_the_bot_names_are_every_locale_translation():
    names = set()
    for path in (ROOT / "frontend" / "i18n").glob("*.json"):
        texts = json.loads(path.read_text(encoding="utf-8"))
        names |= {texts[f"bots.name.{level}"].casefold() for level in LEVELS}
    assert names == set(BOT_DISPLAY_NAMES)


async def test_private_must_be_a_boolean(arena):
    ann = await arena.player("Ann")
    answer = await arena.http.post("/api/rooms", headers=auth(ann),
                                   json={"game": "reverse_curse", "private": "yes"})
    assert answer.status_code == 422 and code_of(answer) == "validation_error"


async def test_chat_loses_controls_and_bidi_and_team_must_be_a_boolean(arena):
    ann = await arena.player("Ann")
    code = (await arena.room(ann))["code"]
    client = await arena.connect(code, ann["token"])
    await client.send({"type": "chat", "text": "a\u202eb\u2066c\x07d\ne\u200ff"})
    line = await client.next("chat")
    assert line["text"] == "abcdef"
    await client.send({"type": "chat", "text": "hi", "team": "yes"})
    assert (await client.next("error"))["code"] == "bad_frame"
    await client.send({"type": "chat", "text": "\u202e\x07"})
    assert (await client.next("error"))["code"] == "bad_frame"
