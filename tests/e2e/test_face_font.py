"""The self-hosted card-face font (frontend/fonts/arena-faces.woff2), checked without a browser.

It must hold every character an element drawn with the face font can print, in every language:
zipai's 一…拾, the card names of Reverse Curse, NumGR and Grid Reversal, the Reversed
Civilizations slot names, the mahjong tiles and seat winds ("南家"), the Reverse Curse and NumGR
face symbols — read from the stylesheets (which elements use the font), the tables' code and the
i18n texts. It must also stay small, carry its license, and be the one ``tools/face_font.py``
builds from ``faces.txt``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from tools.face_font import FAMILY, face_characters

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "frontend" / "fonts"
GAMES = ROOT / "frontend" / "games"
STYLESHEETS = sorted((ROOT / "frontend" / "css").glob("*.css")) + sorted(GAMES.glob("*.css"))
LANGS = ("en", "zh", "ja")
TEXTS = {lang: json.loads((ROOT / "frontend" / "i18n" / f"{lang}.json").read_text("utf-8")) for lang in LANGS}
PLACEHOLDER = re.compile(r"\{\w+\}")
#: The mahjong tile faces (numbers, suits, winds, dragons, flowers), listed before the table existed.
MAHJONG = set("一二三四五六七八九万筒条東东南西北中發发白春夏秋冬梅兰蘭竹菊0123456789")
#: Each class whose rule sets ``var(--face-font)``, with the i18n keys whose texts such an element
#: prints (a key ending in "." stands for every key it begins); the other characters they print
#: come from the tables' code (``printed_on_faces``).
FACE_KEYS = {
    "face-text": (),  # no page draws one
    "card-symbol": (),  # Reverse Curse and NumGR symbols, "?", NumGR's "333"
    "card-name": ("rc.up_card", "rc.down_card", "rc.card.", "ng.face.", "ng.variant."),
    "zp-char": (),
    "zp-index": (),
    "gr-card": ("gr.card.",),
    "gr-value": (),
    "civ-slot-name": ("civ.slot.",),
    "civ-revealed-name": ("civ.slot.",),
    "ng-attr": (),
    "mj-tile": ("mj.face.",),  # the suits' and honours' characters in the page's forms
    "mj-wind": ("mj.seat_wind", "mj.wind."),
}
#: What the faces print that Noto Sans CJK lacks (a Reversed Civilizations slot's reversal mark):
#: it comes from the system fonts.
NOT_IN_SOURCE = ["↺"]


def js_constant(path: Path, name: str) -> str:
    """The string literal assigned to ``const name`` in ``path``."""
    return re.search(rf'const {name} = "([^"]+)"', path.read_text("utf-8")).group(1)


def js_text(path: Path, css_class: str) -> str:
    """The literal ``text`` of the element of class ``css_class`` that ``path`` makes."""
    return re.search(rf'class: "{css_class}"[^}}]*?text: "([^"]+)"', path.read_text("utf-8")).group(1)


def js_table(path: Path, name: str) -> str:
    """Every string value of the object literal ``name`` in ``path``, joined."""
    body = path.read_text("utf-8").split(f"{name} = {{")[1].split("};")[0]
    return "".join(re.findall(r': "([^"]+)"', body))


def face_font_classes() -> set[str]:
    """The classes named by the selectors of every stylesheet rule that sets the face font."""
    classes: set[str] = set()
    for sheet in STYLESHEETS:
        css = re.sub(r"/\*.*?\*/", "", sheet.read_text("utf-8"), flags=re.DOTALL)
        for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
            if "var(--face-font)" in body:
                classes |= set(re.findall(r"\.([\w-]+)", selectors))
    return classes


def face_key(key: str) -> bool:
    """Whether the text of i18n ``key`` is printed by a face-font element."""
    return any(key.startswith(k) if k.endswith(".") else key == k for keys in FACE_KEYS.values() for k in keys)


def printed_on_faces(lang: str) -> set[str]:
    """Every character the face-font elements print in ``lang``, read from the tables' code and
    the i18n texts; ASCII letters and signs other than digits and "+" are left to the system fonts."""
    chars = set(js_constant(GAMES / "zp_text.js", "SMALL") + js_constant(GAMES / "zp_text.js", "BIG"))
    for key, text in TEXTS[lang].items():
        if face_key(key):
            chars |= set(PLACEHOLDER.sub("", text))
    chars |= set(js_table(GAMES / "rc_cards.js", "SPECIAL_SYMBOLS"))
    chars |= set(js_table(GAMES / "ng_text.js", "FACE_SYMBOLS") + js_table(GAMES / "ng_text.js", "ATTR_SYMBOLS"))
    chars |= set(js_constant(GAMES / "mj_tiles.js", "NUMERALS"))
    chars |= set(js_text(GAMES / "civilization.js", "civ-reversal"))
    chars |= set("0123456789+−")
    return {c for c in chars if not c.isascii() or c.isdigit() or c == "+"}


def test_every_face_font_element_is_known():
    assert sorted(face_font_classes()) == sorted(FACE_KEYS)


@pytest.mark.parametrize(("lang", "sample"), [
    ("en", ["θ", "万", "壹", "狩"]),
    ("zh", ["θ", "万", "壹", "家", "狩", "翻", "阱"]),
    ("ja", ["θ", "ト", "壹", "家", "狩", "萬"]),  # its tiles print 萬, not 万
])
def test_the_list_holds_every_character_the_faces_print(lang, sample):
    printed = printed_on_faces(lang)
    assert sorted(printed & set("θト万萬壹家狩翻阱")) == sample
    assert sorted(printed - set(face_characters())) == NOT_IN_SOURCE


def test_the_list_holds_the_mahjong_tiles():
    assert sorted(MAHJONG - set(face_characters())) == []


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


def test_the_font_keeps_the_pages_language_systems():
    gsub = TTFont(FONTS / "arena-faces.woff2")["GSUB"].table
    systems = {r.ScriptTag: [s.LangSysTag for s in r.Script.LangSysRecord] for r in gsub.ScriptList.ScriptRecord}
    assert systems == {"DFLT": [], "cyrl": ["JAN ", "ZHS "], "grek": ["JAN ", "ZHS "], "hang": ["JAN "],
                       "hani": ["JAN "], "kana": ["JAN "], "latn": ["JAN ", "ZHS "]}


def test_the_pages_use_the_font_for_faces():
    css = (ROOT / "frontend" / "css" / "games.css").read_text("utf-8")
    assert 'src: url("/static/fonts/arena-faces.woff2") format("woff2")' in css
    assert '--face-font: "Arena Faces"' in css
