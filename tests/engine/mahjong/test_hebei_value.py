"""``hebei_value``: every doubling of the Hebei table alone, in combination, the way-of-winning
priority, 十三幺's base of 16 and the errors (rulings "Scoring: `hebei`")."""

import pytest

from engine.mahjong import HEBEI_DOUBLINGS, hebei_value

PON = [("pon", "777z")]          # a claimed set: no 门清
PLAIN = "123m456p789s5z"         # + 5z and the pung of 中: four sets and a pair, nothing else
CONCEALED = "123m456p789s123s5z"  # + 5z: 门清


@pytest.mark.parametrize("hand, tile, melds, flags, expected", [
    (PLAIN, "5z", PON, {}, (1, [])),
    (CONCEALED, "5z", [], {}, (2, ["concealed_hand"])),
    ("1133m5577p99s112z", "2z", [], {}, (2, ["seven_pairs"])),
    # 234 567 789 99 + 111m: one suit, no honors.
    ("2345677899m", "9m", [("pon", "111m")], {}, (2, ["full_flush"])),
    ("123456789m1p", "1p", [("pon", "555s")], {}, (2, ["pure_straight"])),
    ("111m222p5z", "5z", [("pon", "333s"), ("pon", "444s")], {}, (2, ["all_pungs"])),
    (PLAIN, "5z", PON, {"self_drawn": True}, (2, ["self_drawn"])),
    (PLAIN, "5z", PON, {"self_drawn": True, "kong": True}, (2, ["kong_replacement"])),
    (PLAIN, "5z", PON, {"self_drawn": True, "wall_last": True}, (2, ["last_tile"])),
    (PLAIN, "5z", PON, {"robbing": True}, (2, ["robbing_kong"])),
    # 天和 replaces 门清 and 自摸; 地和 replaces 门清.
    (CONCEALED, "5z", [], {"heavenly": True, "self_drawn": True}, (2, ["heavenly_hand"])),
    (CONCEALED, "5z", [], {"earthly": True}, (2, ["earthly_hand"])),
    ("1133m5577p99s112z", "2z", [], {"earthly": True}, (4, ["seven_pairs", "earthly_hand"])),
])
def test_each_doubling_alone(hand, tile, melds, flags, expected):
    assert hebei_value(hand, tile, melds, **flags) == expected


def test_the_last_discard_is_not_海底捞月_in_hebei():
    assert hebei_value(PLAIN, "5z", PON, wall_last=True) == (1, [])


def test_a_kong_with_one_tile_left_is_杠上开花_only():
    assert hebei_value(PLAIN, "5z", PON, self_drawn=True, kong=True, wall_last=True) == (
        2, ["kong_replacement"])


def test_a_kong_flag_without_self_drawn_reads_as_robbing_like_mcr_fan():
    assert hebei_value(PLAIN, "5z", PON, kong=True) == (2, ["robbing_kong"])


def test_concealed_kongs_keep_门清_and_a_melded_kong_does_not():
    assert hebei_value(PLAIN, "5z", [("concealed_kong", "1111s")]) == (2, ["concealed_hand"])
    assert hebei_value(PLAIN, "5z", [("kong", "1111s")]) == (1, [])


def test_thirteen_orphans_is_16_before_the_way_doubles_it():
    assert hebei_value("19m19p19s1234567z", "1m") == (16, ["thirteen_orphans"])
    assert hebei_value("19m19p19s1234567z", "1m", self_drawn=True) == (
        32, ["thirteen_orphans", "self_drawn"])
    assert hebei_value("19m19p19s1234567z", "1m", heavenly=True) == (
        32, ["thirteen_orphans", "heavenly_hand"])


def test_doublings_multiply():
    # Seven pairs of one suit, self-drawn: 1 × 2 × 2 × 2.
    assert hebei_value("1122334455779m", "9m", self_drawn=True) == (
        8, ["seven_pairs", "full_flush", "self_drawn"])
    # 123 234 456 789 55 of 万: 清一色, 一条龙, 门清, 自摸 = 16.
    assert hebei_value("1223344556789m", "5m", self_drawn=True) == (
        16, ["full_flush", "pure_straight", "concealed_hand", "self_drawn"])


def test_the_reading_worth_most_counts():
    # 111 222 333m as pungs (碰碰和 + 门清 = 4) beats three chows (门清 = 2).
    assert hebei_value("111222333m444p7z", "7z") == (4, ["all_pungs", "concealed_hand"])


def test_every_id_is_in_the_table_with_three_names():
    assert list(HEBEI_DOUBLINGS) == [
        "thirteen_orphans", "seven_pairs", "full_flush", "pure_straight", "all_pungs",
        "concealed_hand", "self_drawn", "kong_replacement", "last_tile", "robbing_kong",
        "heavenly_hand", "earthly_hand"]
    assert all(set(d.names) == {"zh", "en", "ja"} for d in HEBEI_DOUBLINGS.values())
    assert HEBEI_DOUBLINGS["earthly_hand"].names["zh"] == "地和"


@pytest.mark.parametrize("hand, tile, melds", [
    (PLAIN, "6z", PON),                    # not complete
    (PLAIN, "5z", [("pon", "778z")]),      # bad tile
    (PLAIN, "5z", [("pon", "789s")]),      # not a pung
    (PLAIN, "5z", [("pung", "777z")]),     # unknown kind
    ("11111m", "1m", []),                  # six copies
    (PLAIN, "1f", PON),                    # a flower is no winning tile
    (PLAIN, "5z5z", PON),                  # two winning tiles
])
def test_bad_hands_raise(hand, tile, melds):
    with pytest.raises(ValueError):
        hebei_value(hand, tile, melds)
