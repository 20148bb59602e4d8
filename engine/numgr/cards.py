"""NumGR cards: the 32-card deck, card codes and their faces and attributes.

Rule source: seed 【牌库】 and rulings "Cards". A card code is face + attribute, e.g. ``2atk``
(a △2) or ``Tdef`` (a ○θ). Faces on the wire: ``1 2 3 0`` (numbers) and ``A B G T``
(α reflect, β imitate, γ synergy, θ lock). Attributes: ``atk`` △ attack, ``def`` ○ defense,
``rem`` □ remove, ``any`` ☆ any. Every code names exactly one physical card.
"""

from __future__ import annotations

NUMBER_FACES = ("1", "2", "3")
ZERO = "0"
ALPHA, BETA, GAMMA, THETA = "A", "B", "G", "T"
LETTER_FACES = (ALPHA, BETA, GAMMA, THETA)
FACES = (*NUMBER_FACES, ZERO, *LETTER_FACES)
ATK, DEF, REM, ANY = "atk", "def", "rem", "any"
ATTRIBUTES = (ATK, DEF, REM, ANY)
#: The three effects a ☆ card (or a ☆ choice) may take, in wire names.
CHOICES = (ATK, DEF, REM)
#: The two synergy modes of a γ: synergy attack or synergy defense.
SYNERGY_MODES = (ATK, DEF)

DECK: tuple[str, ...] = tuple(face + attr for face in FACES for attr in ATTRIBUTES)
CARDS = frozenset(DECK)
#: β may copy the face of any main card except another β (a 0 is never a main card).
COPYABLE_FACES = (*NUMBER_FACES, ALPHA, GAMMA, THETA)


def face(card: str) -> str:
    """Return the face of a card code (``"2atk"`` -> ``"2"``)."""
    return card[0]


def attr(card: str) -> str:
    """Return the attribute of a card code (``"2atk"`` -> ``"atk"``)."""
    return card[1:]


def is_number_face(value: str | None) -> bool:
    """Return whether ``value`` is one of the faces 1, 2, 3 (the faces with a point value)."""
    return value in NUMBER_FACES


def is_numeric_card(card: str) -> bool:
    """Return whether the card is a number card (1, 2, 3 or 0), seed {数字牌}.

    A γ with a numeric base gives 2 points, with a letter base 3 (seed {字母牌γ}).
    """
    return face(card) in NUMBER_FACES or face(card) == ZERO
