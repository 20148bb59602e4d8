"""Re-deal what a viewer cannot see (for information-leak tests).

The hidden places for a viewer are the stock and every hand but its own (both hands for a
spectator). Their cards are shuffled among those places, keeping each place's size. A secret
setup choice not the viewer's stays in its hand (it is a card of that hand, already chosen).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Rng

from .data import sort_cards
from .deck import without
from .state import State


def redeal(state: State, viewer: int | None, seed: bytes) -> State:
    """Return ``state`` with the cards ``viewer`` (a seat or ``None``) may not see shuffled
    among the hidden places by ``seed``; everything ``viewer`` may see is unchanged."""
    hidden = [s for s in (0, 1) if s != viewer]
    kept: dict[int, tuple[str, ...]] = {}
    pool = list(state.deck)
    for seat in hidden:
        choice = state.choices[seat]
        hand = state.hands[seat]
        kept[seat] = (choice,) if choice is not None else ()
        pool += list(without(hand, choice) if choice is not None else hand)
    pool = Rng.derive(seed, "redeal-view", viewer if viewer is not None else "spectator"
                      ).shuffled(pool)
    deck, pool = tuple(pool[:len(state.deck)]), pool[len(state.deck):]
    hands = list(state.hands)
    for seat in hidden:
        count = len(state.hands[seat]) - len(kept[seat])
        hands[seat] = sort_cards(tuple(pool[:count]) + kept[seat])
        pool = pool[count:]
    return replace(state, deck=deck, hands=(hands[0], hands[1]))
