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
from engine.reverse_curse.resolution import resolve
from engine.reverse_curse.state import (SIDES, FieldCard, SetRecord, State, field_resolved,
                                        ko_distance, max_sets, players, seats_of, side_index,
                                        side_of)
from engine.reverse_curse.outcome import ladder_record, outcome_of


def _viewer_side(state: State, viewer: int | None) -> str | None:
    if viewer is None or not 0 <= viewer < players(state):
        return None
    return side_of(state, viewer)


def _field_entry(turn: int, card: FieldCard, side: str | None,
                 public: bool) -> dict[str, Any]:
    """A field card for the view: its code if face-up, played by the viewer's side, or the
    field is ``public`` (resolved); ``face_up`` is true for a card everyone sees."""
    face_up = card.face_up or public
    shown = face_up or card.side == side
    return {"turn": turn, "seat": card.seat, "side": card.side,
            "card": card.card if shown else None, "face_up": face_up}


def _mulligan(state: State, side: str | None) -> dict[str, str] | None:
    """The viewer's own side's mulligan answer during the mulligan (never the other side's)."""
    if side is None or state.phase != "mulligan":
        return None
    choice = state.mulligan[side_index(side)]
    if choice is None:
        return {"mine": "pending"}
    return {"mine": "kept" if choice.card is None else choice.card}


def history_entry(record: SetRecord) -> dict[str, Any]:
    """A resolved set, public: field (T1 first), result, position after and the LIFO trace."""
    _, steps = resolve([f.card for f in record.field])
    return {**ladder_record(record), "steps": [s.to_json() for s in steps]}


def _shop(state: State) -> dict[str, Any] | None:
    if state.phase != "shop":
        return None
    return {"offer": list(state.offer), "side": state.shop_queue[0]}


def render(state: State, viewer: int | None) -> dict[str, Any]:
    """Return the JSON-ready view of ``state`` for seat ``viewer`` (``None`` = spectator)."""
    side = _viewer_side(state, viewer)
    visible = seats_of(state, side) if side else ()
    outcome = outcome_of(state)
    public = field_resolved(state)
    return {
        "game": "reverse_curse",
        "format": state.format, "regulation": state.regulation,
        "ko": ko_distance(state), "max_sets": max_sets(state), "monsters": state.monsters,
        "sides": {s: list(seats_of(state, s)) for s in SIDES},
        "my_side": side,
        "phase": state.phase, "set": state.set_no, "turn": state.turn,
        "first_side": state.first_side, "side_to_act": acting_side(state),
        "position": state.position,
        "hands": {str(s): list(state.hands[s]) for s in visible},
        "hand_sizes": {str(s): len(h) for s, h in enumerate(state.hands)},
        "field": [_field_entry(i + 1, f, side, public) for i, f in enumerate(state.field)],
        "graveyard": list(state.graveyard), "deck_size": len(state.deck),
        "mulligan": _mulligan(state, side),
        "energy": {s: state.energy[side_index(s)] for s in SIDES},
        "held": {s: state.held[side_index(s)] for s in SIDES},
        "shop": _shop(state), "veiled": state.veiled,
        "history": [history_entry(r) for r in state.history],
        "outcome": None if outcome is None else outcome.to_json(),
    }
