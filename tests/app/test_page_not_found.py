"""Unknown page addresses (``/room/`` without a code, ``/nowhere``) give a browser the friendly,
translated not-found page with status 404; scripts and API paths keep the JSON ``not_found``."""

from __future__ import annotations

import httpx

from app.rooms.clocks import ManualClock
from tests.app.conftest import make_app, serve, shutdown

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
PAGE = "<main data-testid=not-found></main>"


async def test_browsers_get_the_not_found_page_and_scripts_the_json_error(db_path, tmp_path):
    frontend = tmp_path / "frontend"
    frontend.mkdir()
    (frontend / "not_found.html").write_text(PAGE)
    server, task, base = await serve(make_app(db_path, ManualClock(), frontend_dir=frontend))
    try:
        async with httpx.AsyncClient(base_url=base) as http:
            for url in ("/room/", "/nowhere", "/matches/twelve", "/players/-", "/replay/abc",
                        "/replay/1.5", "/replay/-1"):
                answer = await http.get(url, headers=BROWSER)
                assert (answer.status_code, answer.text) == (404, PAGE), url
                assert answer.headers["content-type"].startswith("text/html")
            for url, headers in (("/room/", {}), ("/api/nowhere", BROWSER),
                                 ("/static/nowhere.js", BROWSER)):
                answer = await http.get(url, headers=headers)
                assert answer.status_code == 404, url
                assert answer.json()["detail"]["code"] == "not_found", url
            posted = await http.post("/nowhere", headers=BROWSER)
            assert (posted.status_code, posted.json()["detail"]["code"]) == (404, "not_found")
            (frontend / "not_found.html").unlink()
            bare = await http.get("/room/", headers=BROWSER)
            assert (bare.status_code, bare.json()["detail"]["code"]) == (404, "not_found")
    finally:
        await shutdown(server, task)
