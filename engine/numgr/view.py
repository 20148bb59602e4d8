"""What a viewer may see of a NumGR state (rulings "Hidden information").

Hands, cards held face-down under a θ (except by their owner, or a θ a β-copied θ must show,
seed θ ④) and the deck order are hidden; areas, HP, hand sizes, pending cards and the discard pile
are public. The shape is documented in docs/protocol.md ("NumGR view").
"""

from __future__ import annotations

from typing import Any

from engine.core import Outcome
from engine.numgr import cards as C
from engine.numgr.effects import area_totals, locked_ids, stack_value
from engine.numgr.resolve import holds_card
from engine.numgr.state import Stack, State


def base_role(stack: Stack) -> str | None:
    """``zero`` (a 0 under a number), ``synergy`` (a γ's base), ``held`` (under a θ) or ``None``."""
    if stack.base is None:
        return None
    if stack.is_theta:
        return "held"
    return "synergy" if stack.acts_as == C.GAMMA else "zero"


def _lockers(state: State) -> dict[int, int]:
    """Map each locked stack id to the id of the effective θ that locks it."""
    locked = locked_ids(state)
    return {s.lock: s.id for s in state.stacks
            if s.is_theta and s.lock is not None and s.id not in locked and s.lock in locked}


def stack_view(stack: Stack, viewer: int | None, locked_by: int | None) -> dict[str, Any]:
    """Return one stack as ``viewer`` sees it (a hidden held card shows as ``base: null``)."""
    hidden = holds_card(stack) and not stack.shown and viewer != stack.owner
    value = stack_value(stack)
    return {
        "id": stack.id, "owner": stack.owner, "kind": stack.kind, "main": stack.main,
        "face": stack.face, "attr": stack.attr, "acts_as": stack.acts_as,
        "base": None if hidden else stack.base, "base_role": base_role(stack),
        "held_hidden": hidden, "mode": stack.mode, "base_mode": stack.base_mode,
        "copy": stack.copy, "lock": stack.lock, "reflected": stack.reflected,
        "locked_by": locked_by, "attack": value.attack, "defense": value.defense,
        "unstoppable": value.unstoppable,
    }


def _totals(state: State, seat: int) -> dict[str, int]:
    t = area_totals(state, seat)
    return {"attack": t.attack, "unstoppable": t.unstoppable, "defense": t.defense,
            "defense_circle": t.defense_circle}


def view(state: State, viewer: int | None) -> dict[str, Any]:
    """Return the JSON-ready view of ``viewer`` (a seat, or ``None`` for a spectator).

    ``current`` is the seat whose turn it is, ``None`` once the match is over (as the other
    games name no seat to act then)."""
    lockers = _lockers(state)
    outcome = state.outcome
    return {
        "game": "numgr",
        "seat": viewer,
        "hp": list(state.hp),
        "hp_max": state.options["hp"],
        "variants": {"bomb": state.options["variant_bomb"], "333": state.options["variant_333"]},
        "turn": state.turn,
        "quiet_turns": state.quiet,
        "current": None if state.step == "over" else state.current,
        "step": state.step,
        "hand": sorted(state.hands[viewer]) if viewer is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "deck_size": len(state.deck),
        "discard": list(state.discard),
        "pending": [sorted(p) for p in state.pending],
        "areas": [[stack_view(s, viewer, lockers.get(s.id)) for s in state.area(seat)]
                  for seat in (0, 1)],
        "totals": [_totals(state, seat) for seat in (0, 1)],
        "outcome": Outcome.from_json(outcome).to_json() if outcome else None,
    }
