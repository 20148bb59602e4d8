"""The rules pages speak to players: no developer words in ``docs/rules/<game>.<lang>.md``.

What a player reading the rules has no use for: the engine, the project's files (``shared/rules/…``,
``*.py``, commands), the seed texts' numbers ("seed 001"), enum names (``DOUBLE_BUBBLE``) and
code names of room options or cards (```turn_seconds```, ```2atk```, ```x1```). Room settings
are named as the lobby labels them. (How to verify a match by command is the fair-play page's
business, not a game's rules.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.registry import GAMES

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
LANGS = ("en", "zh", "ja")
DEVELOPER_WORDS = {
    "the engine": re.compile(r"\bengines?\b|引擎|エンジン", re.I),
    "project files": re.compile(r"shared/|\.py\b|\bpython\b|\btools\.|balance/"),
    "seed texts": re.compile(r"\bseeds?\b|种子|シード", re.I),
    "enum names": re.compile(r"\b[A-Z]{2,}(?:_[A-Z]+)+\b"),
    "code names": re.compile(r"`(?:[a-z][a-z0-9_]*|\d[a-z]+|[A-Z][a-z]+|[A-Z]+)`"),
    "wire formats": re.compile(r"on the wire|通信|wire", re.I),
}


def test_the_check_finds_what_it_looks_for():
    sample = ("Our engine follows seed 001 and `shared/rules/x.md`; DOUBLE_BUBBLE; `turn_seconds`, "
              "`2atk`, `Tdef`, `BAN`; on the wire `x1`.")
    assert sorted(name for name, rx in DEVELOPER_WORDS.items() if rx.search(sample)) == sorted(DEVELOPER_WORDS)
    assert [name for name, rx in DEVELOPER_WORDS.items() if rx.search("`+1, MIRROR, ECHO` = 4; 1 × 2")] == []


@pytest.mark.parametrize("path", [RULES / f"{game}.{lang}.md" for game in sorted(GAMES) for lang in LANGS],
                         ids=lambda path: path.name)
def test_no_developer_words_on_a_rules_page(path):
    found = [(number, name, line.strip()[:80])
             for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
             for name, rx in DEVELOPER_WORDS.items() if rx.search(line)]
    assert found == []
