"""Re-deal what a viewer cannot see (for information-leak tests).

Hidden from ``viewer``: the opponent's hand, the deck order and face-down held cards the viewer did
not play. They are shuffled among those places keeping every count; a held card is replaced only
by a hidden card of the same attribute, because a θ's attribute (public) tells the held card's
(and never by a θ, which a β copying θ would have to show).
"""

from __future__ import annotations

from engine.core import Rng
from engine.numgr import cards as C
from engine.numgr.resolve import holds_card
from engine.numgr.state import State


def _hidden_held(state: State, viewer: int | None) -> list:
    """Stacks whose held card ``viewer`` cannot see."""
    return [s for s in state.stacks if holds_card(s) and not s.shown and s.owner != viewer]


def redeal(state: State, viewer: int | None, rng: Rng) -> State:
    """Return a copy of ``state`` with everything ``viewer`` may not see re-dealt from ``rng``.

    Args:
        state: a NumGR state (not changed).
        viewer: a seat, or ``None`` for a spectator (both hands hidden).
        rng: the stream the re-deal draws from.
    """
    new = state.clone()
    hands = [seat for seat in (0, 1) if seat != viewer]
    held = _hidden_held(new, viewer)
    pool = [c for seat in hands for c in new.hands[seat]] + list(new.deck)
    pool += [s.base for s in held]
    for stack in held:
        options = [c for c in pool if C.attr(c) == stack.attr and C.face(c) != C.THETA]
        stack.base = rng.choice(options)
        pool.remove(stack.base)
    pool = rng.shuffled(pool)
    for seat in hands:
        size = len(new.hands[seat])
        new.hands[seat], pool = pool[:size], pool[size:]
    new.deck = pool
    return new
