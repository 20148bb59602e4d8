"""LIFO resolution of a field: the running total, step by step.

Rule source: the rulings' "LIFO resolution" section (binding), seed §6 "計算フェーズ".
The field is given in play order (T1 first) and processed from the top (T12) down to T1.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace as _replace
from typing import Sequence

from engine.reverse_curse.cards import (DOUBLE_BUBBLE, ECHO_FLOW, FLIP_TRAP, MIRROR_PILLAR,
                                        NUMBER_VALUES, REVERSE_CURSE, SILENCE_SIREN, check_card)

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
        return {"index": self.index, "card": self.card, "identity": self.identity,
                "silenced": self.silenced, "effect": self.effect, "total": self.total}


@dataclass(frozen=True)
class _Running:
    total: int = 0
    factor: int = 1
    sign: int = 1
    silenced: bool = False
    previous: str | None = None


def _effect(run: _Running, identity: str | None) -> tuple[_Running, str]:
    """Apply the effect of ``identity`` (step 3 of the ruling) to the running values."""
    if identity in NUMBER_VALUES:
        amount = NUMBER_VALUES[identity] * run.factor * run.sign
        return _replace(run, total=run.total + amount), f"{amount:+d}"
    if identity == DOUBLE_BUBBLE:
        return _replace(run, total=run.total * 2), "x2"
    if identity == FLIP_TRAP:
        return _replace(run, total=-run.total), "x-1"
    if identity == SILENCE_SIREN:
        return _replace(run, silenced=True), "silence"
    if identity == ECHO_FLOW:
        return _replace(run, factor=run.factor * 2), "echo"
    if identity == REVERSE_CURSE:
        return _replace(run, sign=-run.sign), "curse"
    return run, "nothing"


def resolve(cards: Sequence[str]) -> tuple[int, tuple[Step, ...]]:
    """Resolve a field LIFO and return ``(total, steps)``; ``steps`` in processing order (top first).

    Args:
        cards: card codes in play order, T1 first (at most 12; any counts per code).

    Raises:
        ValueError: for an unknown card code or more than 12 cards.
    """
    cards = list(cards)
    if len(cards) > MAX_FIELD:
        raise ValueError(f"A field holds at most {MAX_FIELD} cards, got {len(cards)}.")
    for card in cards:
        check_card(card)
    run, steps = _Running(), []
    for index in range(len(cards), 0, -1):
        card = cards[index - 1]
        identity = run.previous if card == MIRROR_PILLAR else card
        if run.silenced:
            run, effect, silenced = _replace(run, silenced=False), "silenced", True
        else:
            run, effect = _effect(run, identity)
            silenced = False
        run = _replace(run, previous=identity)
        steps.append(Step(index, card, identity, silenced, effect, run.total))
    return run.total, tuple(steps)


def resolve_stack(cards: Sequence[str]) -> int:
    """Return the LIFO result of a field given in play order (T1 first); ``[]`` gives 0.

    Rule source: the rulings' "LIFO resolution" and "Public API" sections.

    Raises:
        ValueError: only for an unknown card code or more than 12 cards.
    """
    return resolve(cards)[0]
