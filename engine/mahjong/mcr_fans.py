"""The Chinese Official (competition rules, `mcr`) fan table and the fan calculator.

``MCR_FANS`` lists the 81 fans of the official table from 88 points down to 1 (花牌 included;
无番和 is the 8-point chicken hand), plus 明暗杠 (5 points: one concealed and one melded kong).
``mcr_fan`` scores a winning hand: every reading of the hand is scored with the exclusions (不计)
and the combination principles of the official rules — 不拆移 (a set is never split or moved),
不得相同 (a set forms a given fan with other sets once), 就高不就低 (the highest reading counts),
套算一次 (a set already combined may combine once more, with a set not yet combined) — and the
highest total is kept. The reference for every count is the calculator of the `pymahjonggb`
package; the rulings ("Scoring: mcr") bind where they differ from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from engine.mahjong.shapes import KNITTED_STRAIGHTS, decompositions, is_complete, winning_tiles
from engine.mahjong.tiles import INDEX, KINDS, WINDS, check_copies, parse_tiles


@dataclass(frozen=True)
class Fan:
    """One fan of the table: its stable id, its points and its names (``zh``, ``en``, ``ja``)."""

    id: str
    points: int
    names: Mapping[str, str]


def _fan(fan_id: str, points: int, zh: str, en: str, ja: str) -> Fan:
    return Fan(fan_id, points, {"zh": zh, "en": en, "ja": ja})


_TABLE = (
    _fan("big_four_winds", 88, "大四喜", "Big Four Winds", "大四喜"),
    _fan("big_three_dragons", 88, "大三元", "Big Three Dragons", "大三元"),
    _fan("all_green", 88, "绿一色", "All Green", "緑一色"),
    _fan("nine_gates", 88, "九莲宝灯", "Nine Gates", "九蓮宝燈"),
    _fan("four_kongs", 88, "四杠", "Four Kongs", "四槓"),
    _fan("seven_shifted_pairs", 88, "连七对", "Seven Shifted Pairs", "連七対"),
    _fan("thirteen_orphans", 88, "十三幺", "Thirteen Orphans", "十三么"),
    _fan("all_terminals", 64, "清幺九", "All Terminals", "清么九"),
    _fan("little_four_winds", 64, "小四喜", "Little Four Winds", "小四喜"),
    _fan("little_three_dragons", 64, "小三元", "Little Three Dragons", "小三元"),
    _fan("all_honors", 64, "字一色", "All Honors", "字一色"),
    _fan("four_concealed_pungs", 64, "四暗刻", "Four Concealed Pungs", "四暗刻"),
    _fan("pure_terminal_chows", 64, "一色双龙会", "Pure Terminal Chows", "一色双龍会"),
    _fan("quadruple_chow", 48, "一色四同顺", "Quadruple Chow", "一色四同順"),
    _fan("four_pure_shifted_pungs", 48, "一色四节高", "Four Pure Shifted Pungs", "一色四節高"),
    _fan("four_pure_shifted_chows", 32, "一色四步高", "Four Pure Shifted Chows", "一色四歩高"),
    _fan("three_kongs", 32, "三杠", "Three Kongs", "三槓"),
    _fan("all_terminals_and_honors", 32, "混幺九", "All Terminals and Honors", "混么九"),
    _fan("seven_pairs", 24, "七对", "Seven Pairs", "七対"),
    _fan("greater_honors_and_knitted_tiles", 24, "七星不靠", "Greater Honors and Knitted Tiles", "七星不靠"),
    _fan("all_even_pungs", 24, "全双刻", "All Even Pungs", "全双刻"),
    _fan("full_flush", 24, "清一色", "Full Flush", "清一色"),
    _fan("pure_triple_chow", 24, "一色三同顺", "Pure Triple Chow", "一色三同順"),
    _fan("pure_shifted_pungs", 24, "一色三节高", "Pure Shifted Pungs", "一色三節高"),
    _fan("upper_tiles", 24, "全大", "Upper Tiles", "全大"),
    _fan("middle_tiles", 24, "全中", "Middle Tiles", "全中"),
    _fan("lower_tiles", 24, "全小", "Lower Tiles", "全小"),
    _fan("pure_straight", 16, "清龙", "Pure Straight", "清龍"),
    _fan("three_suited_terminal_chows", 16, "三色双龙会", "Three-Suited Terminal Chows", "三色双龍会"),
    _fan("pure_shifted_chows", 16, "一色三步高", "Pure Shifted Chows", "一色三歩高"),
    _fan("all_five", 16, "全带五", "All Five", "全帯五"),
    _fan("triple_pung", 16, "三同刻", "Triple Pung", "三同刻"),
    _fan("three_concealed_pungs", 16, "三暗刻", "Three Concealed Pungs", "三暗刻"),
    _fan("lesser_honors_and_knitted_tiles", 12, "全不靠", "Lesser Honors and Knitted Tiles", "全不靠"),
    _fan("knitted_straight", 12, "组合龙", "Knitted Straight", "組合龍"),
    _fan("upper_four", 12, "大于五", "Upper Four", "大于五"),
    _fan("lower_four", 12, "小于五", "Lower Four", "小于五"),
    _fan("big_three_winds", 12, "三风刻", "Big Three Winds", "三風刻"),
    _fan("mixed_straight", 8, "花龙", "Mixed Straight", "花龍"),
    _fan("reversible_tiles", 8, "推不倒", "Reversible Tiles", "推不倒"),
    _fan("mixed_triple_chow", 8, "三色三同顺", "Mixed Triple Chow", "三色三同順"),
    _fan("mixed_shifted_pungs", 8, "三色三节高", "Mixed Shifted Pungs", "三色三節高"),
    _fan("chicken_hand", 8, "无番和", "Chicken Hand", "無番和"),
    _fan("last_tile_draw", 8, "妙手回春", "Last Tile Draw", "妙手回春"),
    _fan("last_tile_claim", 8, "海底捞月", "Last Tile Claim", "海底撈月"),
    _fan("out_with_replacement_tile", 8, "杠上开花", "Out with Replacement Tile", "槓上開花"),
    _fan("robbing_the_kong", 8, "抢杠和", "Robbing the Kong", "搶槓和"),
    _fan("all_pungs", 6, "碰碰和", "All Pungs", "碰碰和"),
    _fan("half_flush", 6, "混一色", "Half Flush", "混一色"),
    _fan("mixed_shifted_chows", 6, "三色三步高", "Mixed Shifted Chows", "三色三歩高"),
    _fan("all_types", 6, "五门齐", "All Types", "五門斉"),
    _fan("melded_hand", 6, "全求人", "Melded Hand", "全求人"),
    _fan("two_concealed_kongs", 6, "双暗杠", "Two Concealed Kongs", "双暗槓"),
    _fan("two_dragon_pungs", 6, "双箭刻", "Two Dragon Pungs", "双箭刻"),
    _fan("concealed_kong_and_kong", 5, "明暗杠", "Concealed Kong and Melded Kong", "明暗槓"),
    _fan("outside_hand", 4, "全带幺", "Outside Hand", "全帯么"),
    _fan("fully_concealed_hand", 4, "不求人", "Fully Concealed Hand", "不求人"),
    _fan("two_melded_kongs", 4, "双明杠", "Two Melded Kongs", "双明槓"),
    _fan("last_tile", 4, "和绝张", "Last Tile", "和絶張"),
    _fan("dragon_pung", 2, "箭刻", "Dragon Pung", "箭刻"),
    _fan("prevalent_wind", 2, "圈风刻", "Prevalent Wind", "圏風刻"),
    _fan("seat_wind", 2, "门风刻", "Seat Wind", "門風刻"),
    _fan("concealed_hand", 2, "门前清", "Concealed Hand", "門前清"),
    _fan("all_chows", 2, "平和", "All Chows", "平和"),
    _fan("tile_hog", 2, "四归一", "Tile Hog", "四帰一"),
    _fan("double_pung", 2, "双同刻", "Double Pung", "双同刻"),
    _fan("two_concealed_pungs", 2, "双暗刻", "Two Concealed Pungs", "双暗刻"),
    _fan("concealed_kong", 2, "暗杠", "Concealed Kong", "暗槓"),
    _fan("all_simples", 2, "断幺", "All Simples", "断么"),
    _fan("pure_double_chow", 1, "一般高", "Pure Double Chow", "一般高"),
    _fan("mixed_double_chow", 1, "喜相逢", "Mixed Double Chow", "喜相逢"),
    _fan("short_straight", 1, "连六", "Short Straight", "連六"),
    _fan("two_terminal_chows", 1, "老少副", "Two Terminal Chows", "老少副"),
    _fan("pung_of_terminals_or_honors", 1, "幺九刻", "Pung of Terminals or Honors", "么九刻"),
    _fan("melded_kong", 1, "明杠", "Melded Kong", "明槓"),
    _fan("one_voided_suit", 1, "缺一门", "One Voided Suit", "缺一門"),
    _fan("no_honors", 1, "无字", "No Honors", "無字"),
    _fan("edge_wait", 1, "边张", "Edge Wait", "辺張"),
    _fan("closed_wait", 1, "嵌张", "Closed Wait", "嵌張"),
    _fan("single_wait", 1, "单钓将", "Single Wait", "単騎"),
    _fan("self_drawn", 1, "自摸", "Self-Drawn", "自摸"),
    _fan("flower_tiles", 1, "花牌", "Flower Tiles", "花牌"),
)

MCR_FANS: Mapping[str, Fan] = {fan.id: fan for fan in _TABLE}
"""Every fan by id, in table order (88 points down to 1)."""

POINTS: Mapping[str, int] = {fan.id: fan.points for fan in _TABLE}
_ORDER: Mapping[str, int] = {fan.id: k for k, fan in enumerate(_TABLE)}
MINIMUM_POINTS = 8
MELD_KINDS = ("chi", "pon", "kong", "concealed_kong")

CHOW, PUNG, KONG = 0, 1, 2
_EAST = 27
_WINDS = range(27, 31)
_DRAGONS = range(31, 34)
_GREEN = frozenset(INDEX[t] for t in ("2s", "3s", "4s", "6s", "8s", "6z"))
_REVERSIBLE = frozenset(INDEX[t] for t in parse_tiles("1234589p245689s5z"))

# 不计: a fan present removes these (the official table's exclusions, read as the reference does).
_EXCLUDES: Mapping[str, tuple[str, ...]] = {
    "big_four_winds": ("big_three_winds", "little_four_winds", "all_pungs", "prevalent_wind",
                       "seat_wind"),
    "big_three_dragons": ("dragon_pung", "two_dragon_pungs"),
    "all_green": ("half_flush", "one_voided_suit"),
    "nine_gates": ("full_flush", "concealed_hand", "no_honors", "one_voided_suit"),
    "four_kongs": ("all_pungs", "single_wait"),
    "seven_shifted_pairs": ("seven_pairs", "full_flush", "concealed_hand", "single_wait",
                            "no_honors", "one_voided_suit"),
    "thirteen_orphans": ("all_types", "concealed_hand", "single_wait",
                         "all_terminals_and_honors"),
    "all_terminals": ("all_terminals_and_honors", "all_pungs", "pung_of_terminals_or_honors",
                      "outside_hand", "no_honors", "double_pung"),
    "little_four_winds": ("big_three_winds",),
    "little_three_dragons": ("dragon_pung", "two_dragon_pungs"),
    "all_honors": ("all_pungs", "all_terminals_and_honors", "outside_hand",
                   "pung_of_terminals_or_honors"),
    "four_concealed_pungs": ("concealed_hand", "all_pungs", "three_concealed_pungs",
                             "two_concealed_pungs"),
    "pure_terminal_chows": ("seven_pairs", "full_flush", "all_chows", "pure_double_chow",
                            "two_terminal_chows", "no_honors", "one_voided_suit"),
    "quadruple_chow": ("pure_triple_chow", "pure_double_chow", "tile_hog"),
    "four_pure_shifted_pungs": ("pure_shifted_pungs", "all_pungs"),
    "all_terminals_and_honors": ("all_pungs", "pung_of_terminals_or_honors", "outside_hand"),
    "seven_pairs": ("concealed_hand", "single_wait"),
    "greater_honors_and_knitted_tiles": ("lesser_honors_and_knitted_tiles", "all_types",
                                         "concealed_hand", "single_wait"),
    "all_even_pungs": ("all_pungs", "all_simples", "no_honors"),
    "full_flush": ("one_voided_suit", "no_honors"),
    "upper_tiles": ("upper_four", "no_honors"),
    "middle_tiles": ("all_simples", "no_honors"),
    "lower_tiles": ("lower_four", "no_honors"),
    "three_suited_terminal_chows": ("all_chows", "no_honors", "mixed_double_chow",
                                    "two_terminal_chows"),
    "all_five": ("all_simples", "no_honors"),
    "lesser_honors_and_knitted_tiles": ("all_types", "concealed_hand", "single_wait"),
    "upper_four": ("no_honors",),
    "lower_four": ("no_honors",),
    "reversible_tiles": ("one_voided_suit",),
    "last_tile_draw": ("self_drawn",),
    "out_with_replacement_tile": ("self_drawn",),
    "robbing_the_kong": ("last_tile",),
    "half_flush": ("one_voided_suit",),
    "melded_hand": ("single_wait",),
    "two_concealed_kongs": ("two_concealed_pungs",),
    "two_dragon_pungs": ("dragon_pung",),
    "fully_concealed_hand": ("concealed_hand", "self_drawn"),
    "two_melded_kongs": ("melded_kong",),
    "all_chows": ("no_honors",),
    "all_simples": ("no_honors",),
}


class Pack(NamedTuple):
    """One set of a reading: ``kind`` CHOW, PUNG or KONG; ``tile`` the index of its tile (the
    lowest of a chow); ``concealed`` (a hand set or a concealed kong; not a pung completed by a
    claimed winning tile); ``claimed`` (declared from a discard: chi, pon, melded kong)."""

    kind: int
    tile: int
    concealed: bool
    claimed: bool


class _Win(NamedTuple):
    """The facts of a win that do not depend on the reading."""

    win: int
    self_drawn: bool
    fourth_tile: bool
    kong: bool
    wall_last: bool
    seat: int
    prevalent: int
    melds: tuple[Pack, ...]
    concealed: tuple[int, ...]
    all_counts: tuple[int, ...]
    waits: frozenset[int]


def _suit(i: int) -> int:
    return i // 9


def _rank(i: int) -> int:
    return i % 9 + 1


def _is_terminal(i: int) -> bool:
    return i < 27 and i % 9 in (0, 8)


def _two_chow_fan(a: int, b: int) -> str | None:
    """The fan two chows (lowest tiles ``a`` ≤ ``b``) form: 一般高, 喜相逢, 连六, 老少副."""
    if _suit(a) == _suit(b):
        gap = b - a
        if gap == 0:
            return "pure_double_chow"
        if gap == 3:
            return "short_straight"
        if gap == 6:
            return "two_terminal_chows"
        return None
    return "mixed_double_chow" if _rank(a) == _rank(b) else None


def _three_chow_fan(a: int, b: int, c: int) -> str | None:
    """The fan three chows (sorted lowest tiles) form, if any (a triple forms at most one)."""
    suits = {_suit(a), _suit(b), _suit(c)}
    if len(suits) == 1:
        if a == b == c:
            return "pure_triple_chow"
        if b - a == c - b and b - a in (1, 2):
            return "pure_shifted_chows"
        if b - a == 3 and c - b == 3 and _rank(a) == 1:
            return "pure_straight"
        return None
    if len(suits) == 3:
        ranks = sorted((_rank(a), _rank(b), _rank(c)))
        if ranks == [1, 4, 7]:
            return "mixed_straight"
        if ranks[0] == ranks[2]:
            return "mixed_triple_chow"
        if ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1:
            return "mixed_shifted_chows"
    return None


def _four_chow_fan(tiles: Sequence[int]) -> str | None:
    a, b, c, d = tiles
    if _suit(a) != _suit(d):
        return None
    if a == d:
        return "quadruple_chow"
    if b - a == c - b == d - c and b - a in (1, 2):
        return "four_pure_shifted_chows"
    return None


def _two_pung_fan(a: int, b: int) -> str | None:
    """双同刻: two pungs of the same number in different suits."""
    if a < 27 and b < 27 and _suit(a) != _suit(b) and _rank(a) == _rank(b):
        return "double_pung"
    return None


def _three_pung_fan(a: int, b: int, c: int) -> str | None:
    if c >= 27:
        return None
    suits = {_suit(a), _suit(b), _suit(c)}
    ranks = sorted((_rank(a), _rank(b), _rank(c)))
    shifted = ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1
    if len(suits) == 1:
        return "pure_shifted_pungs" if shifted else None
    if len(suits) == 3:
        if ranks[0] == ranks[2]:
            return "triple_pung"
        if shifted:
            return "mixed_shifted_pungs"
    return None


def _four_pung_fan(tiles: Sequence[int]) -> str | None:
    a, b, c, d = tiles
    if d < 27 and _suit(a) == _suit(d) and b - a == c - b == d - c == 1:
        return "four_pure_shifted_pungs"
    return None


def _pairwise(tiles: Sequence[int], pair_fan) -> list[str]:
    """The two-set fans of sets none of which forms a three-set fan, under 套算一次 (each fan
    brings in a set not combined before, so the fans never close a cycle: at most sets − 1)
    and 不得相同 (a set forms a given fan once): the largest such choice; of equal ones, the
    one with fans earlier in the table (一般高 before 喜相逢, 连六, 老少副), as the reference."""
    edges = sorted(((i, j, fan) for i, j in combinations(range(len(tiles)), 2)
                    if (fan := pair_fan(tiles[i], tiles[j]))), key=lambda e: _ORDER[e[2]])
    for size in range(min(len(edges), len(tiles) - 1), 0, -1):
        for chosen in combinations(edges, size):
            if _forest(chosen, len(tiles)) and _distinct_per_set(chosen):
                return [fan for _, _, fan in chosen]
    return []


def _forest(edges: Sequence[tuple[int, int, str]], n: int) -> bool:
    parent = list(range(n))

    def root(k: int) -> int:
        while parent[k] != k:
            k = parent[k]
        return k

    for i, j, _ in edges:
        a, b = root(i), root(j)
        if a == b:
            return False
        parent[a] = b
    return True


def _distinct_per_set(edges: Sequence[tuple[int, int, str]]) -> bool:
    seen = set()
    for i, j, fan in edges:
        if (i, fan) in seen or (j, fan) in seen:
            return False
        seen.update({(i, fan), (j, fan)})
    return True


def _combined(tiles: Sequence[int], four_fan, three_fan, pair_fan) -> list[str]:
    """The fans a group of chows (or of pungs), lowest tiles ``tiles``, forms under the
    combination principles: a four-set fan alone; else the best three-set fan, the fourth set
    combining once more with one of those three (套算一次); else the two-set fans."""
    tiles = sorted(tiles)
    if len(tiles) == 4:
        fan = four_fan(tiles)
        if fan:
            return [fan]
    best: list[str] | None = None
    if len(tiles) >= 3:
        for triple in combinations(range(len(tiles)), 3):
            fan = three_fan(*(tiles[k] for k in triple))
            if not fan:
                continue
            found = [fan]
            for free in set(range(len(tiles))) - set(triple):
                extra = [f for k in triple if (f := pair_fan(*sorted((tiles[k], tiles[free]))))]
                if extra:
                    found.append(min(extra, key=_ORDER.__getitem__))
            if best is None or _total(found) > _total(best):
                best = found
    return best if best is not None else _pairwise(tiles, pair_fan)


def _total(fans: Iterable[str]) -> int:
    return sum(POINTS[f] for f in fans)


# --- fans of the whole hand -----------------------------------------------------------------


def _suit_fans(c: Sequence[int], fans: Counter) -> None:
    """清一色, 混一色, 缺一门, 无字, 五门齐 from the tiles' suits."""
    suits = sum(1 for s in range(3) if any(c[9 * s:9 * s + 9]))
    winds = any(c[i] for i in _WINDS)
    dragons = any(c[i] for i in _DRAGONS)
    if suits == 1:
        fans["half_flush" if winds or dragons else "full_flush"] += 1
    elif suits == 2:
        fans["one_voided_suit"] += 1
    if not (winds or dragons):
        fans["no_honors"] += 1
    if suits == 3 and winds and dragons:
        fans["all_types"] += 1


def _tile_fans(c: Sequence[int], fans: Counter) -> None:
    """断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九, 全大/全中/全小, 大于五, 小于五."""
    held = [i for i, n in enumerate(c) if n]
    if all(i < 27 and not _is_terminal(i) for i in held):
        fans["all_simples"] += 1
    if all(i in _REVERSIBLE for i in held):
        fans["reversible_tiles"] += 1
    if all(i in _GREEN for i in held):
        fans["all_green"] += 1
    if all(i >= 27 for i in held):
        fans["all_honors"] += 1
    elif all(_is_terminal(i) for i in held):
        fans["all_terminals"] += 1
    elif all(i >= 27 or _is_terminal(i) for i in held):
        fans["all_terminals_and_honors"] += 1
    if all(i < 27 for i in held):
        ranks = {_rank(i) for i in held}
        if ranks <= {7, 8, 9}:
            fans["upper_tiles"] += 1
        elif ranks <= {4, 5, 6}:
            fans["middle_tiles"] += 1
        elif ranks <= {1, 2, 3}:
            fans["lower_tiles"] += 1
        elif ranks <= {6, 7, 8, 9}:
            fans["upper_four"] += 1
        elif ranks <= {1, 2, 3, 4}:
            fans["lower_four"] += 1


def _way_fans(win: _Win, fans: Counter) -> None:
    """门前清 / 不求人 / 全求人 / 自摸, and the fans of the way of winning (rulings: 和绝张 never
    with 抢杠和)."""
    claimed = sum(1 for p in win.melds if p.claimed)
    if claimed == 0:
        fans["fully_concealed_hand" if win.self_drawn else "concealed_hand"] += 1
    elif claimed == 4:
        fans["self_drawn" if win.self_drawn else "melded_hand"] += 1
    elif win.self_drawn:
        fans["self_drawn"] += 1
    if win.wall_last:
        fans["last_tile_draw" if win.self_drawn else "last_tile_claim"] += 1
    if win.kong:
        fans["out_with_replacement_tile" if win.self_drawn else "robbing_the_kong"] += 1
    if win.fourth_tile and not (win.kong and not win.self_drawn):
        fans["last_tile"] += 1


def _finish(fans: Counter) -> Counter:
    """Apply the exclusions (不计); a hand with no fan left is 无番和 (flowers never count).

    Where a fan excludes 门前清, a self-drawn concealed hand keeps 自摸 instead of 不求人
    (不求人 is 门前清 with 自摸)."""
    others = {x for f in fans if f != "fully_concealed_hand" for x in _EXCLUDES.get(f, ())}
    if fans["fully_concealed_hand"] and "concealed_hand" in others:
        del fans["fully_concealed_hand"]
        fans["self_drawn"] += 1
    removed = {x for f in fans if fans[f] for x in _EXCLUDES.get(f, ())}
    out = Counter({f: n for f, n in fans.items() if n > 0 and f not in removed})
    if not out:
        out["chicken_hand"] = 1
    return out


# --- one reading ----------------------------------------------------------------------------


def _honor_fans(win: _Win, pungs: Sequence[Pack], pair: int, fans: Counter) -> None:
    """Wind and dragon fans and 幺九刻 (not for a dragon pung, nor for the prevalent or seat
    wind's pung, nor for the winds of 三风刻 / 小四喜 / 大四喜)."""
    winds = [p.tile for p in pungs if p.tile in _WINDS]
    dragons = sum(1 for p in pungs if p.tile in _DRAGONS)
    if dragons == 3:
        fans["big_three_dragons"] += 1
    elif dragons == 2:
        fans["little_three_dragons" if pair in _DRAGONS else "two_dragon_pungs"] += 1
    elif dragons == 1:
        fans["dragon_pung"] += 1
    if len(winds) == 4:
        fans["big_four_winds"] += 1
    elif len(winds) == 3:
        fans["little_four_winds" if pair in _WINDS else "big_three_winds"] += 1
    if win.prevalent in winds:
        fans["prevalent_wind"] += 1
    if win.seat in winds:
        fans["seat_wind"] += 1
    terminal_pungs = sum(1 for p in pungs if _is_terminal(p.tile))
    if len(winds) < 3:
        terminal_pungs += sum(1 for w in winds if w not in (win.prevalent, win.seat))
    if terminal_pungs:
        fans["pung_of_terminals_or_honors"] += terminal_pungs


def _kong_fans(pungs: Sequence[Pack], fans: Counter) -> None:
    """杠 fans: 四杠, 三杠, 双暗杠, 明暗杠 (rulings), 双明杠, 暗杠, 明杠; and the concealed pungs."""
    melded = sum(1 for p in pungs if p.kind == KONG and p.claimed)
    hidden = sum(1 for p in pungs if p.kind == KONG and not p.claimed)
    kongs = melded + hidden
    if kongs == 4:
        fans["four_kongs"] += 1
    elif kongs == 3:
        fans["three_kongs"] += 1
    elif kongs == 2:
        fans[("two_melded_kongs", "concealed_kong_and_kong", "two_concealed_kongs")[hidden]] += 1
    elif kongs == 1:
        fans["concealed_kong" if hidden else "melded_kong"] += 1
    concealed = sum(1 for p in pungs if p.concealed)
    if concealed >= 2:
        fans[{2: "two_concealed_pungs", 3: "three_concealed_pungs", 4: "four_concealed_pungs"}[concealed]] += 1


def _chow_fans(chows: Sequence[int], pair: int, fans: Counter) -> None:
    """Chow fans; 一色双龙会 and 三色双龙会 take all four chows and the pair."""
    if len(chows) == 4 and pair < 27 and _rank(pair) == 5:
        ranks = sorted(_rank(t) for t in chows)
        suits = sorted(_suit(t) for t in chows)
        if ranks == [1, 1, 7, 7]:
            if suits == [_suit(pair)] * 4 and len({t for t in chows}) == 2:
                fans["pure_terminal_chows"] += 1
                return
            by_suit = {s: sorted(_rank(t) for t in chows if _suit(t) == s) for s in set(suits)}
            if (len(by_suit) == 2 and _suit(pair) not in by_suit
                    and all(r == [1, 7] for r in by_suit.values())):
                fans["three_suited_terminal_chows"] += 1
                return
    fans.update(_combined(chows, _four_chow_fan, _three_chow_fan, _two_chow_fan))


def _pack_traits(packs: Sequence[Pack], pair: int, fans: Counter) -> None:
    """全带幺, 全带五, 全双刻: traits every set and the pair share."""
    def outside(p: Pack) -> bool:
        return _rank(p.tile) in (1, 7) if p.kind == CHOW else p.tile >= 27 or _is_terminal(p.tile)

    def five(p: Pack) -> bool:
        return _rank(p.tile) in (3, 4, 5) if p.kind == CHOW else p.tile < 27 and _rank(p.tile) == 5

    def even(p: Pack) -> bool:
        return p.kind != CHOW and p.tile < 27 and _rank(p.tile) % 2 == 0

    pair_pack = Pack(PUNG, pair, True, False)
    every = list(packs) + [pair_pack]
    if all(outside(p) for p in every):
        fans["outside_hand"] += 1
    if all(five(p) for p in every):
        fans["all_five"] += 1
    if all(even(p) for p in every):
        fans["all_even_pungs"] += 1


def _wait_fans(win: _Win, hand: Sequence[Pack], pair: int, fans: Counter) -> None:
    """边张, 嵌张, 单钓将: only when the hand waited on this one tile kind (one counts, in that
    order)."""
    if len(win.waits) != 1 or fans["melded_hand"] or fans["four_kongs"]:
        return
    w = win.win
    chows = [p.tile for p in hand if p.kind == CHOW]
    if any((_rank(t) == 1 and w == t + 2) or (_rank(t) == 7 and w == t) for t in chows):
        fans["edge_wait"] += 1
    elif any(w == t + 1 for t in chows):
        fans["closed_wait"] += 1
    elif pair == w:
        fans["single_wait"] += 1


def _is_nine_gates(win: _Win) -> bool:
    if win.melds:
        return False
    standing = list(win.concealed)
    standing[win.win] -= 1
    s = _suit(win.win)
    return s < 3 and standing[9 * s:9 * s + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def _reading(win: _Win, hand: Sequence[Pack], pair: int, knitted: frozenset[int] = frozenset()) -> Counter:
    """The fans of one reading: declared sets, the hand's sets, the pair (and a knitted
    straight), before choosing among readings."""
    if not win.self_drawn and win.win not in knitted and not any(
        p.kind == CHOW and p.tile <= win.win <= p.tile + 2 for p in hand
    ):
        hand = list(hand)
        for k, p in enumerate(hand):
            if p.kind == PUNG and p.tile == win.win:
                hand[k] = p._replace(concealed=False)
                break
    packs = list(win.melds) + list(hand)
    pungs = [p for p in packs if p.kind != CHOW]
    chows = [p.tile for p in packs if p.kind == CHOW]
    fans: Counter = Counter()
    if knitted:
        fans["knitted_straight"] += 1
    _kong_fans(pungs, fans)
    _honor_fans(win, pungs, pair, fans)
    if len(pungs) == 4:
        fans["all_pungs"] += 1
    if len(chows) + 3 * bool(knitted) == 4 and pair < 27:
        fans["all_chows"] += 1
    if not knitted:
        _chow_fans(chows, pair, fans)
        fans.update(_combined([p.tile for p in pungs if p.tile < 27], _four_pung_fan,
                              _three_pung_fan, _two_pung_fan))
        _pack_traits(packs, pair, fans)
        _tile_fans(win.all_counts, fans)
    _suit_fans(win.all_counts, fans)
    hogs = sum(1 for n in win.all_counts if n == 4) - sum(1 for p in pungs if p.kind == KONG)
    if hogs:
        fans["tile_hog"] += hogs
    if _is_nine_gates(win):
        fans["nine_gates"] += 1
        fans["pung_of_terminals_or_honors"] -= 1
    _way_fans(win, fans)
    _wait_fans(win, hand, pair, fans)
    return _finish(fans)


# --- the shapes that are not four sets and a pair -------------------------------------------


def _special_readings(win: _Win) -> list[Counter]:
    """七对 / 连七对, 十三幺, 全不靠 / 七星不靠 (with 组合龙 when all nine knitted tiles are held)."""
    if win.melds:
        return []
    c = win.concealed
    out = []
    if all(n % 2 == 0 for n in c):
        fans: Counter = Counter()
        held = [i for i, n in enumerate(c) if n]
        shifted = len(held) == 7 and held[-1] - held[0] == 6 and _suit(held[0]) == _suit(held[-1]) < 3
        fans["seven_shifted_pairs" if shifted else "seven_pairs"] += 1
        _suit_fans(c, fans)
        _tile_fans(c, fans)
        hogs = sum(1 for n in c if n == 4)
        if hogs:
            fans["tile_hog"] += hogs
        _way_fans(win, fans)
        out.append(_finish(fans))
    orphans = [i for i, n in enumerate(c) if n and (i >= 27 or _is_terminal(i))]
    if len(orphans) == 13 and sum(c) == sum(c[i] for i in orphans):
        fans = Counter({"thirteen_orphans": 1})
        _way_fans(win, fans)
        out.append(_finish(fans))
    if max(c) == 1:
        kinds = {i for i, n in enumerate(c) if n}
        for pattern in KNITTED_STRAIGHTS:
            if kinds <= pattern | set(range(27, 34)):
                honors = sum(1 for i in kinds if i >= 27)
                fans = Counter()
                fans["greater_honors_and_knitted_tiles" if honors == 7 else "lesser_honors_and_knitted_tiles"] += 1
                if pattern <= kinds:
                    fans["knitted_straight"] += 1
                _way_fans(win, fans)
                out.append(_finish(fans))
                break
    return out


def _knitted_readings(win: _Win) -> list[Counter]:
    """组合龙 with one set (in hand or declared) and a pair."""
    if len(win.melds) > 1:
        return []
    out = []
    for pattern in KNITTED_STRAIGHTS:
        if all(win.concealed[i] for i in pattern):
            rest = [n - (i in pattern) for i, n in enumerate(win.concealed)]
            for d in decompositions(KINDS[i] for i, n in enumerate(rest) for _ in range(n)):
                out.append(_reading(win, _hand_packs(d.sets), INDEX[d.pair], pattern))
    return out


def _hand_packs(sets: Iterable[tuple[str, str]]) -> list[Pack]:
    return [Pack(CHOW if kind == "chow" else PUNG, INDEX[tile], True, False) for kind, tile in sets]


# --- the calculator -------------------------------------------------------------------------


def _parse_meld(meld: object) -> tuple[Pack, list[str]]:
    """One declared set ``(kind, tiles)`` as a Pack and its tiles; ``ValueError`` if malformed."""
    if not (isinstance(meld, (tuple, list)) and len(meld) == 2 and meld[0] in MELD_KINDS):
        raise ValueError(f"Bad meld {meld!r}: expected (kind, tiles) with kind one of {', '.join(MELD_KINDS)}.")
    kind, text = meld
    tiles = sorted(parse_tiles(text), key=INDEX.__getitem__)
    idx = [INDEX[t] for t in tiles]
    if any(i >= 34 for i in idx):
        raise ValueError(f"Bad meld {meld!r}: a flower is not part of a set.")
    if kind == "chi":
        if len(idx) != 3 or idx[0] >= 27 or _suit(idx[0]) != _suit(idx[2]) or idx != [idx[0], idx[0] + 1, idx[0] + 2]:
            raise ValueError(f"Bad chi {text!r}: three consecutive tiles of one suit.")
        return Pack(CHOW, idx[0], False, True), tiles
    size = 3 if kind == "pon" else 4
    if len(idx) != size or len(set(idx)) != 1:
        raise ValueError(f"Bad {kind} {text!r}: {size} identical tiles.")
    if kind == "pon":
        return Pack(PUNG, idx[0], False, True), tiles
    return Pack(KONG, idx[0], kind == "concealed_kong", kind == "kong"), tiles


def _read_win(hand, win_tile, melds, self_drawn, fourth_tile, kong, wall_last,
              seat_wind, round_wind, flowers) -> _Win:
    """Check ``mcr_fan``'s arguments and gather the facts of the win (see ``mcr_fan``)."""
    standing = parse_tiles(hand)
    win = parse_tiles(win_tile)
    if len(win) != 1:
        raise ValueError(f"Bad winning tile {win_tile!r}: expected one tile.")
    if any(INDEX[t] >= 34 for t in standing + win):
        raise ValueError("Flowers are not part of the hand: give their number as flowers=.")
    parsed = [_parse_meld(m) for m in melds]
    if len(parsed) > 4 or len(standing) != 13 - 3 * len(parsed):
        raise ValueError(
            f"{len(standing)} standing tiles with {len(parsed)} declared sets: "
            f"expected {13 - 3 * len(parsed)}."
        )
    meld_tiles = [t for _, tiles in parsed for t in tiles]
    check_copies(standing + win + meld_tiles)
    for name, value in (("seat_wind", seat_wind), ("round_wind", round_wind)):
        if not isinstance(value, str) or len(value) != 1 or value not in WINDS:
            raise ValueError(f"Bad {name} {value!r}: expected one of E S W N.")
    if not isinstance(flowers, int) or isinstance(flowers, bool) or not 0 <= flowers <= 8:
        raise ValueError(f"Bad flowers {flowers!r}: expected 0 to 8.")
    concealed = [0] * 34
    for t in standing + win:
        concealed[INDEX[t]] += 1
    every = list(concealed)
    for t in meld_tiles:
        every[INDEX[t]] += 1
    if not is_complete(standing + win, parsed, "mcr"):
        raise ValueError(f"Not a winning hand: {hand!r} + {win_tile!r} with {len(parsed)} declared sets.")
    waits = frozenset(INDEX[t] for t in winning_tiles(standing, parsed, "mcr"))
    held = standing.count(win[0])
    shown = meld_tiles.count(win[0])
    last_copy = shown == 3 or (bool(fourth_tile) and held == 0)
    if self_drawn:
        replacement = bool(kong) and any(p.kind == KONG for p, _ in parsed)
    else:
        replacement = bool(kong) and held == 0 and shown == 0
    return _Win(
        INDEX[win[0]], bool(self_drawn), last_copy, replacement, bool(wall_last),
        _EAST + WINDS.index(seat_wind), _EAST + WINDS.index(round_wind),
        tuple(p for p, _ in parsed), tuple(concealed), tuple(every), waits,
    )


def _reading_order(d) -> tuple:
    """Readings of equal totals are chosen as the reference chooses them: the last of the
    special shapes, then the four-sets readings ordered by pair, then by sets lowest first (a
    pung before a chow of the same tile)."""
    return INDEX[d.pair], sorted((INDEX[tile], kind == "chow") for kind, tile in d.sets)


def _best(win: _Win) -> Counter:
    """就高不就低: the highest-scoring reading (of equal ones, the last in ``_reading_order``)."""
    tiles = [KINDS[i] for i, n in enumerate(win.concealed) for _ in range(n)]
    readings = _special_readings(win) + _knitted_readings(win)
    readings += [_reading(win, _hand_packs(d.sets), INDEX[d.pair])
                 for d in sorted(decompositions(tiles), key=_reading_order)]
    best = readings[0]
    for fans in readings[1:]:
        if _points(fans) >= _points(best):
            best = fans
    return best


def _points(fans: Counter) -> int:
    return sum(POINTS[f] * n for f, n in fans.items())


def mcr_fan(hand, win_tile, melds=(), *, self_drawn=False, fourth_tile=False, kong=False,
            wall_last=False, seat_wind="E", round_wind="E", flowers=0) -> list[tuple[str, int]]:
    """Return the fans of a winning hand under the competition rules: ``(fan_id, points)`` once
    per time a fan counts, highest first; the points sum to the hand's total.

    Arguments: ``hand`` the concealed standing tiles without the winning tile, MPSZ text
    (``"123m456p789s1122z"``; concealed kongs are not in it); ``win_tile`` one tile (``"9s"``);
    ``melds`` the declared sets, ``(kind, tiles)`` with kind ``chi`` | ``pon`` | ``kong``
    (melded) | ``concealed_kong`` and tiles as text (``("pon", "555p")``); ``self_drawn``;
    ``fourth_tile`` 和绝张 (rulings: three other copies visible; never with 抢杠和);
    ``kong`` 杠上开花 when self-drawn, else 抢杠和; ``wall_last`` 妙手回春 when self-drawn, else
    海底捞月; ``seat_wind`` and ``round_wind`` ``"E" "S" "W" "N"``; ``flowers`` 0–8, each
    ``("flower_tiles", 1)``. The 8-point minimum is not applied (see ``mcr_total``).

    A flag the tiles contradict is ignored, as the reference does: 杠上开花 needs a declared
    kong; 和绝张 needs no copy of the winning tile among the standing tiles, and three copies in
    the winner's own declared sets make it 和绝张 without the flag; 抢杠和 needs no copy of it
    in the hand at all (the robbed pung held the other three).

    Rule source: rulings "Scoring: mcr" — the official fan table with its exclusions and
    combination principles, the highest reading of the hand; 明暗杠 (5) for one concealed and
    one melded kong.

    Raises:
        ValueError: for malformed tiles, sets, winds or flowers, more than four copies of a
            tile, a tile count that does not match the declared sets, or a hand that is not
            complete.
    """
    win = _read_win(hand, win_tile, melds, self_drawn, fourth_tile, kong, wall_last,
                    seat_wind, round_wind, flowers)
    fans = _best(win)
    out = [(f, POINTS[f]) for f in sorted(fans, key=_ORDER.__getitem__) for _ in range(fans[f])]
    return out + [("flower_tiles", 1)] * flowers


def mcr_total(fans: Iterable[tuple[str, int]]) -> tuple[int, int]:
    """Return ``(total, points toward the minimum)`` of a ``mcr_fan`` result: the total with
    flowers, and the total without them, which must reach ``MINIMUM_POINTS`` (8) for the hand
    to win (seed: 起和分 8分; 花牌分不计在起和分内)."""
    fans = list(fans)
    total = sum(points for _, points in fans)
    return total, total - sum(points for fan_id, points in fans if fan_id == "flower_tiles")
