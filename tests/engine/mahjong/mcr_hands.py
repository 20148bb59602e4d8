"""Seeded random winning hands for the competition rules, and the reference calculator's form.

``random_hand(rng)`` returns the keyword arguments of ``mcr_fan`` for one winning hand: standard
hands (themed to reach the rarer fans: one suit, honors, terminals, simples, even, fives, upper /
middle / lower tiles, green, reversible tiles, chow and pung patterns) with random declared sets,
and every special shape (七对, 连七对, 十三幺, 全不靠, 七星不靠, 组合龙 with and without a declared
set, 九莲宝灯), with random flags, winds and flowers.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.mahjong.shapes import KNITTED_STRAIGHTS
from engine.mahjong.tiles import KINDS, parse_tiles, tiles_text

SUITED = [k for k in KINDS if k[1] != "z"]
HONORS = [k for k in KINDS if k[1] == "z"]
THEMES = {
    "any": KINDS,
    "one_suit": None,
    "one_suit_honors": None,
    "two_suits": None,
    "honors": HONORS + ["1m", "9m", "1p", "9p", "1s", "9s"],
    "terminals": ["1m", "9m", "1p", "9p", "1s", "9s"],
    "simples": [k for k in SUITED if k[0] not in "19"],
    "even": [k for k in SUITED if int(k[0]) % 2 == 0],
    "fives": [k for k in SUITED if k[0] in "3456"],
    "upper": [k for k in SUITED if k[0] in "6789"],
    "middle": [k for k in SUITED if k[0] in "456"],
    "lower": [k for k in SUITED if k[0] in "1234"],
    "green": parse_tiles("23468s6z"),
    "reversible": parse_tiles("1234589p245689s5z"),
    "winds_dragons": HONORS + SUITED,
}


def _pool(rng: random.Random, theme: str) -> list[str]:
    suits = "mps"
    if theme == "one_suit":
        s = rng.choice(suits)
        return [k for k in SUITED if k[1] == s]
    if theme == "one_suit_honors":
        s = rng.choice(suits)
        return [k for k in SUITED if k[1] == s] + rng.sample(HONORS, rng.randint(1, 4))
    if theme == "two_suits":
        keep = rng.sample(suits, 2)
        return [k for k in KINDS if k[1] in keep or (k[1] == "z" and rng.random() < 0.3)]
    return list(THEMES[theme])


def _chow_ok(low: str) -> bool:
    return low[1] != "z" and int(low[0]) <= 7


def _chow(low: str) -> list[str]:
    return [f"{int(low[0]) + k}{low[1]}" for k in range(3)]


def _patterned_sets(rng: random.Random) -> list[tuple[str, str]]:
    """Sets related to each other: same chows, shifted chows or pungs, straights, same numbers."""
    s = rng.choice("mps")
    others = [x for x in "mps" if x != s]
    n = rng.randint(1, 7)
    kind = rng.choice(["same", "shift1", "shift2", "straight", "mixed", "mixed_shift", "terminal",
                       "pung_shift", "pung_same", "pung_mixed_shift"])
    suits3 = [s] + rng.sample(others, 2)
    if kind == "same":
        return [("chow", f"{n}{s}")] * rng.randint(2, 4)
    if kind in ("shift1", "shift2"):
        step = 1 if kind == "shift1" else 2
        count = rng.randint(3, 4)
        start = rng.randint(1, 7 - step * (count - 1)) if 7 - step * (count - 1) >= 1 else 1
        return [("chow", f"{start + step * k}{s}") for k in range(count) if start + step * k <= 7]
    if kind == "straight":
        return [("chow", f"{v}{x}") for v, x in zip((1, 4, 7), [s, s, s] if rng.random() < 0.5 else suits3)]
    if kind == "mixed":
        return [("chow", f"{n}{x}") for x in suits3[: rng.randint(2, 3)]]
    if kind == "mixed_shift":
        n = min(n, 5)
        return [("chow", f"{n + k}{x}") for k, x in enumerate(suits3)]
    if kind == "terminal":
        sets = [("chow", f"1{s}"), ("chow", f"7{s}")]
        second = s if rng.random() < 0.4 else others[0]
        return sets + [("chow", f"1{second}"), ("chow", f"7{second}")][: rng.randint(0, 2)]
    n9 = rng.randint(1, 9)
    if kind == "pung_shift":
        count = rng.randint(3, 4)
        start = rng.randint(1, 10 - count)
        return [("pung", f"{start + k}{s}") for k in range(count)]
    if kind == "pung_same":
        return [("pung", f"{n9}{x}") for x in suits3[: rng.randint(2, 3)]]
    start = rng.randint(1, 7)
    return [("pung", f"{start + k}{x}") for k, x in enumerate(suits3)]


def _standard(rng: random.Random) -> tuple[list[tuple[str, str]], str] | None:
    """Four sets and a pair, as (kind, tile) sets and the pair's tile; None if over four copies."""
    theme = rng.choice(list(THEMES))
    pool = _pool(rng, theme)
    sets: list[tuple[str, str]] = []
    if rng.random() < 0.35:
        sets = _patterned_sets(rng)[:4]
    if theme in ("winds_dragons", "honors") and rng.random() < 0.6:
        sets += [("pung", t) for t in rng.sample(["1z", "2z", "3z", "4z"] if rng.random() < 0.5 else ["5z", "6z", "7z"], rng.randint(2, 3))]
        sets = sets[:4]
    chow_weight = rng.choice([0.0, 0.3, 0.6, 1.0])
    while len(sets) < 4:
        low = rng.choice(pool)
        if rng.random() < chow_weight and _chow_ok(low) and all(t in pool for t in _chow(low)):
            sets.append(("chow", low))
        else:
            sets.append(("pung", low))
    pair = rng.choice(pool) if rng.random() < 0.8 else rng.choice(KINDS)
    tiles = [t for kind, low in sets for t in (_chow(low) if kind == "chow" else [low] * 3)] + [pair] * 2
    if max(Counter(tiles).values()) > 4:
        return None
    return sets, pair


def _declare(rng: random.Random, sets: list[tuple[str, str]], tiles_in_use: Counter):
    """Split sets into declared melds (chi, pon, kong, concealed_kong) and hand sets."""
    melds = []
    hand = []
    declare_p = rng.choice([0.0, 0.2, 0.5, 0.9, 1.0])
    for kind, low in sets:
        if kind == "pung" and tiles_in_use[low] == 3 and rng.random() < 0.3:
            melds.append((rng.choice(["kong", "concealed_kong"]), low * 4 if False else tiles_text([low] * 4)))
            tiles_in_use[low] += 1
        elif rng.random() < declare_p:
            if kind == "chow":
                melds.append(("chi", tiles_text(_chow(low))))
            else:
                melds.append(("pon", tiles_text([low] * 3)))
        else:
            hand.append((kind, low))
    return melds, hand


def _flags(rng: random.Random, hand: dict) -> dict:
    hand["self_drawn"] = rng.random() < 0.5
    hand["kong"] = rng.random() < 0.12
    hand["wall_last"] = rng.random() < 0.12
    hand["fourth_tile"] = rng.random() < 0.15
    hand["seat_wind"] = rng.choice("ESWN")
    hand["round_wind"] = rng.choice("ESWN")
    hand["flowers"] = rng.choice([0, 0, 0, 1, 2, 3, 8])
    return hand


def _concealed_hand(rng: random.Random, tiles: list[str], melds: list, **extra) -> dict:
    win = rng.choice(tiles)
    rest = list(tiles)
    rest.remove(win)
    return _flags(rng, {"hand": tiles_text(rest), "win_tile": win, "melds": tuple(melds), **extra})


def _standard_hand(rng: random.Random) -> dict:
    while True:
        made = _standard(rng)
        if made:
            break
    sets, pair = made
    tiles = [t for kind, low in sets for t in (_chow(low) if kind == "chow" else [low] * 3)] + [pair] * 2
    melds, hand_sets = _declare(rng, sets, Counter(tiles))
    concealed = [t for kind, low in hand_sets for t in (_chow(low) if kind == "chow" else [low] * 3)] + [pair] * 2
    return _concealed_hand(rng, concealed, melds)


def _seven_pairs(rng: random.Random) -> dict:
    theme = rng.choice(["any", "one_suit", "one_suit_honors", "honors", "simples", "terminals", "green", "reversible", "two_suits", "upper", "lower", "middle", "even"])
    pool = _pool(rng, theme)
    if rng.random() < 0.2:
        s = rng.choice("mps")
        start = rng.randint(1, 3)
        kinds = [f"{start + k}{s}" for k in range(7)]
    else:
        kinds = [rng.choice(pool) for _ in range(7)]
    tiles = [k for k in kinds for _ in range(2)]
    if max(Counter(tiles).values()) > 4:
        return _seven_pairs(rng)
    return _concealed_hand(rng, tiles, [])


def _thirteen_orphans(rng: random.Random) -> dict:
    orphans = parse_tiles("19m19p19s1234567z")
    return _concealed_hand(rng, orphans + [rng.choice(orphans)], [])


def _knitted(rng: random.Random) -> list[str]:
    pattern = rng.choice(KNITTED_STRAIGHTS)
    return [KINDS[i] for i in sorted(pattern)]


def _honors_knitted(rng: random.Random) -> dict:
    knitted = _knitted(rng)
    honors = HONORS if rng.random() < 0.3 else rng.sample(HONORS, rng.randint(5, 7))
    tiles = rng.sample(knitted, 14 - len(honors)) + list(honors)
    return _concealed_hand(rng, tiles, [])


def _knitted_straight(rng: random.Random) -> dict:
    knitted = _knitted(rng)
    while True:
        made = _standard(rng)
        if made:
            sets, pair = made
            kind, low = sets[0]
            rest = (_chow(low) if kind == "chow" else [low] * 3)
            tiles = knitted + rest + [pair] * 2
            if max(Counter(tiles).values()) <= 4:
                break
    if rng.random() < 0.4:
        melds, _ = _declare(rng, [sets[0]], Counter(tiles))
        if melds:
            return _concealed_hand(rng, knitted + [pair] * 2, melds)
    return _concealed_hand(rng, tiles, [])


def _nine_gates(rng: random.Random) -> dict:
    s = rng.choice("mps")
    tiles = parse_tiles(f"1112345678999{s}") + [f"{rng.randint(1, 9)}{s}"]
    hand = _flags(rng, {"hand": f"1112345678999{s}", "win_tile": tiles[-1], "melds": ()})
    return hand if rng.random() < 0.7 else _concealed_hand(rng, tiles, [])


def _plain(rng: random.Random) -> dict:
    """Hands with few fans (to reach 无番和): sets of three suits, a wind pair, declared sets."""
    sets = []
    for suit in rng.sample("mps", 3) + [rng.choice("mps")]:
        n = rng.randint(2, 6)
        sets.append(("chow", f"{n}{suit}") if rng.random() < 0.8 else ("pung", f"{rng.randint(2, 8)}{suit}"))
    pair = rng.choice(HONORS + SUITED)
    tiles = [t for kind, low in sets for t in (_chow(low) if kind == "chow" else [low] * 3)] + [pair] * 2
    if max(Counter(tiles).values()) > 4:
        return _plain(rng)
    melds, hand_sets = [], []
    for k, (kind, low) in enumerate(sets):
        if k == 0 or rng.random() < 0.4:
            melds.append(("chi", tiles_text(_chow(low))) if kind == "chow" else ("pon", tiles_text([low] * 3)))
        else:
            hand_sets.append((kind, low))
    concealed = [t for kind, low in hand_sets for t in (_chow(low) if kind == "chow" else [low] * 3)] + [pair] * 2
    hand = _concealed_hand(rng, concealed, melds)
    if rng.random() < 0.7:
        hand.update(self_drawn=False, kong=False, wall_last=False, fourth_tile=False)
    return hand


def _terminal_chows(rng: random.Random) -> dict:
    """一色双龙会 and 三色双龙会 shapes, concealed or with declared chows."""
    a, b, c = rng.sample("mps", 3)
    second = a if rng.random() < 0.5 else b
    pair = f"5{a if second == a else c}"
    sets = [("chow", f"1{a}"), ("chow", f"7{a}"), ("chow", f"1{second}"), ("chow", f"7{second}")]
    tiles = [t for _, low in sets for t in _chow(low)] + [pair] * 2
    melds, hand_sets = _declare(rng, sets, Counter(tiles))
    concealed = [t for _, low in hand_sets for t in _chow(low)] + [pair] * 2
    return _concealed_hand(rng, concealed, melds)


SHAPES = (
    (_standard_hand, 70), (_seven_pairs, 8), (_thirteen_orphans, 3), (_honors_knitted, 5),
    (_knitted_straight, 8), (_nine_gates, 3), (_plain, 4), (_terminal_chows, 1),
)


def random_hand(rng: random.Random) -> dict:
    """The ``mcr_fan`` keyword arguments of one random winning hand."""
    makers, weights = zip(*SHAPES)
    return rng.choices(makers, weights)[0](rng)


_REF_SUIT = {"m": "W", "p": "B", "s": "T"}
_REF_HONOR = {"1": "F1", "2": "F2", "3": "F3", "4": "F4", "5": "J3", "6": "J2", "7": "J1"}


def reference_tile(tile: str) -> str:
    """The reference calculator's name of a tile (rulings, "Tiles and notation")."""
    return _REF_SUIT[tile[1]] + tile[0] if tile[1] in _REF_SUIT else _REF_HONOR[tile[0]]


def reference_args(hand: dict) -> tuple:
    """The positional arguments of ``MahjongFanCalculator`` for a ``mcr_fan`` hand; a chow is
    named by its middle tile, a concealed kong has offer 0."""
    packs = []
    for kind, text in hand["melds"]:
        tiles = sorted(parse_tiles(text), key=lambda t: t[0])
        if kind == "chi":
            packs.append(("CHI", reference_tile(tiles[1]), 1))
        else:
            packs.append(({"pon": "PENG"}.get(kind, "GANG"), reference_tile(tiles[0]), 0 if kind == "concealed_kong" else 1))
    return (
        tuple(packs), tuple(reference_tile(t) for t in parse_tiles(hand["hand"])),
        reference_tile(hand["win_tile"]), hand["flowers"], hand["self_drawn"], hand["fourth_tile"],
        hand["kong"], hand["wall_last"], "ESWN".index(hand["seat_wind"]),
        "ESWN".index(hand["round_wind"]),
    )
