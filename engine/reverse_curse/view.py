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
from engine.reverse_curse.resolution import steps_json, trace
from engine.reverse_curse.state import (
    DOWN,
    FORMAT_SEATS,
    REGULATIONS,
    UP,
    SetRecord,
    State,
    derived,
    field_resolved,
    seats_for,
    side_for,
)

#: Seat number -> its key in the view's per-seat objects (JSON object keys are strings).
_SEAT_KEYS: tuple[str, ...] = tuple(str(s) for s in range(max(FORMAT_SEATS.values())))


#: ``(side, (UP seats, DOWN seats), ((key, seat) of each seat whose hand the viewer sees))``.
_Seating = tuple[str | None, tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[str, int], ...]]


def _seating_of(fmt: str, up_parity: int, viewer: object) -> _Seating:
    """The viewer's side (``None``: a spectator or a seat the match does not have), both sides'
    seats and the seats whose hands the viewer sees (its side's)."""
    ups, downs = seats_for(fmt, up_parity, UP), seats_for(fmt, up_parity, DOWN)
    if viewer is None or not 0 <= viewer < FORMAT_SEATS[fmt]:  # type: ignore[operator]
        return None, (ups, downs), ()
    side = side_for(viewer, up_parity)  # type: ignore[arg-type]
    return side, (ups, downs), tuple((_SEAT_KEYS[s], s) for s in (ups if side == UP else downs))


#: ``(format, up_parity, viewer)`` -> ``_seating_of`` of it, for every seat and the spectator.
_SEATINGS: dict[tuple[str, int, int | None], _Seating] = {
    (fmt, parity, viewer): _seating_of(fmt, parity, viewer)
    for fmt, seats in FORMAT_SEATS.items() for parity in (0, 1)
    for viewer in (None, *range(seats))
}


def _seating(state: State, viewer: int | None) -> _Seating:
    """``_seating_of`` for ``state``'s seats; from the table for an int (or ``None``) viewer."""
    if viewer is None or type(viewer) is int:
        found = _SEATINGS.get((state.format, state.up_parity, viewer))
        if found is not None:
            return found
    return _seating_of(state.format, state.up_parity, viewer)


def _hand_sizes(hands: tuple[tuple[str, ...], ...]) -> dict[str, int]:
    """Seat key -> number of cards in that seat's hand (1v1, the default, built directly)."""
    if len(hands) == 2:
        return {"0": len(hands[0]), "1": len(hands[1])}
    return {key: len(hand) for key, hand in zip(_SEAT_KEYS, hands)}


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
    _, steps = trace([f.card for f in record.field])
    return {**ladder_record(record), "steps": steps_json(steps)}


def _field(state: State, side: str | None) -> list[dict[str, Any]]:
    """The field, T1 first: ``{"turn", "seat", "side", "card", "face_up"}`` per card. A card
    shows its code if face-up, played by the viewer's ``side``, or the field is public
    (resolved); ``face_up`` is true for a card everyone sees."""
    if field_resolved(state):
        return [{"turn": turn, "seat": card.seat, "side": card.side, "card": card.card,
                 "face_up": True} for turn, card in enumerate(state.field, 1)]
    return [{"turn": turn, "seat": card.seat, "side": card.side,
             "card": card.card if card.face_up or card.side == side else None,
             "face_up": card.face_up} for turn, card in enumerate(state.field, 1)]


def render(state: State, viewer: int | None) -> dict[str, Any]:
    """Return the JSON-ready view of ``state`` for seat ``viewer`` (``None`` = spectator).

    A view is read-only: its ``history`` entries are shared with the other views of the match
    (``history_entry``); everything else is new every call.
    """
    side, (ups, downs), mine = _seating(state, viewer)
    hands, phase, ending = state.hands, state.phase, state.ending
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
        "hands": {key: list(hands[seat]) for key, seat in mine},
        "hand_sizes": _hand_sizes(hands),
        "field": _field(state, side),
        "graveyard": list(state.graveyard), "deck_size": len(state.deck),
        "mulligan": _mulligan(state, side) if phase == "mulligan" else None,
        "energy": {UP: energy[0], DOWN: energy[1]},
        "held": {UP: held[0], DOWN: held[1]},
        "shop": {"offer": list(state.offer), "side": state.shop_queue[0]} if phase == "shop"
        else None,
        "veiled": state.veiled,
        "history": [derived(record, _history_entry) for record in state.history],
        "outcome": None if ending is None else outcome_of(state).to_json(),  # type: ignore[union-attr]
    }
