"""A state drawn from one seat's view (the determinization a search bot needs).

Rule source: the rulings' "Hidden information": everything is public except the deck's order,
so a view shows the whole state but that order. ``sample`` copies every public fact from the
view and deals the unseen cards (the 16 deck cards not in the row nor revealed) into the deck
in an order drawn from the stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.civilization.data import DECK_IDS, RESOURCES
from engine.civilization.serial import step_from_json
from engine.civilization.state import Card, State
from engine.civilization.view import WORKER_NAMES
from engine.core import Rng

__all__ = ["sample"]

#: A view's worker name -> the state's occupant code (``EMPTY`` -1, a seat, ``NEUTRAL``).
_OCCUPANTS: dict[Any, int] = {None: -1, **{name: code for code, name in WORKER_NAMES.items()}}


def _occupant(value: Any) -> int:
    """Return the state's code of a view's ``worker`` (``None``, ``"neutral"`` or a seat)."""
    return _OCCUPANTS[value] if value in _OCCUPANTS else int(value)


def _card(entry: Mapping[str, Any]) -> Card:
    """Return the row card of a view's row entry (slot 0 faces ``slots[0]["faces"]``)."""
    slots = entry["slots"]
    return Card(entry["card"], slots[0]["faces"], entry["leader"],
                (_occupant(slots[0]["worker"]), _occupant(slots[1]["worker"])))


def sample(view: Mapping[str, Any], rng: Rng) -> State:
    """Return a state with every public fact of ``view`` and the unseen cards in a random deck.

    Args:
        view: any viewer's view (``public_view``; they differ only in ``seat``).
        rng: the stream the deck order is drawn from (one ``shuffled`` call).

    Returns:
        A ``State`` whose view equals ``view`` for the same viewer. The deck holds exactly the
        ``DECK_IDS`` that are neither in the row nor revealed (``view["deck_size"]`` of them),
        their order a uniform shuffle. Once the match is over (the view names no ``actor``
        then) the actor is the start player.
    """
    row = tuple(_card(entry) for entry in view["row"])
    revealed = None if view["revealed"] is None else view["revealed"]["card"]
    seen = {card.id for card in row} | {revealed}
    deck = tuple(rng.shuffled([i for i in DECK_IDS if i not in seen]))
    outcome = view["outcome"]
    winner = None if outcome is None else outcome["winners"][0]
    resources = tuple(tuple(view["resources"][s][r] for r in RESOURCES) for s in (0, 1))
    return State(
        view["turn_seconds"], view["round"], view["phase"], view["start_player"],
        view["start_player"] if view["actor"] is None else view["actor"],
        tuple(view["passed"]), row, deck, revealed,
        resources,  # type: ignore[arg-type]
        tuple(w["unlocked"] for w in view["workers"]),
        tuple(step_from_json(s) for s in view["queue"]), view["actions"], winner,
        "" if outcome is None else outcome["reason"])
