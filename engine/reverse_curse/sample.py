"""A state drawn from one seat's view (the determinization a search bot needs).

Rule source: the rulings' "Hidden information" (what a side sees) and "Match flow" 4-6 (what
the hidden places can hold). Everything the view shows is copied; the unseen cards — the full
24-card deck less the viewer's side's hands, the graveyard and every field card whose code the
view shows — are dealt at random among the hidden places, every size kept: the other side's
hands (``hand_sizes``), the deck (``deck_size``) and the face-down field cards the other side
played. Constraints the rules put on them:

* a face-down card is a special card (seed §6: specials are played face-down, numbers face-up),
  except the one card a side may play under VEIL_SNAIL in a set (one monster, summoned at most
  once a set): one of the other side's face-down cards may be any card when that side may have
  summoned VEIL_SNAIL this set (monsters on, the current turn not veiled, the other side
  holding no monster now and the viewer's side not holding VEIL_SNAIL), and must be one when
  the unseen specials are fewer than those face-down cards;
* the other side's mulligan answer (rulings "Match flow" 4: unseen until both are in) is
  pending when the viewer's side has answered (both in would have ended the mulligan), else
  drawn: pending, or keep or one card of a random member's drawn hand.

What the view does not show is filled in: a new random match seed (it decides later deals,
shops and timeouts), ``turn_seconds``/``shop_seconds`` at their defaults, which member of the
viewer's side gave its mulligan answer (a random member holding the card sent), the face-up
flags of resolved fields (numbers face-up), and ``last_actor`` (the side's latest field card's
seat in deployment, the answering member in the mulligan; it only words refusals). The view
keeps no record of the card SHARE_BEAR gave away or of which earlier card VEIL_SNAIL veiled, so
neither is kept in place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core import Rng
from engine.reverse_curse.cards import DECK, SPECIALS, VEIL_SNAIL, is_number
from engine.reverse_curse.flow import shop_order
from engine.reverse_curse.state import (
    DOWN,
    FORMAT_SEATS,
    SIDES,
    UP,
    Ending,
    FieldCard,
    MulliganChoice,
    SetRecord,
    State,
    evolve,
    other,
    side_for,
)

#: Bytes of the made-up match seed of a sampled state.
SEED_BYTES = 16
#: The clocks a view does not show (the room options' defaults).
DEFAULT_TURN_SECONDS = DEFAULT_SHOP_SECONDS = 30


def _field_card(entry: Mapping[str, Any], card: str) -> FieldCard:
    return FieldCard(card, entry["seat"], entry["side"], entry["face_up"])


def _record(entry: Mapping[str, Any]) -> SetRecord:
    """Return a resolved set of the view's ``history`` (its cards' face-up flags: numbers up)."""
    field = tuple(FieldCard(f["card"], f["seat"], f["side"], is_number(f["card"]))
                  for f in entry["field"])
    return SetRecord(entry["set"], entry["first_side"], field, entry["result"],
                     entry["position_after"])


def _unseen(view: Mapping[str, Any]) -> Counter:
    """Return the cards the view does not place: the deck less every card code it shows.

    Raises:
        ValueError: when the view shows a card more often than the deck holds it.
    """
    unseen = Counter(DECK)
    shown = Counter(view["graveyard"])
    for hand in view["hands"].values():
        shown.update(hand)
    shown.update(f["card"] for f in view["field"] if f["card"] is not None)
    if shown - unseen:
        raise ValueError("The view shows cards the deck does not hold.")
    return unseen - shown


def _veil_possible(view: Mapping[str, Any], side: str) -> bool:
    """Return whether the side other than ``side`` may have played a card under VEIL_SNAIL in
    this set (see the module doc)."""
    held = view["held"]
    return (view["monsters"] and not view["veiled"] and held[other(side)] is None
            and held[side] != VEIL_SNAIL)


def _face_down_cards(pool: list[str], slots: int, veil: bool, rng: Rng) -> list[str]:
    """Remove from ``pool`` and return the cards of ``slots`` face-down slots, in slot order:
    specials, but for at most one slot that may hold any card when ``veil`` (drawn uniformly
    among the slots and "none"), and must when the pool holds one special fewer than slots.

    Raises:
        ValueError: when the pool cannot fill the slots so.
    """
    specials = sorted(c for c in pool if c in SPECIALS)
    if len(specials) >= slots:
        veiled = rng.choice([*range(slots), None]) if veil and slots else None
    elif veil and len(specials) == slots - 1:
        veiled = rng.randbelow(slots)
    else:
        raise ValueError("The view leaves too few special cards for the face-down cards.")
    out = rng.shuffled(specials)[:slots - (veiled is not None)]
    for card in out:
        pool.remove(card)
    if veiled is not None:
        card = rng.choice(sorted(pool))
        pool.remove(card)
        out.insert(veiled, card)
    return out


def _mulligans(view: Mapping[str, Any], side: str, hands: Sequence[Sequence[str]],
               seats: Mapping[str, Sequence[int]], rng: Rng) -> list[MulliganChoice | None]:
    """Return both sides' mulligan answers (``UP``, ``DOWN``) during the mulligan, else none."""
    answers: list[MulliganChoice | None] = [None, None]
    if view["phase"] != "mulligan":
        return answers
    mine = view["mulligan"]["mine"]
    index = SIDES.index(side)
    if mine != "pending":
        card = None if mine == "kept" else mine
        holders = [s for s in seats[side] if card is None or card in hands[s]]
        answers[index] = MulliganChoice(rng.choice(holders), card)
    elif rng.coin():
        member = rng.choice(seats[other(side)])
        answers[1 - index] = MulliganChoice(member, rng.choice((None, *sorted(set(hands[member])))))
    return answers


def _last_actor(view: Mapping[str, Any], mulligan: Sequence[MulliganChoice | None],
                field: Sequence[FieldCard]) -> tuple[Any, Any]:
    """Return ``last_actor`` per side: the answering member in the mulligan, the seat of the
    side's latest field card in deployment, else none (it only words refusals)."""
    out: list[tuple[int, int, str] | None] = [None, None]
    for i, side in enumerate(SIDES):
        choice = mulligan[i]
        if choice is not None:
            out[i] = (choice.seat, view["set"], "mulligan")
        played = [card.seat for card in field if card.side == side]
        if view["phase"] == "deployment" and played:
            out[i] = (played[-1], view["set"], "deployment")
    return out[0], out[1]


def _ending(outcome: Mapping[str, Any] | None) -> Ending | None:
    if outcome is None:
        return None
    return Ending(tuple(outcome["ranks"]), outcome["reason"], outcome["detail"]["position"])


def _shop_queue(state: State, view: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the sides still to shop: both in shopping order while the first shops, then the
    second alone (rulings "Match flow" 5, ``flow.shop_order``)."""
    if view["shop"] is None:
        return ()
    order = shop_order(state)
    return order if view["shop"]["side"] == order[0] else order[1:]


def sample(view: Mapping[str, Any], seat: int, rng: Rng) -> State:
    """Return a state consistent with ``view``, ``seat``'s own view, the hidden part drawn
    from ``rng`` (see the module doc for what is drawn and under which constraints).

    Raises:
        ValueError: when ``view`` is not a seat's view of a reachable state (``my_side``
            missing, or its counts leave no deal).
    """
    side = view["my_side"]
    if side is None:
        raise ValueError("sample needs a seat's own view.")
    count = FORMAT_SEATS[view["format"]]
    seats = {UP: tuple(view["sides"][UP]), DOWN: tuple(view["sides"][DOWN])}
    parity = 0 if 0 in seats[UP] else 1
    resolved = bool(view["history"]) and view["history"][-1]["set"] == view["set"]
    history = tuple(_record(entry) for entry in view["history"])
    pool = sorted(_unseen(view).elements())
    hidden = [i for i, f in enumerate(view["field"]) if f["card"] is None]
    face_down = _face_down_cards(pool, len(hidden), _veil_possible(view, side), rng)
    rest = rng.shuffled(pool)
    hands: list[tuple[str, ...]] = []
    for s in range(count):
        if side_for(s, parity) == side:
            hands.append(tuple(view["hands"][str(s)]))
        else:
            size = view["hand_sizes"][str(s)]
            hands.append(tuple(rest[:size]))
            rest = rest[size:]
    if len(rest) != view["deck_size"]:
        raise ValueError("The view's counts do not add up to the 24 cards.")
    cards = {i: card for i, card in zip(hidden, face_down)}
    field = (history[-1].field if resolved else
             tuple(_field_card(f, cards.get(i, f["card"])) for i, f in enumerate(view["field"])))
    mulligan = _mulligans(view, side, hands, seats, rng)
    base = State(view["regulation"], view["format"], DEFAULT_TURN_SECONDS, DEFAULT_SHOP_SECONDS,
                 view["monsters"], bytes(rng.randbelow(256) for _ in range(SEED_BYTES)), parity)
    state = replace(
        base, set_no=view["set"], position=view["position"], phase=view["phase"],
        first_side=view["first_side"], hands=tuple(hands), deck=tuple(rest),
        graveyard=tuple(view["graveyard"]), field=field, turn=view["turn"],
        mulligan=(mulligan[0], mulligan[1]),
        energy=(view["energy"][UP], view["energy"][DOWN]),
        held=(view["held"][UP], view["held"][DOWN]),
        offer=tuple(view["shop"]["offer"]) if view["shop"] else (),
        veiled=view["veiled"], last_actor=_last_actor(view, mulligan, field), history=history,
        ending=_ending(view["outcome"]))
    return evolve(state, shop_queue=_shop_queue(state, view))
