"""Build the card-face font subset: ``python -m tools.face_font [--source FONT] [--index N]``.

Reads the characters of ``frontend/fonts/faces.txt`` (the card and tile faces: zipai's 一…拾,
mahjong's tiles, the effect-card and slot names printed on cards, the faces' symbols and
digits), keeps only those glyphs of the source font and only the layout features and language
systems the pages use (``FEATURES``, ``LANGUAGES``), names the result "Arena Faces" (the Noto
and Source names are reserved by the font's license for the unmodified font) and writes
``frontend/fonts/arena-faces.woff2``. The source is Noto Sans CJK Bold (SIL Open Font License
1.1, ``frontend/fonts/OFL.txt``) from Debian's ``fonts-noto-cjk``; face 2 of the collection is the
Simplified Chinese one. Needs fontTools and brotli (the dev extra).

Exits with status 1, naming them, when the source lacks some listed characters (they would
fall back to the reader's system fonts).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
FACES = ROOT / "frontend" / "fonts" / "faces.txt"
OUTPUT = ROOT / "frontend" / "fonts" / "arena-faces.woff2"
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
SC_FACE = 2
FAMILY = "Arena Faces"
#: The OpenType features kept: those browsers apply to horizontal text unasked, and "fwid" (never
#: applied unasked), which the listed digits always have: it is the one feature left to the Chinese
#: language system, which the subset would otherwise drop, giving Chinese pages the default
#: system's localized digits. Vertical forms, the other width and ruby variants and the alternates
#: ("aalt") are left out: no page asks for them.
FEATURES = ["ccmp", "locl", "rvrn", "calt", "liga", "clig", "rlig", "kern", "mark", "mkmk", "fwid"]
#: The language systems kept besides each script's default one (the English pages'): the Japanese
#: pages' (``lang="ja"``, whose ``locl`` gives the Japanese forms of the kanji) and the Chinese
#: pages' (``lang="zh-Hans"``); the Korean and Traditional Chinese forms are left out.
LANGUAGES = {"JAN ", "ZHS "}


def face_characters(path: Path = FACES) -> list[str]:
    """Return the distinct characters listed in ``path`` (text after each ``label:``; ``#``
    lines and spaces ignored), in the order they first appear."""
    seen: dict[str, None] = {}
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        for char in line.split(":", 1)[1]:
            if not char.isspace():
                seen.setdefault(char, None)
    return list(seen)


def keep_languages(font: TTFont, languages: set[str]) -> None:
    """Drop from ``font``'s GSUB and GPOS every script's language systems but ``languages`` (tags
    such as ``"JAN "``) and its default one, so the subset keeps no glyph only another language
    system reaches (Korean and Traditional Chinese forms)."""
    for tag in ("GSUB", "GPOS"):
        if tag not in font:
            continue
        for record in font[tag].table.ScriptList.ScriptRecord:
            script = record.Script
            script.LangSysRecord = [r for r in script.LangSysRecord if r.LangSysTag in languages]
            script.LangSysCount = len(script.LangSysRecord)


def build(source: Path, index: int, characters: list[str], output: Path) -> list[str]:
    """Write the subset of ``source`` (face ``index`` of a collection) with ``characters`` to
    ``output`` as WOFF2, renamed to ``FAMILY``; return the characters the source lacks."""
    font = TTFont(source, fontNumber=index)
    missing = [c for c in characters if ord(c) not in font.getBestCmap()]
    keep_languages(font, LANGUAGES)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = FEATURES
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters if c not in missing])
    subsetter.subset(font)
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16):
            names.setName(FAMILY if record.nameID != 4 else f"{FAMILY} Bold", record.nameID,
                          record.platformID, record.platEncID, record.langID)
        elif record.nameID in (3, 6):
            names.setName("ArenaFaces-Bold", record.nameID, record.platformID, record.platEncID,
                          record.langID)
    font.flavor = "woff2"
    font.save(output)
    return missing


def main(argv: list[str] | None = None) -> int:
    """Build the subset; print its size and the characters it holds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="the Noto Sans CJK Bold collection")
    parser.add_argument("--index", type=int, default=SC_FACE, help="the face of the collection")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    characters = face_characters()
    missing = build(args.source, args.index, characters, args.output)
    print(f"{args.output}: {args.output.stat().st_size} bytes, {len(characters) - len(missing)} characters")
    if missing:
        print(f"not in the source font: {''.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
