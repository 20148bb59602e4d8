"""The competition-rules fan table and calculator: every fan with an exact total, exclusions,
the rulings' readings, the flags a hand contradicts, bad input, and ``mcr_total``.

Each case is one winning hand, hand-checked: (standing tiles, winning tile, keyword arguments,
total, the fan ids in table order, once per time they count).
"""

import re
from collections import Counter

import pytest

from engine.mahjong import MCR_FANS, mcr_fan
from engine.mahjong.mcr_fans import MINIMUM_POINTS, mcr_total

CASES = [
    ('333z444z5m', '5m', {'melds': (('pon', '111z'), ('pon', '222z'))}, 97, ['big_four_winds', 'half_flush', 'two_concealed_pungs', 'single_wait']),
    ('555666777z1234m', '4m', {}, 112, ['big_three_dragons', 'three_concealed_pungs', 'half_flush', 'concealed_hand']),
    ('234s234s666s88s66z', '6z', {}, 93, ['all_green', 'dragon_pung', 'concealed_hand', 'pure_double_chow']),
    ('1112345678999m', '5m', {}, 91, ['nine_gates', 'two_concealed_pungs', 'pung_of_terminals_or_honors']),
    ('5m', '5m', {'melds': (('kong', '1111p'), ('kong', '2222s'), ('concealed_kong', '3333m'), ('kong', '7777z'))}, 99, ['four_kongs', 'mixed_shifted_pungs', 'dragon_pung', 'pung_of_terminals_or_honors']),
    ('1122334455667p', '7p', {}, 88, ['seven_shifted_pairs']),
    ('19m19p19s1234567z', '7z', {'self_drawn': True}, 89, ['thirteen_orphans', 'self_drawn']),
    ('111999m111999p1s', '1s', {}, 129, ['all_terminals', 'four_concealed_pungs', 'single_wait']),
    ('111222333z44z78m', '9m', {}, 96, ['little_four_winds', 'three_concealed_pungs', 'half_flush', 'outside_hand', 'prevalent_wind', 'seat_wind', 'concealed_hand']),
    ('555666z7z123789p', '7z', {}, 80, ['little_three_dragons', 'half_flush', 'outside_hand', 'concealed_hand', 'two_concealed_pungs', 'two_terminal_chows', 'single_wait']),
    ('111222z555666z7z', '7z', {'self_drawn': True}, 198, ['little_three_dragons', 'all_honors', 'four_concealed_pungs', 'prevalent_wind', 'seat_wind', 'single_wait', 'self_drawn']),
    ('222444m666p888s5p', '5p', {'self_drawn': True}, 67, ['four_concealed_pungs', 'all_simples', 'self_drawn']),
    ('1122337788995s', '5s', {}, 67, ['pure_terminal_chows', 'concealed_hand', 'single_wait']),
    ('33445566m77p', '7p', {'melds': (('chi', '345m'),)}, 27, ['pure_triple_chow', 'all_simples', 'one_voided_suit']),
    ('2223334445556s', '6s', {}, 138, ['four_concealed_pungs', 'four_pure_shifted_pungs', 'full_flush', 'all_simples']),
    ('123234345m456m5z', '5z', {}, 41, ['four_pure_shifted_chows', 'half_flush', 'concealed_hand', 'single_wait']),
    ('123m5z', '5z', {'melds': (('kong', '4444p'), ('concealed_kong', '8888s'), ('kong', '6666p'))}, 33, ['three_kongs', 'single_wait']),
    ('11m99p', '9p', {'melds': (('pon', '111z'), ('pon', '999s'), ('pon', '777z'))}, 46, ['all_terminals_and_honors', 'all_types', 'dragon_pung', 'prevalent_wind', 'seat_wind', 'double_pung']),
    ('1133557799m22p3z', '3z', {'self_drawn': True}, 26, ['seven_pairs', 'one_voided_suit', 'self_drawn']),
    ('14m258p3s1234567z', '6s', {}, 24, ['greater_honors_and_knitted_tiles']),
    ('222444m66p88s', '8s', {'melds': (('pon', '666s'),)}, 26, ['all_even_pungs', 'two_concealed_pungs']),
    ('123345567m789m1m', '1m', {}, 60, ['four_pure_shifted_chows', 'full_flush', 'concealed_hand', 'all_chows']),
    ('123123123m45p99s', '6p', {}, 44, ['pure_shifted_pungs', 'three_concealed_pungs', 'concealed_hand', 'pung_of_terminals_or_honors', 'no_honors']),
    ('333444555p2s', '2s', {'melds': (('chi', '789m'),)}, 42, ['pure_shifted_pungs', 'three_concealed_pungs', 'no_honors', 'single_wait']),
    ('789m789p789s8s', '8s', {'melds': (('pon', '999m'),)}, 36, ['upper_tiles', 'mixed_triple_chow', 'tile_hog', 'pung_of_terminals_or_honors', 'closed_wait']),
    ('456m456p456s5m', '5m', {'melds': (('chi', '456m'),)}, 54, ['middle_tiles', 'all_five', 'mixed_triple_chow', 'all_chows', 'tile_hog', 'pure_double_chow', 'closed_wait']),
    ('123m123p123s3s', '3s', {'melds': (('chi', '123s'),)}, 38, ['lower_tiles', 'mixed_triple_chow', 'all_chows', 'tile_hog', 'pure_double_chow', 'edge_wait']),
    ('123456789p11z23s', '1s', {}, 20, ['pure_straight', 'concealed_hand', 'mixed_double_chow', 'one_voided_suit']),
    ('123789m123789p5s', '5s', {}, 19, ['three_suited_terminal_chows', 'concealed_hand', 'single_wait']),
    ('123m234m345m1z', '1z', {'melds': (('chi', '789p'),)}, 18, ['pure_shifted_chows', 'one_voided_suit', 'single_wait']),
    ('345m555p5s', '5s', {'melds': (('chi', '345s'), ('chi', '456p'))}, 20, ['all_five', 'tile_hog', 'mixed_double_chow', 'single_wait']),
    ('111m111p111s2z', '2z', {'melds': (('pon', '333z'),)}, 65, ['all_terminals_and_honors', 'triple_pung', 'three_concealed_pungs', 'single_wait']),
    ('111m222p333s7s', '7s', {'melds': (('chi', '789m'),)}, 27, ['three_concealed_pungs', 'mixed_shifted_pungs', 'pung_of_terminals_or_honors', 'no_honors', 'single_wait']),
    ('147m258p36s12345z', '7z', {}, 12, ['lesser_honors_and_knitted_tiles']),
    ('147m258p369s12m55z', '3m', {'self_drawn': True}, 17, ['knitted_straight', 'fully_concealed_hand', 'edge_wait']),
    ('234m234p9s', '9s', {'melds': (('chi', '234s'), ('chi', '678p'))}, 11, ['mixed_triple_chow', 'all_chows', 'single_wait']),
    ('112233m234p45s99p', '6s', {}, 5, ['concealed_hand', 'all_chows', 'pure_double_chow']),
    ('222333444z2m', '2m', {'melds': (('chi', '678p'),)}, 30, ['three_concealed_pungs', 'big_three_winds', 'one_voided_suit', 'single_wait']),
    ('123m456p1z', '1z', {'melds': (('chi', '789s'), ('pon', '555m'))}, 9, ['mixed_straight', 'single_wait']),
    ('123p345p456s5z', '5z', {'melds': (('pon', '888s'),)}, 9, ['reversible_tiles', 'single_wait']),
    ('123m123p5z', '5z', {'melds': (('chi', '123s'), ('pon', '777m'))}, 9, ['mixed_triple_chow', 'single_wait']),
    ('123123123123m5p', '5p', {}, 54, ['quadruple_chow', 'concealed_hand', 'all_chows', 'one_voided_suit', 'single_wait']),
    ('678m789p6699s', '9s', {'melds': (('chi', '789m'),)}, 14, ['upper_four', 'mixed_double_chow', 'pung_of_terminals_or_honors']),
    ('123m234p1144s', '1s', {'melds': (('chi', '234s'),)}, 14, ['lower_four', 'mixed_double_chow', 'pung_of_terminals_or_honors']),
    ('23m55z', '4m', {'melds': (('chi', '567s'), ('pon', '888p'), ('chi', '345p'))}, 8, ['chicken_hand']),
    ('777s99p55z', '9p', {'melds': (('pon', '222m'), ('pon', '555p'))}, 7, ['all_pungs', 'pung_of_terminals_or_honors']),
    ('666z789p1s', '1s', {'melds': (('pon', '555z'), ('chi', '123m'))}, 11, ['two_dragon_pungs', 'outside_hand', 'single_wait']),
    ('234m567p5z', '5z', {'melds': (('chi', '234s'), ('pon', '999m')), 'self_drawn': True, 'wall_last': True}, 11, ['last_tile_draw', 'mixed_double_chow', 'pung_of_terminals_or_honors', 'single_wait']),
    ('234m567p5z', '5z', {'melds': (('chi', '234s'), ('pon', '999m')), 'wall_last': True}, 11, ['last_tile_claim', 'mixed_double_chow', 'pung_of_terminals_or_honors', 'single_wait']),
    ('234m567p5z', '5z', {'melds': (('chi', '234s'), ('kong', '9999m')), 'self_drawn': True, 'kong': True}, 12, ['out_with_replacement_tile', 'mixed_double_chow', 'pung_of_terminals_or_honors', 'melded_kong', 'single_wait']),
    ('234m55z78p', '9p', {'melds': (('chi', '234s'), ('pon', '999m')), 'kong': True}, 10, ['robbing_the_kong', 'mixed_double_chow', 'pung_of_terminals_or_honors']),
    ('5z', '5z', {'melds': (('chi', '234s'), ('pon', '999m'), ('pon', '222p'), ('pon', '777m'))}, 7, ['melded_hand', 'pung_of_terminals_or_honors']),
    ('12m55z', '3m', {'melds': (('chi', '234s'), ('pon', '999m'), ('chi', '789p'))}, 2, ['pung_of_terminals_or_honors', 'edge_wait']),
    ('234m567p5z', '5z', {'melds': (('concealed_kong', '2222s'), ('concealed_kong', '9999m'))}, 10, ['two_concealed_kongs', 'concealed_hand', 'pung_of_terminals_or_honors', 'single_wait']),
    ('234m567p5z', '5z', {'melds': (('concealed_kong', '2222s'), ('kong', '9999m'))}, 7, ['concealed_kong_and_kong', 'pung_of_terminals_or_honors', 'single_wait']),
    ('234m567p5z', '5z', {'melds': (('kong', '2222s'), ('kong', '9999m'))}, 6, ['two_melded_kongs', 'pung_of_terminals_or_honors', 'single_wait']),
    ('123m789m123p789s1s', '1s', {'fourth_tile': True, 'flowers': 2}, 14, ['outside_hand', 'concealed_hand', 'all_chows', 'mixed_double_chow', 'mixed_double_chow', 'two_terminal_chows', 'single_wait', 'flower_tiles', 'flower_tiles']),
    ('345m456p567s6778p', '7p', {'self_drawn': True}, 14, ['mixed_shifted_chows', 'fully_concealed_hand', 'all_chows', 'all_simples']),
    ('234m567p11z78s', '9s', {'melds': (('pon', '666z'),)}, 8, ['all_types', 'dragon_pung']),
    ('234m567p789s2z', '2z', {'melds': (('pon', '111z'),), 'seat_wind': 'S'}, 3, ['prevalent_wind', 'single_wait']),
    ('234m567p789s3z', '3z', {'melds': (('pon', '111z'),), 'round_wind': 'N', 'seat_wind': 'N'}, 2, ['pung_of_terminals_or_honors', 'single_wait']),
    ('234m456p789s1z', '1z', {'melds': (('chi', '456s'),)}, 3, ['mixed_double_chow', 'short_straight', 'single_wait']),
    ('234m567p222s1s', '1s', {'melds': (('pon', '222m'),)}, 5, ['tile_hog', 'double_pung', 'no_honors']),
    ('234m567p222s789m1z', '1z', {}, 3, ['concealed_hand', 'single_wait']),
    ('234m567p1z', '1z', {'melds': (('concealed_kong', '9999s'), ('chi', '678s'))}, 4, ['concealed_kong', 'pung_of_terminals_or_honors', 'single_wait']),
    ('234m234m13s55z', '2s', {'melds': (('chi', '678s'),)}, 3, ['pure_double_chow', 'one_voided_suit', 'closed_wait']),
    ('234m567p5z', '5z', {'melds': (('chi', '678s'), ('kong', '1111s'))}, 3, ['pung_of_terminals_or_honors', 'melded_kong', 'single_wait']),
    ('234m567m678p5z', '5z', {'melds': (('chi', '789s'),)}, 8, ['mixed_shifted_chows', 'short_straight', 'single_wait']),
    ('234m678p678s4p', '4p', {'melds': (('pon', '777s'),)}, 6, ['tile_hog', 'all_simples', 'mixed_double_chow', 'single_wait']),
    ('234m567p89s55z', '7s', {'melds': (('chi', '123s'),)}, 2, ['two_terminal_chows', 'edge_wait']),
    ('234m68s55z', '7s', {'melds': (('chi', '456s'), ('chi', '123p'))}, 1, ['closed_wait']),
    ('345m6m', '6m', {'melds': (('chi', '234s'), ('chi', '678p'), ('chi', '123s')), 'flowers': 8}, 10, ['all_chows', 'flower_tiles', 'flower_tiles', 'flower_tiles', 'flower_tiles', 'flower_tiles', 'flower_tiles', 'flower_tiles', 'flower_tiles']),
    ('23m55p', '4m', {'melds': (('chi', '678s'), ('chi', '789s'), ('pon', '666z')), 'fourth_tile': True}, 6, ['last_tile', 'dragon_pung']),
    ('23m55p', '1m', {'melds': (('chi', '678s'), ('chi', '789s'), ('pon', '666z'))}, 2, ['dragon_pung']),
    ('123456789m456m5z', '5z', {}, 26, ['pure_straight', 'half_flush', 'concealed_hand', 'pure_double_chow', 'single_wait']),
    ('1133557799m22p3z', '3z', {}, 25, ['seven_pairs', 'one_voided_suit']),
    ('234s234s666s888s2s', '2s', {}, 121, ['all_green', 'full_flush', 'concealed_hand', 'tile_hog', 'two_concealed_pungs', 'all_simples', 'pure_double_chow']),
    ('234m55z78p', '9p', {'melds': (('chi', '234s'), ('pon', '999m')), 'kong': True, 'fourth_tile': True}, 10, ['robbing_the_kong', 'mixed_double_chow', 'pung_of_terminals_or_honors']),
    ('234m567p5z', '5z', {'melds': (('chi', '234s'), ('pon', '999m')), 'kong': True, 'self_drawn': True}, 4, ['mixed_double_chow', 'pung_of_terminals_or_honors', 'single_wait', 'self_drawn']),
    ('45566m445566p55s', '4m', {'self_drawn': True}, 49, ['middle_tiles', 'all_five', 'fully_concealed_hand', 'all_chows', 'pure_double_chow', 'pure_double_chow', 'mixed_double_chow']),
    ('1112344m444p234s', '4m', {'self_drawn': True}, 20, ['lower_four', 'fully_concealed_hand', 'two_concealed_pungs', 'mixed_double_chow', 'pung_of_terminals_or_honors']),
    ('123m456p13s55z', '2s', {'melds': (('pon', '222s'),)}, 8, ['last_tile', 'tile_hog', 'mixed_double_chow', 'closed_wait']),
    ('123m456p789s13s55z', '2s', {'kong': True, 'wall_last': True}, 28, ['mixed_straight', 'last_tile_claim', 'robbing_the_kong', 'concealed_hand', 'mixed_double_chow', 'closed_wait']),
    ('234m567p5z', '5z', {'melds': (('chi', '234s'), ('kong', '9999m')), 'self_drawn': True, 'kong': True, 'wall_last': True}, 20, ['last_tile_draw', 'out_with_replacement_tile', 'mixed_double_chow', 'pung_of_terminals_or_honors', 'melded_kong', 'single_wait']),
]


@pytest.mark.parametrize(("hand", "win", "kwargs", "total", "ids"), CASES)
def test_exact_fans_and_total(hand, win, kwargs, total, ids):
    fans = mcr_fan(hand, win, **kwargs)
    assert fans == [(fan_id, MCR_FANS[fan_id].points) for fan_id in ids]
    assert sum(points for _, points in fans) == total


def test_every_fan_of_the_table_has_a_case():
    seen = {fan_id for *_, ids in CASES for fan_id in ids}
    assert [fan_id for fan_id in MCR_FANS if fan_id not in seen] == []


def test_the_table_lists_81_fans_and_concealed_kong_and_kong():
    assert len(MCR_FANS) == 82
    by_points = Counter(fan.points for fan in MCR_FANS.values())
    assert by_points == {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 9, 6: 7, 5: 1,
                         4: 4, 2: 10, 1: 13}
    assert [f.points for f in MCR_FANS.values()] == sorted((f.points for f in MCR_FANS.values()), reverse=True)
    for fan_id, fan in MCR_FANS.items():
        assert fan.id == fan_id and re.fullmatch(r"[a-z]+(_[a-z]+)*", fan_id)
        assert set(fan.names) == {"zh", "en", "ja"} and all(fan.names.values())
    assert MCR_FANS["big_four_winds"].names == {"zh": "大四喜", "en": "Big Four Winds", "ja": "大四喜"}
    assert (MCR_FANS["concealed_kong_and_kong"].points, MCR_FANS["concealed_kong_and_kong"].names["zh"]) == (5, "明暗杠")
    assert (MCR_FANS["chicken_hand"].points, MCR_FANS["flower_tiles"].points) == (8, 1)


def _ids(hand, win, melds=(), **kwargs):
    return [fan_id for fan_id, _ in mcr_fan(hand, win, melds, **kwargs)]


def test_pure_straight_excludes_short_straight_and_two_terminal_chows():
    assert _ids("123456789p11z23s", "1s") == [
        "pure_straight", "concealed_hand", "mixed_double_chow", "one_voided_suit"]
    # The fourth chow combines once with the straight: one 1-point fan, not 连六 as well.
    assert _ids("123456789m456m5z", "5z") == [
        "pure_straight", "half_flush", "concealed_hand", "pure_double_chow", "single_wait"]


def test_seven_pairs_exclude_concealed_hand_and_single_wait():
    assert _ids("1133557799m22p3z", "3z") == ["seven_pairs", "one_voided_suit"]
    assert _ids("1133557799m22p3z", "3z", self_drawn=True) == [
        "seven_pairs", "one_voided_suit", "self_drawn"]


def test_four_identical_tiles_are_two_pairs_and_a_tile_hog():
    """Rulings "Winning hands": official MCR scores them 七对 + 四归一."""
    assert mcr_fan("111122334m5566p", "4m") == [
        ("seven_pairs", 24), ("tile_hog", 2), ("one_voided_suit", 1), ("no_honors", 1)]


def test_big_three_dragons_excludes_dragon_pungs():
    assert _ids("555666777z1234m", "4m") == [
        "big_three_dragons", "three_concealed_pungs", "half_flush", "concealed_hand"]


def test_all_green_with_green_dragon_excludes_half_flush_and_without_counts_full_flush():
    assert _ids("234s234s666s888s6z", "6z") == [
        "all_green", "concealed_hand", "two_concealed_pungs", "pure_double_chow", "single_wait"]
    assert _ids("234s234s666s888s2s", "2s") == [
        "all_green", "full_flush", "concealed_hand", "tile_hog", "two_concealed_pungs",
        "all_simples", "pure_double_chow"]


def test_all_green_includes_three_of_bamboo_ruling():
    """Override in the rulings: 绿一色 is 2, 3, 4, 6, 8 条 and 发 (the seed dropped the 3)."""
    assert _ids("333s444s666s888s6z", "6z")[0] == "all_green"
    assert "all_green" not in _ids("333s444s666s777s6z", "6z")


def test_one_concealed_and_one_melded_kong_score_concealed_kong_and_kong_ruling():
    """Rulings: 明暗杠 (5) instead of 暗杠 + 明杠 (the reference reads it so too)."""
    melds = (("concealed_kong", "2222s"), ("kong", "9999m"))
    assert mcr_fan("234m567p5z", "5z", melds) == [
        ("concealed_kong_and_kong", 5), ("pung_of_terminals_or_honors", 1), ("single_wait", 1)]


def test_last_tile_never_with_robbing_the_kong_ruling():
    assert _ids("123m456p789s13s55z", "2s", kong=True, fourth_tile=True) == [
        "mixed_straight", "robbing_the_kong", "concealed_hand", "mixed_double_chow", "closed_wait"]
    assert _ids("123m456p789s13s55z", "2s", fourth_tile=True) == [
        "mixed_straight", "last_tile", "concealed_hand", "mixed_double_chow", "closed_wait"]


def test_flags_the_hand_contradicts_are_ignored_as_the_reference_does():
    # 杠上开花 needs a declared kong: with only a pung the win is plain 自摸.
    melds = (("chi", "234s"), ("pon", "999m"))
    assert "out_with_replacement_tile" not in _ids("234m567p5z", "5z", melds, self_drawn=True, kong=True)
    # A copy of the winning tile in the standing hand rules out 和绝张 and 抢杠和.
    assert _ids("123m789m123p789s1s", "1s", fourth_tile=True) == _ids("123m789m123p789s1s", "1s")
    assert "robbing_the_kong" not in _ids("123m789m123p789s1s", "1s", kong=True)
    # So does a copy in a declared chow for 抢杠和 (the robbed pung held the other three).
    assert "robbing_the_kong" not in _ids("123m456m23s55z", "1s", (("chi", "123s"),), kong=True)
    # Three copies in the winner's declared sets make the winning tile the last one: 和绝张.
    assert _ids("123m456p13s55z", "2s", (("pon", "222s"),)) == [
        "last_tile", "tile_hog", "mixed_double_chow", "closed_wait"]


def test_equal_readings_are_chosen_as_the_reference_chooses():
    # 七对 24 + 全中 24 + 自摸 1 = 49 ties with the chows reading; the four-sets reading counts.
    assert _ids("45566m445566p55s", "4m", self_drawn=True)[:2] == ["middle_tiles", "all_five"]
    # 一色三节高 or 一色三同顺 (both 24 + …, equal totals): the chows reading is kept.
    assert _ids("1112223345688p", "3p") == [
        "full_flush", "pure_triple_chow", "concealed_hand", "all_chows", "short_straight"]


def test_flowers_count_but_not_toward_the_minimum():
    fans = mcr_fan("23m55z", "4m", (("chi", "567s"), ("pon", "888p"), ("chi", "345p")), flowers=3)
    assert fans == [("chicken_hand", 8)] + [("flower_tiles", 1)] * 3
    assert mcr_total(fans) == (11, 8)
    assert MINIMUM_POINTS == 8
    assert mcr_total(mcr_fan("23m55p", "1m", (("chi", "678s"), ("chi", "789s"), ("pon", "666z")),
                             flowers=8)) == (10, 2)


def test_the_hand_may_be_given_in_chinese_names_and_any_order():
    assert mcr_fan("八七万五五筒二二二三三三四四四条", "九万") == mcr_fan("78m55p222333444s", "9m")
    assert mcr_fan("5z", "5z", (("chi", "432s"), ("pon", "999m"), ("pon", "222p"), ("pon", "777m"))) == [
        ("melded_hand", 6), ("pung_of_terminals_or_honors", 1)]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("123m456p789s1235z", "4s"), {}, "Not a winning hand"),
        (("123m456p789s123z", "4s"), {}, "12 standing tiles with 0 declared sets: expected 13"),
        (("123m456p789s55z", "5z", (("pon", "111z"),)), {}, "11 standing tiles with 1 declared sets: expected 10"),
        (("1111m456p789s555z", "1m"), {}, "5 copies of 1m"),
        (("123m456p789s12s55z", "1f"), {}, "Flowers are not part of the hand"),
        (("123m456p789s5z", "5z", (("chi", "124s"),)), {}, "Bad chi '124s'"),
        (("123m456p789s5z", "5z", (("pon", "1122z"),)), {}, "Bad pon '1122z'"),
        (("123m456p789s5z", "5z", (("kong", "111z"),)), {}, "Bad kong '111z'"),
        (("123m456p789s5z", "5z", (("chow", "123s"),)), {}, "Bad meld"),
        (("123m456p789s5z", "5z", (("chi", "123z"),)), {}, "Bad chi"),
        (("123m456p789s12s55z", "3s5z"), {}, "Bad winning tile"),
        (("123m456p789s12s55z", "3x"), {}, "Bad tiles '3x'"),
        (("123m456p789s12s55z", "3s"), {"seat_wind": "X"}, "Bad seat_wind 'X'"),
        (("123m456p789s12s55z", "3s"), {"round_wind": "east"}, "Bad round_wind 'east'"),
        (("123m456p789s12s55z", "3s"), {"seat_wind": 1}, "Bad seat_wind 1"),
        (("123m456p789s12s55z", "3s"), {"flowers": 9}, "Bad flowers 9"),
        (("123m456p789s12s55z", "3s"), {"flowers": True}, "Bad flowers True"),
    ],
)
def test_bad_input_raises(args, kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        mcr_fan(*args, **kwargs)
