"""Exact values for the 胡息 table, best_hand_huxi, duo and parse_cards (rulings "胡息 table",
"Scoring", "Public API"). Every expected number below is read off the rulings' table by hand."""

import pytest

from engine.zipai import best_hand_huxi, duo, parse_cards
from engine.zipai.groups import huxi, shape
from engine.zipai.winning import evaluate_win
from tests.engine.zipai.builders import BASE, cards, player

# (row, kind, small cards, small 胡息, big cards, big 胡息) — one line per row of the table.
TABLE = [
    ("一二三", "chi", "一二三", 3, "壹贰叁", 6),
    ("二七十", "chi", "二七十", 3, "贰柒拾", 6),
    ("一二三 in hand", "yi_er_san", "一二三", 3, "壹贰叁", 6),
    ("二七十 in hand", "er_qi_shi", "二七十", 3, "贰柒拾", 6),
    ("other 顺子", "chi", "四五六", 0, "捌玖拾", 0),
    ("other 顺子 in hand", "shunzi", "八九十", 0, "贰叁肆", 0),
    ("大小三搭", "chi", "捌捌八", 0, "拾十十", 0),
    ("pair", "pair", "五五", 0, "伍伍", 0),
    ("碰", "peng", "三三三", 1, "叁叁叁", 3),
    ("坎", "kan", "四四四", 3, "肆肆肆", 6),
    ("扫", "sao", "五五五", 3, "伍伍伍", 6),
    ("过扫", "guosao", "六六六", 3, "陆陆陆", 6),
    ("开舵", "kaiduo", "七七七七", 6, "柒柒柒柒", 9),
    ("扫穿", "saochuan", "八八八八", 9, "捌捌捌捌", 12),
    ("过碰", "guopeng", "九九九", 0, "玖玖玖", 0),
]


@pytest.mark.parametrize("row,kind,small,small_huxi,big,big_huxi", TABLE)
def test_every_row_of_the_huxi_table(row, kind, small, small_huxi, big, big_huxi):
    assert huxi(kind, parse_cards(small)) == small_huxi
    assert huxi(kind, parse_cards(big)) == big_huxi


def test_concealed_rows_through_best_hand_huxi():
    assert best_hand_huxi("一二三") == 3
    assert best_hand_huxi("壹贰叁") == 6
    assert best_hand_huxi("二七十") == 3
    assert best_hand_huxi("贰柒拾") == 6
    assert best_hand_huxi("四五六") == 0
    assert best_hand_huxi("捌捌八") == 0
    assert best_hand_huxi("四四四") == 3
    assert best_hand_huxi("肆肆肆") == 6


def test_shapes_need_one_case_for_sequences():
    assert shape(parse_cards("一贰三")) is None
    assert shape(parse_cards("二七拾")) is None
    assert shape(parse_cards("十十拾")) == "dada"
    assert shape(parse_cards("九十一")) is None
    with pytest.raises(ValueError):
        huxi("chi", parse_cards("一三五"))


def test_best_hand_huxi_takes_the_largest_split():
    # 一壹壹 二贰贰 三叁叁 (three 大小三搭, 0) or 一二三 + 壹贰叁 ×2 (3 + 6 + 6 = 15).
    assert best_hand_huxi("一壹壹 二贰贰 三叁叁") == 15
    # 二二贰 七七柒 十十拾 (0) or 二七十 ×2 + 贰柒拾 (3 + 3 + 6 = 12).
    assert best_hand_huxi("二二贰 七七柒 十十拾") == 12
    # the order the cards are written in does not matter
    assert best_hand_huxi("拾十七二柒贰二七十") == 12


def test_best_hand_huxi_keeps_a_kan_whole():
    # As 一二三 一二三 一壹壹 it would split (6), but 一一一 is a 坎 and 二二三三壹壹 cannot split.
    assert best_hand_huxi("一一一 二二 三三 壹壹") is None
    # 坎 肆肆肆 (6) + 壹贰叁 (6); breaking the 坎 is never tried.
    assert best_hand_huxi("肆肆肆 壹贰叁") == 12
    # 坎 一一一 (3) + 二三四 (0): the alternative 一二三 + 一一四 is not a split anyway.
    assert best_hand_huxi("一一一二三四") == 3


def test_best_hand_huxi_without_a_split_and_edge_inputs():
    assert best_hand_huxi("") == 0
    assert best_hand_huxi([]) == 0
    assert best_hand_huxi("一二") is None
    assert best_hand_huxi("一二四") is None
    assert best_hand_huxi("一二三 五") is None
    assert best_hand_huxi(["x1", "x2", "x3"]) == 3
    with pytest.raises(ValueError):
        best_hand_huxi("一一一一 二三四")
    with pytest.raises(ValueError):
        best_hand_huxi("一二Z")


@pytest.mark.parametrize("total,expected", [(10, 1), (12, 1), (13, 2), (15, 2), (16, 3),
                                            (18, 3), (19, 4)])
def test_duo(total, expected):
    assert duo(total) == expected


def test_duo_below_ten_raises():
    with pytest.raises(ValueError):
        duo(9)


def test_parse_cards():
    assert parse_cards("一 壹,十拾") == ["x1", "d1", "x10", "d10"]
    assert parse_cards("x1 d10,x10d2") == ["x1", "d10", "x10", "d2"]
    assert parse_cards("贰柒拾") == ["d2", "d7", "d10"]
    for bad in ("x0", "x11", "y3", "1", "一?", "d"):
        with pytest.raises(ValueError):
            parse_cards(bad)


def test_laid_groups_count_in_a_win():
    hand = "一二三 壹贰叁 四五六 肆伍陆 捌玖 九九"
    p = player(hand, groups=[("peng", "叁叁叁"), ("kaiduo", "七七七七")])
    win = evaluate_win(p, cards("柒")[0], own=False)
    # 一二三 3 + 壹贰叁 6 + 四五六 0 + 肆伍陆 0 + 柒捌玖 0 + pair 九九 0 + 碰 big 3 + 开舵 small 6
    assert win.huxi == 18
    # Without a 4-group the pair is not allowed: the same hand with a 碰 of 七 cannot win.
    q = player(hand, groups=[("peng", "叁叁叁"), ("peng", "七七七")])
    assert evaluate_win(q, cards("柒")[0], own=False) is None


def test_base_hand_used_by_the_scenarios_is_twelve():
    # 一二三 3 + 壹贰叁 6 + 二七十 3 + 四五六 0 + 肆伍陆 0 + 柒捌玖 0
    assert best_hand_huxi(BASE) == 12
