"""NumGR match state: stacks, hands, deck, HP and turn bookkeeping, with JSON dump/load.

The state is a plain mutable dataclass that rules code only ever changes on a private copy
(``State.clone``), so ``apply`` never mutates its input. Rule source: rulings "Cards" (stacks with
a main card and base cards) and "Turn".
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.numgr import cards as C

#: Steps a player acts in (rulings "Turn": 2 defense, 3 attack, 4 optional discard); ``over``
#: once the match has ended. Clean-up (1) and refill (5) happen automatically.
STEPS = ("defense", "attack", "discard", "over")
CARD, BOMB, TRIPLE = "card", "bomb", "333"


@dataclass
class Stack:
    """One play in a play area: a main card and at most one base card.

    Attributes:
        id: unique, increasing in play order (a θ only ever locks an earlier stack).
        owner: the seat that played it (a held card returns to this seat when released).
        area: the seat whose play area holds it now (changes once, on reflection).
        main: the main card code; ``None`` for a variant stack (Bomb / 333).
        base: the base card: a 0 under a number, a γ's base, or the hand card a θ holds.
        mode: ☆ choice of the main card (``atk``/``def``/``rem``) or a γ's synergy mode.
        base_mode: ☆ choice of a 0 base whose attribute differs from the main card's.
        copy: the face a β copies (``1 2 3 A G T``), else ``None``.
        lock: the id of the opponent stack this θ locks, else ``None``.
        reflected: whether an α moved it (a stack is reflected at most once).
        kind: ``card``, ``bomb`` or ``333``.
        v_face, v_attr: face and attribute of a variant stack (``v_attr`` ``None`` for a bomb).
        shown: a held card the θ-owner must show (β copying θ holding a θ, seed θ ④).
        spared_by: for a card released from a θ that an α reflected, that α's id: it never
            reflects this stack (seed 底牌的连同效应); else ``None``.
    """

    id: int
    owner: int
    area: int
    main: str | None
    base: str | None = None
    mode: str | None = None
    base_mode: str | None = None
    copy: str | None = None
    lock: int | None = None
    reflected: bool = False
    kind: str = CARD
    v_face: str | None = None
    v_attr: str | None = None
    shown: bool = False
    spared_by: int | None = None

    @property
    def attr(self) -> str | None:
        """The stack's attribute: its main card's (``None`` for a Bomb)."""
        return C.attr(self.main) if self.main else self.v_attr

    @property
    def face(self) -> str | None:
        """The printed face of the main card (a variant stack's face for Bomb/333)."""
        return C.face(self.main) if self.main else self.v_face

    @property
    def acts_as(self) -> str | None:
        """The face the stack acts as: a β's copied face, else its printed face."""
        return self.copy if self.face == C.BETA else self.face

    @property
    def is_theta(self) -> bool:
        """Whether the stack is a θ or a β copying θ."""
        return self.kind == CARD and self.acts_as == C.THETA

    @property
    def is_alpha(self) -> bool:
        """Whether the stack is an α or a β copying α."""
        return self.kind == CARD and self.acts_as == C.ALPHA

    def cards(self) -> list[str]:
        """Return the physical cards of the stack (main first), none for a variant stack."""
        return [c for c in (self.main, self.base) if c]

    def clone(self) -> Stack:
        """Return a field-for-field copy (every field is immutable; ``copy.copy`` is 4x slower)."""
        new = object.__new__(Stack)
        new.__dict__.update(self.__dict__)
        return new


@dataclass
class State:
    """The full NumGR match state (raw: never sent to clients).

    Attributes:
        seed: the match seed, hex (reshuffles derive from it).
        options: validated options (``hp``, ``variant_bomb``, ``variant_333``, ``turn_seconds``).
        deck: draw pile, index 0 is the top.
        discard: discard pile, oldest first.
        hands: the two hands.
        pending: per seat, released held cards waiting to be completed or played this turn.
        hp: per seat.
        stacks: every stack in either play area, in id order.
        current: the seat whose turn it is.
        step: one of ``STEPS``.
        turn: 1-based turn number.
        quiet: turns in a row that ended with no HP lost.
        hp_lost: whether HP was lost in the current turn.
        next_id: the id the next stack gets.
        reshuffles: how many times the discard pile became the deck.
        triggered: ``[seat, face, kind]`` variant triggers still standing (trigger once).
        kept: pending cards that survive the end of their owner's current turn once.
        outcome: ``{"ranks", "reason", "detail"}`` once over, else ``None``.
    """

    seed: str
    options: dict[str, Any]
    deck: list[str]
    discard: list[str]
    hands: list[list[str]]
    pending: list[list[str]]
    hp: list[int]
    stacks: list[Stack]
    current: int
    step: str
    turn: int = 1
    quiet: int = 0
    hp_lost: bool = False
    next_id: int = 1
    reshuffles: int = 0
    triggered: list[list[Any]] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    outcome: dict[str, Any] | None = None

    def clone(self) -> State:
        """Return a copy that rules code may change freely.

        Every list and ``Stack`` is copied; the options and the outcome dict (never changed in
        place once set) are shared. Replaces a ``copy.deepcopy`` (most of ``apply``).
        """
        return State(
            self.seed, self.options, list(self.deck), list(self.discard),
            [list(h) for h in self.hands], [list(p) for p in self.pending], list(self.hp),
            [s.clone() for s in self.stacks], self.current, self.step, self.turn, self.quiet,
            self.hp_lost, self.next_id, self.reshuffles, [list(t) for t in self.triggered],
            list(self.kept), self.outcome)

    def stack(self, stack_id: int) -> Stack | None:
        """Return the stack with this id, or ``None`` when it left the areas."""
        return next((s for s in self.stacks if s.id == stack_id), None)

    def area(self, seat: int) -> list[Stack]:
        """Return the stacks in ``seat``'s play area, in id order."""
        return [s for s in self.stacks if s.area == seat]


def dump(state: State) -> dict[str, Any]:
    """Return the state as JSON-ready data."""
    return asdict(state)


def load(data: Mapping[str, Any]) -> State:
    """Inverse of ``dump``."""
    raw = copy.deepcopy(dict(data))
    raw["stacks"] = [Stack(**s) for s in raw["stacks"]]
    return State(**raw)
