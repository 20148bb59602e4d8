"""Zipai cards: the 80-card deck, wire codes, Chinese names and parsing.

A card is a wire code: ``x1``…``x10`` for the small cards 一…十 and ``d1``…``d10`` for the big
cards 壹…拾 (rulings, "Cards and notation"). A *face* is the index 0..19 of a code (small 0..9,
big 10..19); there are four copies of every face (seed 1.牌).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SMALL_NAMES = "一二三四五六七八九十"
BIG_NAMES = "壹贰叁肆伍陆柒捌玖拾"
CODES: tuple[str, ...] = tuple([f"x{v}" for v in range(1, 11)] + [f"d{v}" for v in range(1, 11)])
FACE: dict[str, int] = {code: i for i, code in enumerate(CODES)}
_BY_NAME: dict[str, str] = {name: CODES[i] for i, name in enumerate(SMALL_NAMES + BIG_NAMES)}
_IGNORED = " \t\n,，、"
RED_VALUES = frozenset({2, 7, 10})
COPIES = 4


def face(code: str) -> int:
    """Return the face index 0..19 of a wire code (small 0..9, big 10..19)."""
    return FACE[code]


def code_of(face_index: int) -> str:
    """Return the wire code of face ``face_index`` (0..19)."""
    return CODES[face_index]


def value(code: str) -> int:
    """Return the value 1..10 of a card."""
    return FACE[code] % 10 + 1


def is_big(code: str) -> bool:
    """Return whether the card is a big one (壹…拾)."""
    return FACE[code] >= 10


def chinese(code: str) -> str:
    """Return the Chinese character of a card: ``x1`` → 一, ``d10`` → 拾."""
    return (SMALL_NAMES + BIG_NAMES)[FACE[code]]


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Return the cards ordered small 一…十 then big 壹…拾 (the hand order; rightmost = highest)."""
    return sorted(cards, key=FACE.__getitem__)


def counts(cards: Iterable[str]) -> list[int]:
    """Return a list of 20 counts, one per face."""
    out = [0] * 20
    for card in cards:
        out[FACE[card]] += 1
    return out


def deck() -> list[str]:
    """Return the 80 cards in face order (each face four times; seed 1.牌)."""
    return [code for code in CODES for _ in range(COPIES)]


def next_face(code: str) -> str:
    """Return the 醒 face for a turned card: same case, value + 1, 十 → 一 and 拾 → 壹 (seed 4.4)."""
    base = 10 if is_big(code) else 0
    return CODES[base + value(code) % 10]


def _parse_code(text: str, i: int) -> tuple[str, int]:
    """Parse one wire code starting at ``text[i]``; return (code, next index)."""
    if text.startswith("10", i + 1):
        return text[i] + "10", i + 3
    if i + 1 < len(text) and text[i + 1] in "123456789":
        return text[i] + text[i + 1], i + 2
    raise ValueError(f"Bad card code at position {i} in {text!r}.")


def parse_cards(text: str | Sequence[str]) -> list[str]:
    """Return the wire codes of the cards written in ``text``, in the order written.

    Accepts Chinese characters (一…十, 壹…拾) and wire codes (``x1``…``x10``, ``d1``…``d10``),
    mixed freely; spaces and commas are ignored. A sequence of such strings is parsed piece by
    piece. Rule source: rulings "Public API" (``parse_cards``).

    Raises:
        ValueError: on any other character or a malformed code (``x0``, ``x11``, ``y3``).
    """
    if not isinstance(text, str):
        return [card for piece in text for card in parse_cards(piece)]
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _IGNORED:
            i += 1
        elif ch in _BY_NAME:
            out.append(_BY_NAME[ch])
            i += 1
        elif ch in "xd":
            code, i = _parse_code(text, i)
            out.append(code)
        else:
            raise ValueError(f"Not a zipai card: {ch!r} in {text!r}.")
    return out
