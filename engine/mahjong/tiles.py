"""Mahjong tiles: codes, the 136/144-tile sets, sort order and parsing.

A tile is a code (rulings, "Tiles and notation"): ``1m``…``9m`` 万 characters, ``1p``…``9p`` 筒
dots, ``1s``…``9s`` 条 bamboo, honors ``1z``…``7z`` = East, South, West, North, White 白,
Green 发, Red 中, and the eight flowers ``1f``…``8f`` = 春夏秋冬梅兰竹菊 (one of each, `mcr` only).
A *kind* is one of the 34 non-flower codes; each kind has four copies. The *index* of a code is
its place in the sort order m, p, s, z, f (by number): ``1m`` = 0 … ``7z`` = 33, ``1f`` = 34 … 41.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

SUITS = "mps"
HONOR_SUIT = "z"
FLOWER_SUIT = "f"
KINDS: tuple[str, ...] = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10)) + tuple(
    f"{n}z" for n in range(1, 8)
)
FLOWERS: tuple[str, ...] = tuple(f"{n}f" for n in range(1, 9))
ALL_CODES: tuple[str, ...] = KINDS + FLOWERS
INDEX: dict[str, int] = {code: i for i, code in enumerate(ALL_CODES)}
COPIES = 4

WINDS = "ESWN"
WIND_TILES: dict[str, str] = {letter: f"{i}z" for i, letter in enumerate(WINDS, start=1)}
DRAGONS: tuple[str, ...] = ("5z", "6z", "7z")
TERMINALS_AND_HONORS: tuple[str, ...] = tuple(
    f"{n}{s}" for s in SUITS for n in (1, 9)
) + tuple(f"{n}z" for n in range(1, 8))

_NUMERALS = "一二三四五六七八九"
_SUIT_NAMES = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s"}
_HONOR_NAMES = {"东": "1z", "東": "1z", "南": "2z", "西": "3z", "北": "4z",
                "白": "5z", "发": "6z", "發": "6z", "中": "7z"}
_FLOWER_NAMES = {ch: f"{i}f" for i, ch in enumerate("春夏秋冬梅兰竹菊", start=1)}
_FLOWER_NAMES["蘭"] = "6f"
_LARGEST = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_IGNORED = " \t\n,，、"


def suit(tile: str) -> str:
    """Return the suit letter of a tile: ``m`` ``p`` ``s`` (numbered), ``z`` (honor), ``f``."""
    return tile[1]


def number(tile: str) -> int:
    """Return the number of a tile: 1..9 for suits, 1..7 for honors, 1..8 for flowers."""
    return int(tile[0])


def is_suited(tile: str) -> bool:
    """Return whether the tile is a numbered tile (万, 筒 or 条)."""
    return tile[1] in SUITS


def is_honor(tile: str) -> bool:
    """Return whether the tile is a wind or a dragon (字牌)."""
    return tile[1] == HONOR_SUIT


def is_flower(tile: str) -> bool:
    """Return whether the tile is one of the eight flowers (花牌)."""
    return tile[1] == FLOWER_SUIT


def is_terminal(tile: str) -> bool:
    """Return whether the tile is a 1 or a 9 of a suit (序数幺九)."""
    return tile[1] in SUITS and tile[0] in "19"


def is_terminal_or_honor(tile: str) -> bool:
    """Return whether the tile is a 幺九牌: a terminal or an honor (competition rules, term 十六)."""
    return is_honor(tile) or is_terminal(tile)


def is_wind(tile: str) -> bool:
    """Return whether the tile is one of the four winds ``1z``…``4z``."""
    return tile[1] == HONOR_SUIT and tile[0] in "1234"


def is_dragon(tile: str) -> bool:
    """Return whether the tile is one of the three dragons ``5z`` 白, ``6z`` 发, ``7z`` 中."""
    return tile[1] == HONOR_SUIT and tile[0] in "567"


def wind_tile(letter: str) -> str:
    """Return the tile of a wind letter: ``"E"`` → ``"1z"`` … ``"N"`` → ``"4z"``.

    Raises:
        ValueError: for anything but ``E S W N``.
    """
    try:
        return WIND_TILES[letter]
    except (KeyError, TypeError):
        raise ValueError(f"Not a wind: {letter!r} (expected one of E S W N).") from None


def wind_letter(tile: str) -> str:
    """Return the wind letter of a wind tile: ``"1z"`` → ``"E"`` … ``"4z"`` → ``"N"``.

    Raises:
        ValueError: for a tile that is not a wind.
    """
    if not (isinstance(tile, str) and len(tile) == 2 and is_wind(tile)):
        raise ValueError(f"Not a wind tile: {tile!r}.")
    return WINDS[int(tile[0]) - 1]


def sort_key(tile: str) -> int:
    """Return the sort key of a tile: order m, p, s, z, f, then by number (the index)."""
    return INDEX[tile]


def sorted_tiles(tiles: Iterable[str]) -> list[str]:
    """Return the tiles in sort order (m, p, s, z, f; by number)."""
    return sorted(tiles, key=INDEX.__getitem__)


def tile_set(flowers: bool = False) -> list[str]:
    """Return the full tile set in sort order: 136 tiles, or 144 with the eight flowers.

    Rule source: rulings "Tiles and notation" (136 tiles; `mcr` adds 8 flowers, one each).
    """
    tiles = [kind for kind in KINDS for _ in range(COPIES)]
    return tiles + list(FLOWERS) if flowers else tiles


def counts(tiles: Iterable[str]) -> list[int]:
    """Return a list of 34 counts, one per kind in index order (flowers are not counted).

    Raises:
        ValueError: if a tile is a flower or not a tile code.
    """
    out = [0] * len(KINDS)
    for tile in tiles:
        i = INDEX.get(tile)
        if i is None or i >= len(KINDS):
            raise ValueError(f"Not a tile kind: {tile!r}.")
        out[i] += 1
    return out


def from_counts(kind_counts: Sequence[int]) -> list[str]:
    """Return the tiles of a list of 34 counts, in sort order (the inverse of ``counts``)."""
    return [KINDS[i] for i, n in enumerate(kind_counts) for _ in range(n)]


def check_copies(tiles: Iterable[str]) -> None:
    """Check that no kind occurs more than four times and no flower more than once.

    Raises:
        ValueError: naming the first tile with too many copies.
    """
    for tile, n in sorted(Counter(tiles).items(), key=lambda item: INDEX[item[0]]):
        limit = 1 if is_flower(tile) else COPIES
        if n > limit:
            raise ValueError(f"{n} copies of {tile}; a set has {limit}.")


def chinese_name(tile: str) -> str:
    """Return the Chinese name of a tile: ``"1m"`` → 一万, ``"5p"`` → 五筒, ``"9s"`` → 九条,
    ``"1z"`` → 东, ``"6z"`` → 发, ``"1f"`` → 春.

    Raises:
        ValueError: on a string that is not a tile code.
    """
    if tile not in INDEX:
        raise ValueError(f"Not a tile: {tile!r}.")
    n, letter = int(tile[0]), tile[1]
    if letter in SUITS:
        return _NUMERALS[n - 1] + {"m": "万", "p": "筒", "s": "条"}[letter]
    return ("东南西北白发中" if letter == "z" else "春夏秋冬梅兰竹菊")[n - 1]


def tiles_text(tiles: Iterable[str]) -> str:
    """Return the MPSZ text of tiles, sorted: ``["1z", "2m", "1m"]`` → ``"12m1z"``.

    The inverse of ``parse_tiles`` up to order. Raises ``KeyError`` on a non-tile code.
    """
    out: list[str] = []
    digits: list[str] = []
    current = ""
    for tile in sorted_tiles(tiles):
        if tile[1] != current and digits:
            out.append("".join(digits) + current)
            digits = []
        current = tile[1]
        digits.append(tile[0])
    if digits:
        out.append("".join(digits) + current)
    return "".join(out)


def parse_tiles(text: str | Sequence[str]) -> list[str]:
    """Return the tile codes written in ``text``, in the order written.

    Accepts the MPSZ notation of the rulings — a run of digits shares the suit letter that
    follows (``"123m456p11z"``; a kong is written with its four tiles, ``"5555p"``; flowers
    ``"1f"``…``"8f"``) — and Chinese names: 一万…九万 (also 萬), 一筒…九筒 (also 饼), 一条…九条
    (also 索), where a run of numerals shares the suit that follows (一二三万), 东 南 西 北,
    白 发 中, flowers 春 夏 秋 冬 梅 兰 竹 菊; both may be mixed, and spaces
    and commas are ignored. A sequence of such strings is parsed piece by piece. The number of
    copies is not checked here (see ``check_copies``). Rule source: rulings "Tiles and notation".

    Raises:
        ValueError: naming the bad part: digits with no suit letter, a number out of range for
            its suit (``0m``, ``8z``, ``9f``), a lone suit letter, or any other character.
    """
    if not isinstance(text, str):
        return [tile for piece in text for tile in parse_tiles(piece)]
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _IGNORED:
            i += 1
        elif ch.isascii() and ch.isdigit():
            i = _parse_digit_run(text, i, out)
        elif ch in _NUMERALS:
            end = i
            while end < len(text) and text[end] in _NUMERALS:
                end += 1
            if end >= len(text) or text[end] not in _SUIT_NAMES:
                raise ValueError(f"Bad tiles {text[i:end + 1]!r} in {text!r}: expected 万, 筒 or 条 after {text[i:end]}.")
            out.extend(f"{_NUMERALS.index(n) + 1}{_SUIT_NAMES[text[end]]}" for n in text[i:end])
            i = end + 1
        elif ch in _HONOR_NAMES:
            out.append(_HONOR_NAMES[ch])
            i += 1
        elif ch in _FLOWER_NAMES:
            out.append(_FLOWER_NAMES[ch])
            i += 1
        else:
            raise ValueError(f"Bad tile {ch!r} at position {i} in {text!r}.")
    return out


def _parse_digit_run(text: str, start: int, out: list[str]) -> int:
    """Parse a run of digits and its suit letter at ``text[start]``; append; return next index."""
    end = start
    while end < len(text) and text[end].isascii() and text[end].isdigit():
        end += 1
    part = text[start:end + 1]
    if end >= len(text) or text[end] not in _LARGEST:
        raise ValueError(f"Bad tiles {part!r} in {text!r}: digits need a suit letter m, p, s, z or f.")
    letter = text[end]
    for digit in text[start:end]:
        if not 1 <= int(digit) <= _LARGEST[letter]:
            raise ValueError(f"Bad tile {digit}{letter} in {part!r} of {text!r}: "
                             f"{letter} tiles are numbered 1–{_LARGEST[letter]}.")
        out.append(digit + letter)
    return end + 1
