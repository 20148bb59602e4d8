"""Summoning monsters during deployment: when it is allowed, and what each monster does.

Rule source: the rulings' "Monsters" table (including the SPY_EYE override and the ruling that a
summoned monster returns to the pool), seed §4 "モンスターカード一覧". Random choices come from
``Rng.derive(seed, "monster", set, turn, monster)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.core import Event, Rng
from engine.reverse_curse.cards import (
    REBORN_UNICORN,
    ROLL_MOLE,
    SHARE_BEAR,
    SPY_EYE,
    SUMMON_COST,
    SWITCH_WITCH,
    VEIL_SNAIL,
)
from engine.reverse_curse.state import (
    TURNS_PER_SET,
    FieldCard,
    State,
    evolve,
    other,
    per_side,
    seat_side_index,
    seats_of,
    side_cards,
    side_index,
    side_of,
    with_hand,
)

Events = list[Event]


#: Monster -> predicate "not allowed now" for a summon by ``seat`` (rulings "not allowed when").
_FORBIDDEN: dict[str, Callable[[State, int], bool]] = {
    VEIL_SNAIL: lambda state, seat: False,
    SWITCH_WITCH: lambda state, seat: not state.deck or not state.hands[seat],
    SPY_EYE: lambda state, seat: not state.field or state.field[-1].face_up,
    SHARE_BEAR: lambda state, seat: (state.turn == TURNS_PER_SET or not side_cards(
        state, other(side_of(state, seat)))),
    ROLL_MOLE: lambda state, seat: state.turn == 1 or not state.field,
    REBORN_UNICORN: lambda state, seat: not state.graveyard or not state.field,
}


def summon_block(state: State, seat: int) -> str | None:
    """Return why ``seat`` may not summon now, or ``None`` when it may.

    Assumes it is ``seat``'s side's deployment turn. Codes: ``no_monster`` (the side holds
    none), ``not_enough_energy`` (energy below the summon cost), ``summon_not_allowed`` (the
    monster's "not allowed when" condition holds).
    """
    side = seat_side_index(state, seat)
    monster = state.held[side]
    if monster is None:
        return "no_monster"
    if state.energy[side] < SUMMON_COST[monster]:
        return "not_enough_energy"
    if _FORBIDDEN[monster](state, seat):
        return "summon_not_allowed"
    return None


def _rng(state: State, monster: str) -> Rng:
    return Rng.derive(state.seed, "monster", state.set_no, state.turn, monster)


def _veil_snail(state: State, seat: int) -> tuple[State, Events]:
    """The card this side plays this turn goes face-down even if it is a number."""
    return evolve(state, veiled=True), []


def _switch_witch(state: State, seat: int) -> tuple[State, Events]:
    """A random card of the summoner's hand goes face-up to the graveyard; the summoner draws a
    random deck card (seen only by the summoner's side)."""
    rng = _rng(state, SWITCH_WITCH)
    hand = list(state.hands[seat])
    discarded = hand.pop(rng.randbelow(len(hand)))
    deck = list(state.deck)
    drawn = deck.pop(rng.randbelow(len(deck)))
    state = evolve(with_hand(state, seat, hand + [drawn]), deck=tuple(deck),
                    graveyard=state.graveyard + (discarded,))
    audience = frozenset(seats_of(state, side_of(state, seat)))
    return state, [Event("monster_effect", {"monster": SWITCH_WITCH, "discarded": discarded}),
                   Event("card_drawn", {"seat": seat, "card": drawn}, audience)]


def _spy_eye(state: State, seat: int) -> tuple[State, Events]:
    """The top field card turns face-up for everyone (any face-down card: override)."""
    top = replace(state.field[-1], face_up=True)
    state = evolve(state, field=state.field[:-1] + (top,))
    return state, [Event("monster_effect", {"monster": SPY_EYE, "turn": len(state.field),
                                            "card": top.card})]


def _swap(state: State, giver: tuple[int, int], taker: tuple[int, int]) -> State:
    """Swap the hand card at ``giver`` with the one at ``taker`` (each stays in its slot)."""
    (seat_a, i), (seat_b, j) = giver, taker
    card_a, card_b = state.hands[seat_a][i], state.hands[seat_b][j]
    hand_a = list(state.hands[seat_a])
    hand_a[i] = card_b
    state = with_hand(state, seat_a, hand_a)
    hand_b = list(state.hands[seat_b])
    hand_b[j] = card_a
    return with_hand(state, seat_b, hand_b)


def _share_bear(state: State, seat: int) -> tuple[State, Events]:
    """One random card of each side changes sides; in a team the received card goes to the
    member who gave one. Each side is told what it gave and received."""
    rng = _rng(state, SHARE_BEAR)
    side = side_of(state, seat)
    mine = rng.choice(side_cards(state, side))
    theirs = rng.choice(side_cards(state, other(side)))
    gave, got = state.hands[mine[0]][mine[1]], state.hands[theirs[0]][theirs[1]]
    state = _swap(state, mine, theirs)
    return state, [
        Event("monster_effect", {"monster": SHARE_BEAR}),
        Event("cards_swapped", {"gave": gave, "received": got, "seat": mine[0]},
              frozenset(seats_of(state, side))),
        Event("cards_swapped", {"gave": got, "received": gave, "seat": theirs[0]},
              frozenset(seats_of(state, other(side)))),
    ]


def _roll_mole(state: State, seat: int) -> tuple[State, Events]:
    """The top field card moves to the bottom (it becomes T1)."""
    state = evolve(state, field=state.field[-1:] + state.field[:-1])
    return state, [Event("monster_effect", {"monster": ROLL_MOLE})]


def _reborn_unicorn(state: State, seat: int) -> tuple[State, Events]:
    """A random graveyard card replaces the top field card face-up (played by the summoner);
    the replaced card goes face-up to the graveyard."""
    grave = list(state.graveyard)
    revived = grave.pop(_rng(state, REBORN_UNICORN).randbelow(len(grave)))
    replaced = state.field[-1]
    top = FieldCard(revived, seat, side_of(state, seat), True)
    state = evolve(state, field=state.field[:-1] + (top,),
                    graveyard=tuple(grave) + (replaced.card,))
    return state, [Event("monster_effect", {"monster": REBORN_UNICORN, "revived": revived,
                                            "replaced": replaced.card})]


_EFFECTS: dict[str, Callable[[State, int], tuple[State, Events]]] = {
    VEIL_SNAIL: _veil_snail, SWITCH_WITCH: _switch_witch, SPY_EYE: _spy_eye,
    SHARE_BEAR: _share_bear, ROLL_MOLE: _roll_mole, REBORN_UNICORN: _reborn_unicorn,
}


def summon(state: State, seat: int) -> tuple[State, Events]:
    """Summon the side's held monster: pay its cost, return it to the pool, apply its effect.

    Assumes ``summon_block(state, seat) is None`` (checked by the caller against the legal list).
    """
    side = side_of(state, seat)
    monster = state.held[side_index(side)]
    assert monster is not None
    energy = state.energy[side_index(side)] - SUMMON_COST[monster]
    state = evolve(state, energy=per_side(state.energy, side, energy),
                    held=per_side(state.held, side, None))
    state, events = _EFFECTS[monster](state, seat)
    return state, [Event("summoned", {"side": side, "seat": seat, "monster": monster})] + events
