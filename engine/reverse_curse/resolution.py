"""LIFO resolution of a field: the running total, step by step.

Rule source: the rulings' "LIFO resolution" section (binding), seed §6 "計算フェーズ".
The field is given in play order (T1 first) and processed from the top (T12) down to T1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.reverse_curse.cards import (
    DOUBLE_BUBBLE,
    ECHO_FLOW,
    FLIP_TRAP,
    MIRROR_PILLAR,
    NUMBER_VALUES,
    REVERSE_CURSE,
    SILENCE_SIREN,
    check_card,
)

#: Most cards a field can hold (12 turns per set).
MAX_FIELD = 12


@dataclass(frozen=True)
class Step:
    """One processed card of a resolution.

    Attributes:
        index: the card's field position, 1-based (T#; T1 is the bottom card).
        card: the card's code.
        identity: what the card acted as: itself, or for a ``MIRROR_PILLAR`` the identity of the
            previously processed card; ``None`` = "nothing" (a MIRROR on top).
        silenced: whether a SILENCE_SIREN cancelled it.
        effect: ``"+n"``/``"-n"`` (a number's signed contribution to the total), ``"x2"``
            (DOUBLE), ``"x-1"`` (FLIP), ``"silence"``, ``"echo"``, ``"curse"``, ``"nothing"`` or
            ``"silenced"``.
        total: the running total after this card.
    """

    index: int
    card: str
    identity: str | None
    silenced: bool
    effect: str
    total: int

    def to_json(self) -> dict[str, object]:
        """Return the step as the view's ``history[].steps[]`` entry."""
        return steps_json([(self.index, self.card, self.identity, self.silenced, self.effect,
                            self.total)])[0]


#: Running values of a resolution: ``(total, factor, sign)`` (rulings "LIFO resolution" step 3).
_Running = tuple[int, int, int]


def _effect(run: _Running, identity: str | None) -> tuple[_Running, str]:
    """Apply the effect of ``identity`` (step 3 of the ruling) to ``(total, factor, sign)``.

    SILENCE_SIREN is handled by the caller (it affects the next card, not the running values):
    here it leaves the values unchanged and reports ``"silence"``.
    """
    total, factor, sign = run
    amount = NUMBER_VALUES.get(identity)  # type: ignore[arg-type]
    if amount is not None:
        amount *= factor * sign
        return (total + amount, factor, sign), f"{amount:+d}"
    if identity == DOUBLE_BUBBLE:
        return (total * 2, factor, sign), "x2"
    if identity == FLIP_TRAP:
        return (-total, factor, sign), "x-1"
    if identity == SILENCE_SIREN:
        return run, "silence"
    if identity == ECHO_FLOW:
        return (total, factor * 2, sign), "echo"
    if identity == REVERSE_CURSE:
        return (total, factor, -sign), "curse"
    return run, "nothing"


#: One processed card as plain values, in ``Step``'s field order: ``(index, card, identity,
#: silenced, effect, total)`` (a tuple: building 12 frozen ``Step`` records per set was most
#: of a set's resolution cost).
RawStep = tuple[int, str, "str | None", bool, str, int]


def resolve(cards: Sequence[str]) -> tuple[int, tuple[Step, ...]]:
    """Resolve a field LIFO and return ``(total, steps)``; ``steps`` in processing order (top first).

    Args:
        cards: card codes in play order, T1 first (at most 12; any counts per code).

    Raises:
        ValueError: for an unknown card code or more than 12 cards.
    """
    total, raw = trace(cards)
    return total, tuple(Step(*step) for step in raw)


def trace(cards: Sequence[str]) -> tuple[int, tuple[RawStep, ...]]:
    """``resolve`` with each step as a ``RawStep`` tuple (shared and immutable: memoised).

    Raises:
        ValueError: for an unknown card code or more than 12 cards.
    """
    return _trace(tuple(cards))


def steps_json(raw: Sequence[RawStep]) -> list[dict[str, object]]:
    """Return the steps as ``Step.to_json`` gives them (new dicts every call), in order."""
    return [{"index": index, "card": card, "identity": identity, "silenced": silenced,
             "effect": effect, "total": total}
            for index, card, identity, silenced, effect, total in raw]


@lru_cache(maxsize=8192)
def _trace(cards: tuple[str, ...]) -> tuple[int, tuple[RawStep, ...]]:
    """``trace`` of a tuple, memoised: a resolved set's field is re-resolved by every view of
    the rest of the match (its ``history[].steps``); the result is immutable, so sharing it is
    safe. Errors are raised, never cached."""
    if len(cards) > MAX_FIELD:
        raise ValueError(f"A field holds at most {MAX_FIELD} cards, got {len(cards)}.")
    for card in cards:
        check_card(card)
    run: _Running = (0, 1, 1)
    silenced, previous, steps = False, None, []
    for index in range(len(cards), 0, -1):
        card = cards[index - 1]
        identity = previous if card == MIRROR_PILLAR else card
        if silenced:
            effect, was_silenced, silenced = "silenced", True, False
        else:
            run, effect = _effect(run, identity)
            was_silenced, silenced = False, identity == SILENCE_SIREN
        previous = identity
        steps.append((index, card, identity, was_silenced, effect, run[0]))
    return run[0], tuple(steps)


def resolve_stack(cards: Sequence[str]) -> int:
    """Return the LIFO result of a field given in play order (T1 first); ``[]`` gives 0.

    Rule source: the rulings' "LIFO resolution" and "Public API" sections.

    Raises:
        ValueError: only for an unknown card code or more than 12 cards.
    """
    return trace(cards)[0]
