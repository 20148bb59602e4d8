"""HTTP request bodies have a size limit ("hostile input never hurts").

The server had no limit: FastAPI reads a whole body before validating it and before a route's
rate-limit dependency runs, so a 200 MB ``POST /api/players`` (no token needed) took the server's
RSS from 98 to 489 MB just to answer 422. Now ``app.api.body_limit.BodyLimit`` answers 413
``request_too_large`` before reading a body whose ``Content-Length`` is over
``max_body_bytes`` (64 KiB), and stops a streamed body as soon as it passes the limit
(docs/security.md §3).
"""

from __future__ import annotations

import json

import pydantic
import pytest

from app.api.pages import PAGES
from app.main import create_app
from app.settings import Settings
from tests.app.conftest import auth, running_arena

LIMIT = 64 * 1024  # the default of ``ARENA_MAX_BODY_BYTES``
#: The attack report's size: far above any legitimate body, far below anything that hurts.
OVERSIZED = 2 * 1024 * 1024
JSON = {"Content-Type": "application/json"}
COUNTED = 'arena_errors_total{channel="http",code="request_too_large"} 1.0'


def too_large(limit: int) -> dict:
    return {"detail": {"code": "request_too_large",
                       "message": f"The request body is larger than {limit} bytes."}}


def name_body(size: int) -> bytes:
    """Return ``{"name": "Ann"}`` padded with blanks to exactly ``size`` bytes (valid JSON)."""
    core = b'{"name": "Ann"'
    return core + b" " * (size - len(core) - 1) + b"}"


async def chunks(size: int, piece: int = 65536):
    """Yield ``size`` bytes of ``name_body(size)`` in pieces (no Content-Length: chunked)."""
    body = name_body(size)
    for start in range(0, size, piece):
        yield body[start:start + piece]


def test_the_default_limit_and_a_bad_setting():
    assert Settings().max_body_bytes == LIMIT
    assert Settings(max_body_bytes=100).max_body_bytes == 100
    for bad in (0, -1):
        with pytest.raises(pydantic.ValidationError):
            Settings(max_body_bytes=bad)


async def test_an_oversized_body_is_refused_with_413(arena):
    body = b'{"name": "' + b"a" * OVERSIZED + b'"}'
    answer = await arena.http.post("/api/players", content=body, headers=JSON)
    assert answer.status_code == 413
    assert answer.json() == too_large(LIMIT)
    # The server is fine and normal bodies still work.
    assert (await arena.http.post("/api/players", json={"name": "Ann"})).status_code == 201
    # Counted like every other refusal (here by the middleware itself).
    assert COUNTED in (await arena.http.get("/metrics")).text


async def test_an_oversized_chunked_body_is_refused_with_413(arena):
    """The attack's second form; the declared form is refused before, this one while reading."""
    async def pieces():
        for _ in range(OVERSIZED // 65536 + 1):
            yield b"a" * 65536

    # No Content-Length: the limit must count the bytes as they arrive.
    answer = await arena.http.post("/api/players", content=pieces(), headers=JSON)
    assert "content-length" not in answer.request.headers
    assert answer.status_code == 413
    assert answer.json() == too_large(LIMIT)
    assert (await arena.http.post("/api/players", json={"name": "Ann"})).status_code == 201
    # Counted like every other refusal (here by app.api.errors.http_error).
    assert COUNTED in (await arena.http.get("/metrics")).text


async def test_a_body_of_exactly_the_limit_passes_one_byte_more_does_not(arena):
    answer = await arena.http.post("/api/players", content=name_body(LIMIT), headers=JSON)
    assert (answer.status_code, answer.json()["name"]) == (201, "Ann")
    answer = await arena.http.post("/api/players", content=name_body(LIMIT + 1), headers=JSON)
    assert (answer.status_code, answer.json()) == (413, too_large(LIMIT))


async def test_a_chunked_body_of_exactly_the_limit_passes_one_byte_more_does_not(arena):
    answer = await arena.http.post("/api/players", content=chunks(LIMIT), headers=JSON)
    assert (answer.status_code, answer.json()["name"]) == (201, "Ann")
    answer = await arena.http.post("/api/players", content=chunks(LIMIT + 1), headers=JSON)
    assert (answer.status_code, answer.json()) == (413, too_large(LIMIT))


def every_route() -> list[tuple[str, str]]:
    """Return ``(method, path)`` of every HTTP route (path parameters filled), the pages, a
    static file and an unknown path."""
    document = create_app().openapi()
    routes = [(method.upper(), path.replace("{code}", "ABCD").replace("{seat}", "0")
               .replace("{game}", "numgr").replace("{lang}", "en").replace("{match_id}", "1")
               .replace("{player_id}", "1"))
              for path, operations in document["paths"].items() for method in operations]
    pages = [("GET", path.replace("{code}", "ABCD").replace("{match_id:int}", "1")
              .replace("{player_id:int}", "1")) for path, *_ in PAGES]
    return [*routes, *pages, ("GET", "/static/js/i18n.js"), ("GET", "/docs"),
            ("GET", "/openapi.json"), ("PUT", "/no/such/path")]


async def test_the_limit_applies_to_every_route(db_path):
    routes = every_route()
    assert len(routes) == 36  # 25 operations, 7 pages and 4 more: the scan sees them all
    async with running_arena(db_path, max_body_bytes=100) as arena:
        owner = await arena.player("Ann")
        for method, path in routes:
            answer = await arena.http.request(method, path, content=b"x" * 101,
                                              headers={**JSON, **auth(owner)})
            assert (method, path, answer.status_code, answer.json()) == (
                method, path, 413, too_large(100))
        # At the limit the routes answer as usual (the room exists, the seat is free).
        room = await arena.room(owner)
        body = json.dumps({"game": "reverse_curse", "options": None}).ljust(100).encode()
        answer = await arena.http.post("/api/rooms", headers={**JSON, **auth(owner)},
                                       content=body)
        assert (answer.status_code, answer.json()["game"]) == (201, "reverse_curse")
        answer = await arena.http.post(f"/api/rooms/{room['code']}/seats/0", headers=auth(owner),
                                       content=b" " * 100)
        assert answer.status_code == 200


async def test_websockets_are_untouched(db_path):
    async with running_arena(db_path, max_body_bytes=100) as arena:
        owner = await arena.player("Ann")
        room = await arena.room(owner)
        assert (await arena.sit(room["code"], 0, owner)).status_code == 200
        client = await arena.connect(room["code"], owner["token"])
        text = "a" * 250  # a 260-byte frame through a server refusing 101-byte bodies
        await client.send({"type": "chat", "text": text})
        line = await client.next("chat")
        assert (line["seat"], line["name"], line["text"]) == (0, "Ann", text)


async def test_the_openapi_document_lists_the_413(arena):
    document = (await arena.http.get("/openapi.json")).json()
    listed = sorted((method, path) for path, operations in document["paths"].items()
                    for method, operation in operations.items() if "413" in operation["responses"])
    assert listed == [("post", "/api/login"), ("post", "/api/players"),
                      ("post", "/api/players/{player_id}/claim"), ("post", "/api/rooms"),
                      ("post", "/api/rooms/{code}/bots")]
    assert document["paths"]["/api/players"]["post"]["responses"]["413"]["content"] == {
        "application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}

