"""Hostile HTTP input: per-address rate limits on creating players and rooms (spent by valid
requests only), 422 with a message for every validation error, ids out of range answered as
unknown ids (not a 500), and a 405 that names every allowed method."""

from __future__ import annotations

from tests.app.conftest import auth, running_arena
from tests.app.test_round_trips import database_work


async def test_player_creation_is_rate_limited_per_address(db_path):
    async with running_arena(db_path, players_per_minute=2) as arena:
        for name in ("Ann", "Bob"):
            assert (await arena.http.post("/api/players", json={"name": name})).status_code == 201
        refused = await arena.http.post("/api/players", json={"name": "Cat"})
        # 2 a minute: a token comes back every 30 s.
        assert refused.status_code == 429
        assert refused.json() == {"detail": {"code": "rate_limited", "message":
                                             "Too many new players from this address: at most "
                                             "2 a minute. Try again in 30 s."}}
        assert refused.headers["Retry-After"] == "30"
        arena.clock.advance(30)
        assert (await arena.http.post("/api/players", json={"name": "Cat"})).status_code == 201
        assert (await arena.http.post("/api/players", json={"name": "Dan"})).status_code == 429


#: Requests for a player that the server refuses as invalid (422 ``validation_error``), with
#: the ``reason`` of each.
REFUSED_PLAYERS = [({"name": ""}, "string_too_short"), ({"name": "x" * 33}, "string_too_long"),
                   ({"name": "Normal bot"}, "bot_name"), ({"name": "\u200b"}, "invisible_character"),
                   ({"name": 5}, "string_type"), ({}, "missing"),
                   ({"name": "Ann", "admin": True}, "extra_forbidden")]


async def test_refused_names_spend_none_of_the_player_budget(db_path):
    async with running_arena(db_path, players_per_minute=30) as arena:
        for attempt in range(30):
            body, reason = REFUSED_PLAYERS[attempt % len(REFUSED_PLAYERS)]
            refused = await arena.http.post("/api/players", json=body)
            assert (refused.status_code, refused.json()["detail"]["reason"]) == (422, reason)
        bad_json = await arena.http.post("/api/players", content=b'{"name": ',
                                         headers={"Content-Type": "application/json"})
        assert bad_json.status_code == 422
        made = [await arena.http.post("/api/players", json={"name": f"P{i}"}) for i in range(30)]
        assert [answer.status_code for answer in made] == [201] * 30
        assert [answer.json()["id"] for answer in made] == list(range(1, 31))
        over = await arena.http.post("/api/players", json={"name": "P30"})
        assert (over.status_code, over.json()) == (429, {"detail": {"code": "rate_limited",
            "message": "Too many new players from this address: at most 30 a minute. Try "
                       "again in 2 s."}})
        # Spent: a refusal past the budget is still told what is wrong with it.
        refused = await arena.http.post("/api/players", json={"name": ""})
        assert (refused.status_code, refused.json()["detail"]["reason"]) == (422, "string_too_short")


async def test_room_creation_is_rate_limited_per_address(db_path):
    async with running_arena(db_path, rooms_per_minute=1) as arena:
        ann = await arena.player("Ann")
        await arena.room(ann, {})
        refused = await arena.http.post("/api/rooms", json={"game": "reverse_curse"},
                                        headers=auth(ann))
        assert refused.status_code == 429
        assert refused.json()["detail"] == {"code": "rate_limited", "message":
                                            "Too many new rooms from this address: at most 1 a "
                                            "minute. Try again in 60 s."}
        assert refused.headers["Retry-After"] == "60"
        arena.clock.advance(60)
        await arena.room(ann, {})


async def test_refused_room_requests_spend_none_of_the_room_budget(db_path):
    async with running_arena(db_path, rooms_per_minute=1) as arena:
        ann = await arena.player("Ann")
        refusals = [({"game": "numgr", "privte": True}, auth(ann), 422, "validation_error"),
                    ({"options": {}}, auth(ann), 422, "validation_error"),
                    ({"game": "numgr"}, {}, 401, "unauthorized"),
                    ({"game": "numgr"}, {"Authorization": "Bearer nobody"}, 401, "unauthorized"),
                    ({"game": "nope"}, auth(ann), 422, "unknown_game"),
                    ({"game": "numgr", "options": {"hp": -5}}, auth(ann), 422, "bad_option")]
        for body, headers, status, code in refusals * 3:
            refused = await arena.http.post("/api/rooms", json=body, headers=headers)
            assert (refused.status_code, refused.json()["detail"]["code"]) == (status, code)
        made = await arena.http.post("/api/rooms", json={"game": "numgr"}, headers=auth(ann))
        assert (made.status_code, made.json()["game"]) == (201, "numgr")
        over = await arena.http.post("/api/rooms", json={"game": "numgr"}, headers=auth(ann))
        assert (over.status_code, over.json()["detail"]["code"]) == (429, "rate_limited")
        assert [room["code"] for room in (await arena.http.get("/api/rooms")).json()["items"]] \
            == [made.json()["code"]]


#: Bodies that are not JSON the server reads (422 ``validation_error``, reason ``json_invalid``):
#: nested deeper than the parser recurses, or UTF-16 and UTF-32 text (RFC 8259 §8.1).
UNREADABLE_BODIES = (b"[" * 20_000 + b"]" * 20_000, b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
                     '{"name": "Zed", "game": "numgr"}'.encode("utf-16"),
                     '{"name": "Zed", "game": "numgr"}'.encode("utf-16-le"),
                     '{"name": "Zed", "game": "numgr"}'.encode("utf-16-be"),
                     '{"name": "Zed", "game": "numgr"}'.encode("utf-32"))


async def test_unreadable_json_bodies_spend_none_of_the_creation_budgets(db_path):
    async with running_arena(db_path, players_per_minute=2, rooms_per_minute=1) as arena:
        ann = await arena.player("Ann")
        headers = {"Content-Type": "application/json", **auth(ann)}
        for path in ("/api/players", "/api/rooms"):
            for body in UNREADABLE_BODIES * 2:
                refused = await arena.http.post(path, content=body, headers=headers)
                assert (refused.status_code, refused.json()["detail"]["code"],
                        refused.json()["detail"]["field"], refused.json()["detail"]["reason"]) \
                    == (422, "validation_error", "body", "json_invalid"), (path, body[:9])
        made = await arena.http.post("/api/players", json={"name": "Bob"})
        over = await arena.http.post("/api/players", json={"name": "Cat"})
        assert (made.status_code, over.status_code) == (201, 429)
        made = await arena.http.post("/api/rooms", json={"game": "numgr"}, headers=auth(ann))
        over = await arena.http.post("/api/rooms", json={"game": "numgr"}, headers=auth(ann))
        assert (made.status_code, over.status_code) == (201, 429)
        assert [room["code"] for room in (await arena.http.get("/api/rooms")).json()["items"]] \
            == [made.json()["code"]]


async def test_the_default_limits_leave_normal_use_alone(arena):
    players = [await arena.player(f"P{i}") for i in range(20)]
    for player in players[:20]:
        await arena.room(player, {})
    assert len((await arena.http.get("/api/rooms")).json()["items"]) == 20


async def test_validation_errors_are_422_with_a_message(arena):
    cases = [
        ("post", "/api/players", {"json": {"name": 5}}, "body.name: Input should be a valid "
                                                         "string"),
        ("post", "/api/players", {"content": b"{not json", "headers": {
            "Content-Type": "application/json"}}, None),
        ("get", "/api/matches/abc", {}, "path.match_id: Input should be an id in digits "
                                        "(1, 2, …)"),
        ("get", "/api/matches?player=-1", {}, "query.player: Input should be an id in digits "
                                              "(1, 2, …)"),
        ("get", "/api/matches?player=0", {}, "query.player: Input should be greater than or "
                                             "equal to 1"),
        ("get", "/api/matches?limit=1000", {}, "query.limit: Input should be less than or "
                                               "equal to 100"),
    ]
    for method, path, kwargs, message in cases:
        answer = await getattr(arena.http, method)(path, **kwargs)
        assert answer.status_code == 422, (path, answer.text)
        detail = answer.json()["detail"]
        assert detail["code"] == "validation_error" and detail["message"], path
        if message is not None:
            assert detail["message"] == message, path
    cursor = await arena.http.get("/api/matches", params={"cursor": "9" * 30})
    assert cursor.status_code == 422 and cursor.json()["detail"]["code"] == "bad_cursor"


#: Ids no row can have: below 1, and above 2^31-1 (PostgreSQL ``integer``) up to past 2^64.
NO_ROW_IDS = (0, -1, 2 ** 31, 4294967296, 2 ** 64, 10 ** 22)


async def test_an_id_no_row_can_have_is_answered_as_an_unknown_id(arena):
    """``/api/players/0`` is a player nobody is, as ``/api/players/999``: 404 with the same
    code and message, and the database is not asked (its driver fails on such numbers)."""
    ann = await arena.player("Ann")
    for row_id in (*NO_ROW_IDS, 999):
        with database_work(arena.app) as work:
            player = await arena.http.get(f"/api/players/{row_id}")
        assert (player.status_code, player.json()) == (404, {"detail": {
            "code": "player_not_found", "message": f"No player has the id {row_id}."}})
        assert work == ([] if row_id != 999 else ["BEGIN", "SELECT players", "ROLLBACK"])
        for suffix in ("", "/ladder", "/replay", "/final", "/verify"):
            match = await arena.http.get(f"/api/matches/{row_id}{suffix}")
            assert (match.status_code, match.json()) == (404, {"detail": {
                "code": "match_not_found", "message": f"No match has the id {row_id}."}}), suffix
        claim = await arena.http.post(f"/api/players/{row_id}/claim", headers=auth(ann),
                                      json={"password": "long enough"})
        assert (claim.status_code, claim.json()) == (403, {"detail": {
            "code": "not_your_profile", "message": "You can only save your own profile."}})
    assert (await arena.http.get(f"/api/players/{ann['id']}")).json()["name"] == "Ann"


async def test_a_405_names_every_allowed_method(arena):
    answer = await arena.http.request("PUT", "/api/rooms")
    assert answer.status_code == 405
    assert answer.headers["allow"] == "GET, POST"
    assert answer.json()["detail"]["code"] == "method_not_allowed"
    seat = await arena.http.request("PATCH", "/api/rooms/abc/seats/0")
    assert (seat.status_code, seat.headers["allow"]) == (405, "DELETE, POST")
