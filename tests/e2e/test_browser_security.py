"""The site under its security headers in Debian's Chromium (docs/security.md "Browser defences").

- Every page loads and works under the policy with no violation reported
  (``securitypolicyviolation`` events and policy console lines, caught for every browser test by
  ``tests/e2e/conftest.py``):
  the lobby, each game's room as a seated player and as a spectator (drawn from the room
  websocket: ``connect-src 'self'`` lets ``ws://`` on the page's own host through), the account
  dialog, a finished match, its replay, the history, the ladders, a player, the rules, the
  not-found page and ``/docs``.
- What the policy exists to stop is stopped, on a test page of our origin: an inline ``<script>``,
  an ``onclick`` attribute, ``eval``, a script, an image, a ``fetch`` and a websocket of another
  origin, a ``<style>`` element and a ``style`` attribute; our own script file and a ``data:``
  image still load.
- A page of another origin (a second local server) cannot frame a room.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from fastapi.responses import HTMLResponse, Response

from tests.conftest import free_port, threaded_server
from tests.e2e import browser as guard
from tests.e2e.browser import chromium, expect_game_over, new_page, resign
from tests.e2e.test_browser_i18n import GAMES, open_room, started_room

pytestmark = pytest.mark.browser

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'none'")
#: A 1×1 transparent PNG.
PIXEL = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5C"
         "YII=")


@pytest.fixture
def elsewhere() -> Iterator[tuple[str, dict[str, tuple[str, bytes]]]]:
    """A second local server (another port: another origin); yield ``(its URL, files)`` where
    ``files`` maps a path to the ``(content type, body)`` it answers (filled in by the test)."""
    files: dict[str, tuple[str, bytes]] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server API)
            kind, body = files.get(self.path, ("text/plain", b"not here"))
            self.send_response(200 if self.path in files else 404)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", files
    finally:
        server.shutdown()
        thread.join(timeout=10)


def take_reports() -> list[str]:
    """Return the policy reports so far, sorted, and clear them (they were expected)."""
    reports = sorted(guard.POLICY_REPORTS)
    guard.POLICY_REPORTS.clear()
    return reports


def visit(page, url: str, ready: str) -> None:
    """Open ``url``; its answer must carry the site's policy; wait until ``ready`` shows."""
    answer = page.goto(url)
    assert answer.header_value("content-security-policy") == POLICY, url
    page.locator(ready).first.wait_for()


def test_every_page_works_under_the_policy(live_server, chromium_path):
    rooms = {game: started_room(live_server, game) for game in GAMES}
    with chromium(chromium_path) as browser:
        player, spectator = new_page(browser), new_page(browser)
        visit(player, f"{live_server}/", "[data-testid=game-list] li")
        for game, (code, seat_0) in rooms.items():
            open_room(player, live_server, code, seat_0)
            visit(spectator, f"{live_server}/room/{code}", "#table[data-game]:not([data-game=''])")
            for page in (player, spectator):
                assert page.get_by_test_id("conn-status").inner_text() == "Connected", game
                assert page.locator("#table").get_attribute("data-game") == game
        player.get_by_test_id("account-button").click()
        player.get_by_test_id("claim-form").wait_for()
        player.keyboard.press("Escape")
        player.get_by_test_id("account-dialog").wait_for(state="hidden")
        resign(player)  # numgr, the last room opened: its match is over
        expect_game_over([player])
        finished = httpx.get(f"{live_server}/api/matches?status=finished").json()["items"]
        assert [match["game"] for match in finished] == [list(GAMES)[-1]]
        match_id, player_id = finished[0]["id"], rooms[list(GAMES)[-1]][1]["id"]
        for path, ready in ((f"/matches/{match_id}", "[data-testid=match-seed]"),
                            (f"/replay/{match_id}", "#table[data-game]"),
                            ("/history", "[data-testid=match-link]"),
                            ("/ladders", "[data-testid=leaderboard]"),
                            (f"/players/{player_id}", "[data-testid=player-matches]"),
                            ("/rules", "[data-testid=rules-games] li"),
                            ("/rules/numgr", "[data-testid=rules-body] h1"),
                            ("/no/such/page", "[data-testid=not-found] h1")):
            visit(player, live_server + path, ready)
        docs = player.goto(f"{live_server}/docs")
        assert docs.header_value("content-security-policy").startswith(
            "default-src 'self'; script-src 'self' 'sha256-")
        player.locator(".opblock").first.wait_for()
        assert player.locator(".opblock").count() == 25  # every API operation, drawn offline
        player.locator(".opblock-summary").first.click()
        player.get_by_role("button", name="Try it out").click()
        player.get_by_role("button", name="Execute").click()
        player.locator(".response-col_status").filter(has_text="200").first.wait_for()


@pytest.fixture
def injected(tmp_path, elsewhere) -> Iterator[tuple[str, str]]:
    """The real app with one more page, ``/test/injected``, holding what the policy must stop
    (and what it lets through); yield ``(our URL, the other origin's URL)``."""
    from app.main import create_app
    from app.settings import Settings

    other, files = elsewhere
    files["/foreign.js"] = ("text/javascript", b"window.foreignRan = true;")
    files["/pixel.png"] = ("image/png", b"")
    page = f"""<!doctype html><html><head><title>injected</title>
<style>#styled {{ color: rgb(255, 0, 0); }}</style>
<script src="/test/allowed.js"></script>
<script>window.inlineRan = true;</script>
<script src="{other}/foreign.js"></script>
</head><body>
<p id="styled">styled</p>
<p id="attr" style="color: rgb(0, 0, 255)">attribute</p>
<button id="handler" onclick="window.handlerRan = true">handler</button>
<img id="data" src="data:image/png;base64,{PIXEL}" alt="">
<img id="remote" src="{other}/pixel.png" alt="">
</body></html>"""
    script = f"""window.allowedRan = true;
try {{ eval("window.evalRan = true"); }} catch (error) {{ window.evalError = error.name; }}
window.fetchError = fetch("{other}/pixel.png").then(() => "fetched", (error) => error.name);
try {{ new WebSocket("{other.replace('http', 'ws')}/"); }}
catch (error) {{ window.socketError = error.name; }}"""
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}",
                        redis_url=None)
    app = create_app(settings)
    app.add_api_route("/test/injected", lambda: HTMLResponse(page))
    app.add_api_route("/test/allowed.js",
                      lambda: Response(script, media_type="text/javascript"))
    with threaded_server(app) as url:
        yield url, other


def test_what_the_policy_stops_is_stopped(injected, chromium_path):
    base, other = injected
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        answer = page.goto(f"{base}/test/injected")
        assert answer.header_value("content-security-policy") == POLICY
        page.locator("#handler").click()
        page.wait_for_function("() => document.getElementById('data').complete")
        ran = page.evaluate("""async () => ({
            allowed: window.allowedRan ?? null, inline: window.inlineRan ?? null,
            foreign: window.foreignRan ?? null, handler: window.handlerRan ?? null,
            eval: window.evalRan ?? null, evalError: window.evalError ?? null,
            fetch: await window.fetchError, socket: window.socketError ?? null,
            styled: getComputedStyle(document.getElementById("styled")).color,
            attr: getComputedStyle(document.getElementById("attr")).color,
            data: document.getElementById("data").naturalWidth,
            remote: document.getElementById("remote").naturalWidth,
        })""")
        guard.flush_reports(browser)
    assert ran == {"allowed": True, "inline": None, "foreign": None, "handler": None,
                   "eval": None, "evalError": "EvalError", "fetch": "TypeError",
                   "socket": None, "styled": "rgb(0, 0, 0)", "attr": "rgb(0, 0, 0)",
                   "data": 1, "remote": 0}
    where = f"{base}/test/injected"
    violations = [report for report in take_reports() if report.startswith("violation: ")]
    assert sorted(report.split(" (")[0] for report in violations) == sorted([
        f"violation: connect-src blocked {other}/pixel.png at {where}",
        f"violation: connect-src blocked {other.replace('http', 'ws')}/ at {where}",
        f"violation: img-src blocked {other}/pixel.png at {where}",
        f"violation: script-src blocked eval at {where}",
        f"violation: script-src-attr blocked inline at {where}",
        f"violation: script-src-elem blocked inline at {where}",
        f"violation: script-src-elem blocked {other}/foreign.js at {where}",
        f"violation: style-src-attr blocked inline at {where}",
        f"violation: style-src-elem blocked inline at {where}",
    ])


def test_another_origin_cannot_frame_a_room(live_server, elsewhere, chromium_path):
    code, _ = started_room(live_server, "numgr")
    other, files = elsewhere
    room = f"{live_server}/room/{code}"
    files["/frame.html"] = ("text/html", f"""<!doctype html><title>framer</title>
<iframe id="room" src="{room}" onload="document.body.dataset.loaded = 'yes'"></iframe>""".encode())
    with chromium(chromium_path) as browser:
        page = new_page(browser)
        page.goto(f"{other}/frame.html")
        page.wait_for_function("() => document.body.dataset.loaded === 'yes'")
        frames = [frame.url for frame in page.frames]
        framed = page.frames[1].evaluate("document.querySelector('#table') === null")
        guard.flush_reports(browser)
    assert frames == [f"{other}/frame.html", "chrome-error://chromewebdata/"]
    assert framed is True  # nothing of the room page in the frame
    reports = take_reports()  # Chromium's console line: the frame's origin, the directive
    assert len(reports) == 1 and reports[0].startswith("console: ")
    assert f"'{live_server}/'" in reports[0] and "\"frame-ancestors 'none'\"" in reports[0]
