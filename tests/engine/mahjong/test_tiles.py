"""Mahjong tiles: parsing (MPSZ and Chinese names), text, order, sets and predicates."""

import pytest

from engine.mahjong import parse_tiles
from engine.mahjong import tiles as t


def test_mpsz_digit_runs_share_the_following_suit_letter():
    assert parse_tiles("123m456p11z") == ["1m", "2m", "3m", "4p", "5p", "6p", "1z", "1z"]


def test_kong_is_written_with_four_tiles_and_flowers_parse():
    assert parse_tiles("5555p 18f") == ["5p", "5p", "5p", "5p", "1f", "8f"]


def test_chinese_names_and_mixed_notation():
    assert parse_tiles("一万五筒九条东南西北白发中") == [
        "1m", "5p", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert parse_tiles("春夏秋冬梅兰竹菊") == [f"{n}f" for n in range(1, 9)]
    assert parse_tiles("12m, 三索 發") == ["1m", "2m", "3s", "6z"]
    assert parse_tiles("一二三万九九筒") == ["1m", "2m", "3m", "9p", "9p"]


def test_a_sequence_of_texts_is_parsed_piece_by_piece():
    assert parse_tiles(["12m", "7z"]) == ["1m", "2m", "7z"]


@pytest.mark.parametrize(
    ("text", "part"),
    [("123", "'123'"), ("0m", "0m"), ("8z", "8z"), ("9f", "9f"), ("12m3", "'3'"),
     ("m", "'m'"), ("一x", "'一x'"), ("一二", "'一二'"), ("5x", "'5x'"), ("1m?", "'?'"), ("十万", "'十'")],
)
def test_bad_text_raises_naming_the_bad_part(text, part):
    with pytest.raises(ValueError, match=part.replace("?", r"\?")):
        parse_tiles(text)


def test_tiles_text_is_sorted_mpsz_and_inverts_parse():
    assert t.tiles_text(["1z", "9m", "1f", "1m", "5p", "3s", "7z"]) == "19m5p3s17z1f"
    assert t.tiles_text([]) == ""
    text = "1112345678999m"
    assert t.tiles_text(parse_tiles(text)) == text


def test_sort_order_m_p_s_z_f_by_number():
    assert t.sorted_tiles(["1f", "7z", "1z", "9s", "1s", "9p", "1p", "9m", "1m"]) == [
        "1m", "9m", "1p", "9p", "1s", "9s", "1z", "7z", "1f"]
    assert [t.sort_key(x) for x in ("1m", "9m", "1p", "1s", "1z", "7z", "1f", "8f")] == [
        0, 8, 9, 18, 27, 33, 34, 41]


def test_kinds_sets_and_counts():
    assert len(t.KINDS) == 34 and t.KINDS[0] == "1m" and t.KINDS[-1] == "7z"
    assert len(t.tile_set()) == 136 and len(t.tile_set(flowers=True)) == 144
    assert t.counts(t.tile_set()) == [4] * 34
    assert t.from_counts(t.counts(parse_tiles("11z9m"))) == ["9m", "1z", "1z"]
    with pytest.raises(ValueError, match="1f"):
        t.counts(["1f"])


def test_check_copies():
    t.check_copies(parse_tiles("1111m12345678f"))
    with pytest.raises(ValueError, match="5 copies of 1m"):
        t.check_copies(parse_tiles("11111m"))
    with pytest.raises(ValueError, match="2 copies of 3f"):
        t.check_copies(parse_tiles("33f"))


def test_predicates():
    assert [t.suit(x) for x in ("1m", "2p", "3s", "4z", "5f")] == ["m", "p", "s", "z", "f"]
    assert t.number("7z") == 7
    assert [x for x in t.KINDS if t.is_terminal(x)] == ["1m", "9m", "1p", "9p", "1s", "9s"]
    assert [x for x in t.KINDS if t.is_honor(x)] == ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert sum(t.is_terminal_or_honor(x) for x in t.KINDS) == 13
    assert [x for x in t.KINDS if t.is_dragon(x)] == ["5z", "6z", "7z"]
    assert [x for x in t.KINDS if t.is_wind(x)] == ["1z", "2z", "3z", "4z"]
    assert t.is_flower("8f") and not t.is_flower("7z") and not t.is_suited("1z")


def test_winds_and_names():
    assert [t.wind_tile(w) for w in "ESWN"] == ["1z", "2z", "3z", "4z"]
    assert [t.wind_letter(x) for x in ("1z", "2z", "3z", "4z")] == ["E", "S", "W", "N"]
    with pytest.raises(ValueError, match="'X'"):
        t.wind_tile("X")
    with pytest.raises(ValueError, match="'5z'"):
        t.wind_letter("5z")
    assert [t.chinese_name(x) for x in ("1m", "5p", "9s", "1z", "5z", "6z", "7z", "1f")] == [
        "一万", "五筒", "九条", "东", "白", "发", "中", "春"]
