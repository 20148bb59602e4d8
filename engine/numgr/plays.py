"""Legal plays: every way to form a stack from a hand (or a released pending card), as actions.

This module is the one source of play legality: ``legal_actions`` lists ``all_plays`` and
``apply`` accepts a play only if it is among ``plays_for_main`` of its main card.

A play action is ``{"type": "play", "main", "base", "mode", "base_mode", "copy", "lock"}``:
``main`` a card code from the hand or the pending cards; ``base`` the 0 under a number, the γ's
base or the hand card a θ holds (else ``null``); ``mode`` the ☆ choice (``atk``/``def``/``rem``) or
the γ's synergy mode (``atk``/``def``); ``base_mode`` the ☆ choice of a 0 of another attribute;
``copy`` the face a β copies; ``lock`` the id of the opponent stack a θ locks.
Rule sources: seed 【卡牌细则】 and rulings "What a play does".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.numgr import cards as C
from engine.numgr.effects import effective
from engine.numgr.state import CARD, State

PLAY_KEYS = ("main", "base", "mode", "base_mode", "copy", "lock")


def play_action(main: str, base: str | None = None, mode: str | None = None,
                base_mode: str | None = None, copy: str | None = None,
                lock: int | None = None) -> dict[str, Any]:
    """Return a play action dict with every key present (``None`` where unused)."""
    return {"type": "play", "main": main, "base": base, "mode": mode, "base_mode": base_mode,
            "copy": copy, "lock": lock}


def copyable_faces(state: State) -> list[str]:
    """Faces a β may copy now: printed faces of main cards in either area (seed {字母牌β}).

    Base cards and held cards are not main cards; a β is not copied (it has no face of its own).
    """
    faces = {s.face for s in state.stacks if s.kind == CARD}
    return [f for f in C.COPYABLE_FACES if f in faces]


def _number_modes(main: str, base: str | None) -> Iterator[tuple[str | None, str | None]]:
    """Yield ``(mode, base_mode)`` pairs for a number stack (☆ choices, seed {数字牌0})."""
    main_any = C.attr(main) == C.ANY
    modes = C.CHOICES if main_any else (None,)
    base_any = base is not None and C.attr(base) == C.ANY and C.attr(base) != C.attr(main)
    base_modes = C.CHOICES if base_any else (None,)
    for mode in modes:
        for base_mode in base_modes:
            yield mode, base_mode


def _number_plays(state: State, seat: int, main: str, copy: str | None,
                  pending_main: bool) -> Iterator[dict[str, Any]]:
    """A number (or β copying one), alone or over a 0 from hand or a pending 0.

    A card already in the area (a pending card) never takes a 0 (seed 0 ③).
    """
    zeros = [] if pending_main else sorted(
        c for c in [*state.hands[seat], *state.pending[seat]] if C.face(c) == C.ZERO)
    for base in [None, *zeros]:
        for mode, base_mode in _number_modes(main, base):
            yield play_action(main, base, mode, base_mode, copy)


def _synergy_plays(state: State, seat: int, main: str,
                   copy: str | None) -> Iterator[dict[str, Any]]:
    """A γ (or β copying γ) over a hand card of its attribute, synergy attack or defense."""
    bases = sorted(c for c in state.hands[seat] if c != main and C.attr(c) == C.attr(main))
    for base in bases:
        for mode in C.SYNERGY_MODES:
            yield play_action(main, base, mode, copy=copy)


def lockable_ids(state: State, seat: int, attribute: str) -> list[int]:
    """Ids of effective opponent stacks of ``attribute`` that a θ of ``seat`` may lock."""
    return [s.id for s in effective(state) if s.area == 1 - seat and s.attr == attribute]


def _lock_plays(state: State, seat: int, main: str,
                copy: str | None) -> Iterator[dict[str, Any]]:
    """A θ (or β copying θ) holding one hand card of its attribute, or locking one opponent
    stack of its attribute (seed {字母牌θ}: a θ never holds two cards)."""
    holds = sorted(c for c in state.hands[seat] if c != main and C.attr(c) == C.attr(main))
    for held in holds:
        yield play_action(main, held, copy=copy)
    for target in lockable_ids(state, seat, C.attr(main)):
        yield play_action(main, copy=copy, lock=target)


def _plays_as(state: State, seat: int, main: str, acts: str, copy: str | None,
              pending_main: bool) -> Iterator[dict[str, Any]]:
    """Yield the plays of ``main`` acting as face ``acts``."""
    if C.is_number_face(acts):
        yield from _number_plays(state, seat, main, copy, pending_main)
    elif acts == C.ALPHA:
        yield play_action(main, copy=copy)
    elif acts == C.GAMMA:
        yield from _synergy_plays(state, seat, main, copy)
    elif acts == C.THETA:
        yield from _lock_plays(state, seat, main, copy)


def plays_for_main(state: State, seat: int, main: str) -> list[dict[str, Any]]:
    """Return every legal play of ``seat`` with ``main`` as its main card (empty if none).

    ``main`` must be in the hand or among the seat's pending cards; a 0 is never a main card and
    a γ needs a base (seed {字母牌γ}).
    """
    pending_main = main in state.pending[seat]
    if not pending_main and main not in state.hands[seat]:
        return []
    f = C.face(main)
    if f == C.ZERO:
        return []
    if f != C.BETA:
        return list(_plays_as(state, seat, main, f, None, pending_main))
    return [p for copy in copyable_faces(state)
            for p in _plays_as(state, seat, main, copy, copy, pending_main)]


def all_plays(state: State, seat: int) -> list[dict[str, Any]]:
    """Every legal play of ``seat`` (hand mains sorted, then pending mains sorted)."""
    mains = [*sorted(state.hands[seat]), *sorted(state.pending[seat])]
    return [p for main in mains for p in plays_for_main(state, seat, main)]
