"""A state drawn from one seat's view (the determinization a search bot needs).

Rule source: ruling "Hidden information": hands and the deck are hidden; hand sizes, the grid,
spent pairs, the discard pile (and the room options, so the deck's make-up) are public.
``sample`` copies everything the view shows and deals the unseen cards — the deck of the
options (``data.build_deck``) less the viewer's hand, the discard pile, the grid's cards and the
effect cards and Bans waiting on the stack — between the opponent's hand (``hand_sizes``) and
the deck (``deck_size``). Constraints the rules put on them:

* the number card of the opponent's Swap (b) waiting on the stack is still in its hand ("Effect
  cards": Swap (b) takes it from the hand when the effect resolves);
* while the mother cards are chosen the opponent's hand holds a number card (TIPS 1 redeals a
  hand without one); its secret setup choice (ruling "Setup": simultaneous) is none when the
  viewer has chosen (both in would have revealed them), else drawn: none, or one card of its
  hand (a number card for the mother card).

What the view does not show is filled in: a new random match seed (it decides reshuffles),
piece ids in row-major order, ``reshuffles`` 0, ``busy`` only when a stage's placement was
used (``placements_left`` 0 before the standoff), ``flipped`` false, the standoff positions
seen as the current one alone, and ``turn`` in the setup and once the match is over (the view
names no seat then) as ``first``. The view keeps no record of which cards a reshuffle put in the
deck, so the deck may hold any unseen card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import Rng

from .data import build_deck, is_number, sort_cards
from .flow import position_key
from .moves import EFFECT_TYPES, parse
from .state import DRAW_OFFER, MOTHER, RESPONSE, SETUP_DISCARD, STAGE, Piece, Play, State

#: Bytes of the made-up match seed of a sampled state.
SEED_BYTES = 16
#: Draws of the opponent's hand tried before giving up on a view (a hand without a number card
#: while the mother cards are chosen is drawn again).
ATTEMPTS = 200


def _grid(view: Mapping[str, Any]) -> tuple[tuple[Piece | None, ...], dict[tuple[int, int], int]]:
    """Return the grid's pieces (ids 0, 1, ... in row-major order) and each occupied cell's id."""
    pieces: list[Piece | None] = []
    ids: dict[tuple[int, int], int] = {}
    for r, row in enumerate(view["grid"]):
        for c, entry in enumerate(row):
            if entry is None:
                pieces.append(None)
                continue
            ids[(r, c)] = len(ids)
            pieces.append(Piece(ids[(r, c)], entry["owner"], entry["value"]))
    return tuple(pieces), ids


def _unseen(view: Mapping[str, Any], seat: int, stack: tuple[Play, ...]) -> Counter:
    """Return the cards the view does not place: the options' deck less every card it shows.

    Raises:
        ValueError: when the view shows a card more often than the deck holds it.
    """
    shown = Counter(view["hands"][str(seat)]) + Counter(view["discard"])
    shown.update(str(entry["value"]) for row in view["grid"] for entry in row if entry)
    shown.update(EFFECT_TYPES.get(play.move.type, "BAN") for play in stack)
    unseen = Counter(build_deck(view["number_copies"], view["effect_copies"]))
    if shown - unseen:
        raise ValueError("The view shows cards the deck does not hold.")
    return unseen - shown


def _opponent_hand(view: Mapping[str, Any], seat: int, pool: list[str], kept: list[str],
                   rng: Rng) -> tuple[tuple[str, ...], list[str]]:
    """Return the opponent's hand (``kept`` plus cards drawn from ``pool``) and the deck
    (the rest, shuffled); while the mother cards are chosen the hand holds a number card.

    Raises:
        ValueError: when no such hand is found in ``ATTEMPTS`` draws.
    """
    size = view["hand_sizes"][str(1 - seat)] - len(kept)
    for _ in range(ATTEMPTS):
        cards = rng.shuffled(pool)
        hand = sort_cards(cards[:size] + kept)
        if view["phase"] != MOTHER or any(is_number(c) for c in hand):
            return hand, cards[size:]
    raise ValueError("The view leaves the opponent no hand with a number card.")


def _choices(view: Mapping[str, Any], seat: int, hand: tuple[str, ...],
             rng: Rng) -> tuple[str | None, str | None]:
    """Return both seats' secret setup choices (see the module doc); none outside the setup."""
    choices: list[str | None] = [None, None]
    if view["phase"] not in (MOTHER, SETUP_DISCARD):
        return None, None
    choices[seat] = view["my_choice"]
    if choices[seat] is None and rng.coin():
        fits = [c for c in hand if view["phase"] != MOTHER or is_number(c)]
        choices[1 - seat] = rng.choice(sorted(fits))
    return choices[0], choices[1]


def _outcome(view: Mapping[str, Any]) -> tuple[int | None, str | None]:
    outcome = view["outcome"]
    return (None, None) if outcome is None else (outcome["detail"]["winner"], outcome["reason"])


def sample(view: Mapping[str, Any], seat: int, rng: Rng) -> State:
    """Return a state consistent with ``view``, ``seat``'s own view, the hidden cards drawn
    from ``rng`` (see the module doc for what is drawn and under which constraints).

    Raises:
        ValueError: when ``view`` is not a seat's view of a reachable state (no hand of
            ``seat``, or its counts leave no deal).
    """
    if str(seat) not in view["hands"]:
        raise ValueError("sample needs a seat's own view.")
    stack = tuple(Play(entry["seat"], parse(entry["action"])) for entry in view["stack"])
    kept = [p.move.card for p in stack
            if p.seat != seat and p.move.type == "swap_in" and p.move.card is not None]
    pool = Counter(_unseen(view, seat, stack))
    pool.subtract(kept)
    if -pool:
        raise ValueError("The view's Swap card is not among the unseen cards.")
    other, deck = _opponent_hand(view, seat, sorted(pool.elements()), kept, rng)
    if len(deck) != view["deck_size"]:
        raise ValueError("The view's counts do not add up to the deck.")
    hands = (tuple(view["hands"][str(seat)]), other) if seat == 0 else (
        other, tuple(view["hands"][str(seat)]))
    grid, ids = _grid(view)
    winner, reason = _outcome(view)
    options = {"turn_seconds": view["turn_seconds"], "width": view["width"],
               "depth": view["depth"], "number_copies": view["number_copies"],
               "effect_copies": view["effect_copies"]}
    in_stage = view["phase"] in (STAGE, RESPONSE, DRAW_OFFER)
    state = State(
        options=tuple(sorted(options.items())),
        seed=bytes(rng.randbelow(256) for _ in range(SEED_BYTES)), first=view["first"],
        phase=view["phase"], round=view["round"], hands=hands, deck=tuple(deck),
        discard=tuple(view["discard"]), grid=grid, next_id=len(ids),
        spent=frozenset(tuple(sorted((ids[tuple(a)], ids[tuple(b)])))  # type: ignore[misc]
                        for a, b in view["spent"]),
        choices=_choices(view, seat, other, rng),
        redeals=tuple((r["seat"], tuple(r["cards"])) for r in view["redeals"]),
        turn=view["first"] if view["turn"] is None else view["turn"],
        placements=view["placements_left"],
        busy=in_stage and not view["standoff"] and view["placements_left"] == 0,
        offered=view["draw_offered"], stack=stack,
        responder=1 - stack[-1].seat if view["phase"] == RESPONSE else None,
        idle=view["idle_stages"], flipless=view["flipless_stages"], standoff=view["standoff"],
        winner=winner, reason=reason)
    if view["standoff"] and in_stage:
        state = replace(state, positions=(position_key(state),))
    return state
