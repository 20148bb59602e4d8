"""The set lifecycle: deal, order, mulligan resolution, deployment turns, calculation, match end.

Rule source: the rulings' "Match flow" 1-8 and seed §5-§7. Every function returns a new state
(and the events it produced); none mutates its input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Event, Rng
from engine.reverse_curse.cards import DECK, ENERGY_CAP, MONSTERS
from engine.reverse_curse.resolution import steps_json, trace
from engine.reverse_curse.state import (
    HAND_PER_SIDE,
    SIDES,
    TURNS_PER_SET,
    Ending,
    SetRecord,
    State,
    behind_side,
    evolve,
    evolved,
    ko_distance,
    max_sets,
    other,
    players,
    replaced_hand,
    side_index,
    side_of,
)

Events = list[Event]

#: Monsters offered by the shop each set (seed §4 "ラインナップ決定").
SHOP_OFFER_SIZE = 4


def new_match(options: Mapping[str, object], seed: bytes) -> tuple[State, Events]:
    """Return the state at the start of set 1 (sides by coin toss, ruling "Match flow" 1).

    Args:
        options: validated options (``regulation``, ``format``, ``turn_seconds``,
            ``shop_seconds``, ``monsters``).
        seed: the match seed.
    """
    state = State(
        regulation=str(options["regulation"]), format=str(options["format"]),
        turn_seconds=int(options["turn_seconds"]),  # type: ignore[call-overload]
        shop_seconds=int(options["shop_seconds"]),  # type: ignore[call-overload]
        monsters=bool(options["monsters"]), seed=seed,
        up_parity=Rng.derive(seed, "sides").coin())
    return start_set(state, 1)


def deal(state: State, set_no: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Return ``(hands, deck)``: a fresh shuffle of the 24 cards dealt (rulings "Match flow" 2).

    The deck is ``Rng.derive(seed, "set", set_no).shuffled(DECK)``; seat 0 gets the first
    ``6 / members`` cards, seat 1 the next, and so on; the rest is the deck (next draw first).
    """
    cards = Rng.derive(state.seed, "set", set_no).shuffled(DECK)
    seats = players(state)
    size = HAND_PER_SIDE * 2 // seats
    hands = tuple(tuple(cards[i * size:(i + 1) * size]) for i in range(seats))
    return hands, tuple(cards[seats * size:])


def _gained_energy(state: State) -> tuple[int, int]:
    """Every side gains +1 energy at the start of a set, capped at 3 (seed §4)."""
    if not state.monsters:
        return state.energy
    up, down = state.energy
    return min(ENERGY_CAP, up + 1), min(ENERGY_CAP, down + 1)


def _first_side(state: State, set_no: int) -> str | None:
    """Set 1: coin toss ``Rng.derive(seed, "first")``. Later sets: position != 0 -> ``None``
    (the behind side chooses); position 0 -> the side that did not go first in the previous
    set (rulings "Match flow" 3)."""
    if set_no == 1:
        return SIDES[Rng.derive(state.seed, "first").coin()]
    if behind_side(state.position) is not None:
        return None
    return other(state.history[-1].first_side)


def start_set(state: State, set_no: int) -> tuple[State, Events]:
    """Return the state at the start of set ``set_no``: energy, deal, then the first player
    (``_first_side``; phase ``order`` when the behind side is to choose it), in one ``evolve``."""
    first = _first_side(state, set_no)
    hands, deck = deal(state, set_no)
    state = evolve(state, set_no=set_no, phase="mulligan" if first else "order",
                   first_side=first, graveyard=(), field=(), turn=0, mulligan=(None, None),
                   offer=(), shop_queue=(), veiled=False, energy=_gained_energy(state),
                   hands=hands, deck=deck)
    return state, [Event("set_started", {"set": set_no, "first_side": first,
                                         "phase": state.phase})]


def choose_order(state: State, go_first: bool) -> tuple[State, Events]:
    """The behind side goes first (``go_first``) or second; then the mulligan starts."""
    chooser = behind_side(state.position)
    assert chooser is not None
    first = chooser if go_first else other(chooser)
    state = evolve(state, first_side=first, phase="mulligan")
    return state, [Event("order_chosen", {"side": chooser, "first": go_first,
                                          "first_side": first})]


def resolve_mulligans(state: State) -> tuple[State, Events]:
    """Apply both mulligans (UP's first): each sent card goes face-up to the graveyard and its
    member draws the deck's next card (rulings "Match flow" 4); then the shop or deployment."""
    sent = []
    for side in SIDES:
        choice = state.mulligan[side_index(side)]
        assert choice is not None
        if choice.card is None:
            continue
        hand = list(state.hands[choice.seat])
        hand.remove(choice.card)
        hand.append(state.deck[0])
        state = evolve(state, hands=replaced_hand(state.hands, choice.seat, hand),
                       deck=state.deck[1:], graveyard=state.graveyard + (choice.card,))
        sent.append({"side": side, "card": choice.card})
    events = [Event("mulligan_done", {"sent": sent})]
    state, more = open_shop(state) if state.monsters else start_deployment(state)
    return state, events + more


def shop_order(state: State) -> tuple[str, str]:
    """Return the sides in shopping order: the behind side first; at position 0 the side going
    second first (seed §4 "ビハインド側から"; ruling "Match flow" 5)."""
    assert state.first_side is not None
    first = behind_side(state.position) or other(state.first_side)
    return first, other(first)


def open_shop(state: State) -> tuple[State, Events]:
    """Offer four random monsters held by no one, ``Rng.derive(seed, "shop", set)``."""
    pool = [m for m in MONSTERS if m not in state.held]
    offer = tuple(Rng.derive(state.seed, "shop", state.set_no).shuffled(pool)[:SHOP_OFFER_SIZE])
    queue = shop_order(state)
    state = evolve(state, phase="shop", offer=offer, shop_queue=queue)
    return state, [Event("shop_opened", {"offer": list(offer), "side": queue[0]})]


def end_shopping(state: State) -> tuple[State, Events]:
    """The current shopper is done: the next side shops, or deployment starts."""
    queue = state.shop_queue[1:]
    if queue:
        return evolve(state, shop_queue=queue), []
    return start_deployment(evolve(state, shop_queue=(), offer=()))


def start_deployment(state: State) -> tuple[State, Events]:
    """Turn 1 of the deployment, the first side to play (seed §6 "配置フェーズ")."""
    return evolve(state, phase="deployment", turn=1, veiled=False), []


def next_turn(state: State, **played: Any) -> tuple[State, Events]:
    """After a card is played: the next turn, or the calculation after turn 12.

    ``played`` is the play's own changes to ``state`` (``State`` fields other than ``turn`` and
    ``veiled``), applied in the same ``evolve`` as the turn's.
    """
    if state.turn < TURNS_PER_SET:
        played["turn"], played["veiled"] = state.turn + 1, False  # ``played`` is our own dict
        return evolved(state, played), []
    return finish_set(evolved(state, played))


def finish_set(state: State) -> tuple[State, Events]:
    """Resolve the field LIFO, move the position by the result, then KO / decision / next set
    (rulings "Match flow" 7-8)."""
    assert state.first_side is not None
    result, steps = trace([f.card for f in state.field])
    position = state.position + result
    record = SetRecord(state.set_no, state.first_side, state.field, result, position)
    state = evolve(state, position=position, history=state.history + (record,), veiled=False)
    events = [Event("set_resolved", {"set": record.set_no, "result": result,
                                     "position_after": position,
                                     "steps": steps_json(steps)})]
    if abs(position) >= ko_distance(state):
        state, more = end_match(state, "ko")
    elif state.set_no >= max_sets(state):
        state, more = end_match(state, "decision" if position else "draw")
    else:
        state, more = start_set(state, state.set_no + 1)
    return state, events + more


def end_match(state: State, reason: str, loser: str | None = None) -> tuple[State, Events]:
    """End the match: ``loser`` (or the side the position disfavours) ranks 2, the other 1;
    position 0 without a loser is a draw (all rank 1)."""
    if loser is None:
        loser = behind_side(state.position)
    ranks = tuple(2 if side_of(state, s) == loser else 1 for s in range(players(state)))
    ending = Ending(ranks, reason, state.position)
    state = evolve(state, phase="finished", ending=ending, turn=0, veiled=False,
                    shop_queue=(), offer=())
    winner = None if loser is None else other(loser)
    return state, [Event("match_over", {"reason": reason, "winner": winner,
                                        "position": state.position,
                                        "ranks": list(ranks)})]
