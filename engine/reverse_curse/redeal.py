"""Re-deal everything one viewer may not see (for information-leak tests and tooling).

Rule source: the rulings' "Hidden information": a side never sees the opponent's hands, the deck
order, face-down field cards it did not play, or the opponent's mulligan answer before both are
in; teammates see each other's hands; a spectator sees public information only.

The hidden places for a viewer are the hands of every seat not on its side, the deck and the
face-down field cards its side did not play. Their cards are shuffled among those places keeping
every count (hand sizes, deck size, the field's length and which of its cards are face-down). A
face-down field card that is a special card is replaced by a hidden special card only (outside a
VEIL_SNAIL turn only specials go face-down, seed §6); a face-down number (a veiled turn) by any
hidden card. A hidden side's given (not yet revealed) mulligan answer is re-chosen: a random
member of that side, then "keep" or one of that member's re-dealt cards.

Known approximations: the state does not record what a viewer learned from past events. The
card its side gave away by SHARE_BEAR may leave the opponent's hand in a re-deal (broader than the
viewer's information set: a leak test can only get stricter); a special played face-down on a
veiled turn is only swapped with specials (narrower: every re-deal is still a state the viewer
cannot tell from the real one).
"""

from __future__ import annotations

from engine.core import Rng
from engine.reverse_curse.cards import SPECIALS, is_number
from engine.reverse_curse.state import (
    SIDES,
    FieldCard,
    MulliganChoice,
    State,
    evolve,
    field_resolved,
    per_side,
    players,
    seats_of,
    side_index,
    side_of,
)


def _viewer_side(state: State, viewer: int | None) -> str | None:
    """Return the viewer's side, ``None`` for a spectator (or a seat the match does not have)."""
    if viewer is None or not 0 <= viewer < players(state):
        return None
    return side_of(state, viewer)


def _hidden_slots(state: State, side: str | None) -> tuple[list[int], list[int]]:
    """Return the indices of the face-down field cards ``side`` did not play, as
    ``(special-only slots, any-card slots)`` (a face-down number was veiled: any card fits)."""
    specials: list[int] = []
    anything: list[int] = []
    if field_resolved(state):
        return specials, anything  # a resolved field is public: nothing on it is hidden
    for i, card in enumerate(state.field):
        if not card.face_up and card.side != side:
            (anything if is_number(card.card) else specials).append(i)
    return specials, anything


def _take_specials(pool: list[str], count: int, rng: Rng) -> list[str]:
    """Remove and return ``count`` uniformly chosen special cards of ``pool``."""
    chosen = rng.shuffled(sorted(c for c in pool if c in SPECIALS))[:count]
    for card in chosen:
        pool.remove(card)
    return chosen


def _with_field(state: State, slots: list[int], cards: list[str]) -> State:
    """Return ``state`` with the field cards at ``slots`` replaced by ``cards`` (same order)."""
    field = list(state.field)
    for i, card in zip(slots, cards):
        old = field[i]
        field[i] = FieldCard(card, old.seat, old.side, old.face_up)
    return evolve(state, field=tuple(field))


def _redeal_cards(state: State, side: str | None, rng: Rng) -> State:
    """Shuffle the hidden cards among the hidden hands, the deck and hidden field slots."""
    hidden_seats = [s for s in range(players(state)) if side_of(state, s) != side]
    special_slots, any_slots = _hidden_slots(state, side)
    pool = [c for s in hidden_seats for c in state.hands[s]] + list(state.deck)
    pool += [state.field[i].card for i in special_slots + any_slots]
    placed = _take_specials(pool, len(special_slots), rng)
    rest = rng.shuffled(sorted(pool))
    placed += rest[:len(any_slots)]
    rest = rest[len(any_slots):]
    hands = list(state.hands)
    for seat in hidden_seats:
        size = len(hands[seat])
        hands[seat], rest = tuple(rest[:size]), rest[size:]
    state = evolve(state, hands=tuple(hands), deck=tuple(rest))
    return _with_field(state, special_slots + any_slots, placed)


def _redeal_mulligan(state: State, side: str | None, rng: Rng) -> State:
    """Re-choose each hidden side's given mulligan answer: a random member, then keep or one of
    that member's cards (rulings "Match flow" 4: unseen until both answers are in)."""
    if state.phase != "mulligan":
        return state
    for hidden in SIDES:
        choice = state.mulligan[side_index(hidden)]
        if hidden == side or choice is None:
            continue
        seat = rng.choice(seats_of(state, hidden))
        card = rng.choice((None, *sorted(set(state.hands[seat]))))
        state = evolve(state,
                       mulligan=per_side(state.mulligan, hidden, MulliganChoice(seat, card)),
                       last_actor=per_side(state.last_actor, hidden,
                                           (seat, state.set_no, "mulligan")))
    return state


def redeal(state: State, viewer: int | None, rng: Rng) -> State:
    """Return a copy of ``state`` with everything ``viewer`` may not see re-dealt from ``rng``.

    Args:
        state: a Reverse Curse state (not changed).
        viewer: a seat, or ``None`` for a spectator (every hand is hidden).
        rng: the stream the re-deal draws from; the match seed in ``state`` is kept (it decides
            later sets, not what is hidden now).

    Returns:
        A state whose ``view`` and ``legal_actions`` for ``viewer`` equal the real ones; the
        multiset of the 24 cards is unchanged.
    """
    side = _viewer_side(state, viewer)
    return _redeal_mulligan(_redeal_cards(state, side, rng), side, rng)
