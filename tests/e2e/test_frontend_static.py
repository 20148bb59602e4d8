"""Static checks of the frontend (no browser): translations and safe DOM building.

- every translation key the pages and modules name literally exists in ``frontend/i18n/en.json``;
- every error code of docs/protocol.md, of the server (``app/``) and of the Reverse Curse engine
  has an ``error.<code>`` translation (the room shell toasts ``t("error." + code)``);
- every Reverse Curse special card, monster and side has its label;
- no module builds HTML from strings (names and chat are untrusted: textContent only).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.protocol_doc import protocol_error_codes
from tests.e2e.test_i18n_static import COMMENT

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
SOURCES = sorted([*FRONTEND.rglob("*.js"), *FRONTEND.glob("*.html")])
KEY_LITERAL = re.compile(r"""["'`]([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_]+)+)["'`]""")
I18N_ATTRIBUTE = re.compile(r'data-i18n(?:-[a-z-]+)?="([^"]+)"')
CODE_CALL = re.compile(r'(?:RoomError|FrameError|self\.error|IllegalAction|InvalidAction)\(\s*"([a-z_]+)"')


def _no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    duplicates = {key for key in keys if keys.count(key) > 1}
    assert not duplicates, f"duplicate keys in en.json: {sorted(duplicates)}"
    return dict(pairs)


@pytest.fixture(scope="module")
def english() -> dict[str, str]:
    return json.loads((FRONTEND / "i18n" / "en.json").read_text("utf-8"),
                      object_pairs_hook=_no_duplicates)


def test_english_values_are_non_empty_strings(english):
    assert all(isinstance(value, str) and value.strip() for value in english.values())


def test_every_key_named_in_the_frontend_exists(english):
    namespaces = {key.split(".")[0] for key in english}
    named = set()
    for path in SOURCES:
        text = COMMENT.sub("", path.read_text("utf-8"))  # a `room.code` in a comment is no key
        named |= {key for key in KEY_LITERAL.findall(text) if key.split(".")[0] in namespaces}
        named |= set(I18N_ATTRIBUTE.findall(text))
    # The scan must see the shell's and the game's keys, or it checks nothing.
    assert {"room.take_seat", "rc.keep", "rc.go_first", "lobby.create"} <= named
    assert sorted(named - set(english)) == []


def test_protocol_server_and_engine_error_codes_are_translated(english):
    codes = protocol_error_codes()
    assert {"stale_prompt", "not_your_turn", "rate_limited", "card_not_in_hand", "seat_taken",
            "already_seated", "room_not_open", "bad_login"} <= codes
    for folder in (ROOT / "app", ROOT / "engine" / "reverse_curse"):
        for path in folder.rglob("*.py"):
            codes |= set(CODE_CALL.findall(path.read_text("utf-8")))
    codes |= {"no_monster", "summon_not_allowed"}  # engine/reverse_curse/legality.py _why_summon
    assert sorted(code for code in codes if f"error.{code}" not in english) == []


def test_reverse_curse_cards_monsters_and_sides_have_labels(english):
    from engine.reverse_curse.cards import MONSTERS, SPECIALS

    wanted = {f"rc.card.{code}" for code in SPECIALS} | {f"rc.card_help.{code}" for code in SPECIALS}
    wanted |= {f"rc.monster.{code}" for code in MONSTERS}
    wanted |= {f"rc.monster_help.{code}" for code in MONSTERS}
    wanted |= {"rc.side.UP", "rc.side.DOWN", "side.UP", "side.DOWN"}
    wanted |= {f"outcome.reason.reverse_curse.{reason}" for reason in ("ko", "decision", "draw", "resign")}
    assert len(SPECIALS) == 6 and len(MONSTERS) == 6
    assert sorted(wanted - set(english)) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FRONTEND)))
def test_no_html_is_built_from_strings(path):
    sinks = re.findall(r"\.(?:innerHTML|outerHTML)\s*\+?=|insertAdjacentHTML\(|document\.write|\beval\(",
                       path.read_text("utf-8"))
    assert sinks == []


def test_the_room_page_imports_nothing_of_a_game():
    """The shell loads the table module by the room's game id; it names no game file itself."""
    for page in ("room.js", "lobby.js", "replay.js"):
        text = COMMENT.sub("", (FRONTEND / "js" / page).read_text("utf-8"))
        imports = re.findall(r'^import .* from "([^"]+)";$', text, re.M)
        assert imports and all(path.startswith("./") for path in imports), (page, imports)
        assert not re.search(r"reverse_curse|zipai|grid_reversal|numgr|civilization|mahjong", text), page


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FRONTEND)))
def test_no_inline_styles_and_no_emoji(path):
    """A strict CSP refuses inline styles: style only through classes or el.style.setProperty;
    and no picture may need an emoji font (icons are inline SVG: js/icons.js)."""
    text = COMMENT.sub("", path.read_text("utf-8"))
    assert re.findall(r'\bstyle\s*[:=]\s*["`{]|setAttribute\(\s*"style"|<style|\.style\.cssText|style="', text) == []
    assert re.findall(r"[\U0001F000-\U0001FFFF\u2690-\u26FF]", text) == []
