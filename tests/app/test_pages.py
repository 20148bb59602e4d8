"""The page routes of ``app.api.pages.PAGES``: each URL serves its file from ``frontend/``."""

from __future__ import annotations

import httpx

from app.rooms.clocks import ManualClock
from tests.app.conftest import make_app, serve, shutdown

#: URL -> the file it must serve (written out here, not read from ``PAGES``).
EXPECTED = {"/": "index.html", "/room/Ab3_x": "room.html", "/history": "history.html",
            "/matches/12": "match.html", "/ladders": "ladders.html", "/players/7": "player.html"}


async def test_every_page_serves_its_file_and_ids_must_be_numbers(db_path, tmp_path):
    frontend = tmp_path / "frontend"
    frontend.mkdir()
    for name in EXPECTED.values():
        (frontend / name).write_text(f"<title>{name}</title>")
    server, task, base = await serve(make_app(db_path, ManualClock(), frontend_dir=frontend))
    try:
        async with httpx.AsyncClient(base_url=base) as http:
            for url, name in EXPECTED.items():
                answer = await http.get(url)
                assert (answer.status_code, answer.text) == (200, f"<title>{name}</title>"), url
                assert answer.headers["content-type"].startswith("text/html")
            for url in ("/matches/twelve", "/players/-"):
                answer = await http.get(url)
                assert answer.status_code == 404, url
                assert answer.json()["detail"]["code"] == "not_found"
            (frontend / "player.html").unlink()
            gone = await http.get("/players/7")
            assert (gone.status_code, gone.json()["detail"]["code"]) == (404, "page_missing")
    finally:
        await shutdown(server, task)
