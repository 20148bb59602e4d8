"""Mahjong shapes: decompositions, special shapes, completeness, waits and shanten."""

import random

import pytest

from engine.mahjong.shapes import (
    Decomposition,
    decompositions,
    is_complete,
    is_honors_and_knitted,
    is_knitted_straight_hand,
    is_seven_honors_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straights,
    shanten,
    winning_tiles,
)
from engine.mahjong.tiles import KINDS, tile_set
from engine.mahjong.tiles import parse_tiles as P
from tests.engine.mahjong.mcr_hands import random_hand


def test_decompositions_list_every_reading_once():
    assert decompositions(P("111222333m55p")) == [
        Decomposition("5p", (("chow", "1m"), ("chow", "1m"), ("chow", "1m"))),
        Decomposition("5p", (("pung", "1m"), ("pung", "2m"), ("pung", "3m"))),
    ]
    assert decompositions(P("11z")) == [Decomposition("1z", ())]


def test_decompositions_pair_choices():
    assert decompositions(P("11123m")) == [Decomposition("1m", (("chow", "1m"),))]
    assert decompositions(P("23444m")) == [Decomposition("4m", (("chow", "2m"),))]
    assert decompositions(P("33345m")) == [Decomposition("3m", (("chow", "3m"),))]
    assert decompositions(P("11122m")) == [Decomposition("2m", (("pung", "1m"),))]
    assert decompositions(P("1112223m11z")) == []
    assert decompositions(P("111222m333p55z")) == [
        Decomposition("5z", (("pung", "1m"), ("pung", "2m"), ("pung", "3p")))]


def test_decompositions_of_nine_gates_hands():
    assert decompositions(P("11123456789995m")) == [
        Decomposition("5m", (("pung", "1m"), ("chow", "2m"), ("chow", "6m"), ("pung", "9m")))]
    assert decompositions(P("11123456789991m")) == [
        Decomposition("9m", (("pung", "1m"), ("chow", "1m"), ("chow", "4m"), ("chow", "7m")))]
    assert decompositions(P("11122233344455m")) == [
        Decomposition("2m", (("pung", "1m"), ("chow", "2m"), ("chow", "3m"), ("chow", "3m"))),
        Decomposition("5m", (("chow", "1m"), ("chow", "1m"), ("chow", "1m"), ("pung", "4m"))),
        Decomposition("5m", (("pung", "1m"), ("chow", "2m"), ("chow", "2m"), ("chow", "2m"))),
        Decomposition("5m", (("pung", "1m"), ("pung", "2m"), ("pung", "3m"), ("pung", "4m"))),
    ]


def test_decompositions_empty_for_wrong_size_or_no_reading():
    assert decompositions(P("123m")) == []
    assert decompositions(P("1m1p")) == []
    assert decompositions(P("123m456p789s1234z")) == []


def test_seven_pairs_four_identical_count_as_two():
    assert is_seven_pairs(P("11223344556677m"))
    assert is_seven_pairs(P("1111m223344p5566z"))
    assert not is_seven_pairs(P("1111m223344p556z7z"))
    assert not is_seven_pairs(P("112233445566m"))


def test_thirteen_orphans():
    assert is_thirteen_orphans(P("19m19p19s12345677z"))
    assert not is_thirteen_orphans(P("19m19p19s1234567z2m"))
    assert not is_thirteen_orphans(P("19m19p19s1234566z"))


def test_knitted_shapes():
    assert is_honors_and_knitted(P("147m258p36s123456z"))
    assert not is_honors_and_knitted(P("147m258p35s123456z"))
    assert not is_honors_and_knitted(P("147m258p36s123455z"))
    assert is_seven_honors_and_knitted(P("14m258p36s1234567z"))
    assert not is_seven_honors_and_knitted(P("147m258p36s123456z"))
    assert knitted_straights(P("147m258p369s")) == [
        ("1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s")]
    assert is_knitted_straight_hand(P("147m258p369s11155z"))
    assert is_knitted_straight_hand(P("369m147p258s55z"), [("pon", "111z")])
    assert not is_knitted_straight_hand(P("147m258p368s11155z"))


@pytest.mark.parametrize(
    ("text", "declared", "hebei", "mcr"),
    [
        ("123m456p789s11122z", 0, True, True),
        ("11223344556677m", 0, True, True),
        ("19m19p19s12345677z", 0, True, True),
        ("147m258p36s123456z", 0, False, True),
        ("14m258p36s1234567z", 0, False, True),
        ("147m258p369s11155z", 0, False, True),
        ("369m147p258s55z", 1, False, True),
        ("11z", 4, True, True),
        ("123m456p789s12345z", 0, False, False),
        ("11112233445566m", 0, True, True),
    ],
)
def test_is_complete_by_rule_set(text, declared, hebei, mcr):
    exposed = [("pon", "999p")] * declared
    assert is_complete(P(text), exposed, "hebei") is hebei
    assert is_complete(P(text), exposed, "mcr") is mcr


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="'riichi'"):
        is_complete(P("11z"), [()] * 4, "riichi")
    with pytest.raises(ValueError, match="13 concealed tiles with 0 declared sets: expected 14"):
        is_complete(P("1112345678999m"), [], "hebei")
    with pytest.raises(ValueError, match="expected 13"):
        winning_tiles(P("11123456789995m"), [], "hebei")
    with pytest.raises(ValueError, match="1f"):
        winning_tiles(P("111234567899m1f"), [], "hebei")
    with pytest.raises(ValueError, match="expected 10 or 11"):
        shanten(P("1m"), [()], "mcr")


def test_winning_tiles_exact():
    assert winning_tiles(P("1112345678999m"), [], "hebei") == frozenset(P("123456789m"))
    assert winning_tiles(P("19m19p19s1234567z"), [], "hebei") == frozenset(P("19m19p19s1234567z"))
    assert winning_tiles(P("147m258p369s1234z"), [], "mcr") == frozenset(P("567z"))
    assert winning_tiles(P("147m258p369s1234z"), [], "hebei") == frozenset()
    assert winning_tiles(P("147m258p369s1z"), [("pon", "777z")], "mcr") == frozenset(P("1z"))
    assert winning_tiles(P("1122334455667m"), [], "hebei") == frozenset(P("147m"))
    assert winning_tiles(P("1z"), [()] * 4, "hebei") == frozenset(P("1z"))


def test_a_tile_all_four_of_which_are_held_still_counts():
    assert winning_tiles(P("1111m234p567p789s"), [], "hebei") == frozenset(P("1m"))
    assert winning_tiles(P("1111m223344556p"), [], "hebei") == frozenset(P("6p"))


@pytest.mark.parametrize(
    ("text", "declared", "hebei", "mcr"),
    [
        ("123m456p789s11122z", 0, -1, -1),
        ("123m456p789s1112z", 0, 0, 0),
        ("147m258p369s1234z", 0, 6, 0),
        ("19m19p19s1234567z", 0, 0, 0),
        ("1357m2468p1357s9s", 0, 4, 4),
        ("13579m13579p135s", 0, 4, 4),
        ("1m", 4, 0, 0),
        ("1m2p", 4, 0, 0),
        ("19m19p19s1122345z", 0, 1, 1),
        ("147m258p369s5z", 1, 6, 0),
        # Beside a knitted straight the spare pung counts as no more than the one set needed.
        ("5556m8p9m1499s", 1, 3, 3),
    ],
)
def test_shanten_exact(text, declared, hebei, mcr):
    exposed = [("pon", "999p")] * declared
    assert shanten(P(text), exposed, "hebei") == hebei
    assert shanten(P(text), exposed, "mcr") == mcr


def _swaps(hand):
    for tile in set(hand):
        rest = list(hand)
        rest.remove(tile)
        for kind in KINDS:
            if kind != tile:
                yield rest + [kind]


@pytest.mark.parametrize("rules", ["hebei", "mcr"])
def test_shanten_is_exact_on_random_hands(rules):
    """0 exactly when some tile completes; above 0, the best single exchange lowers it by one
    (so, by induction, it counts the exchanges needed). Hands: random ones, and ready hands of
    every shape with one to three tiles exchanged."""
    rng = random.Random(17 if rules == "hebei" else 18)
    for k in range(24):
        if k % 2:
            example = random_hand(rng)
            hand, exposed = P(example["hand"]), example["melds"]
            for _ in range(rng.randint(1, 3)):
                hand[rng.randrange(len(hand))] = rng.choice(KINDS)
        else:
            declared = rng.choice([0, 0, 1, 2])
            wall = tile_set()
            rng.shuffle(wall)
            suit = rng.choice("mps")
            pool = [t for t in wall if t[1] == suit] if rng.random() < 0.5 else wall
            hand, exposed = pool[: 13 - 3 * declared], [()] * declared
        s = shanten(hand, exposed, rules)
        assert (s == 0) == bool(winning_tiles(hand, exposed, rules))
        if s > 0:
            assert min(shanten(h, exposed, rules) for h in _swaps(hand)) == s - 1


@pytest.mark.parametrize("rules", ["hebei", "mcr"])
def test_winning_tiles_are_the_kinds_that_complete_the_hand(rules):
    """Ready hands of every shape (and the same with one tile exchanged) against brute force."""
    rng = random.Random(31 if rules == "hebei" else 32)
    ready = 0
    for _ in range(400):
        example = random_hand(rng)
        hand = P(example["hand"])
        if rng.random() < 0.4:
            hand[rng.randrange(len(hand))] = rng.choice(KINDS)
        exposed = example["melds"]
        expected = {k for k in KINDS if is_complete(hand + [k], exposed, rules)}
        assert winning_tiles(hand, exposed, rules) == expected
        assert (shanten(hand, exposed, rules) == 0) == bool(expected)
        ready += bool(expected)
    assert ready > 200
