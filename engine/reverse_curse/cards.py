"""The 24 Reverse Curse cards and the six monsters, as data.

Rule source: seed §3 (deck: ``+1``×5, ``+2``×3, ``+3``×1, ``-1``×5, ``-2``×3, ``-3``×1 and one of
each special card) and §4 (monsters); the wire codes are fixed by the rulings ("Cards (24)",
"Monsters").
"""

from __future__ import annotations

from collections.abc import Mapping

DOUBLE_BUBBLE = "DOUBLE_BUBBLE"
FLIP_TRAP = "FLIP_TRAP"
SILENCE_SIREN = "SILENCE_SIREN"
MIRROR_PILLAR = "MIRROR_PILLAR"
ECHO_FLOW = "ECHO_FLOW"
REVERSE_CURSE = "REVERSE_CURSE"

#: Number card code -> its value (seed §3: UP cards positive, DOWN cards negative).
NUMBER_VALUES: Mapping[str, int] = {
    "+1": 1, "+2": 2, "+3": 3, "-1": -1, "-2": -2, "-3": -3,
}

#: The six special cards, each once in the deck; always played face-down (seed §6).
SPECIALS: tuple[str, ...] = (
    DOUBLE_BUBBLE, FLIP_TRAP, SILENCE_SIREN, MIRROR_PILLAR, ECHO_FLOW, REVERSE_CURSE,
)

#: Every card code of the game, numbers first.
CARD_CODES: frozenset[str] = frozenset(NUMBER_VALUES) | frozenset(SPECIALS)

_COUNTS: tuple[tuple[str, int], ...] = (
    ("+1", 5), ("+2", 3), ("+3", 1), ("-1", 5), ("-2", 3), ("-3", 1),
    *((code, 1) for code in SPECIALS),
)

#: The 24-card deck in a fixed canonical order (shuffled per set from the match seed).
DECK: tuple[str, ...] = tuple(code for code, count in _COUNTS for _ in range(count))

VEIL_SNAIL = "VEIL_SNAIL"
SWITCH_WITCH = "SWITCH_WITCH"
SPY_EYE = "SPY_EYE"
SHARE_BEAR = "SHARE_BEAR"
ROLL_MOLE = "ROLL_MOLE"
REBORN_UNICORN = "REBORN_UNICORN"

#: Monster code -> summon cost in energy (rulings "Monsters"; recruiting costs 1 more, once).
SUMMON_COST: Mapping[str, int] = {
    VEIL_SNAIL: 0, SWITCH_WITCH: 0, SPY_EYE: 1, SHARE_BEAR: 1, ROLL_MOLE: 2, REBORN_UNICORN: 2,
}

#: The monsters in table order (the shop draws its offer from these).
MONSTERS: tuple[str, ...] = tuple(SUMMON_COST)

#: Energy paid to recruit an offered monster (seed §4).
RECRUIT_COST = 1
#: Most energy a side may hold (seed §4).
ENERGY_CAP = 3


def is_number(card: str) -> bool:
    """Return whether ``card`` is a number card (played face-up, seed §6)."""
    return card in NUMBER_VALUES


def check_card(card: object) -> str:
    """Return ``card`` if it is a known card code.

    Raises:
        ValueError: for anything that is not one of the 24 cards' codes.
    """
    if not isinstance(card, str) or card not in CARD_CODES:
        raise ValueError(f"Unknown card code {card!r}.")
    return card
