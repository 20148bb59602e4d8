"""Grid Reversal card data and fixed limits, as data (rules/grid_reversal.md).

Deck counts and the board size are room options (``options.py``); everything here is a ruling
that does not vary between rooms.
"""

from __future__ import annotations

#: Number cards carry their value as their code ("Board and deck": 1, 2, 3, 4).
NUMBER_CARDS: tuple[str, ...] = ("1", "2", "3", "4")

BAN = "BAN"                  # 禁止
BOMB = "BOMB"                # 炸弹
SUPER_ADD = "SUPER_ADD"      # 超级加
SWAP = "SWAP"                # 交换
LIGHTNING = "LIGHTNING"      # 闪电

#: Effect cards in the order hands list them.
EFFECT_CARDS: tuple[str, ...] = (BAN, BOMB, SUPER_ADD, SWAP, LIGHTNING)

#: Canonical order of every card code (hands are kept sorted in this order).
CARD_ORDER: tuple[str, ...] = NUMBER_CARDS + EFFECT_CARDS

#: Two (or, with Super-Add (b), three) own cards whose values add up to this fire (rule 21).
TARGET_SUM = 5

OPENING_HAND = 6            # setup: each player draws 6 (rule 32)
HAND_LIMIT = 4              # the hand limit for the whole game (rule 32)
DRAW_PER_ROUND = 2          # each round starts with 2 draws per player (rule 41)
IDLE_STAGE_LIMIT = 6        # ruling: 6 idle stages in a row before the standoff draw
FLIPLESS_STAGE_LIMIT = 10   # ruling: 10 standoff stages in a row without a flip draw
REPETITION_LIMIT = 3        # ruling: the third occurrence of a standoff position draws
ROUND_LIMIT = 200           # ruling: reaching round 200 draws
RESPONSE_SECONDS = 15       # ruling: the clock of a Ban response window
REDEAL_ATTEMPTS = 10_000    # safety bound on TIPS 1 redeals (never reached with legal options)


def is_number(card: str) -> bool:
    """Return whether ``card`` (a card code) is a number card."""
    return card in NUMBER_CARDS


def value_of(card: str) -> int:
    """Return the value (1..4) of a number card code; ``ValueError`` for an effect card."""
    if not is_number(card):
        raise ValueError(f"{card!r} is not a number card")
    return int(card)


def sort_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Return ``cards`` sorted in ``CARD_ORDER`` (hands never reveal draw order)."""
    return tuple(sorted(cards, key=CARD_ORDER.index))


def build_deck(number_copies: int, effect_copies: int) -> tuple[str, ...]:
    """Return the unshuffled deck: ``number_copies`` of each number, ``effect_copies`` of each
    effect card (ruling "Board and deck": 8 and 2 by default, 42 cards)."""
    return tuple(c for c in NUMBER_CARDS for _ in range(number_copies)) + tuple(
        c for c in EFFECT_CARDS for _ in range(effect_copies))
