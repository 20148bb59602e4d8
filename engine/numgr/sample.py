"""A state drawn from one seat's view (the determinization a search bot needs).

Rule source: rulings "Hidden information": hands, cards held face-down under a θ and the deck
are hidden; areas (but held cards), HP, hand sizes, pending cards and the discard pile are
public. ``sample`` copies everything the view shows and deals the unseen cards — the 32 less
the viewer's hand, the discard pile, both seats' pending cards and every card the areas show —
among the hidden places, every size kept: the opponent's hand (``hand_sizes``), the deck
(``deck_size``) and each held card the view hides. A hidden held card has the attribute of its
θ's main card (rulings "What a play does": a θ holds one hand card of its attribute) and is
never a θ (a θ held by a θ is shown: seed θ ④, ``NumGR._play``).

What the view does not show is filled in: a new random match seed (it decides reshuffles),
``turn_seconds`` at its default, ``reshuffles`` 0, ``next_id`` one above the highest stack id
shown, ``hp_lost`` false, no pending card kept past the turn (``kept``), ``current`` once the
match is over (the view names no seat then) as ``seat``, and the variant triggers standing as
the areas' counts make them (``resolve.check_variants`` keeps a trigger while its count stays
reached). The view keeps no record of which cards a reshuffle put in the deck, so the deck may
hold any unseen card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.core import Rng
from engine.numgr import cards as C
from engine.numgr.effects import effective
from engine.numgr.state import BOMB, CARD, TRIPLE, Stack, State

#: Bytes of the made-up match seed of a sampled state.
SEED_BYTES = 16
#: The clock a view does not show (the room option's default).
DEFAULT_TURN_SECONDS = 90


def _stack(entry: Mapping[str, Any], area: int) -> Stack:
    """Return the stack of a view's area entry (a hidden held card is filled in later)."""
    kind = entry["kind"]
    base = entry["base"]
    shown = base is not None and entry["base_role"] == "held" and C.face(base) == C.THETA
    return Stack(id=entry["id"], owner=entry["owner"], area=area, main=entry["main"], base=base,
                 mode=entry["mode"], base_mode=entry["base_mode"], copy=entry["copy"],
                 lock=entry["lock"], reflected=entry["reflected"], kind=kind,
                 v_face=None if kind == CARD else entry["face"],
                 v_attr=entry["attr"] if kind == TRIPLE else None, shown=shown)


def _unseen(view: Mapping[str, Any]) -> Counter:
    """Return the cards the view does not place (each of the 32 is unique).

    Raises:
        ValueError: when the view shows a card twice.
    """
    shown = Counter(view["hand"]) + Counter(view["discard"])
    for pending in view["pending"]:
        shown.update(pending)
    for area in view["areas"]:
        for entry in area:
            shown.update(c for c in (entry["main"], entry["base"]) if c is not None)
    unseen = Counter(C.DECK)
    if shown - unseen:
        raise ValueError("The view shows a card twice or a card the deck lacks.")
    return unseen - shown


def _triggers(state: State) -> list[list[Any]]:
    """Return the variant triggers standing: ``[seat, face, kind]`` for every face whose count
    among a seat's effective main cards reaches 4 (Bomb) or 3 (333), when that variant is on."""
    options = state.options
    rules = [(BOMB, 4)] * bool(options["variant_bomb"]) + [(TRIPLE, 3)] * bool(
        options["variant_333"])
    live = effective(state)
    out = []
    for seat in (0, 1):
        counts = Counter(s.face for s in live if s.area == seat and s.kind == CARD)
        out += [[seat, face, kind] for kind, need in rules
                for face, count in sorted(counts.items()) if count >= need]
    return out


def sample(view: Mapping[str, Any], seat: int, rng: Rng) -> State:
    """Return a state consistent with ``view``, ``seat``'s own view, the hidden cards drawn
    from ``rng`` (see the module doc for what is drawn and under which constraints).

    Raises:
        ValueError: when ``view`` is not a seat's view of a reachable state (no hand, or its
            counts leave no deal).
    """
    if view["hand"] is None:
        raise ValueError("sample needs a seat's own view.")
    stacks = sorted((_stack(e, area) for area, entries in enumerate(view["areas"])
                     for e in entries), key=lambda s: s.id)
    hidden = {e["id"] for area in view["areas"] for e in area if e["held_hidden"]}
    pool = sorted(_unseen(view).elements())
    for stack in stacks:
        if stack.id in hidden:
            fits = [c for c in pool if C.attr(c) == stack.attr and C.face(c) != C.THETA]
            if not fits:
                raise ValueError("The view leaves no card for a held card.")
            stack.base = rng.choice(fits)
            pool.remove(stack.base)
    rest = rng.shuffled(pool)
    size = view["hand_sizes"][1 - seat]
    if len(rest) != size + view["deck_size"]:
        raise ValueError("The view's counts do not add up to the 32 cards.")
    hands = [list(view["hand"]), rest[:size]] if seat == 0 else [rest[:size], list(view["hand"])]
    outcome = view["outcome"]
    options = {"hp": view["hp_max"], "variant_bomb": view["variants"]["bomb"],
               "variant_333": view["variants"]["333"], "turn_seconds": DEFAULT_TURN_SECONDS}
    state = State(
        seed=bytes(rng.randbelow(256) for _ in range(SEED_BYTES)).hex(), options=options,
        deck=rest[size:], discard=list(view["discard"]), hands=hands,
        pending=[list(p) for p in view["pending"]], hp=list(view["hp"]), stacks=stacks,
        current=seat if view["current"] is None else view["current"], step=view["step"],
        turn=view["turn"],
        quiet=view["quiet_turns"], next_id=1 + max((s.id for s in stacks), default=0),
        outcome=None if outcome is None else {
            "ranks": list(outcome["ranks"]), "reason": outcome["reason"],
            "detail": dict(outcome["detail"])})
    state.triggered = _triggers(state)
    return state
