"""``mcr_fan`` against the reference calculator (``pymahjonggb``, a test dependency only).

20,000 seeded random winning hands of every shape with random declared sets, flags, winds and
flowers (``mcr_hands``): the total, the multiset of points and the fans themselves must equal
the reference's. The rulings' readings — 明暗杠 for one concealed and one melded kong, 和绝张
never with 抢杠和, 绿一色 with 3 条 — are the reference's too, so every hand is fed; a win on
the deal is the game's to score (as self-drawn), not the calculator's.
"""

import random
from collections import Counter

from MahjongGB import MahjongFanCalculator

from engine.mahjong import MCR_FANS, mcr_fan
from tests.engine.mahjong.mcr_hands import random_hand, reference_args

HANDS = 20_000
SEED = 20_240_817
_BY_ENGLISH = {fan.names["en"].lower(): fan.id for fan in MCR_FANS.values()}
_BY_ENGLISH["two dragons pungs"] = "two_dragon_pungs"


def _reference(hand: dict) -> Counter:
    """The reference's fans of a hand, as our ids with their counts."""
    fans = MahjongFanCalculator(*reference_args(hand), verbose=True)
    return Counter({_BY_ENGLISH[english.lower()]: count for _, count, _, english in fans})


def test_the_reference_is_called_in_its_own_notation():
    """Nine gates won on 5万: the reference reads our hand as we do (a smoke test of
    ``reference_args``: 万 W, 筒 B, 条 T, winds F1–F4, 中 J1 发 J2 白 J3, a chow by its middle)."""
    hand = {"hand": "1112345678999m", "win_tile": "5m", "melds": (), "self_drawn": False,
            "fourth_tile": False, "kong": False, "wall_last": False, "seat_wind": "E",
            "round_wind": "E", "flowers": 0}
    assert reference_args(hand)[1][:4] == ("W1", "W1", "W1", "W2")
    assert _reference(hand) == {"nine_gates": 1, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1}
    melds = {**hand, "hand": "5z", "win_tile": "5z",
             "melds": (("chi", "234s"), ("pon", "777z"), ("kong", "1111p"), ("concealed_kong", "6666z"))}
    assert reference_args(melds)[0] == (("CHI", "T3", 1), ("PENG", "J1", 1), ("GANG", "B1", 1), ("GANG", "J2", 0))


def test_mcr_fan_matches_the_reference_on_20000_random_hands():
    rng = random.Random(SEED)
    mismatches = []
    seen = Counter()
    for _ in range(HANDS):
        hand = random_hand(rng)
        ours = mcr_fan(**hand)
        theirs = _reference(hand)
        points = sorted(p for _, p in ours)
        their_points = sorted(MCR_FANS[f].points for f, n in theirs.items() for _ in range(n))
        if points != their_points or Counter(f for f, _ in ours) != theirs:
            mismatches.append((hand, ours, dict(theirs)))
        seen.update({f for f, _ in ours})
        seen.update(f"{flag}={hand[flag]}" for flag in ("self_drawn", "fourth_tile", "kong", "wall_last"))
        seen.update((f"seat={hand['seat_wind']}", f"round={hand['round_wind']}", f"flowers={hand['flowers']}"))
    assert mismatches[:3] == [] and len(mismatches) == 0
    assert [f for f in MCR_FANS if not seen[f]] == []
    for flag in ("self_drawn", "fourth_tile", "kong", "wall_last"):
        assert seen[f"{flag}=True"] and seen[f"{flag}=False"]
    assert all(seen[f"seat={w}"] and seen[f"round={w}"] for w in "ESWN")
    assert all(seen[f"flowers={n}"] for n in (0, 1, 2, 3, 8))
