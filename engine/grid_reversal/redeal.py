"""Re-deal what a viewer cannot see (for information-leak tests).

The hidden places for a viewer are the stock and every hand but its own (both hands for a
spectator). Their cards are shuffled among those places, keeping each place's size. Cards a
hidden hand must keep stay in it (``kept_cards``): a secret setup choice already made, and the
number card named by a pending Swap (b) (``swap_in``) on the public stack, which its owner
places when the effect resolves ("Effect cards": Swap (b) takes the card from the hand).

A re-deal must also be a state the rules can reach (``reachable``): while the mother cards are
being chosen, a hand that has not chosen yet holds a number card (TIPS 1 redeals a hand without
one). Candidates are drawn ``ATTEMPTS`` times; if none is reachable, only the deck order is
re-dealt (always reachable: any deck order can come out of a shuffle).

Not checked (it needs the history, which the state does not keep): that the deck after a
reshuffle holds only cards of the discard pile it was made from.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Rng

from .data import is_number, sort_cards
from .deck import without
from .state import MOTHER, State

#: Candidate re-deals tried before falling back to a re-deal of the deck order alone.
ATTEMPTS = 8


def kept_cards(state: State, seat: int) -> tuple[str, ...]:
    """Return the cards of ``seat``'s hand that a re-deal leaves in it: its secret setup choice
    (mother card or setup discard, still in the hand until revealed; ruling "Setup") and the
    card of each of its ``swap_in`` moves waiting on the stack."""
    choice = state.choices[seat]
    kept = [] if choice is None else [choice]
    kept += [p.move.card for p in state.stack
             if p.seat == seat and p.move.type == "swap_in" and p.move.card is not None]
    return tuple(kept)


def _without_all(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    for card in cards:
        hand = without(hand, card)
    return hand


def deal_hidden(state: State, hidden: list[int], rng: Rng) -> State:
    """Return ``state`` with the deck and the hands of ``hidden`` seats (less their
    ``kept_cards``) shuffled among those places by ``rng``, every size kept (unchecked)."""
    kept = {seat: kept_cards(state, seat) for seat in hidden}
    pool = list(state.deck)
    for seat in hidden:
        pool += _without_all(state.hands[seat], kept[seat])
    pool = rng.shuffled(pool)
    deck, pool = tuple(pool[:len(state.deck)]), pool[len(state.deck):]
    hands = list(state.hands)
    for seat in hidden:
        count = len(state.hands[seat]) - len(kept[seat])
        hands[seat] = sort_cards(tuple(pool[:count]) + kept[seat])
        pool = pool[count:]
    return replace(state, deck=deck, hands=(hands[0], hands[1]))


def reachable(state: State, seats: list[int]) -> bool:
    """Return whether the hands of ``seats`` are possible now: while the mother cards are
    chosen, a seat that has not chosen holds a number card (TIPS 1, rule 32)."""
    return all(any(is_number(c) for c in state.hands[seat]) for seat in seats
               if state.phase == MOTHER and state.choices[seat] is None)


def redeal(state: State, viewer: int | None, rng: Rng) -> State:
    """Return ``state`` with the cards ``viewer`` (a seat or ``None``) may not see re-dealt from
    ``rng`` (every candidate drawn from it in turn): everything ``viewer`` may see is unchanged,
    every hidden place keeps its size, ``kept_cards`` stay, and the result is ``reachable``.
    Pure and deterministic for a given ``rng`` stream."""
    hidden = [s for s in (0, 1) if s != viewer]
    for _ in range(ATTEMPTS):
        candidate = deal_hidden(state, hidden, rng)
        if reachable(candidate, hidden):
            return candidate
    return deal_hidden(state, [], rng)
