"""What one viewer may see of a match, in the shape of docs/protocol.md "Reverse Curse view".

Rule source: the rulings' "Hidden information": a side sees its own (team's) hands, face-up
cards, the graveyard, energies, held monsters, hand sizes and which field cards are face-down; never
the opponent's hand, the deck order, face-down cards it did not play, or the opponent's mulligan
answer. Spectators see public information only; a resolved set's field is public — in the
history and, when the match ended on that set's resolution, on the field itself (every card
face-up for everyone).
"""

from __future__ import annotations

from typing import Any

from engine.reverse_curse.legality import acting_side
from engine.reverse_curse.outcome import ladder_record, outcome_of
from engine.reverse_curse.resolution import resolve
from engine.reverse_curse.state import (DOWN, FORMAT_SEATS, REGULATIONS, UP, SetRecord,
                                        State, derived, field_resolved, players,
                                        seats_of, side_of)

#: Seat number -> its key in the view's per-seat objects (JSON object keys are strings).
_SEAT_KEYS: tuple[str, ...] = tuple(str(s) for s in range(max(FORMAT_SEATS.values())))


def _viewer_side(state: State, viewer: int | None) -> str | None:
    if viewer is None or not 0 <= viewer < players(state):
        return None
    return side_of(state, viewer)


def _mulligan(state: State, side: str | None) -> dict[str, str] | None:
    """The viewer's own side's mulligan answer during the mulligan (never the other side's)."""
    if side is None or state.phase != "mulligan":
        return None
    choice = state.mulligan[0 if side == UP else 1]
    if choice is None:
        return {"mine": "pending"}
    return {"mine": "kept" if choice.card is None else choice.card}


def history_entry(record: SetRecord) -> dict[str, Any]:
    """A resolved set, public: field (T1 first), result, position after and the LIFO trace.

    Shape: ``outcome.ladder_record`` plus ``"steps"`` (``resolution.Step.to_json`` each). Built
    once per record (``state.derived``) and shared by every view that shows it: read-only.
    """
    return derived(record, _history_entry)


def _history_entry(record: SetRecord) -> dict[str, Any]:
    _, steps = resolve([f.card for f in record.field])
    return {**ladder_record(record), "steps": [s.to_json() for s in steps]}


def render(state: State, viewer: int | None) -> dict[str, Any]:
    """Return the JSON-ready view of ``state`` for seat ``viewer`` (``None`` = spectator).

    A view is read-only: its ``history`` entries are shared with the other views of the match
    (``history_entry``); everything else is new every call.
    """
    side = _viewer_side(state, viewer)
    ups, downs = seats_of(state, UP), seats_of(state, DOWN)
    hands, phase, ending = state.hands, state.phase, state.ending
    public = field_resolved(state)
    energy, held = state.energy, state.held
    ko, sets = REGULATIONS[state.regulation]
    return {
        "game": "reverse_curse",
        "format": state.format, "regulation": state.regulation,
        "ko": ko, "max_sets": sets, "monsters": state.monsters,
        "sides": {UP: list(ups), DOWN: list(downs)},
        "my_side": side,
        "phase": phase, "set": state.set_no, "turn": state.turn,
        "first_side": state.first_side, "side_to_act": acting_side(state),
        "position": state.position,
        "hands": {} if side is None else {
            _SEAT_KEYS[s]: list(hands[s]) for s in (ups if side == UP else downs)},
        "hand_sizes": dict(zip(_SEAT_KEYS, map(len, hands))),
        # A field card shows its code if face-up, played by the viewer's side, or the field is
        # public (resolved); ``face_up`` is true for a card everyone sees.
        "field": [{"turn": turn, "seat": card.seat, "side": card.side,
                   "card": card.card if card.face_up or public or card.side == side else None,
                   "face_up": card.face_up or public}
                  for turn, card in enumerate(state.field, 1)],
        "graveyard": list(state.graveyard), "deck_size": len(state.deck),
        "mulligan": _mulligan(state, side) if phase == "mulligan" else None,
        "energy": {UP: energy[0], DOWN: energy[1]},
        "held": {UP: held[0], DOWN: held[1]},
        "shop": {"offer": list(state.offer), "side": state.shop_queue[0]} if phase == "shop"
        else None,
        "veiled": state.veiled,
        "history": list(map(history_entry, state.history)),
        "outcome": None if ending is None else outcome_of(state).to_json(),  # type: ignore[union-attr]
    }
