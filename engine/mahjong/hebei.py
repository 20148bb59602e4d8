"""Hebei scoring (rulings "Scoring: `hebei`", the common 推倒胡 practice): the hand's value, the
payments of a win and the kong points.

A winning hand is worth 1 (十三幺: 16), doubled once for each shape that applies — 七对, 清一色,
一条龙, 碰碰和, 门清 — and then once for the way it was won, at most one of 自摸, 杠上开花,
海底捞月 (self-drawn last tile), 抢杠和, 天和 (replaces 门清 and 自摸), 地和 (replaces 门清).
No cap. Where a hand reads several ways (``"111222333m"`` as pungs or as chows), the reading
worth most counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.mahjong.notation import one_tile, parse_melds
from engine.mahjong.shapes import decompositions, is_seven_pairs, is_thirteen_orphans
from engine.mahjong.state import Meld
from engine.mahjong.tiles import check_copies, parse_tiles, suit

SEATS = 4

@dataclass(frozen=True)
class Doubling:
    """One entry of the Hebei table: its stable id, what it is (``"base"``: 十三幺's base of
    16; ``"shape"``; ``"way"``: the way of winning, one at most) and its names (``zh``,
    ``en``, ``ja``)."""

    id: str
    kind: str
    names: Mapping[str, str]


def _entry(doubling_id: str, kind: str, zh: str, en: str, ja: str) -> Doubling:
    return Doubling(doubling_id, kind, {"zh": zh, "en": en, "ja": ja})


#: Every id ``hebei_value`` can return, in the order it lists them.
HEBEI_DOUBLINGS: Mapping[str, Doubling] = {d.id: d for d in (
    _entry("thirteen_orphans", "base", "十三幺", "Thirteen Orphans (worth 16)", "国士無双"),
    _entry("seven_pairs", "shape", "七对", "Seven Pairs", "七対子"),
    _entry("full_flush", "shape", "清一色", "Full Flush", "清一色"),
    _entry("pure_straight", "shape", "一条龙", "Pure Straight", "一気通貫"),
    _entry("all_pungs", "shape", "碰碰和", "All Pungs", "対々和"),
    _entry("concealed_hand", "shape", "门清", "Concealed Hand", "門前清"),
    _entry("self_drawn", "way", "自摸", "Self-Drawn", "自摸"),
    _entry("kong_replacement", "way", "杠上开花", "Out on a Kong's Replacement", "嶺上開花"),
    _entry("last_tile", "way", "海底捞月", "Last Tile Self-Drawn", "海底摸月"),
    _entry("robbing_kong", "way", "抢杠和", "Robbing the Kong", "搶槓"),
    _entry("heavenly_hand", "way", "天和", "Heavenly Hand", "天和"),
    _entry("earthly_hand", "way", "地和", "Earthly Hand", "地和"),
)}
#: The ways of winning that are self-drawn: each of the three others pays.
SELF_DRAWN_WAYS = frozenset({"self_drawn", "kong_replacement", "last_tile", "heavenly_hand"})
#: Every way-of-winning id (a hand has one at most).
WAYS = frozenset(d.id for d in HEBEI_DOUBLINGS.values() if d.kind == "way")
THIRTEEN_ORPHANS_BASE = 16


def hebei_value(hand: str, win_tile: str, melds: Sequence[Sequence[str]] = (), *,
                self_drawn: bool = False, kong: bool = False, wall_last: bool = False,
                robbing: bool = False, heavenly: bool = False,
                earthly: bool = False) -> tuple[int, list[str]]:
    """Return ``(value, ids)`` of a winning Hebei hand (rulings "Scoring: `hebei`").

    Args:
        hand: the concealed standing tiles without the winning tile, MPSZ text
            (``"123m456p789s1122z"``); concealed kongs are in ``melds``.
        win_tile: the winning tile (``"9s"``).
        melds: ``(kind, tiles)`` pairs, kind ``pon`` | ``kong`` (melded, added included) |
            ``concealed_kong`` (``chi`` is read too, though Hebei has no 吃).
        self_drawn: won on one's own draw (自摸). kong: won on a kong's replacement — 杠上开花
            with ``self_drawn``; without it the flag means a robbed kong, as in ``mcr_fan``.
        wall_last: the last tile of the wall, counted only when ``self_drawn`` (海底捞月).
        robbing: won by robbing an added kong (抢杠和). heavenly: the dealer on the deal (天和).
        earthly: a non-dealer on the dealer's first discard (地和).

    Returns:
        the value (1 or 16 for 十三幺, doubled once per id but ``thirteen_orphans``) and the ids
        of ``HEBEI_DOUBLINGS`` that made it, in that constant's order.

    Raises:
        ValueError: for bad tiles or melds, more than four copies of a tile, or a hand that is
            not complete (standard, 七对 or 十三幺).
    """
    concealed = parse_tiles(hand) + [one_tile(win_tile)]
    sets = parse_melds(melds)
    if any(t.endswith("f") for t in concealed):
        raise ValueError("Flowers are not part of a Hebei hand.")
    check_copies(concealed + [t for _, tiles in sets for t in tiles])
    shapes = _best_shapes(concealed, sets)
    way = _way(self_drawn=self_drawn, kong=kong, wall_last=wall_last, robbing=robbing,
               heavenly=heavenly, earthly=earthly)
    if way in ("heavenly_hand", "earthly_hand"):
        shapes = [s for s in shapes if s != "concealed_hand"]
    ids = shapes + ([way] if way else [])
    base = THIRTEEN_ORPHANS_BASE if "thirteen_orphans" in ids else 1
    doublings = len(ids) - (base != 1)
    return base << doublings, sorted(ids, key=list(HEBEI_DOUBLINGS).index)


def _way(*, self_drawn: bool, kong: bool, wall_last: bool, robbing: bool, heavenly: bool,
         earthly: bool) -> str | None:
    """Return the one way-of-winning id that applies, the first of: 天和, 地和, 抢杠和,
    杠上开花, 海底捞月, 自摸 (a kong with one tile left is 杠上开花 only: rulings "The end of
    the wall")."""
    if heavenly:
        return "heavenly_hand"
    if earthly:
        return "earthly_hand"
    if robbing or (kong and not self_drawn):
        return "robbing_kong"
    if not self_drawn:
        return None
    if kong:
        return "kong_replacement"
    return "last_tile" if wall_last else "self_drawn"


def _best_shapes(concealed: list[str], sets: list[tuple[str, list[str]]]) -> list[str]:
    """Return the shape ids of the reading of the hand with the most doublings.

    Raises:
        ValueError: when the hand is not complete.
    """
    readings: list[list[str]] = []
    if not sets and len(concealed) == 14:
        if is_thirteen_orphans(concealed):
            return ["thirteen_orphans"]
        if is_seven_pairs(concealed):
            readings.append(["seven_pairs"] + _flush(concealed))
    if len(concealed) == 14 - 3 * len(sets):
        for reading in decompositions(concealed):
            readings.append(_standard_shapes(concealed, reading, sets))
    if not readings:
        raise ValueError("The hand is not complete (standard, seven pairs or thirteen orphans).")
    return max(readings, key=len)


def _flush(tiles: Iterable[str]) -> list[str]:
    """``["full_flush"]`` when every tile is of one suit and none is an honor, else ``[]``."""
    suits = {suit(t) for t in tiles}
    return ["full_flush"] if len(suits) == 1 and suits <= set("mps") else []


def _standard_shapes(concealed: list[str], reading, sets: list[tuple[str, list[str]]]) -> list[str]:
    """Return the shape doublings of one four-sets-and-a-pair reading (``reading`` splits the
    concealed tiles; ``sets`` are the declared ones)."""
    tiles = concealed + [t for _, meld in sets for t in meld]
    ids = _flush(tiles)
    chows = [lowest for kind, lowest in reading.sets if kind == "chow"]
    chows += [meld[0] for kind, meld in sets if kind == "chi"]
    if any(all(f"{n}{s}" in chows for n in (1, 4, 7)) for s in "mps"):
        ids.append("pure_straight")
    if not chows:
        ids.append("all_pungs")
    if all(kind == "concealed_kong" for kind, _ in sets):
        ids.append("concealed_hand")
    return ids


def win_payments(winner: int, value: int, way: str | None, payer: int | None) -> list[int]:
    """Return the score change of each seat for a win (rulings "Scoring: `hebei`" payment):
    self-drawn (自摸, 杠上开花, 海底捞月, 天和), each of the three others pays ``value``; won on
    a discard (地和 included) the discarder alone, on a robbed kong the robbed player alone
    (``payer``)."""
    out = [0] * SEATS
    if way in SELF_DRAWN_WAYS:
        for seat in range(SEATS):
            out[seat] = 3 * value if seat == winner else -value
        return out
    out[winner], out[payer] = value, -value  # type: ignore[index]
    return out


def kong_points(melds_by_seat: Sequence[Sequence[Meld]]) -> list[int]:
    """Return each seat's kong points of a hand, paid at its end, draws included: 明杠 on a
    discard, the discarder pays 3 (点杠包三家); 加杠, each other seat pays 1; 暗杠, each other
    seat pays 2 (a robbed kong never became a meld: nothing)."""
    out = [0] * SEATS
    for seat, melds in enumerate(melds_by_seat):
        for meld in melds:
            if meld.kind == "kong":
                out[seat] += 3
                out[meld.source] -= 3  # type: ignore[index]
            elif meld.kind in ("added_kong", "concealed_kong"):
                each = 1 if meld.kind == "added_kong" else 2
                for other in range(SEATS):
                    out[other] += 3 * each if other == seat else -each
    return out
