"""The three languages of the frontend, checked without a browser.

- ``frontend/i18n/{en,zh,ja}.json`` have exactly the same keys, no duplicates, non-empty values
  and the same ``{placeholders}`` per key;
- every key the pages and modules name literally exists (in every language, by the above);
- keys built at run time from engine data exist: every option, every error code any engine or the
  server can send, every game's card / slot / group / outcome names;
- the Chinese and Japanese files are translations: a value equal to the English one is allowed
  only for symbol-only texts, and the game terms keep their original names (胡息, 坎, 舵, さかさま…).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.protocol_doc import protocol_error_codes

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
LANGS = ("en", "zh", "ja")
SOURCES = sorted([*FRONTEND.rglob("*.js"), *FRONTEND.glob("*.html")])
KEY_LITERAL = re.compile(r"""["'`]([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_]+)+)["'`]""")
I18N_ATTRIBUTE = re.compile(r'data-i18n(?:-[a-z-]+)?="([^"]+)"')
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: Comments (``// …`` after a blank or at a line start, ``/* … */``) are not code: `room.code`
#: in a comment is no translation key.
COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S)
#: Errors raised with a literal code: RoomError("code", …), IllegalAction("code", …) and friends.
CODE_CALL = re.compile(r'(?:RoomError|FrameError|self\.error|IllegalAction|InvalidAction)\(\s*"([a-z_]+)"')
#: Codes returned as ("code", "message") pairs (civilization's why_illegal) or as a bare code from
#: a refusal helper (grid_reversal/refusals.py, reverse_curse/monsters.py summon_block).
CODE_PAIR = re.compile(r'return\s+"([a-z_]+)",\s*"|^\s*return\s+"([a-z_]+)"\s*$', re.M)
CODE_TABLE = re.compile(r'^\s*"[a-z_]+":\s*"([a-z_]+)",\s*$|^\s*"([a-z_]+)":\s*"[A-Z]', re.M)
REFUSAL_FILES = ("engine/grid_reversal/refusals.py", "engine/reverse_curse/monsters.py",
                 "engine/civilization/actions.py", "engine/civilization/game.py")


def _no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    assert not duplicates, f"duplicate keys: {duplicates}"
    return dict(pairs)


@pytest.fixture(scope="module")
def dicts() -> dict[str, dict[str, str]]:
    return {lang: json.loads((FRONTEND / "i18n" / f"{lang}.json").read_text("utf-8"),
                             object_pairs_hook=_no_duplicates) for lang in LANGS}


def test_every_language_has_the_same_keys(dicts):
    english = set(dicts["en"])
    for lang in ("zh", "ja"):
        assert sorted(english - set(dicts[lang])) == [], f"missing in {lang}.json"
        assert sorted(set(dicts[lang]) - english) == [], f"only in {lang}.json"


def test_values_are_non_empty_with_the_same_placeholders(dicts):
    for lang, table in dicts.items():
        assert [k for k, v in table.items() if not isinstance(v, str) or not v.strip()] == [], lang
    wrong = [(lang, key) for lang in ("zh", "ja") for key, text in dicts["en"].items()
             if set(PLACEHOLDER.findall(dicts[lang][key])) != set(PLACEHOLDER.findall(text))]
    assert wrong == []


def _named_keys(namespaces: set[str]) -> set[str]:
    named = set()
    for path in SOURCES:
        text = COMMENT.sub("", path.read_text("utf-8"))
        named |= {key for key in KEY_LITERAL.findall(text) if key.split(".")[0] in namespaces}
        named |= set(I18N_ATTRIBUTE.findall(text))
    return named


def test_every_key_named_in_the_code_exists(dicts):
    english = dicts["en"]
    named = _named_keys({key.split(".")[0] for key in english})
    # The scan must see the shell's, the rules page's and every game's keys, or it checks nothing.
    assert {"room.take_seat", "rules.fallback", "lang.label", "nav.rules", "rc.keep", "ng.keep",
            "zp.your_hand", "gr.end_stage", "civ.pass", "ng.face.A", "zp.gloss.big"} <= named
    assert sorted(named - set(english)) == []


def _error_codes() -> set[str]:
    codes = set()
    for folder in (ROOT / "app", ROOT / "engine"):
        for path in folder.rglob("*.py"):
            codes |= set(CODE_CALL.findall(path.read_text("utf-8")))
    for name in REFUSAL_FILES:
        text = (ROOT / name).read_text("utf-8")
        codes |= {a or b for a, b in CODE_PAIR.findall(text)}
        codes |= {a or b for a, b in CODE_TABLE.findall(text)}
    codes |= protocol_error_codes()
    # app/api/errors.py HTTP_CODES (413: app/api/body_limit.py)
    return codes | {"method_not_allowed", "not_found", "request_too_large"}


def test_every_error_code_is_translated(dicts):
    codes = _error_codes()
    # One code of each engine and of the server, so a broken scan cannot pass.
    assert {"stale_prompt", "rate_limited", "kan_locked", "cell_not_supported",
            "bomb_target_not_allowed", "summon_not_allowed", "slot_occupied", "cannot_afford",
            "decision_pending", "wrong_step", "unknown_language", "rules_not_found"} <= codes
    assert sorted(code for code in codes if f"error.{code}" not in dicts["en"]) == []


def _data_keys() -> set[str]:
    from engine.civilization.data import RESOURCES, SLOT_TYPES
    from engine.grid_reversal.data import EFFECT_CARDS, NUMBER_CARDS
    from engine.registry import GAMES
    from engine.reverse_curse.cards import MONSTERS, SPECIALS
    from engine.zipai.groups import HUXI

    keys = {f"game.{gid}" for gid in GAMES}
    keys |= {f"option.{option.name}" for game in GAMES.values() for option in game.spec.options}
    keys |= {f"rc.card.{c}" for c in SPECIALS} | {f"rc.card_help.{c}" for c in SPECIALS}
    keys |= {f"rc.monster.{m}" for m in MONSTERS} | {f"rc.monster_help.{m}" for m in MONSTERS}
    keys |= {f"gr.card.{c}" for c in (*NUMBER_CARDS, *EFFECT_CARDS)}
    keys |= {f"gr.explain.card.{c}" for c in EFFECT_CARDS}
    keys |= {f"gr.explain.{a}" for a in ("ban", "decline", "accept_draw", "decline_draw",
                                          "offer_draw", "end_stage")}
    keys |= {f"civ.slot.{s}" for s in SLOT_TYPES} | {f"civ.effect.{s}" for s in SLOT_TYPES}
    keys |= {f"civ.res.{r}" for r in RESOURCES}
    keys |= {f"zp.kind.{k}" for k in HUXI} | {f"zp.explain.{a}" for a in
                                               ("discard", "hu", "pass", "peng", "kaiduo", "chi")}
    keys |= {f"ng.step.{s}" for s in ("defense", "attack", "discard", "over")}
    return keys


def test_keys_built_from_engine_data_exist(dicts):
    keys = _data_keys()
    assert len(keys) > 100
    assert sorted(keys - set(dicts["en"])) == []


#: Keys whose text is the same in every language (numbers, symbols, names kept as printed).
SAME_EVERYWHERE = {"clock.left", "gr.card.1", "gr.card.2", "gr.card.3", "gr.card.4", "gr.start",
                   "civ.card_no", "civ.start_card", "civ.answer.declare", "civ.answer.exchange",
                   "civ.answer.match", "civ.res_count", "ng.gives", "ng.variant.333",
                   "ng.circle", "ng.unstoppable", "rc.mirror_as", "zp.kind.yi_er_san",
                   "zp.kind.er_qi_shi", "option.format.1v1", "option.format.2v2",
                   "option.format.3v3", "ng.copy", "civ.answer.take", "zp.result.huxi",
                   "rc.total", "gr.super_add.pair", "gr.super_add.line", "gr.cell",
                   "gr.stack.effect", "side.UP", "side.DOWN", "rc.side.UP", "rc.side.DOWN",
                   "rc.up_card", "rc.down_card", "game.numgr", "zp.gloss.small", "zp.gloss.big",
                   "history.versus", "gr.status.response", "zp.action.bi", "zp.kind.guosao",
                   "rc.ko_mark", "common.ok", "ng.hp", "ladders.player_id"}
#: Mahjong tile faces: the English page prints the Chinese forms (万 东 发 兰) like the Chinese one.
CHINESE_ON_ENGLISH_TILES = {"mj.face.m", "mj.face.z", "mj.face.f"}


def test_chinese_and_japanese_are_translated(dicts):
    for lang in ("zh", "ja"):
        same = sorted(key for key, text in dicts["en"].items()
                      if dicts[lang][key] == text
                      and key not in SAME_EVERYWHERE | CHINESE_ON_ENGLISH_TILES)
        assert same == [], f"untranslated in {lang}.json"


@pytest.mark.parametrize("key, zh, ja", [
    ("zp.result.huxi", "胡息", "胡息"),  # 胡息 keeps its name in every language
    ("zp.kind.kan", "坎", "坎"),
    ("zp.result.win", "舵", "舵"),
    ("rc.card.REVERSE_CURSE", "逆转诅咒", "さかさま"),
    ("lang.label", "语言", "言語"),
    ("room.take_seat", "入座", "席に着く"),
])
def test_game_terms_and_known_strings(dicts, key, zh, ja):
    assert zh in dicts["zh"][key] and ja in dicts["ja"][key]


#: The bots' words in every language: zh says 电脑 throughout, ja CPU (the bots' own names,
#: やさしいCPU…, the badge, the fill and take-over lines alike), en bot/computer.
BOT_WORDS = {
    "bots.name.easy": ("Easy bot", "简单电脑", "やさしいCPU"),
    "bots.tag": ("computer", "电脑", "CPU"),
    "bots.fill": ("Fill empty seats with bots", "用电脑填满空座", "空席をCPUで埋める"),
    "bots.level.none": ("No bots (wait for people)", "不加电脑（等真人）", "CPUなし（人を待つ）"),
    "bots.level_label": ("Bot level", "电脑难度", "CPUの強さ"),
    "manage.timeouts.bot": ("is replaced by a computer player", "由电脑玩家接替", "CPUが代わりに打つ"),
    "system.bot_took_over": ("{name}'s seat is now played by the computer.", "{name} 的座位现在由电脑代打。",
                             "{name} の席は今からCPUが打ちます。"),
    "identity.name_bot": ("That name belongs to the computer players.", "这个名字属于电脑玩家。",
                          "その名前はCPUプレイヤーの名前です。"),
}


def test_the_bots_are_called_one_thing_in_each_language(dicts):
    assert {key: tuple(dicts[lang][key] for lang in ("en", "zh", "ja")) for key in BOT_WORDS} == BOT_WORDS
    assert [key for key, text in dicts["ja"].items() if "コンピューター" in text] == []
