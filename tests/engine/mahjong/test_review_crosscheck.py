"""A second cross-check of ``mcr_fan`` against the reference calculator (``pymahjonggb``), with
hands made another way than ``mcr_hands``: standing tiles drawn tile by tile from a small random
pool of kinds (or four random sets and a pair with one or two tiles swapped out), random declared
sets of every kind, and every tile kind tried as the winning tile. Whatever the reference calls
a win must score exactly as the reference scores it, and nothing else may be a win."""

import random
from collections import Counter

from MahjongGB import MahjongFanCalculator

from engine.mahjong import MCR_FANS, mcr_fan
from engine.mahjong.shapes import KNITTED_STRAIGHTS
from engine.mahjong.tiles import KINDS, parse_tiles, tiles_text
from tests.engine.mahjong.mcr_hands import reference_args

WINS = 2_000
SEED = 7_041
HONORS = [k for k in KINDS if k[1] == "z"]
ORPHANS = [k for k in KINDS if k[1] == "z" or k[0] in "19"]
_BY_ENGLISH = {fan.names["en"].lower(): fan.id for fan in MCR_FANS.values()}
_BY_ENGLISH["two dragons pungs"] = "two_dragon_pungs"


def _kinds(rng: random.Random) -> list[str]:
    """A pool of tile kinds: a stretch of one suit with a few others, one suit with honors, the
    orphans, a knitted straight with the honors, two suits, or many kinds."""
    roll = rng.random()
    if roll < 0.4:
        s, mid = rng.choice("mps"), rng.randint(1, 9)
        stretch = [f"{n}{s}" for n in range(max(1, mid - 4), min(9, mid + 4) + 1)]
        return list(dict.fromkeys(stretch + rng.sample(KINDS, rng.randint(0, 4))))
    if roll < 0.55:
        s = rng.choice("mps")
        return [f"{n}{s}" for n in range(1, 10)] + rng.sample(HONORS, rng.randint(0, 3))
    if roll < 0.65:
        return ORPHANS + rng.sample(KINDS, rng.randint(0, 3))
    if roll < 0.75:
        knitted = [KINDS[i] for i in rng.choice(KNITTED_STRAIGHTS)]
        return list(dict.fromkeys(knitted + HONORS + rng.sample(KINDS, rng.randint(0, 3))))
    if roll < 0.9:
        suits = rng.sample("mps", 2)
        return [f"{n}{s}" for s in suits for n in range(1, 10)] + rng.sample(HONORS, 2)
    return rng.sample(KINDS, rng.randint(8, 34))


def _set_tiles(rng: random.Random, kinds: list[str]) -> tuple[str, list[str]]:
    """One random set from the pool: ``("chow" | "pung" | "kong", tiles)``."""
    tile = rng.choice(kinds)
    roll = rng.random()
    if roll < 0.45 and tile[1] != "z" and int(tile[0]) <= 7:
        return "chow", [f"{int(tile[0]) + k}{tile[1]}" for k in range(3)]
    return ("pung", [tile] * 3) if roll < 0.85 else ("kong", [tile] * 4)


def _declared(rng: random.Random, kind: str, tiles: list[str]) -> tuple[str, str]:
    if kind == "kong":
        return rng.choice(["kong", "concealed_kong"]), tiles_text(tiles)
    return ("chi" if kind == "chow" else "pon"), tiles_text(tiles)


def _tile_by_tile(rng: random.Random, kinds: list[str]):
    used: Counter = Counter()
    melds = []
    for _ in range(rng.choices(range(5), [35, 25, 20, 12, 8])[0]):
        kind, tiles = _set_tiles(rng, kinds)
        if all(used[t] + tiles.count(t) <= 4 for t in tiles):
            used.update(tiles)
            melds.append(_declared(rng, kind, tiles))
    free = [k for k in kinds for _ in range(4 - used[k])]
    need = 13 - 3 * len(melds)
    return (melds, rng.sample(free, need)) if len(free) >= need else None


def _sets_then_swap(rng: random.Random, kinds: list[str]):
    used: Counter = Counter()
    standing, melds = [], []
    declare = rng.choice([0.0, 0.3, 0.7, 1.0])
    while len(melds) + len(standing) // 3 < 4:
        kind, tiles = _set_tiles(rng, kinds)
        if any(used[t] + tiles.count(t) > 4 for t in tiles):
            return None
        used.update(tiles)
        if kind == "kong" or rng.random() < declare:
            melds.append(_declared(rng, kind, tiles))
        else:
            standing += tiles
    pair = rng.choice(kinds)
    standing += [pair, pair]
    standing.remove(rng.choice(standing))
    if rng.random() < 0.5:
        standing.remove(rng.choice(standing))
        standing.append(rng.choice(kinds))
    every = Counter(standing) + Counter(t for _, text in melds for t in parse_tiles(text))
    return (melds, standing) if max(every.values()) <= 4 else None


def _flags(rng: random.Random) -> dict:
    flags = {"self_drawn": rng.random() < 0.5, "fourth_tile": rng.random() < 0.2,
             "kong": rng.random() < 0.15, "wall_last": rng.random() < 0.15}
    if rng.random() < 0.25:
        flags = dict.fromkeys(flags, False)
    return {**flags, "seat_wind": rng.choice("ESWN"), "round_wind": rng.choice("ESWN"),
            "flowers": rng.choice([0, 0, 1, 2, 5, 8])}


def _reference(hand: dict) -> Counter | None:
    """The reference's fans as our ids, or None when it calls the hand no win."""
    try:
        fans = MahjongFanCalculator(*reference_args(hand), verbose=True)
    except TypeError as error:
        assert str(error) == "ERROR_NOT_WIN"
        return None
    return Counter({_BY_ENGLISH[english.lower()]: n for _, n, _, english in fans})


def _ours(hand: dict) -> Counter | None:
    try:
        return Counter(fan for fan, _ in mcr_fan(**hand))
    except ValueError:
        return None


def test_mcr_fan_matches_the_reference_on_hands_drawn_tile_by_tile():
    rng = random.Random(SEED)
    wins, mismatches = 0, []
    while wins < WINS:
        kinds = _kinds(rng)
        made = (_sets_then_swap if rng.random() < 0.6 else _tile_by_tile)(rng, kinds)
        if made is None:
            continue
        melds, standing = made
        held = Counter(standing) + Counter(t for _, text in melds for t in parse_tiles(text))
        for win in KINDS:
            if held[win] == 4:
                continue
            hand = {"hand": tiles_text(standing), "win_tile": win, "melds": tuple(melds),
                    **_flags(rng)}
            theirs, ours = _reference(hand), _ours(hand)
            wins += theirs is not None
            if theirs != ours:
                mismatches.append((hand, ours, theirs))
    assert mismatches[:3] == [] and len(mismatches) == 0
