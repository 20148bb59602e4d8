"""Builders for Reverse Curse test states: hands, field and position given explicitly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engine.reverse_curse import GAME
from engine.reverse_curse.cards import DECK
from engine.reverse_curse.state import FieldCard, State, side_of

UP_SEAT, DOWN_SEAT = 0, 1  # with up_parity=0 (the default here) even seats are UP


def rest_of_deck(*used: Iterable[str]) -> tuple[str, ...]:
    """Return the 24-card deck minus every card in ``used`` (one copy per occurrence)."""
    deck = list(DECK)
    for group in used:
        for card in group:
            deck.remove(card)
    return tuple(deck)


def make_state(hands: Sequence[Sequence[str]], *, phase: str = "deployment",
               first_side: str | None = "UP", turn: int = 1,
               field: Sequence[tuple[str, int, bool] | FieldCard] = (),
               position: int = 0, set_no: int = 1, deck: Sequence[str] | None = None,
               graveyard: Sequence[str] = (), fmt: str = "1v1", regulation: str = "full",
               monsters: bool = False, up_parity: int = 0, seed: bytes = b"test",
               **more: Any) -> State:
    """Return a state with the given hands (one per seat), field ``(card, seat, face_up)``
    entries T1 first, and the rest of the deck (unless ``deck`` is given) as the deck."""
    cards = [FieldCard(f[0], f[1], "UP" if f[1] % 2 == up_parity else "DOWN", f[2])
             if isinstance(f, tuple) else f for f in field]
    if deck is None:
        deck = rest_of_deck(*hands, [c.card for c in cards], graveyard)
    state = State(regulation=regulation, format=fmt, turn_seconds=30, shop_seconds=20,
                  monsters=monsters, seed=seed, up_parity=up_parity)
    return replace(state, set_no=set_no, position=position, phase=phase, first_side=first_side,
                   hands=tuple(tuple(h) for h in hands), deck=tuple(deck),
                   graveyard=tuple(graveyard), field=tuple(cards), turn=turn, **more)


def all_cards(state: State) -> Counter:
    """Return every card of the set: deck, graveyard, field and hands (always the 24)."""
    found = Counter(state.deck) + Counter(state.graveyard)
    found.update(f.card for f in state.field)
    for hand in state.hands:
        found.update(hand)
    return found


def play(state: State, seat: int, card: str) -> State:
    """Return the state after ``seat`` plays ``card``."""
    return GAME.apply(state, seat, {"type": "play", "card": card})[0]


def new_match(seed: bytes = b"seed", **options: Any) -> State:
    """Return a fresh match with the given options (others default)."""
    opts = GAME.validate_options(options)
    return GAME.new_game(opts, GAME.seats(opts), seed)


def seat_of_side(state: State, side: str) -> int:
    """Return the lowest seat of ``side``."""
    return min(s for s in range(len(state.hands)) if side_of(state, s) == side)
