"""What is derived from a concealed hand alone, memoised on the hand (engine speed).

A seat's concealed hand stays the same over many claim windows (it changes only when the seat
discards or claims), and every window asks every seat whether it wins, 碰s or 吃s. So the face
counts, the 坎 (three of a kind in hand, never broken up: seed 3.1 坎) and the cards outside them
are worked out once per hand, keyed by the hand as a tuple of wire codes. Counts are packed into
one int, 3 bits per face (``split.pack``), and read with bit masks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from engine.zipai.cards import CODES, FACE
from engine.zipai.split import BITS, MASK, Split, face_unit

#: The packed value of one card of each face (add it to add that card).
UNIT = {code: face_unit(FACE[code]) for code in CODES}
#: Bit 0 of every face's field.
_LOW = sum(face_unit(f) for f in range(len(CODES)))


class Tally(NamedTuple):
    """The memoised facts of one concealed hand.

    Attributes:
        free: the packed counts of the cards outside every 坎 (held once or twice); with no
            ``four`` it is what a split of the hand searches (``split.best_packed``).
        kans: the 坎 as split groups ``(("kan", (c, c, c)), ...)``, in face order.
        four: the first face (card order) held four times or more, else None (never reachable:
            such a hand cannot be split, ``split.take_kans``).
        free_faces: how many distinct faces are outside every 坎 (the number of ``discards``).
        free_total: how many cards are outside every 坎.
    """

    free: int
    kans: Split
    four: str | None
    free_faces: int
    free_total: int


def _faces(low_bits: int) -> list[str]:
    """Return the cards, in card order, whose field has bit 0 set in ``low_bits``."""
    out = []
    while low_bits:
        low = low_bits & -low_bits
        out.append(CODES[(low.bit_length() - 1) // BITS])
        low_bits ^= low
    return out


def _present(x: int) -> int:
    """Return bit 0 of the field of every face held at least once in the packed counts ``x``."""
    return (x | x >> 1 | x >> 2) & _LOW


@lru_cache(maxsize=1 << 8)
def tally(hand: tuple[str, ...]) -> Tally:
    """Return the ``Tally`` of the concealed ``hand`` (wire codes in any order)."""
    x = sum(map(UNIT.__getitem__, hand))
    threes = x & (x >> 1) & ~(x >> 2) & _LOW          # fields equal to 3 (0b011)
    fours = (x >> 2) & _LOW                            # fields of 4 or more (0b1xx)
    if not threes and not fours:                       # the usual hand: nothing to take out
        return Tally(x, (), None, _present(x).bit_count(), len(hand))
    free = x & ~((threes | fours) * MASK)
    kans = _faces(threes)
    four = _faces(fours)
    return Tally(free, tuple(("kan", (c, c, c)) for c in kans), four[0] if four else None,
                 _present(free).bit_count(),
                 len(hand) - 3 * len(kans) - sum(hand.count(c) for c in four))


def discards(hand: tuple[str, ...]) -> tuple[str, ...]:
    """Return the distinct cards of the concealed ``hand`` outside every 坎, in card order: the
    cards that may be discarded (a 坎 is never broken up, seed 3.1 坎)."""
    held = tally(hand)
    if not held.kans and held.four is None:
        return tuple(sorted(set(hand), key=FACE.__getitem__))
    return tuple(_faces(_present(held.free)))
