"""The immutable match state of Reverse Curse, its records, side helpers and (de)serialisation.

Every value is a frozen dataclass of ints, strings, bools and tuples, so ``apply`` can only build
new states (``evolve``, a fast ``dataclasses.replace``). Rule source for the terms: the rulings'
"Terms" section.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, TypeVar

T = TypeVar("T")

UP, DOWN = "UP", "DOWN"
#: The two sides, in the order every per-side tuple of the state uses.
SIDES: tuple[str, str] = (UP, DOWN)

#: Phases in the order a set goes through them (``finished`` ends the match).
PHASES = ("order", "mulligan", "shop", "deployment", "finished")

#: Seats per format (one side = one player in 1v1, a team of 2 or 3 otherwise; seed §8).
FORMAT_SEATS: Mapping[str, int] = {"1v1": 2, "2v2": 4, "3v3": 6}
#: Regulation -> (KO distance, maximum number of sets) (seed §2).
REGULATIONS: Mapping[str, tuple[int, int]] = {"full": (24, 6), "half": (12, 3)}
#: Cards dealt to each side per set (seed §6); a team splits them evenly (seed §8).
HAND_PER_SIDE = 6
#: Turns per set (seed §6: 12 cards, alternating).
TURNS_PER_SET = 12


@dataclass(frozen=True)
class FieldCard:
    """One card on the field: its code, who played it and whether everyone can see it.

    ``seat``/``side`` are the player who put it there (for a REBORN_UNICORN card: the summoner).
    """

    card: str
    seat: int
    side: str
    face_up: bool

    def to_json(self) -> dict[str, Any]:
        """Return ``{"card", "seat", "side", "face_up"}`` (raw: includes a face-down card)."""
        return {"card": self.card, "seat": self.seat, "side": self.side, "face_up": self.face_up}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FieldCard:
        """Inverse of ``to_json``."""
        return cls(data["card"], data["seat"], data["side"], data["face_up"])


@dataclass(frozen=True)
class MulliganChoice:
    """A side's mulligan answer: the seat that gave it and the card sent (``None`` = keep)."""

    seat: int
    card: str | None


@dataclass(frozen=True)
class SetRecord:
    """A resolved set: number (1-based), first side, final field (T1 first), result, position."""

    set_no: int
    first_side: str
    field: tuple[FieldCard, ...]
    result: int
    position_after: int


@dataclass(frozen=True)
class Ending:
    """How the match ended: ranks per seat, reason (ko/decision/draw/resign), final position."""

    ranks: tuple[int, ...]
    reason: str
    position: int


@dataclass(frozen=True)
class State:
    """The whole match. Per-side tuples are indexed ``(UP, DOWN)``; ``hands`` by seat.

    Attributes:
        regulation, format, turn_seconds, shop_seconds, monsters: the validated room options.
        seed: the secret match seed (every random draw derives from it).
        up_parity: seat ``s`` is on side UP iff ``s % 2 == up_parity`` (the coin toss).
        set_no: the current set, 1-based. position: the ladder position (+ = toward UP's goal).
        phase: one of ``PHASES``. first_side: who plays T1 this set (``None`` while choosing).
        hands: each seat's hand. deck: undealt cards, next draw first. graveyard: this set's.
        field: played cards, T1 first. turn: the turn being played (0 before deployment).
        mulligan: per side, ``None`` while pending. energy, held: per side (monsters).
        offer: the shop's offer. shop_queue: sides still to shop, current first.
        veiled: VEIL_SNAIL is in force for the current turn.
        last_actor: per side, ``(seat, set_no, phase)`` of its last action (for
            ``already_played``), ``None`` before it first acts.
        history: resolved sets. ending: set once the match is over.
    """

    regulation: str
    format: str
    turn_seconds: int
    shop_seconds: int
    monsters: bool
    seed: bytes
    up_parity: int
    set_no: int = 1
    position: int = 0
    phase: str = "mulligan"
    first_side: str | None = None
    hands: tuple[tuple[str, ...], ...] = ()
    deck: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    field: tuple[FieldCard, ...] = ()
    turn: int = 0
    mulligan: tuple[MulliganChoice | None, MulliganChoice | None] = (None, None)
    energy: tuple[int, int] = (0, 0)
    held: tuple[str | None, str | None] = (None, None)
    offer: tuple[str, ...] = ()
    shop_queue: tuple[str, ...] = ()
    veiled: bool = False
    last_actor: tuple[tuple[int, int, str] | None, tuple[int, int, str] | None] = (None, None)
    history: tuple[SetRecord, ...] = ()
    ending: Ending | None = None


#: The names of ``State``'s fields (``evolve`` refuses any other).
_STATE_FIELDS: frozenset[str] = frozenset(f.name for f in fields(State))


# --------------------------------------------------------------------------- side helpers


def side_index(side: str) -> int:
    """Return 0 for UP, 1 for DOWN (the index into per-side tuples)."""
    return SIDES.index(side)


def other(side: str) -> str:
    """Return the opposing side."""
    return DOWN if side == UP else UP


def players(state: State) -> int:
    """Return the number of seats of the match."""
    return FORMAT_SEATS[state.format]


# Seats alternate sides (rulings "Formats": a team is every other seat) and the coin toss picks
# UP's parity: seat ``s`` is on UP iff ``s % 2 == up_parity``, i.e. the index of its side in
# ``SIDES`` is ``(s + up_parity) % 2``. The three helpers below inline that expression (they
# are on every hot path).


def side_of(state: State, seat: int) -> str:
    """Return the side of ``seat`` (see the rule above)."""
    return SIDES[(seat + state.up_parity) % 2]


def seat_side_index(state: State, seat: int) -> int:
    """Return the index of ``seat``'s side into per-side tuples: 0 for UP, 1 for DOWN."""
    return (seat + state.up_parity) % 2


def side_for(seat: int, up_parity: int) -> str:
    """Return the side of ``seat`` when UP's parity is ``up_parity`` (see the rule above)."""
    return SIDES[(seat + up_parity) % 2]


def seats_of(state: State, side: str) -> tuple[int, ...]:
    """Return the seats of ``side`` in increasing order."""
    return _SIDE_SEATS[(state.format, state.up_parity, side)]


def side_cards(state: State, side: str) -> list[tuple[int, int]]:
    """Return every hand card of ``side`` as ``(seat, index in that seat's hand)``, seat order
    (one card each: a uniform choice among them is a uniform card of the side's hand)."""
    return [(seat, i) for seat in seats_of(state, side) for i in range(len(state.hands[seat]))]


def seats_for(fmt: str, up_parity: int, side: str) -> tuple[int, ...]:
    """Return the seats of ``side`` in a ``fmt`` match whose UP parity is ``up_parity``.

    Raises:
        KeyError: for an unknown format, parity or side.
    """
    return _SIDE_SEATS[(fmt, up_parity, side)]


#: ``(format, up_parity, side)`` -> that side's seats: seat ``s`` is on UP iff
#: ``s % 2 == up_parity`` (rulings "Formats"); a table because views and legality ask often.
_SIDE_SEATS: Mapping[tuple[str, int, str], tuple[int, ...]] = {
    (fmt, parity, side): tuple(s for s in range(count) if side_for(s, parity) == side)
    for fmt, count in FORMAT_SEATS.items() for parity in (0, 1) for side in SIDES
}


def ko_distance(state: State) -> int:
    """Return the KO distance: 24 (full) or 12 (half) (seed §2)."""
    return REGULATIONS[state.regulation][0]


def max_sets(state: State) -> int:
    """Return the maximum number of sets: 6 (full) or 3 (half) (seed §2)."""
    return REGULATIONS[state.regulation][1]


def per_side(values: Sequence[Any], side: str, value: Any) -> tuple[Any, Any]:
    """Return a copy of the per-side pair ``values`` with ``side``'s entry set to ``value``.

    Raises:
        ValueError: for a side that is neither UP nor DOWN.
    """
    if side == UP:
        return value, values[1]
    if side == DOWN:
        return values[0], value
    raise ValueError(f"Unknown side {side!r}.")


def evolve(state: State, **changes: Any) -> State:
    """Return a copy of ``state`` with ``changes`` applied: ``dataclasses.replace`` without its
    per-field ``getattr`` and ``__init__`` round trip (the engine's hottest call).

    ``state`` is not modified. ``State`` has no ``__post_init__``, so skipping ``__init__`` loses
    no check.

    Raises:
        TypeError: for a name that is not a ``State`` field (like ``dataclasses.replace``).
    """
    return evolved(state, changes)


def evolved(state: State, changes: Mapping[str, Any]) -> State:
    """``evolve`` with the changes as a mapping (``changes`` is only read).

    Raises:
        TypeError: for a name that is not a ``State`` field.
    """
    if not _STATE_FIELDS.issuperset(changes):
        unknown = sorted(changes.keys() - _STATE_FIELDS)
        raise TypeError(f"State has no field {unknown[0]!r}.")
    # A new combined dict: every evolved state's dict has the fields at the same indices, so
    # CPython's attribute-load caches hit (``dict.copy`` would keep the first state's split
    # layout); far cheaper than filling a new instance field by field.
    values = {**state.__dict__}
    values[_DERIVED] = {}  # derived from the old fields: never carried over
    values.update(changes)
    new = object.__new__(State)
    object.__setattr__(new, "__dict__", values)
    return new


#: The instance ``__dict__`` key of an object's derived values (see ``derived``).
_DERIVED = "_derived"
#: ``derived``'s "no argument" and "not computed yet" markers.
_NO_ARG, _MISSING = object(), object()


def derived(obj: Any, build: Callable[..., T], arg: Hashable = _NO_ARG) -> T:
    """Return ``build(obj)`` (``build(obj, arg)`` when ``arg`` is given), computed once per
    object, ``build`` and ``arg`` (``to_act``, ``legal_actions``, ``apply`` and views
    ask the same questions of one state).

    The values live in ``obj``'s instance ``__dict__`` (key ``_derived``), outside the dataclass
    fields, so equality, hashing, ``repr`` and ``dump_state`` are unchanged; ``evolve`` gives
    the new state an empty memo, never the old values. ``obj`` must be an immutable record of this package (``State``,
    ``SetRecord``...) and ``build`` a pure function; its result is shared by every caller, so
    it must be immutable or only ever handed out read-only or as a copy.
    """
    try:
        values = obj._derived  # an evolved state has it (an attribute load is the fast path)
    except AttributeError:
        values = obj.__dict__[_DERIVED] = {}
    key = build if arg is _NO_ARG else (build, arg)
    value = values.get(key, _MISSING)
    if value is _MISSING:
        value = values[key] = build(obj) if arg is _NO_ARG else build(obj, arg)
    return value


def with_hand(state: State, seat: int, hand: Sequence[str]) -> State:
    """Return ``state`` with ``seat``'s hand replaced by ``hand``."""
    return evolve(state, hands=replaced_hand(state.hands, seat, hand))


def replaced_hand(hands: tuple[tuple[str, ...], ...], seat: int,
                  hand: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Return a copy of the per-seat ``hands`` with ``seat``'s hand replaced by ``hand``."""
    out = list(hands)
    out[seat] = tuple(hand)
    return tuple(out)


@lru_cache(maxsize=1024)
def field_card(card: str, seat: int, side: str, face_up: bool) -> FieldCard:
    """Return ``FieldCard(card, seat, side, face_up)``, one shared instance per value (it is
    immutable; at most 24 codes x 6 seats x 2 sides x 2 cards)."""
    return FieldCard(card, seat, side, face_up)


def without_one(cards: Sequence[str], card: str) -> tuple[str, ...]:
    """Return ``cards`` with the first copy of ``card`` removed (``ValueError`` if absent)."""
    out = list(cards)
    out.remove(card)
    return tuple(out)


def behind_side(position: int) -> str | None:
    """Return the side the position disfavours (``None`` at 0): DOWN if ``position > 0``."""
    if position == 0:
        return None
    return DOWN if position > 0 else UP


def field_resolved(state: State) -> bool:
    """Return whether ``state.field`` is a resolved set's field, public to everyone (rulings
    "Hidden information": "After a set is resolved its field is public").

    Only a match that ended on a set's resolution (K.O., decision or draw) keeps that field on
    the table (every other resolution deals the next set); a resign mid-set leaves an
    unresolved field, which stays hidden.
    """
    return bool(state.history) and state.history[-1].set_no == state.set_no


def deployment_side(state: State) -> str:
    """Return the side that plays the current turn (the first side plays odd turns; seed §6)."""
    assert state.first_side is not None
    return state.first_side if state.turn % 2 == 1 else other(state.first_side)


# --------------------------------------------------------------------------- (de)serialisation


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


def dump_state(state: State) -> dict[str, Any]:
    """Return the full raw state as JSON-ready data (never sent to clients)."""
    return _plain(state)


def _field(items: Sequence[Mapping[str, Any]]) -> tuple[FieldCard, ...]:
    return tuple(FieldCard.from_json(item) for item in items)


def _mulligan(item: Mapping[str, Any] | None) -> MulliganChoice | None:
    return None if item is None else MulliganChoice(item["seat"], item["card"])


def _record(item: Mapping[str, Any]) -> SetRecord:
    return SetRecord(item["set_no"], item["first_side"], _field(item["field"]), item["result"],
                     item["position_after"])


def load_state(data: Mapping[str, Any]) -> State:
    """Inverse of ``dump_state``.

    Raises:
        KeyError/TypeError/ValueError: for data that is not a dumped state.
    """
    ending = data["ending"]
    return replace(
        State(data["regulation"], data["format"], data["turn_seconds"], data["shop_seconds"],
              data["monsters"], bytes.fromhex(data["seed"]), data["up_parity"]),
        set_no=data["set_no"], position=data["position"], phase=data["phase"],
        first_side=data["first_side"],
        hands=tuple(tuple(hand) for hand in data["hands"]),
        deck=tuple(data["deck"]), graveyard=tuple(data["graveyard"]),
        field=_field(data["field"]), turn=data["turn"],
        mulligan=tuple(_mulligan(m) for m in data["mulligan"]),  # type: ignore[arg-type]
        energy=tuple(data["energy"]), held=tuple(data["held"]),
        offer=tuple(data["offer"]), shop_queue=tuple(data["shop_queue"]),
        veiled=data["veiled"],
        last_actor=tuple(None if a is None else tuple(a)  # type: ignore[arg-type]
                         for a in data["last_actor"]),
        history=tuple(_record(r) for r in data["history"]),
        ending=None if ending is None else Ending(tuple(ending["ranks"]), ending["reason"],
                                                  ending["position"]),
    )
