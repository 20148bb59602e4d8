"""The shared deck: drawing, and reshuffling the discard pile into a new deck."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Rng

from .data import sort_cards
from .state import State


def _reshuffled(state: State) -> tuple[State, list[Event]]:
    """Return the state with the discard pile shuffled into the (empty) deck ("Board and deck")."""
    rng = Rng.derive(state.seed, "reshuffle", state.reshuffles)
    deck = tuple(rng.shuffled(state.discard))
    new = replace(state, deck=deck, discard=(), reshuffles=state.reshuffles + 1)
    return new, [Event("deck_reshuffled", {"size": len(deck)})]


def draw(state: State, seat: int, count: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` draws up to ``count`` cards from the top of the deck.

    An empty deck is replaced by the shuffled discard pile; if that is empty too, the rest of
    the draw is skipped ("Board and deck"). Events: ``deck_reshuffled`` (public), ``drew``
    ``{seat, count}`` (public) and ``drew_cards`` ``{seat, cards}`` (to ``seat`` only).
    """
    events: list[Event] = []
    drawn: list[str] = []
    for _ in range(count):
        if not state.deck:
            if not state.discard:
                break
            state, more = _reshuffled(state)
            events += more
        drawn.append(state.deck[0])
        state = replace(state, deck=state.deck[1:])
    hands = list(state.hands)
    hands[seat] = sort_cards(hands[seat] + tuple(drawn))
    state = replace(state, hands=(hands[0], hands[1]))
    events.append(Event("drew", {"seat": seat, "count": len(drawn)}))
    events.append(Event("drew_cards", {"seat": seat, "cards": list(sort_cards(drawn))},
                        frozenset({seat})))
    return state, events


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """Return ``cards`` less one copy of ``card`` (``ValueError`` if it is absent)."""
    index = cards.index(card)
    return cards[:index] + cards[index + 1:]


def take_from_hand(state: State, seat: int, card: str) -> State:
    """Return the state with one ``card`` removed from the hand of ``seat``."""
    hands = list(state.hands)
    hands[seat] = without(hands[seat], card)
    return replace(state, hands=(hands[0], hands[1]))
