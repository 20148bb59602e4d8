"""The text arguments of the public scoring functions (``mcr_fan``, ``hebei_value``): a hand as
MPSZ text, melds as ``(kind, tiles text)`` with kind ``chi`` | ``pon`` | ``kong`` (melded) |
``concealed_kong`` (rulings "Tiles and notation"; the public function signatures).

Converts the engine's ``Meld`` records to those arguments, and parses and checks them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.mahjong.state import Meld
from engine.mahjong.tiles import is_suited, number, parse_tiles, suit, tiles_text

#: The argument kind of each engine meld kind (an added kong is a melded kong).
ARG_KIND = {"chow": "chi", "pung": "pon", "kong": "kong", "added_kong": "kong",
            "concealed_kong": "concealed_kong"}
#: Tiles per argument meld kind.
MELD_SIZES = {"chi": 3, "pon": 3, "kong": 4, "concealed_kong": 4}

MeldArg = tuple[str, str]


def meld_args(melds: Iterable[Meld]) -> tuple[MeldArg, ...]:
    """Return the ``(kind, tiles text)`` arguments of engine melds, in order."""
    return tuple((ARG_KIND[m.kind], tiles_text(m.tiles)) for m in melds)


def parse_melds(melds: Sequence[Sequence[str]]) -> list[tuple[str, list[str]]]:
    """Return ``[(kind, tiles)]`` of meld arguments, each checked: a ``chi`` is three
    consecutive tiles of one suit, a ``pon`` three and a kong four identical tiles.

    Raises:
        ValueError: for an unknown kind, a bad tile or a set that is not of its kind.
    """
    out = []
    for item in melds:
        if len(item) != 2 or item[0] not in MELD_SIZES:
            raise ValueError(f"Bad meld {item!r}: expected (kind, tiles) with kind one of "
                             f"{', '.join(MELD_SIZES)}.")
        kind, text = item
        tiles = sorted(parse_tiles(text), key=lambda t: (suit(t), number(t)))
        if len(tiles) != MELD_SIZES[kind] or not _meld_shape(kind, tiles):
            raise ValueError(f"Bad meld {item!r}: {text!r} is not a {kind}.")
        out.append((kind, tiles))
    return out


def _meld_shape(kind: str, tiles: list[str]) -> bool:
    if kind == "chi":
        return (is_suited(tiles[0]) and len({suit(t) for t in tiles}) == 1
                and [number(t) for t in tiles] == list(range(number(tiles[0]),
                                                             number(tiles[0]) + 3)))
    return len(set(tiles)) == 1 and not tiles[0].endswith("f")


def one_tile(text: str) -> str:
    """Return the single tile written in ``text``.

    Raises:
        ValueError: unless ``text`` is exactly one tile that is not a flower.
    """
    tiles = parse_tiles(text)
    if len(tiles) != 1 or tiles[0].endswith("f"):
        raise ValueError(f"Bad winning tile {text!r}: expected one tile.")
    return tiles[0]
