"""Mahjong's player texts against the engine, without a browser.

- The rules pages (``docs/rules/mahjong.<lang>.md``) list every fan of the competition table once,
  in the table's order, with the same example hand in every language, and each example scores its
  fan with ``engine.mahjong.mcr_fan`` (won the way the fan needs: ``SITUATIONS``); each Hebei
  doubling's example has that doubling by ``hebei_value``. Every tile row of a rules text is in
  the notation the rules page draws (``frontend/games/mj_rules.js``).
- The table's Chinese names (``frontend/games/mj_names.js``) and the glosses in the i18n files
  are the engine's own names.
- Each language's tile and wind names write a character with two forms (万/萬, 东/東, 发/發, 兰/蘭)
  in the form its tile faces print (i18n ``mj.face.*``): Japanese 萬東發蘭, the others 万东发兰.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.mahjong import HEBEI_DOUBLINGS, MCR_FANS, hebei_value, mcr_fan
from engine.mahjong.tiles import parse_tiles

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh", "ja")
RULES = {lang: (ROOT / "docs" / "rules" / f"mahjong.{lang}.md").read_text("utf-8") for lang in LANGS}
DICTS = {lang: json.loads((ROOT / "frontend" / "i18n" / f"{lang}.json").read_text("utf-8")) for lang in LANGS}
NAMES_JS = (ROOT / "frontend" / "games" / "mj_names.js").read_text("utf-8")
#: A tile row as the rules page draws it (mj_rules.js ROW and GROUP).
ROW = re.compile(r"`\[([^\]`]*)\]`")
GROUP = re.compile(r"^([!~+]?)((?:[0-9]+[mpszf])+)$")
#: Tile characters written two ways: the Chinese (simplified) form and the Japanese one.
TWO_FORMS = {"万": "萬", "东": "東", "发": "發", "兰": "蘭"}
#: The characters printed on the tiles, per language: 万 faces' suit, 1z…7z, 1f…8f.
FACES = {"en": "万东南西北白发中春夏秋冬梅兰竹菊", "zh": "万东南西北白发中春夏秋冬梅兰竹菊",
         "ja": "萬東南西北白發中春夏秋冬梅蘭竹菊"}
#: How the examples of fans that depend on the way of winning were won (mcr_fan's flags).
SITUATIONS = {
    "last_tile_draw": {"self_drawn": True, "wall_last": True},
    "last_tile_claim": {"wall_last": True},
    "out_with_replacement_tile": {"self_drawn": True, "kong": True},
    "robbing_the_kong": {"kong": True},
    "fully_concealed_hand": {"self_drawn": True},
    "self_drawn": {"self_drawn": True},
    "last_tile": {"fourth_tile": True},
    "seat_wind": {"seat_wind": "S"},
    "prevalent_wind": {"seat_wind": "S"},
}


def groups(row: str) -> list[tuple[str, list[str]]]:
    """The (mark, tiles) groups of a tile row ("123m !555p +5p"); AssertionError if malformed."""
    out = []
    for part in row.split():
        match = GROUP.match(part)
        assert match, f"not a tile group: {part!r} in [{row}]"
        out.append((match.group(1), parse_tiles(match.group(2))))
    return out


def winning_hand(row: str) -> dict:
    """``mcr_fan``/``hebei_value`` arguments of an example row: standing tiles, winning tile,
    declared sets (kind from the tiles: four a kong, three alike a pung, else a chow), flowers."""
    hand, melds, win, flowers = [], [], None, 0
    for mark, tiles in groups(row):
        if tiles[0].endswith("f"):
            flowers += len(tiles)
        elif mark == "+":
            win = tiles[0]
        elif mark == "~":
            melds.append(("concealed_kong", "".join(tiles)))
        elif mark == "!":
            kind = "kong" if len(tiles) == 4 else "pon" if tiles[0] == tiles[1] else "chi"
            melds.append((kind, "".join(tiles)))
        else:
            hand += tiles
    return {"hand": "".join(hand), "win_tile": win, "melds": melds, "flowers": flowers}


def fan_rows(text: str) -> list[tuple[int, str, str]]:
    """(points, fan cell, example) of each row of the fan table (rows ending in a tile row)."""
    block = text.split("\n### ")[-1]
    return [(int(m.group(1)), m.group(2), m.group(3)) for m in
            re.finditer(r"^\| (\d+) \| ([^|]+) \|[^|]+\| `\[([^\]]+)\]` \|$", block, re.M)]


def test_every_tile_row_of_the_rules_parses():
    for lang, text in RULES.items():
        rows = ROW.findall(text)
        assert len(rows) > 90, lang
        for row in rows:
            groups(row)


@pytest.mark.parametrize("lang", LANGS)
def test_the_fan_table_lists_every_fan_once_in_order(lang):
    rows = fan_rows(RULES[lang])
    assert [points for points, _, _ in rows] == [fan.points for fan in MCR_FANS.values()]
    assert [cell.split()[0] for _, cell, _ in rows] == [fan.names["zh"] for fan in MCR_FANS.values()]
    assert [example for _, _, example in rows] == [example for _, _, example in fan_rows(RULES["en"])]


@pytest.mark.parametrize("fan_id, example", [(fan_id, example) for fan_id, (_, _, example)
                                             in zip(MCR_FANS, fan_rows(RULES["en"]))])
def test_each_example_scores_its_fan(fan_id, example):
    win = winning_hand(example)
    fans = mcr_fan(win["hand"], win["win_tile"], win["melds"], flowers=win["flowers"],
                   **SITUATIONS.get(fan_id, {}))
    assert fan_id in [f for f, _ in fans], fans


def test_the_chicken_hand_example_has_nothing_else():
    [(_, _, example)] = [row for row in fan_rows(RULES["en"]) if row[1].startswith("无番和")]
    win = winning_hand(example)
    assert mcr_fan(win["hand"], win["win_tile"], win["melds"]) == [("chicken_hand", 8)]


HEBEI_EXAMPLES = {"seven_pairs": (2, ["seven_pairs"]), "full_flush": (2, ["full_flush"]),
                  "pure_straight": (2, ["pure_straight"]), "all_pungs": (2, ["all_pungs"]),
                  "concealed_hand": (2, ["concealed_hand"])}


@pytest.mark.parametrize("lang", LANGS)
def test_each_hebei_example_has_its_doubling(lang):
    text = RULES[lang]
    [section] = [part for part in text.split("\n## ") if part.split("\n")[0].endswith("河北麻将")
                 or part.startswith("Hebei rules")]
    rows = re.findall(r"^\| ([^|]+) \|[^|]+\| `\[([^\]]+)\]` \|$", section, re.M)
    found = {}
    for cell, example in rows:
        zh = cell.split()[0]
        entry = next((d for d in HEBEI_DOUBLINGS.values() if d.names["zh"] == zh), None)
        if entry is None or entry.id in found:
            continue
        win = winning_hand(example)
        found[entry.id] = hebei_value(win["hand"], win["win_tile"], win["melds"])
    assert found == HEBEI_EXAMPLES
    # The worked example: 门清 and 自摸, 1 × 2 × 2.
    assert hebei_value("123m456p789s234m5p", "5p", self_drawn=True) == (4, ["concealed_hand", "self_drawn"])
    assert "1 × 2 × 2 = **4**" in text


def test_the_tables_chinese_names_are_the_engines():
    fans = dict(re.findall(r'^  (\w+): \["([^"]+)", \d+\],$', NAMES_JS, re.M))
    points = {k: int(v) for k, v in re.findall(r'^  (\w+): \["[^"]+", (\d+)\],$', NAMES_JS, re.M)}
    assert fans == {fan.id: fan.names["zh"] for fan in MCR_FANS.values()}
    assert points == {fan.id: fan.points for fan in MCR_FANS.values()}
    doublings = dict(re.findall(r'^  (\w+): "([^"]+)",$', NAMES_JS, re.M))
    assert doublings == {d.id: d.names["zh"] for d in HEBEI_DOUBLINGS.values()}


@pytest.mark.parametrize("lang", LANGS)
def test_the_glosses_are_the_engines_names(lang):
    table = DICTS[lang]
    assert {fan.id: table[f"mj.fan.{fan.id}"] for fan in MCR_FANS.values()} == \
        {fan.id: fan.names[lang] for fan in MCR_FANS.values()}
    assert {d.id: table[f"mj.dbl.{d.id}"] for d in HEBEI_DOUBLINGS.values()} == \
        {d.id: d.names[lang] for d in HEBEI_DOUBLINGS.values()}


@pytest.mark.parametrize("lang", LANGS)
def test_tile_names_write_each_character_as_the_faces_print_it(lang):
    table = DICTS[lang]
    faces = table["mj.face.m"] + table["mj.face.z"] + table["mj.face.f"]
    assert faces == FACES[lang]
    names = "".join(text for key, text in table.items() if key.startswith(("mj.tile.", "mj.wind.")))
    not_printed = {form for pair in TWO_FORMS.items() for form in pair if form not in faces}
    assert sorted(set(names) & not_printed) == []
