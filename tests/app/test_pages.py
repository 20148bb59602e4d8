"""The page routes of ``app.api.pages.PAGES`` and the rules pages: each URL serves its file from
``frontend/``; a page of a room, match, player or game that does not exist is the same file
with status 404."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import auth, running_arena

#: Page -> the file it must serve (written out here, not read from ``PAGES``).
FILES = {"lobby": "index.html", "room": "room.html", "history": "history.html",
         "match": "match.html", "replay": "replay.html", "ladders": "ladders.html",
         "player": "player.html", "rules": "rules.html"}


def write_pages(tmp_path: Path) -> Path:
    """Return a ``frontend/`` folder holding each page file as ``<title>name</title>``."""
    frontend = tmp_path / "frontend"
    frontend.mkdir()
    for name in FILES.values():
        (frontend / name).write_text(f"<title>{name}</title>")
    return frontend


async def test_every_page_serves_its_file_and_ids_must_be_numbers(db_path, tmp_path):
    frontend = write_pages(tmp_path)
    async with running_arena(db_path, frontend_dir=frontend) as arena:
        ann, bob = await arena.player("Ann"), await arena.player("Bob")
        code = (await arena.room(ann))["code"]
        for seat, person in enumerate((ann, bob)):
            assert (await arena.sit(code, seat, person)).status_code == 200
        match_id = (await arena.http.get(f"/api/rooms/{code}")).json()["match_id"]
        assert match_id == 1
        urls = {"lobby": "/", "room": f"/room/{code}", "history": "/history",
                "match": "/matches/1", "replay": "/replay/1", "ladders": "/ladders",
                "player": f"/players/{ann['id']}", "rules": "/rules/numgr"}
        for kind, url in urls.items():
            answer = await arena.http.get(url)
            assert (answer.status_code, answer.text) == (200, f"<title>{FILES[kind]}</title>"), url
            assert answer.headers["content-type"].startswith("text/html")
        for url in ("/matches/twelve", "/players/-", "/players/-1", "/matches/1.0"):
            answer = await arena.http.get(url)
            assert (answer.status_code, answer.json()["detail"]["code"]) == (404, "not_found"), url
        (frontend / "player.html").unlink()
        gone = await arena.http.get(f"/players/{ann['id']}")
        assert (gone.status_code, gone.json()["detail"]["code"]) == (404, "page_missing")


async def test_the_page_of_a_room_match_or_player_that_does_not_exist_answers_404(db_path,
                                                                                 tmp_path):
    # The page's own file, which says so in the visitor's language: as the API, 404.
    frontend = write_pages(tmp_path)
    async with running_arena(db_path, frontend_dir=frontend) as arena:
        ann = await arena.player("Ann")
        await arena.room(ann)
        missing = {"/room/WRONG1": "room.html", "/matches/0": "match.html",
                   "/matches/99999": "match.html", "/replay/0": "replay.html",
                   "/replay/99999": "replay.html", "/players/0": "player.html",
                   "/players/999999": "player.html", "/players/2": "player.html",
                   f"/players/{2 ** 63}": "player.html", "/rules/chess": "rules.html"}
        for url, name in missing.items():
            answer = await arena.http.get(url)
            assert (answer.status_code, answer.text) == (404, f"<title>{name}</title>"), url
            assert answer.headers["content-type"].startswith("text/html")
            api = await arena.http.get("/api" + url.replace("/room/", "/rooms/")
                                       .replace("/replay/", "/matches/").replace("chess", "chess/en"),
                                       headers=auth(ann))
            assert api.status_code == 404, url
        for url in ("/rules", "/rules/fair_play"):
            answer = await arena.http.get(url)
            assert (answer.status_code, answer.text) == (200, "<title>rules.html</title>"), url
