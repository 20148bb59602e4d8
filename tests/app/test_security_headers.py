"""Every HTTP answer carries the security headers (app/api/security_headers.py; docs/security.md
"Browser defences"): each route of ``app.routes`` with each of its methods, static files (200,
304, 404, HEAD), the not-found page, JSON errors (401, 404, 405, 413, 422), a 500 and a plain
HTTP request to the websocket path. ``/docs`` (Swagger UI, served from this server) carries the
same policy with the hash of its one inline script in ``script-src``."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.routing import BaseRoute, Mount, WebSocketRoute

from app.rooms.clocks import ManualClock
from tests.app.conftest import auth, make_app, serve, shutdown

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'none'")
HEADERS = {
    "content-security-policy": POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "permissions-policy": "accelerometer=(), camera=(), display-capture=(), geolocation=(), "
                          "gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), "
                          "payment=(), serial=(), usb=(), xr-spatial-tracking=()",
    "cross-origin-opener-policy": "same-origin",
    "x-frame-options": "DENY",
}
#: A value for each path parameter of the routes (a new parameter name fails the walk).
PARAMETERS = {"code": "ABCD23", "seat": "0", "game": "numgr", "lang": "en", "match_id": "1",
              "player_id": "1"}
#: What is requested under each mount: files there and one that is not.
MOUNTED = {"/static": ("/js/api.js", "/css/app.css", "/nowhere.js"),
           "/docs/assets": ("/swagger-ui-bundle.js", "/swagger-ui.css", "/nowhere.js")}
BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def leaf_routes(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
    """Yield every route and mount of ``routes``, inside included routers too (FastAPI keeps
    each ``include_router`` as one route holding the router as ``original_router``)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from leaf_routes(included.routes)
        else:
            yield route


def requests_for(route: BaseRoute) -> list[tuple[str, str]]:
    """Return the ``(method, path)`` requests that exercise ``route`` (each of its methods,
    path parameters filled from ``PARAMETERS``; a mount's ``MOUNTED`` files)."""
    if isinstance(route, Mount):
        return [(method, route.path + file) for file in MOUNTED[route.path]
                for method in ("GET", "HEAD")]
    path = route.path_format.format(**{name: PARAMETERS[name] for name in route.param_convertors})
    return [(method, path) for method in sorted(route.methods)]


def assert_headers(answer: httpx.Response, policy: str = POLICY) -> None:
    """Each security header is there exactly once with its value (``policy`` for the CSP)."""
    what = f"{answer.request.method} {answer.request.url.path} ({answer.status_code})"
    expected = {**HEADERS, "content-security-policy": policy}
    got = {name: answer.headers.get_list(name) for name in expected}
    assert got == {name: [value] for name, value in expected.items()}, what


@pytest.fixture
async def server(db_path) -> Any:
    """A running app with one more route that fails (``/test/boom`` raises: a 500)."""
    app = make_app(db_path, ManualClock(), max_body_bytes=1000)

    async def boom() -> None:
        raise RuntimeError("boom")

    app.add_api_route("/test/boom", boom)
    running, task, base = await serve(app)
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        yield app, http
    await shutdown(running, task)


async def test_every_route_and_method_answers_with_the_headers(server):
    app, http = server
    routes = [r for r in leaf_routes(app.routes) if not isinstance(r, WebSocketRoute)]  # no HTTP
    requests = [request for route in routes for request in requests_for(route)]
    # 25 API operations, 9 pages (6 of PAGES, 2 rules, 1 replay), /test/boom, /docs and
    # /openapi.json (GET and HEAD), the two mounts (3 files each, GET and HEAD): all seen.
    assert (len(routes), len(requests)) == (39, 51)
    player = (await http.post("/api/players", json={"name": "Ann"})).json()
    statuses = set()
    for method, path in requests:
        answer = await http.request(method, path, headers=auth(player),
                                    json={} if method in ("POST", "PUT", "PATCH") else None)
        statuses.add(answer.status_code)
        if path == "/docs":
            continue  # its own policy: test_docs_serves_swagger_ui_from_here_under_the_policy
        assert_headers(answer)
    assert statuses == {200, 404, 422, 500}  # an empty body is a 422 for every POST


async def test_errors_and_static_files_answer_with_the_headers(server):
    app, http = server
    file = await http.get("/static/js/api.js")
    again = await http.get("/static/js/api.js", headers={"if-none-match": file.headers["etag"]})
    answers = {
        "static 200": file,
        "static 304": again,
        "not-found page": await http.get("/no/such/page", headers=BROWSER),
        "json 404": await http.get("/api/nowhere"),
        "405": await http.delete("/api/games"),
        "413": await http.post("/api/players", content=b"x" * 1001,
                               headers={"content-type": "application/json"}),
        "422": await http.post("/api/players", json={"name": ""}),
        "401": await http.post("/api/rooms", json={"game": "numgr"}),
        "500": await http.get("/test/boom"),
        "websocket path over http": await http.get("/ws/rooms/ABCD23"),
    }
    assert {what: answer.status_code for what, answer in answers.items()} == {
        "static 200": 200, "static 304": 304, "not-found page": 404, "json 404": 404,
        "405": 405, "413": 413, "422": 422, "401": 401, "500": 500,
        "websocket path over http": 404}
    for answer in answers.values():
        assert_headers(answer)
    assert answers["not-found page"].headers["content-type"].startswith("text/html")


async def test_docs_serves_swagger_ui_from_here_under_the_policy(server):
    _, http = server
    page = await http.get("/docs")
    assert page.status_code == 200
    scripts = re.findall(r"<script>(.*?)</script>", page.text, re.DOTALL)
    assert len(scripts) == 1 and "SwaggerUIBundle(" in scripts[0]
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert_headers(page, POLICY.replace("script-src 'self'",
                                        f"script-src 'self' 'sha256-{digest}'"))
    # Swagger UI's files come from this server, none from elsewhere.
    assert re.findall(r'(?:src|href)="([^"]+)"', page.text) == [
        "/docs/assets/swagger-ui.css", "/docs/assets/favicon.png",
        "/docs/assets/swagger-ui-bundle.js"]
    for asset, kind in (("swagger-ui.css", "text/css"), ("favicon.png", "image/png"),
                        ("swagger-ui-bundle.js", "text/javascript")):
        answer = await http.get(f"/docs/assets/{asset}")
        assert (answer.status_code, answer.headers["content-type"].split(";")[0]) == (200, kind)
    # FastAPI's CDN pages are off.
    assert (await http.get("/redoc")).status_code == 404
    assert (await http.get("/docs/oauth2-redirect")).status_code == 404
