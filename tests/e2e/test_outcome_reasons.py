"""Every outcome reason an engine can produce has a sentence in English, Chinese and Japanese.

The reasons are read from each registered engine's source (``tests/e2e/engine_reasons.py``), so a
new game or a new reason is checked the day it is registered. The page looks a reason up as
``outcome.reason.<game>.<code>``, else ``outcome.reason.<code>`` (``frontend/js/outcome.js``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.registry import GAMES
from tests.e2e.engine_reasons import outcome_reasons, scan_package

ROOT = Path(__file__).resolve().parents[2]
DICTS = {lang: json.loads((ROOT / "frontend" / "i18n" / f"{lang}.json").read_text("utf-8"))
         for lang in ("en", "zh", "ja")}


def sentence_key(game: str, reason: str) -> str | None:
    """The key the page shows for ``reason`` in ``game`` (the logic of js/outcome.js)."""
    for key in (f"outcome.reason.{game}.{reason}", f"outcome.reason.{reason}"):
        if key in DICTS["en"]:
            return key
    return None


def test_the_scan_finds_each_engines_reasons():
    found = {game: outcome_reasons(GAMES[game]) for game in
             ("reverse_curse", "numgr", "zipai", "grid_reversal", "civilization")}
    assert found == {
        "reverse_curse": ({"ko", "decision", "draw", "resign"}, []),
        "numgr": ({"ko", "draw", "resign"}, []),
        "zipai": ({"decision", "resign"}, []),
        # "draw" and "win" are the outcome's defaults for a state without a reason.
        "grid_reversal": ({"mother_flipped", "resign", "agreement", "no_flip", "repetition", "idle",
                           "round_limit", "draw", "win"}, []),
        "civilization": ({"five_leaders", "deck_empty", "max_length", "resign"}, []),
    }


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_reason_of_every_registered_game_has_a_sentence(game):
    reasons, unreadable = outcome_reasons(GAMES[game])
    assert unreadable == [], f"{game}: reasons the scan cannot read; make them string literals"
    assert reasons, f"{game}: no outcome reason found"
    missing = sorted(reason for reason in reasons if sentence_key(game, reason) is None)
    assert missing == [], f"{game}: no outcome.reason text"
    for reason in reasons:
        key = sentence_key(game, reason)
        texts = {lang: table[key] for lang, table in DICTS.items()}
        assert texts["en"].endswith("."), (key, texts["en"])
        assert texts["zh"] != texts["en"] and texts["ja"] != texts["en"], key


def test_the_scan_reports_what_it_cannot_read(tmp_path):
    (tmp_path / "rules.py").write_text(
        "def finish(state, winner, reason):\n"
        "    return state._replace(reason=reason)\n"
        "def end(state, n):\n"
        "    finish(state, 0, 'ko' if n else 'draw')\n"
        "    finish(state, 1, f'won_{n}')\n"
        "def note(reason='removed'):\n"
        "    return 'stack_' + reason\n"
        "def tidy():\n"
        "    note(reason='discarded')\n")
    scan = scan_package(tmp_path)
    assert scan.reasons == {"ko", "draw"}
    assert scan.unreadable == ["f'won_{n}'"]
