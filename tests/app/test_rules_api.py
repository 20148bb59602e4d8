"""Rules in the app: ``GET /api/rules/{game}/{lang}`` and the ``/rules`` pages.

The renderer is markdown-it-py with raw HTML off: expected HTML below is CommonMark's, worked out
by hand from the input text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.rules import LANGUAGES, RULES_DIR, load_rules, render_markdown
from app.rooms.errors import RoomError
from engine.registry import GAMES


def test_markdown_is_rendered_with_tables_and_raw_html_escaped():
    text = "# 胡息 huxi\n\n<script>alert(1)</script> **坎**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    assert render_markdown(text) == (
        "<h1>胡息 huxi</h1>\n"
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; <strong>坎</strong></p>\n"
        "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n"
        "<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n")


def test_script_links_are_not_links():
    html = render_markdown("[click](javascript:alert(1)) [ok](https://example.org/)")
    assert html == ('<p>[click](javascript:alert(1)) '
                    '<a href="https://example.org/">ok</a></p>\n')


def test_a_missing_language_falls_back_to_english(tmp_path: Path):
    (tmp_path / "g.en.md").write_text("Hello *there*", "utf-8")
    (tmp_path / "g.ja.md").write_text("こんにちは", "utf-8")
    assert load_rules(tmp_path, "g", "zh") == {
        "game": "g", "lang": "en", "requested": "zh", "fallback": True,
        "html": "<p>Hello <em>there</em></p>\n"}
    assert load_rules(tmp_path, "g", "ja") == {
        "game": "g", "lang": "ja", "requested": "ja", "fallback": False,
        "html": "<p>こんにちは</p>\n"}


def test_unknown_language_and_missing_rules_are_refused(tmp_path: Path):
    with pytest.raises(RoomError) as refused:
        load_rules(tmp_path, "g", "fr")
    assert (refused.value.code, refused.value.status) == ("unknown_language", 404)
    with pytest.raises(RoomError) as missing:
        load_rules(tmp_path, "g", "en")
    assert (missing.value.code, missing.value.status) == ("rules_not_found", 404)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_rules_in_every_language(game):
    assert [lang for lang in LANGUAGES if not (RULES_DIR / f"{game}.{lang}.md").is_file()] == []


async def test_rules_api_answers_in_each_language(arena):
    for lang in LANGUAGES:
        answer = await arena.http.get(f"/api/rules/reverse_curse/{lang}")
        assert answer.status_code == 200
        body = answer.json()
        expected_lang = lang if (RULES_DIR / f"reverse_curse.{lang}.md").is_file() else "en"
        assert (body["game"], body["requested"], body["lang"]) == ("reverse_curse", lang, expected_lang)
        assert body["fallback"] is (expected_lang != lang)
        assert body["html"].startswith("<h1>") and "<script" not in body["html"]


async def test_the_fair_play_page_is_served_in_each_language(arena):
    headings = {"en": "<h1>Fair play: how the deal can be checked</h1>",
                "zh": "<h1>公平对局：如何核对发牌</h1>", "ja": "<h1>公正な対局：配牌を確かめる方法</h1>"}
    for lang, heading in headings.items():
        body = (await arena.http.get(f"/api/rules/fair_play/{lang}")).json()
        assert (body["game"], body["lang"], body["fallback"]) == ("fair_play", lang, False)
        assert body["html"].startswith(heading + "\n")
        assert "SHA-256" in body["html"] and "python -m tools.verify" in body["html"]


async def test_rules_api_refusals(arena):
    unknown = await arena.http.get("/api/rules/chess/en")
    assert unknown.status_code == 404  # like /api/ladders/{game}: the path names no game
    assert unknown.json()["detail"]["code"] == "unknown_game"
    language = await arena.http.get("/api/rules/zipai/fr")
    assert language.status_code == 404
    assert language.json()["detail"]["code"] == "unknown_language"


async def test_rules_pages_are_served(arena):
    for path in ("/rules", "/rules/zipai"):
        answer = await arena.http.get(path)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/html")
        assert 'src="/static/js/rules.js"' in answer.text
