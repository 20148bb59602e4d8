"""``GridReversal``: the engine protocol object of 逆转 Grid Reversal (engine id ``grid_reversal``).

Rules: /work/shared/rules/grid_reversal.md (binding rulings) over the seed text
000_f5be2f32a746b4df; players' rules in docs/rules/grid_reversal.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Event, GameBase, GameSpec, IllegalAction, Outcome, Rng

from . import redeal as redeal_module
from . import sample as sample_module
from . import state as state_module
from . import view as view_module
from .data import NUMBER_CARDS, RESPONSE_SECONDS
from .flow import finish, outcome_of
from .legal import legal_moves, moves_of, to_act
from .moves import Move, parse
from .options import SPEC
from .refusals import refusal
from .setup import new_state
from .state import DISCARD, DRAW_OFFER, MOTHER, OVER, RESPONSE, SETUP_DISCARD, State
from .turns import perform


class GridReversal(GameBase):
    """The Grid Reversal engine (pure; states are immutable ``state.State`` values): 2 seats;
    options ``turn_seconds``, ``width``, ``depth``, ``number_copies``, ``effect_copies``
    (``GameBase.validate_options``)."""

    spec: GameSpec = SPEC

    def new_game(self, options: Mapping[str, Any], players: int, seed: bytes) -> State:
        """Return the state after the deal (mother cards still to choose).

        Raises:
            ValueError: if ``players`` is not 2.
        """
        if players != 2:
            raise ValueError("Grid Reversal is played by exactly 2 players.")
        return new_state(self.validate_options(options), seed)

    def to_act(self, state: State) -> frozenset[int]:
        """Return the seats to act: both in the setup choices, else one; empty when over."""
        return to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Return the JSON actions ``seat`` may take now (see docs/protocol.md)."""
        return [m.to_json() for m in legal_moves(state, seat)]

    def apply(self, state: State, seat: int, action: Mapping[str, Any]
              ) -> tuple[State, list[Event]]:
        """Return ``(new_state, events)`` after ``seat`` takes ``action``.

        Raises:
            InvalidAction: ``malformed_action`` / ``unknown_action`` for a bad shape.
            IllegalAction: ``game_over``, ``not_your_turn`` or a game code from
                ``refusals.py`` when the move is not among the legal ones.
        """
        move = parse(action)
        if move not in moves_of(state, seat, move.type):
            raise IllegalAction(*refusal(state, seat, move))
        return perform(state, seat, move)

    def view(self, state: State, viewer: int | None) -> dict[str, Any]:
        """Return what ``viewer`` (seat or ``None``) may see, JSON-ready."""
        return view_module.view(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        """Return the outcome once the match is over, else ``None``."""
        return outcome_of(state)

    def deadline_action(self, state: State, seat: int) -> dict[str, Any]:
        """Return what a timeout plays ("Clocks" ruling): the hand's first number card as the
        mother card, the last card of the hand as a discard, a declined Ban window or draw
        offer, and the end of the stage as it stands."""
        if state.phase == MOTHER:
            card = next(c for c in state.hands[seat] if c in NUMBER_CARDS)
            return Move("choose_mother", card).to_json()
        if state.phase in (SETUP_DISCARD, DISCARD):
            return Move("discard", state.hands[seat][-1]).to_json()
        if state.phase == RESPONSE:
            return Move("decline").to_json()
        if state.phase == DRAW_OFFER:
            return Move("decline_draw").to_json()
        return Move("end_stage").to_json()

    def clock_seconds(self, state: State, seat: int) -> int:
        """Return the seconds of ``seat``'s decision: 15 in a Ban window, else
        ``turn_seconds``."""
        if state.phase == RESPONSE:
            return RESPONSE_SECONDS
        return state.option["turn_seconds"]

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """Return the finished state in which ``seat`` resigned (the other seat wins)."""
        if state.phase == OVER:
            raise IllegalAction("game_over", "The match is over.")
        state, events = finish(state, 1 - seat, "resign")
        return state, [Event("resigned", {"seat": seat}), *events]

    def dump(self, state: State) -> dict[str, Any]:
        """Return the raw state as JSON-ready data."""
        return state_module.dump(state)

    def load(self, data: Mapping[str, Any]) -> State:
        """Return the state of ``dump`` data."""
        return state_module.load(data)

    def sample(self, view: Mapping[str, Any], seat: int, rng: Rng) -> State:
        """Return a state consistent with ``view`` (``seat``'s own view), the hidden cards and
        the opponent's setup choice drawn from ``rng`` (``sample.sample``).

        Raises:
            ValueError: for a view that is not a seat's view of a reachable state.
        """
        return sample_module.sample(view, seat, rng)

    def redeal(self, state: State, viewer: int | None, rng: Rng) -> State:
        """Return ``state`` with the cards hidden from ``viewer`` re-dealt from ``rng``
        (``redeal.redeal``)."""
        return redeal_module.redeal(state, viewer, rng)


GAME = GridReversal()
