"""``ReverseCurseGame``: the ``engine.core.Game`` protocol for Reverse Curse Dungeons.

Rule source: /work/shared/rules/reverse_curse.md (binding rulings) over the seed rule book
``003_bc8cf77ef12037bd.txt``. This module only wires the pieces: options, the state lifecycle
(``flow``), legality (``legality``), actions (``actions``), views (``view``) and outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Event, GameBase, GameSpec, IllegalAction, OptionSpec, Outcome, Rng
from engine.reverse_curse import flow
from engine.reverse_curse.actions import apply_action
from engine.reverse_curse.legality import legal_actions, listed_actions, to_act
from engine.reverse_curse.outcome import outcome_of
from engine.reverse_curse.redeal import redeal
from engine.reverse_curse.sample import sample
from engine.reverse_curse.state import (
    FORMAT_SEATS,
    State,
    deployment_side,
    dump_state,
    load_state,
    side_cards,
    side_of,
)
from engine.reverse_curse.view import render

#: Room options (rulings "Options").
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("regulation", "choice", "full", choices=("full", "half"),
               label="Regulation (full: 6 sets, KO 24; half: 3 sets, KO 12)"),
    OptionSpec("format", "choice", "1v1", choices=("1v1", "2v2", "3v3"), label="Format"),
    OptionSpec("turn_seconds", "int", 30, minimum=10, maximum=120, label="Seconds per turn"),
    OptionSpec("shop_seconds", "int", 30, minimum=10, maximum=120, label="Seconds in the shop"),
    OptionSpec("monsters", "bool", True, label="Monsters and energy"),
)

#: Most actions in one set: order choice 1 + one mulligan and one shop answer per side 2 + 2 +
#: at most one summon per side (a side holds one monster, recruited at most once a set) 2 +
#: 12 plays.
_ACTIONS_PER_SET = 1 + 2 + 2 + 2 + 12
#: Most sets of a match (full regulation).
_MAX_SETS = 6

SPEC = GameSpec(
    id="reverse_curse",
    titles={"en": "Reverse Curse Dungeons", "zh": "逆转诅咒地下城",
            "ja": "REVERSE CURSE DUNGEONS ～さかさまダンジョン～"},
    min_players=2, max_players=6, hidden_information=True,
    max_length=_ACTIONS_PER_SET * _MAX_SETS, options=OPTIONS)


class ReverseCurseGame(GameBase):
    """The Reverse Curse engine (see ``engine.core.Game`` for each method's contract; options
    are checked by ``GameBase.validate_options``)."""

    spec = SPEC

    def seats(self, options: Mapping[str, Any]) -> int:
        """Return 2, 4 or 6 seats for format 1v1, 2v2, 3v3 (seed §8)."""
        return FORMAT_SEATS[options["format"]]

    def new_game(self, options: Mapping[str, Any], players: int, seed: bytes) -> State:
        """Return set 1 after the deal, sides and first player by coin toss from ``seed``.

        Raises:
            ValueError: when ``players`` does not match the format's seat count.
        """
        options = self.validate_options(options)
        if players != self.seats(options):
            raise ValueError(f"Format {options['format']} needs {self.seats(options)} seats, "
                             f"got {players}.")
        return flow.new_match(options, seed)[0]

    # The per-action calls are the module functions themselves, not wrappers.
    #: ``to_act(state)``: the seats that may act now, empty once the match is over
    #: (``legality.to_act``).
    to_act = staticmethod(to_act)
    #: ``legal_actions(state, seat)``: ``seat``'s legal actions now (``legality.legal_actions``).
    legal_actions = staticmethod(legal_actions)
    #: ``listed_actions(state, seat)``: the same actions computed once per state and shared
    #: (read-only; the protocol member of ``engine.core.Game``, ``legality.listed_actions``).
    listed_actions = staticmethod(listed_actions)
    #: ``apply(state, seat, action) -> (new_state, events)``; raises ``InvalidAction`` or
    #: ``IllegalAction`` (``actions.apply_action``).
    apply = staticmethod(apply_action)
    #: ``view(state, viewer)``: the protocol's Reverse Curse view for ``viewer`` (``None`` =
    #: spectator; ``view.render``).
    view = staticmethod(render)

    def outcome(self, state: State) -> Outcome | None:
        """Return the outcome once the match is over, else ``None``."""
        return outcome_of(state)

    def deadline_action(self, state: State, seat: int) -> dict[str, Any]:
        """Return the timeout move of ``seat`` (rulings "Match flow" 3-6).

        Order: go first. Mulligan: keep. Shop: pass. Deployment: a uniformly random hand card
        of the whole side (``timeout_card``), played by the member holding it — the seat
        ``deadline_seat`` names. Asked for another member of that side (which the room layer
        never plays), a uniformly random card of that member's own hand,
        ``Rng.derive(seed, "timeout", set, turn, seat)``, so the move is always legal for it.

        Raises:
            IllegalAction: ``not_your_turn`` when ``seat`` is not to act.
        """
        if seat not in to_act(state):
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if state.phase == "order":
            return {"type": "choose_order", "first": True}
        if state.phase == "mulligan":
            return {"type": "mulligan", "card": None}
        if state.phase == "shop":
            return {"type": "pass"}
        owner, index = timeout_card(state)
        if owner != seat:
            rng = Rng.derive(state.seed, "timeout", state.set_no, state.turn, seat)
            return {"type": "play", "card": rng.choice(state.hands[seat])}
        return {"type": "play", "card": state.hands[owner][index]}

    def deadline_seat(self, state: State, seat: int) -> int:
        """Return the seat whose ``deadline_action`` a timeout of ``seat``'s clock plays: on a
        deployment turn the member holding the side's random card (``timeout_card``), else
        ``seat`` (rulings "Match flow" 6: "a uniformly random hand card of that side")."""
        if state.phase == "deployment" and seat in to_act(state):
            return timeout_card(state)[0]
        return seat

    def clock_seconds(self, state: State, seat: int) -> int:
        """Return ``shop_seconds`` in the shop, else ``turn_seconds`` (order, mulligan, turns)."""
        return state.shop_seconds if state.phase == "shop" else state.turn_seconds

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """Return the finished state in which ``seat``'s side lost (reason ``resign``).

        Raises:
            IllegalAction: ``game_over`` when the match is already over.
        """
        if state.ending is not None:
            raise IllegalAction("game_over", "The match is over.")
        return flow.end_match(state, "resign", loser=side_of(state, seat))

    def dump(self, state: State) -> dict[str, Any]:
        """Return the raw state as JSON-ready data (never sent to clients)."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> State:
        """Inverse of ``dump``."""
        return load_state(data)

    def sides(self, options: Mapping[str, Any], seats: int) -> tuple[tuple[int, ...], ...]:
        """Return the two teams: the even seats, then the odd seats (every other seat is a
        teammate: ``state.side_of``; rulings "Formats"). Which of them plays UP is the match's
        coin toss (rulings "Match flow" 1), shown by the view's ``sides``."""
        return tuple(range(0, seats, 2)), tuple(range(1, seats, 2))

    def sample(self, view: Mapping[str, Any], seat: int, rng: Rng) -> State:
        """Return a state consistent with ``view`` (``seat``'s own view), the hidden cards and
        answers drawn from ``rng`` (``engine.reverse_curse.sample``).

        Raises:
            ValueError: for a view that is not a seat's view of a reachable state.
        """
        return sample(view, seat, rng)

    def redeal(self, state: State, viewer: int | None, rng: Rng) -> State:
        """Re-deal from ``rng`` everything ``viewer`` may not see (see
        ``engine.reverse_curse.redeal``)."""
        return redeal(state, viewer, rng)


def timeout_card(state: State) -> tuple[int, int]:
    """Return the card a deployment timeout plays as ``(seat, index in that seat's hand)``: one
    card drawn uniformly from every hand card of the deploying side (all its members' cards,
    rulings "Match flow" 6), ``Rng.derive(seed, "timeout", set, turn)``. In 1v1 this is the
    seat's own hand, drawn exactly as a single hand is.

    Raises:
        ValueError: (``Rng.choice``) when the deploying side holds no card; a deployment turn
            never has one.
    """
    cards = side_cards(state, deployment_side(state))
    return Rng.derive(state.seed, "timeout", state.set_no, state.turn).choice(cards)


GAME = ReverseCurseGame()
