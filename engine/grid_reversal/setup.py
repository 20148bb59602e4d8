"""Setup (rule 32, TIPS 1): the deal with its redeal rule, mother cards, the setup discard."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import Event, Rng

from .board import Layout
from .data import OPENING_HAND, REDEAL_ATTEMPTS, build_deck, is_number, sort_cards, value_of
from .deck import take_from_hand
from .flow import Step, begin_round
from .state import MOTHER, SETUP_DISCARD, Piece, State


def _deal(deck: tuple[str, ...], seed: bytes, seat: int
          ) -> tuple[tuple[str, ...], tuple[str, ...], list[tuple[int, tuple[str, ...]]]]:
    """Return (hand, rest of deck, redeals) for ``seat``: a hand of 6 without a number card is
    shown, shuffled back and redrawn until it holds one (TIPS 1)."""
    shown: list[tuple[int, tuple[str, ...]]] = []
    for attempt in range(REDEAL_ATTEMPTS):
        hand, deck = sort_cards(deck[:OPENING_HAND]), deck[OPENING_HAND:]
        if any(is_number(c) for c in hand):
            return hand, deck, shown
        shown.append((seat, hand))
        deck = tuple(Rng.derive(seed, "redeal", seat, attempt).shuffled(deck + hand))
    raise RuntimeError("no number card could be dealt")  # pragma: no cover - options prevent it


def new_state(options: Mapping[str, Any], seed: bytes) -> State:
    """Return the match before the mother cards are chosen.

    The first player is drawn from the seed; the deck is shuffled from the seed; the first
    player, then the second, draws 6 (with redeals).
    """
    layout = Layout(options["width"], options["depth"])
    first = Rng.derive(seed, "first").coin()
    deck = tuple(Rng.derive(seed, "deck").shuffled(
        build_deck(options["number_copies"], options["effect_copies"])))
    hands: list[tuple[str, ...]] = [(), ()]
    redeals: list[tuple[int, tuple[str, ...]]] = []
    for seat in (first, 1 - first):
        hands[seat], deck, shown = _deal(deck, seed, seat)
        redeals += shown
    return State(options=tuple(sorted(options.items())), seed=seed, first=first, phase=MOTHER,
                 round=0, hands=(hands[0], hands[1]), deck=deck, discard=(),
                 grid=(None,) * layout.size, redeals=tuple(redeals), turn=first)


def _choose(state: State, seat: int, card: str) -> State:
    choices = list(state.choices)
    choices[seat] = card
    return replace(state, choices=(choices[0], choices[1]))


def choose_mother(state: State, seat: int, card: str) -> Step:
    """Return the state after ``seat`` secretly chooses its mother card; once both have chosen,
    both are revealed on the S squares (ruling "Setup": simultaneous)."""
    state = _choose(state, seat, card)
    events = [Event("mother_chosen", {"seat": seat, "card": card}, frozenset({seat}))]
    if None in state.choices:
        return state, events
    grid = list(state.grid)
    cells = []
    for number, who in enumerate((state.first, 1 - state.first)):
        chosen = state.choices[who]
        state = take_from_hand(state, who, chosen)  # type: ignore[arg-type]
        cell = state.start_of(who)
        grid[state.layout.index(cell)] = Piece(number, who, value_of(chosen))  # type: ignore[arg-type]
        cells.append({"seat": who, "cell": list(cell), "value": value_of(chosen)})  # type: ignore[arg-type]
    state = replace(state, grid=tuple(grid), next_id=2, choices=(None, None), phase=SETUP_DISCARD)
    return state, events + [Event("mothers_revealed", {"mothers": cells})]


def setup_discard(state: State, seat: int, card: str) -> Step:
    """Return the state after ``seat`` secretly picks its setup discard; once both have, both
    go to the discard pile together and round 1 begins (rule 32: hold 4)."""
    state = _choose(state, seat, card)
    events = [Event("setup_discard_chosen", {"seat": seat, "card": card}, frozenset({seat}))]
    if None in state.choices:
        return state, events
    order = (state.first, 1 - state.first)
    discarded = [state.choices[who] for who in order]
    for who in order:
        state = take_from_hand(state, who, state.choices[who])  # type: ignore[arg-type]
    state = replace(state, choices=(None, None),
                    discard=state.discard + tuple(discarded))  # type: ignore[arg-type]
    events.append(Event("setup_discards_revealed", {
        "discards": [{"seat": who, "card": c} for who, c in zip(order, discarded)]}))
    state, more = begin_round(state)
    return state, events + more
