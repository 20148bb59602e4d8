"""The REST contract of docs/protocol.md: players, games, rooms, seats, matches, pages."""

from __future__ import annotations

import json
import logging

import httpx
import pytest
from fastapi.routing import APIRoute

from app.api.json_body import JsonRoute, UnreadableBody, parse_json
from app.rooms.clocks import ManualClock
from tests.app.conftest import auth, make_app, running_arena, serve, shutdown
from tests.app.rc import GAME
from tests.app.test_round_trips import database_work
from tests.app.test_security_headers import leaf_routes


async def test_players(arena):
    answer = await arena.http.post("/api/players", json={"name": "Ann"})
    assert answer.status_code == 201
    ann = answer.json()
    assert set(ann) == {"id", "name", "token"} and ann["name"] == "Ann"
    assert len(ann["token"]) >= 22  # at least 128 random bits, url-safe base64
    assert (await arena.http.get(f"/api/players/{ann['id']}")).json() == {
        "id": ann["id"], "name": "Ann", "ratings": [], "recent_matches": []}
    missing = await arena.http.get("/api/players/999")
    assert missing.status_code == 404
    assert missing.json()["detail"]["code"] == "player_not_found"
    for bad in ({"name": ""}, {"name": "x" * 33}, {}):
        refused = await arena.http.post("/api/players", json=bad)
        assert refused.status_code == 422
        assert refused.json()["detail"]["code"] == "validation_error"


async def test_player_names_are_stripped_and_need_a_visible_character(arena):
    spaced = await arena.http.post("/api/players", json={"name": "  Ann  "})
    assert spaced.status_code == 201 and spaced.json()["name"] == "Ann"
    blank = ("blank_name", "A name needs at least one visible character.")
    control = ("control_character", "A name may not contain control characters.")
    refusals = {
        "   ": blank,
        "\t\u3000 ": control,  # \t is Cc
        "\u3000 ": blank,
        "\u0000bad": control,
        "bad\u0085": control,
        "a\u200bb": ("invisible_character",
                     "A name may not contain invisible or format characters."),
        "normal BOT": ("bot_name", "That name belongs to the computer players."),
    }
    for name, (reason, message) in refusals.items():
        refused = await arena.http.post("/api/players", json={"name": name})
        assert refused.status_code == 422, name
        assert refused.json() == {"detail": {
            "code": "validation_error", "message": f"body.name: {message}", "field": "body.name",
            "reason": reason}}


async def test_a_body_field_the_api_does_not_define_is_refused_and_nothing_is_made(arena):
    refused = await arena.http.post("/api/players", json={"name": "Zed", "admin": True})
    assert (refused.status_code, refused.json()) == (422, {"detail": {
        "code": "validation_error", "message": "body.admin: Extra inputs are not permitted",
        "field": "body.admin", "reason": "extra_forbidden"}})
    ann = await arena.player("Ann")
    misspelt = await arena.http.post("/api/rooms", headers=auth(ann), json={
        "game": "reverse_curse", "privte": True})
    assert (misspelt.status_code, misspelt.json()) == (422, {"detail": {
        "code": "validation_error", "message": "body.privte: Extra inputs are not permitted",
        "field": "body.privte", "reason": "extra_forbidden"}})
    assert (await arena.http.get("/api/rooms")).json()["items"] == []


async def test_a_body_that_is_not_json_is_refused_plainly_and_nothing_is_made(arena):
    refused = await arena.http.post("/api/players", content=b'{"name": ',
                                    headers={"Content-Type": "application/json"})
    assert (refused.status_code, refused.json()) == (422, {"detail": {
        "code": "validation_error", "message": "body: The body is not valid JSON.",
        "field": "body", "reason": "json_invalid"}})
    assert (await arena.http.get("/api/players/1")).status_code == 404


JSON = {"Content-Type": "application/json"}
NOT_UTF8 = {"detail": {"code": "validation_error",
                       "message": "body: The body is not valid JSON: it is not UTF-8 text.",
                       "field": "body", "reason": "json_invalid"}}


async def test_a_body_that_is_not_utf8_is_refused_as_json_is_and_nothing_is_made(arena):
    ann = await arena.player("Ann")
    for path, body in (("/api/players", b'{"name": "Ren\xe9"}'),         # Latin-1 "é"
                       ("/api/players", b"\xff\xfe{"),                    # a broken UTF-16 mark
                       ("/api/rooms", b'{"game": "numgr", "x": "\x80"}')):
        refused = await arena.http.post(path, content=body, headers={
            "Content-Type": "application/json", **auth(ann)})
        assert (refused.status_code, refused.json()) == (422, NOT_UTF8), body
    assert (await arena.http.get("/api/players/2")).status_code == 404
    assert (await arena.http.get("/api/rooms")).json()["items"] == []
    metrics = (await arena.http.get("/metrics")).text
    assert 'arena_errors_total{channel="http",code="validation_error"} 3.0' in metrics
    assert 'code="http_400"' not in metrics


#: ``{"name": "Zed"}`` in every encoding but UTF-8 that ``json.loads`` reads (RFC 8259 §8.1:
#: JSON between systems is UTF-8).
NOT_UTF8_JSON = {
    "UTF-16LE with a BOM": b"\xff\xfe" + '{"name": "Zed"}'.encode("utf-16-le"),
    "UTF-16LE": '{"name": "Zed"}'.encode("utf-16-le"),
    "UTF-16BE with a BOM": b"\xfe\xff" + '{"name": "Zed"}'.encode("utf-16-be"),
    "UTF-16BE": '{"name": "Zed"}'.encode("utf-16-be"),
    "UTF-32LE with a BOM": b"\xff\xfe\x00\x00" + '{"name": "Zed"}'.encode("utf-32-le"),
    "UTF-32BE": '{"name": "Zed"}'.encode("utf-32-be"),
}


async def test_utf16_and_utf32_bodies_are_refused_as_not_utf8_and_nothing_is_made(arena):
    for encoding, body in NOT_UTF8_JSON.items():
        refused = await arena.http.post("/api/players", content=body, headers=JSON)
        assert (refused.status_code, refused.json()) == (422, NOT_UTF8), encoding
    assert (await arena.http.get("/api/players/1")).status_code == 404
    metrics = (await arena.http.get("/metrics")).text
    assert 'arena_errors_total{channel="http",code="validation_error"} 6.0' in metrics


async def test_a_utf8_body_is_read_with_or_without_a_byte_order_mark(arena):
    """RFC 8259 §8.1: a parser MAY ignore a UTF-8 byte order mark; this one does."""
    plain = await arena.http.post("/api/players", content='{"name": "Zoë"}'.encode(),
                                  headers=JSON)
    marked = await arena.http.post("/api/players",
                                   content=b"\xef\xbb\xbf" + '{"name": "Zoé"}'.encode(),
                                   headers=JSON)
    assert [(plain.status_code, plain.json()["name"]), (marked.status_code, marked.json()["name"])] \
        == [(201, "Zoë"), (201, "Zoé")]


#: JSON ``body`` nested far deeper than Python's parser recurses (its limit is about 1,000),
#: within the 64 KiB body limit.
TOO_DEEP = {"detail": {"code": "validation_error",
                       "message": "body: The body is not valid JSON: it nests arrays and "
                                  "objects too deeply.",
                       "field": "body", "reason": "json_invalid"}}
DEEP_ARRAY = b"[" * 20_000 + b"]" * 20_000
DEEP_OBJECT = b'{"a":' * 10_000 + b"1" + b"}" * 10_000
DEEP_NAME = b'{"name": ' + b"[" * 5_000 + b"]" * 5_000 + b"}"


async def test_a_body_nested_too_deeply_is_refused_as_json_is_without_a_traceback(arena, caplog):
    ann = await arena.player("Ann")
    server_log = logging.getLogger("uvicorn.error")  # where an unhandled error's traceback goes
    server_log.addHandler(caplog.handler)
    try:
        for path in ("/api/players", "/api/rooms"):
            for body in (DEEP_ARRAY, DEEP_OBJECT, DEEP_NAME):
                refused = await arena.http.post(path, content=body, headers={**JSON, **auth(ann)})
                assert (refused.status_code, refused.json()) == (422, TOO_DEEP), (path, body[:9])
    finally:
        server_log.removeHandler(caplog.handler)
    assert [record for record in caplog.records if record.exc_info] == []
    assert (await arena.http.get("/api/players/2")).status_code == 404
    assert (await arena.http.get("/api/rooms")).json()["items"] == []
    metrics = (await arena.http.get("/metrics")).text
    assert 'arena_errors_total{channel="http",code="validation_error"} 6.0' in metrics
    assert 'code="http_400"' not in metrics


#: An integer of 4,301 digits: one more than Python's ``int`` reads from text.
LONG_INTEGER = b'{"name": "Ann", "n": ' + b"9" * 4_301 + b"}"
TOO_LONG = {"detail": {"code": "validation_error",
                       "message": "body: The body is not valid JSON: it has an integer of more "
                                  "than 4,300 digits.",
                       "field": "body", "reason": "json_invalid"}}


async def test_an_integer_longer_than_python_reads_is_refused_as_json_is(arena):
    refused = await arena.http.post("/api/players", content=LONG_INTEGER, headers=JSON)
    assert (refused.status_code, refused.json()) == (422, TOO_LONG)
    longest = LONG_INTEGER.replace(b"9" * 4_301, b"9" * 4_300)  # read, then refused as a field
    refused = await arena.http.post("/api/players", content=longest, headers=JSON)
    assert (refused.status_code, refused.json()["detail"]["reason"]) == (422, "extra_forbidden")
    assert (await arena.http.get("/api/players/1")).status_code == 404


async def test_the_body_size_limit_comes_before_reading_the_nesting(arena):
    deeper = b"[" * 100_000 + b"]" * 100_000  # 200,000 bytes
    refused = await arena.http.post("/api/players", content=deeper, headers=JSON)
    assert (refused.status_code, refused.json()["detail"]["code"]) == (413, "request_too_large")

    async def streamed():  # no Content-Length: counted as it arrives
        for start in range(0, len(deeper), 65536):
            yield deeper[start:start + 65536]

    refused = await arena.http.post("/api/players", content=streamed(), headers=JSON)
    assert (refused.status_code, refused.json()["detail"]["code"]) == (413, "request_too_large")


def test_every_api_route_reads_its_json_body_as_a_json_route(db_path):
    """Every API route is a ``JsonRoute``: a body route left out would read UTF-16 and answer
    a deep body with 400."""
    app = make_app(db_path, ManualClock())
    routes = [route for route in leaf_routes(app.routes) if isinstance(route, APIRoute)]
    assert [route.path for route in routes if not isinstance(route, JsonRoute)] == []
    assert {route.path for route in routes if route.body_field is not None} >= {
        "/api/players", "/api/rooms", "/api/login"}


def test_parse_json_reads_utf8_only_and_refuses_nesting_the_parser_cannot_read():
    assert parse_json(b'{"a": [1, "\xc3\xa9"]}') == {"a": [1, "\u00e9"]}
    assert parse_json(b"\xef\xbb\xbf[1]") == [1]
    not_utf8, too_deep = NOT_UTF8["detail"]["message"], TOO_DEEP["detail"]["message"]
    refusals = {**dict.fromkeys(NOT_UTF8_JSON.values(), not_utf8),
                b"\x00\x00\x001": not_utf8,  # UTF-32BE "1"
                b'"\xe9"': not_utf8,  # Latin-1
                b'"\xed\xa0\x80"': not_utf8,  # a lone surrogate, encoded (not UTF-8)
                DEEP_ARRAY: too_deep, DEEP_OBJECT: too_deep,
                LONG_INTEGER: TOO_LONG["detail"]["message"]}
    for body, message in refusals.items():
        with pytest.raises(UnreadableBody) as refused:
            parse_json(body)
        assert refused.value.message == message, body[:9]
    with pytest.raises(json.JSONDecodeError):
        parse_json(b'{"a": ')


async def test_games_catalog(arena):
    games = (await arena.http.get("/api/games")).json()
    assert [g["id"] for g in games] == sorted(g["id"] for g in games)
    assert GAME.spec.to_json() in games


async def test_room_creation_validates_options(arena):
    ann = await arena.player("Ann")
    refused = await arena.http.post("/api/rooms", json={"game": "reverse_curse",
                                                        "options": {"turn_seconds": 5}},
                                    headers=auth(ann))
    assert refused.status_code == 422
    with pytest.raises(ValueError) as expected:
        GAME.validate_options({"turn_seconds": 5})
    assert refused.json() == {"detail": {"code": "bad_option", "message": str(expected.value)}}
    other_rules = await arena.http.post("/api/rooms", json={
        "game": "mahjong", "options": {"rules": "hebei", "rounds": 3}}, headers=auth(ann))
    assert other_rules.status_code == 422
    assert other_rules.json() == {"detail": {
        "code": "bad_option", "message": "Option 'rounds' applies only with rules 'mcr'."}}
    unknown = await arena.http.post("/api/rooms", json={"game": "chess"}, headers=auth(ann))
    assert unknown.status_code == 422 and unknown.json()["detail"]["code"] == "unknown_game"
    anonymous = await arena.http.post("/api/rooms", json={"game": "reverse_curse"})
    assert anonymous.status_code == 401
    assert anonymous.json()["detail"]["code"] == "unauthorized"
    forged = await arena.http.post("/api/rooms", json={"game": "reverse_curse"},
                                   headers={"Authorization": "Bearer forged"})
    assert forged.status_code == 401

    room = await arena.room(ann, {"regulation": "half"})
    assert room["status"] == "open" and room["match_id"] is None
    assert room["options"] == GAME.validate_options({"regulation": "half"})
    assert room["ws"] == f"/ws/rooms/{room['code']}"
    assert room["seats"] == [{"seat": s, "player_id": None, "name": None, "bot_level": None,
                              "team": s, "side": None} for s in (0, 1)]
    assert room["teams"] == [[0], [1]]
    assert (await arena.http.get(f"/api/rooms/{room['code']}")).json() == room
    missing = await arena.http.get("/api/rooms/nope")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "room_not_found"


async def test_seats_claim_leave_and_start(arena):
    ann, bob, cat = [await arena.player(n) for n in ("Ann", "Bob", "Cat")]
    room = await arena.room(cat, {})
    code = room["code"]
    claimed = (await arena.sit(code, 1, ann)).json()
    assert claimed["seats"][1] == {"seat": 1, "player_id": ann["id"], "name": "Ann", "bot_level": None,
                                   "team": 1, "side": None}
    taken = await arena.sit(code, 1, bob)
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"
    twice = await arena.sit(code, 0, ann)
    assert twice.status_code == 409 and twice.json()["detail"]["code"] == "already_seated"
    nowhere = await arena.sit(code, 2, bob)
    assert nowhere.status_code == 404 and nowhere.json()["detail"]["code"] == "no_such_seat"
    not_mine = await arena.http.delete(f"/api/rooms/{code}/seats/1", headers=auth(bob))
    assert not_mine.status_code == 409 and not_mine.json()["detail"]["code"] == "not_seated"
    left = await arena.http.delete(f"/api/rooms/{code}/seats/1", headers=auth(ann))
    assert left.status_code == 200 and left.json()["seats"][1]["player_id"] is None
    assert [r["code"] for r in (await arena.http.get("/api/rooms")).json()["items"]] == [code]

    await arena.sit(code, 0, ann)
    started = (await arena.sit(code, 1, bob)).json()
    assert started["status"] == "playing" and started["match_id"] == 1
    sides = {s["seat"]: s["side"] for s in started["seats"]}
    assert sorted(sides.values()) == ["DOWN", "UP"]
    late = await arena.http.delete(f"/api/rooms/{code}/seats/1", headers=auth(bob))
    assert late.status_code == 409 and late.json()["detail"]["code"] == "room_not_open"
    playing = (await arena.http.get("/api/rooms", params={"status": "playing"})).json()["items"]
    assert [r["code"] for r in playing] == [code]
    assert (await arena.http.get("/api/rooms", params={"status": "open"})).json() == {
        "items": [], "next_cursor": None}

    detail = (await arena.http.get("/api/matches/1")).json()
    assert detail["status"] == "playing" and detail["outcome"] is None
    assert detail["seed"] is None and detail["actions"] is None  # secret while it runs
    assert len(detail["seed_commitment"]) == 64


TAKEN = {"detail": {"code": "seat_taken", "message": "That seat is taken."}}
#: What a retried claim costs: the caller's token looked up, then the room and its seats read
#: under the room's lock; nothing written.
RETRY_WORK = ["BEGIN", "SELECT players", "ROLLBACK",
              "BEGIN", "SELECT rooms", "SELECT rooms", "COMMIT"]


async def test_a_retried_seat_claim_answers_the_room_and_changes_nothing(arena, monkeypatch):
    ann, bob, cat = [await arena.player(n) for n in ("Ann", "Bob", "Cat")]
    code = (await arena.room(cat, {}))["code"]
    posted = []
    first = await arena.sit(code, 0, ann)
    monkeypatch.setattr(arena.app.state.arena.service.publisher, "post",
                        lambda message, keep=None: posted.append(message))
    with database_work(arena.app) as work:
        again = await arena.sit(code, 0, ann)
    assert (again.status_code, again.json()) == (200, first.json())
    assert (work, posted) == (RETRY_WORK, [])
    taken = await arena.sit(code, 0, bob)
    assert (taken.status_code, taken.json()) == (409, TAKEN)
    second = await arena.sit(code, 1, ann)
    assert (second.status_code, second.json()) == (409, {"detail": {
        "code": "already_seated", "message": "You already hold a seat in this room."}})
    assert (await arena.http.get(f"/api/rooms/{code}")).json() == first.json()

    started = await arena.sit(code, 1, bob)  # the last seat: the match starts
    assert started.json()["status"] == "playing" and started.json()["match_id"] == 1
    posted.clear()
    for seat, player in ((1, bob), (0, ann)):
        with database_work(arena.app) as work:
            again = await arena.sit(code, seat, player)
        assert (again.status_code, again.json()) == (200, started.json())
        assert (work, posted) == (RETRY_WORK, [])
    late = await arena.sit(code, 0, cat)
    assert (late.status_code, late.json()) == (409, {"detail": {
        "code": "room_not_open", "message": "The room is not open any more."}})
    assert [m["id"] for m in (await arena.http.get("/api/matches")).json()["items"]] == [1]


async def test_a_claim_retried_after_a_restart_answers_the_room(db_path):
    """The answer to the claim that started the match was lost with the process: asked again
    of the restarted server, the claim answers the room it made."""
    async with running_arena(db_path) as arena:
        ann, bob = await arena.player("Ann"), await arena.player("Bob")
        code = (await arena.room(ann, {}))["code"]
        await arena.sit(code, 0, ann)
        started = (await arena.sit(code, 1, bob)).json()
    async with running_arena(db_path) as arena:
        again = await arena.sit(code, 1, bob)
        assert (again.status_code, again.json()) == (200, started)
        assert started["status"] == "playing" and started["match_id"] == 1
        assert (await arena.http.get(f"/api/rooms/{code}")).json() == started


SEAT_SPELLING = {"detail": {"code": "validation_error",
                            "message": "path.seat: Input should be a seat number in digits (0, 1, …)",
                            "field": "path.seat", "reason": "plain_number"}}


async def test_a_seat_in_a_path_is_written_in_digits_or_refused_and_nothing_changes(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, {}))["code"]
    await arena.sit(code, 1, bob)
    before = (await arena.http.get(f"/api/rooms/{code}")).json()
    # 1.0, +1, " 1", １ (fullwidth), 1e0: each was read as seat 1; -1 was 404 no_such_seat.
    for spelled in ("1.0", "+1", "%201", "%EF%BC%91", "1e0", "-1", "one"):
        for method, who in (("POST", ann), ("DELETE", bob), ("DELETE", ann)):
            answer = await arena.http.request(method, f"/api/rooms/{code}/seats/{spelled}",
                                              headers=auth(who))
            assert (answer.status_code, answer.json()) == (422, SEAT_SPELLING), (method, spelled)
    assert (await arena.http.get(f"/api/rooms/{code}")).json() == before
    left = await arena.http.delete(f"/api/rooms/{code}/seats/01", headers=auth(bob))
    assert left.status_code == 200 and left.json()["seats"][1]["player_id"] is None
    schema = (await arena.http.get("/openapi.json")).json()
    for method in ("post", "delete"):
        seat = schema["paths"]["/api/rooms/{code}/seats/{seat}"][method]["parameters"][1]
        assert (seat["name"], seat["schema"]["type"], seat["schema"]["minimum"]) == (
            "seat", "integer", 0)


async def test_an_id_in_a_path_is_written_in_digits_or_refused(arena):
    ann = await arena.player("Ann")
    refused = {"detail": {"code": "validation_error",
                          "message": "path.player_id: Input should be an id in digits (1, 2, …)",
                          "field": "path.player_id", "reason": "plain_number"}}
    for spelled in ("1.0", "+1", "%201", "%EF%BC%91"):
        answer = await arena.http.get(f"/api/players/{spelled}")
        assert (answer.status_code, answer.json()) == (422, refused), spelled
    replay = await arena.http.get("/api/matches/1.0/replay")
    assert (replay.status_code, replay.json()["detail"]["message"]) == (
        422, "path.match_id: Input should be an id in digits (1, 2, …)")
    assert (await arena.http.get(f"/api/players/{ann['id']}")).status_code == 200
    unknown = await arena.http.get("/api/players/-1")  # a whole number no row can have
    assert (unknown.status_code, unknown.json()["detail"]) == (
        404, {"code": "player_not_found", "message": "No player has the id -1."})


async def test_match_list_filters_and_cursor(arena):
    players = [await arena.player(f"P{i}") for i in range(4)]
    codes = []
    for first, second in ((0, 1), (2, 3), (0, 2)):
        room = await arena.room(players[first], {})
        await arena.sit(room["code"], 0, players[first])
        await arena.sit(room["code"], 1, players[second])
        codes.append(room["code"])
    page = (await arena.http.get("/api/matches", params={"limit": 2})).json()
    assert [m["id"] for m in page["items"]] == [3, 2] and page["next_cursor"] == "2"
    rest = (await arena.http.get("/api/matches", params={"limit": 2,
                                                         "cursor": page["next_cursor"]})).json()
    assert [m["id"] for m in rest["items"]] == [1] and rest["next_cursor"] is None
    assert rest["items"][0]["room_code"] == codes[0]
    mine = (await arena.http.get("/api/matches", params={"player": players[0]["id"]})).json()
    assert [m["id"] for m in mine["items"]] == [3, 1]
    assert (await arena.http.get("/api/matches", params={"status": "finished"})).json() == {
        "items": [], "next_cursor": None}
    assert [m["id"] for m in (await arena.http.get(
        "/api/matches", params={"game": "reverse_curse", "status": "playing"})).json()[
        "items"]] == [3, 2, 1]
    assert (await arena.http.get("/api/matches", params={"game": "zipai"})).json()["items"] == []
    bad = await arena.http.get("/api/matches", params={"cursor": "abc"})
    assert bad.status_code == 422 and bad.json()["detail"]["code"] == "bad_cursor"
    assert (await arena.http.get("/api/matches/99")).status_code == 404
    assert (await arena.http.get("/api/matches/1/ladder")).json() == {"match_id": 1, "sets": []}


async def test_an_unknown_game_in_the_match_filter_is_refused_as_the_ladders_refuse_it(arena):
    unknown = {"detail": {"code": "unknown_game", "message": "No game is called 'chess'."}}
    listed = await arena.http.get("/api/matches", params={"game": "chess"})
    assert (listed.status_code, listed.json()) == (404, unknown)
    ladder = await arena.http.get("/api/ladders/chess")
    assert (ladder.status_code, ladder.json()) == (404, unknown)
    known = await arena.http.get("/api/matches", params={"game": "zipai"})
    assert (known.status_code, known.json()) == (200, {"items": [], "next_cursor": None})


async def test_a_match_names_its_teams_as_the_room_does(arena):
    """``MatchSummary.teams`` are the game's sides, as a room's: the list, a match's detail and
    a player's recent matches say who played together."""
    players = [await arena.player(n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")]
    duo = await arena.room(players[0], {"format": "2v2"})
    for seat, player in enumerate(players[:4]):
        room = (await arena.sit(duo["code"], seat, player)).json()
    assert room["status"] == "playing" and room["teams"] == [[0, 2], [1, 3]]
    zipai = await arena.room(players[4], {}, game="zipai")
    for seat, player in enumerate(players[3:]):
        await arena.sit(zipai["code"], seat, player)
    listed = (await arena.http.get("/api/matches")).json()["items"]
    assert [(m["game"], m["teams"]) for m in listed] == [
        ("zipai", [[0], [1], [2]]), ("reverse_curse", [[0, 2], [1, 3]])]
    assert (await arena.http.get("/api/matches/1")).json()["teams"] == [[0, 2], [1, 3]]
    profile = (await arena.http.get(f"/api/players/{players[3]['id']}")).json()
    assert [m["teams"] for m in profile["recent_matches"]] == [[[0], [1], [2]], [[0, 2], [1, 3]]]


async def test_pages_and_static_files(db_path, tmp_path):
    frontend = tmp_path / "frontend"
    (frontend / "js").mkdir(parents=True)
    for name in ("index.html", "room.html", "history.html"):
        (frontend / name).write_text(f"<title>{name}</title>")
    (frontend / "js" / "app.js").write_text("export const ok = 1;\n")
    server, task, base = await serve(make_app(db_path, ManualClock(), frontend_dir=frontend))
    try:
        async with httpx.AsyncClient(base_url=base) as http:
            for path, status, name in (("/", 200, "index.html"), ("/history", 200, "history.html"),
                                       ("/room/abc", 404, "room.html")):  # no room abc
                answer = await http.get(path)
                assert (answer.status_code, answer.text) == (status, f"<title>{name}</title>")
                assert answer.headers["content-type"].startswith("text/html")
            missing = await http.get("/matches/3")  # match.html is not there
            assert missing.status_code == 404
            assert missing.json()["detail"]["code"] == "page_missing"
            script = await http.get("/static/js/app.js")
            assert (script.status_code, script.text) == (200, "export const ok = 1;\n")
            assert "javascript" in script.headers["content-type"]
            assert (await http.get("/static/nope.js")).json() == {
                "detail": {"code": "not_found", "message": "Not Found"}}
            assert (await http.get("/api/nothing")).json()["detail"]["code"] == "not_found"
            wrong = await http.put("/api/games")
            assert (wrong.status_code, wrong.json()["detail"]["code"]) == (
                405, "method_not_allowed")
    finally:
        await shutdown(server, task)


async def test_openapi_documents_the_api(arena):
    schema = (await arena.http.get("/openapi.json")).json()
    assert {"/api/games", "/api/players", "/api/players/{player_id}", "/api/rooms",
            "/api/rooms/{code}", "/api/rooms/{code}/seats/{seat}", "/api/matches",
            "/api/matches/{match_id}", "/api/matches/{match_id}/ladder"} <= set(schema["paths"])
    ok = schema["paths"]["/api/matches/{match_id}"]["get"]["responses"]["200"]
    assert ok["content"]["application/json"]["schema"]["$ref"].endswith("/MatchDetail")
    conflict = schema["paths"]["/api/rooms/{code}/seats/{seat}"]["post"]["responses"]["409"]
    assert conflict["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")
    listing = schema["paths"]["/api/matches"]["get"]
    refused = listing["responses"]["404"]
    assert refused["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")
    game = next(p for p in listing["parameters"] if p["name"] == "game")
    assert game["description"] == "a hosted game's id (GET /api/games); another: 404 unknown_game"
    assert (await arena.http.get("/docs")).status_code == 200


async def test_the_room_list_comes_in_cursor_pages(arena):
    ann = await arena.player("Ann")
    codes = [(await arena.room(ann, {}))["code"] for _ in range(5)]
    newest_first = codes[::-1]
    first = (await arena.http.get("/api/rooms", params={"limit": 2})).json()
    assert [r["code"] for r in first["items"]] == newest_first[:2]
    second = (await arena.http.get("/api/rooms", params={"limit": 2,
                                                         "cursor": first["next_cursor"]})).json()
    assert [r["code"] for r in second["items"]] == newest_first[2:4]
    last = (await arena.http.get("/api/rooms", params={"limit": 2,
                                                       "cursor": second["next_cursor"]})).json()
    assert ([r["code"] for r in last["items"]], last["next_cursor"]) == (newest_first[4:], None)
    assert len((await arena.http.get("/api/rooms")).json()["items"]) == 5  # 50 by default
    for bad in ({"limit": 0}, {"limit": 201}):
        assert (await arena.http.get("/api/rooms", params=bad)).status_code == 422
    wrong = await arena.http.get("/api/rooms", params={"cursor": "x1"})
    assert (wrong.status_code, wrong.json()["detail"]["code"]) == (422, "bad_cursor")


async def test_a_number_in_the_query_is_written_in_digits_or_refused(arena):
    """``?limit=``, ``?offset=``, ``?viewer=`` and ``?player=`` as the paths' numbers: 1.0, +5,
    " 5" and 1e0 were read as numbers; digits still are."""
    def refused(field: str, what: str = "a number in digits (0, 1, …)") -> dict:
        return {"detail": {"code": "validation_error", "message": f"query.{field}: Input should "
                           f"be {what}", "field": f"query.{field}", "reason": "plain_number"}}

    for spelled in ("1.0", "+5", "%205", "1e0"):
        for path, field in (("/api/matches?limit=", "limit"), ("/api/rooms?limit=", "limit"),
                            ("/api/ladders/reverse_curse?limit=", "limit"),
                            ("/api/ladders/reverse_curse?offset=", "offset"),
                            ("/api/matches/1/replay?viewer=", "viewer")):
            answer = await arena.http.get(path + spelled)
            assert (answer.status_code, answer.json()) == (422, refused(field)), path + spelled
        player = await arena.http.get(f"/api/matches?player={spelled}")
        assert (player.status_code, player.json()) == (
            422, refused("player", "an id in digits (1, 2, …)")), spelled
    for path in ("/api/matches?limit=5&player=1", "/api/rooms?limit=05",
                 "/api/ladders/reverse_curse?limit=5&offset=0"):
        answer = await arena.http.get(path)
        assert answer.status_code == 200, (path, answer.text)
