"""The self-hosted card-face font (frontend/fonts/arena-faces.woff2), checked without a browser.

It must hold every character printed on a card or tile face — zipai's 一…拾, the CJK names on
Grid Reversal's effect cards and on the Reversed Civilizations slots, the Reverse Curse and NumGR
face symbols, and the mahjong tiles to come — stay small, carry its license, and be the one
``tools/face_font.py`` builds from ``faces.txt``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from fontTools.ttLib import TTFont

from tools.face_font import FAMILY, face_characters

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "frontend" / "fonts"
GAMES = ROOT / "frontend" / "games"
EN = json.loads((ROOT / "frontend" / "i18n" / "en.json").read_text("utf-8"))
CJK = re.compile(r"[\u3400-\u9fff]")
#: The mahjong tile faces (numbers, suits, winds, dragons, flowers), listed before the table exists.
MAHJONG = set("一二三四五六七八九万筒条東东南西北中發发白春夏秋冬梅兰蘭竹菊0123456789")


def js_constant(path: Path, name: str) -> str:
    """The string literal assigned to ``const name`` in ``path``."""
    return re.search(rf'const {name} = "([^"]+)"', path.read_text("utf-8")).group(1)


def printed_on_faces() -> set[str]:
    """Every character the tables print on card faces, read from their code and texts."""
    chars = set(js_constant(GAMES / "zp_text.js", "SMALL")) | set(js_constant(GAMES / "zp_text.js", "BIG"))
    for key, text in EN.items():
        if key.startswith(("gr.card.", "civ.slot.")):
            chars |= set(CJK.findall(text))
    rc = (GAMES / "rc_cards.js").read_text("utf-8")
    chars |= set("".join(re.findall(r'[A-Z_]+: "([^"]+)"', rc.split("SPECIAL_SYMBOLS")[1].split("};")[0])))
    ng = (GAMES / "ng_text.js").read_text("utf-8")
    for table in ("FACE_SYMBOLS", "ATTR_SYMBOLS"):
        chars |= set("".join(re.findall(r': "([^"]+)"', ng.split(table)[1].split("};")[0])))
    chars |= set("0123456789+−")
    return {c for c in chars if not c.isascii() or c.isdigit() or c == "+"}


def test_the_list_holds_every_face_character_and_the_mahjong_tiles():
    listed = set(face_characters())
    assert "壹" in printed_on_faces() and "狩" in printed_on_faces() and "θ" in printed_on_faces()
    assert sorted(printed_on_faces() - listed) == []
    assert sorted(MAHJONG - listed) == []


def test_the_font_covers_the_list_is_small_and_renamed():
    path = FONTS / "arena-faces.woff2"
    font = TTFont(path)
    cmap = font.getBestCmap()
    assert sorted(c for c in face_characters() if ord(c) not in cmap) == []
    assert len(cmap) == len(face_characters())  # nothing else: every glyph is a face's
    assert path.stat().st_size < 60_000
    assert font["name"].getDebugName(1) == FAMILY == "Arena Faces"
    assert "SIL Open Font License" in font["name"].getDebugName(13)
    license_text = (FONTS / "OFL.txt").read_text("utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in license_text and "Adobe" in license_text


def test_the_pages_use_the_font_for_faces():
    css = (ROOT / "frontend" / "css" / "games.css").read_text("utf-8")
    assert 'src: url("/static/fonts/arena-faces.woff2") format("woff2")' in css
    assert '--face-font: "Arena Faces"' in css
