"""``CivilizationGame``: the engine protocol (engine/core.py) for 逆转文明 Reversed Civilizations.

Rules: /work/shared/rules/civilization.md (binding rulings) over the seed text
shared/seeds/002_1797dd80ef5e55ac.txt. Two seats; seat 0 is the start player of round 1 (faces
王权 at setup). The only hidden information is the deck's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.civilization.actions import MAIN_TYPES, apply_main, main_actions, why_illegal
from engine.civilization.data import DECK_IDS, RESOURCES
from engine.civilization.ending import finish, kingship_seat, standing_winner
from engine.civilization.flow import Log, new_state, settle
from engine.civilization.sample import sample
from engine.civilization.serial import dump_state, load_state
from engine.civilization.state import State, leaders_placed, total
from engine.civilization.steps import ANSWER_TYPES, answer, answers
from engine.civilization.view import public_view
from engine.core import (
    Event,
    GameBase,
    GameSpec,
    IllegalAction,
    InvalidAction,
    OptionSpec,
    Outcome,
    Rng,
    check_action,
)

__all__ = ["CivilizationGame", "MAX_LENGTH", "SPEC"]

# A normal match takes a few hundred decisions; this cap (our draw-free max-length rule: the
# match ends on the standings) only stops endless 劳作 loops.
MAX_LENGTH = 3000

SPEC = GameSpec(
    id="civilization",
    titles={"en": "Reversed Civilizations", "zh": "逆转文明", "ja": "逆転文明"},
    min_players=2, max_players=2, hidden_information=True, max_length=MAX_LENGTH,
    options=(OptionSpec("turn_seconds", "int", 60, minimum=10, maximum=600,
                        label="Seconds per decision"),),
)

ACTION_TYPES: dict[str, dict[str, type]] = {**ANSWER_TYPES, **MAIN_TYPES}


def _check_shape(action: Mapping[str, Any]) -> None:
    """Raise ``InvalidAction`` unless ``action`` is a known type with exactly its fields."""
    check_action(action, ACTION_TYPES)
    for key in ("resource", "give", "get", "set", "to"):
        if key in action and action[key] not in RESOURCES:
            raise InvalidAction("malformed_action", f"{action[key]!r} is not a resource.")


class CivilizationGame(GameBase):
    """The Reversed Civilizations engine (pure; states are ``engine.civilization.state.State``):
    2 seats; one option, ``turn_seconds`` (default 60, 10..600; ``GameBase.validate_options``)."""

    spec = SPEC

    def new_game(self, options: Mapping[str, Any], players: int, seed: bytes) -> State:
        """Return the state after setup: the deck shuffled by ``Rng.derive(seed, "deck")``, its top
        card waiting for seat 1 (the non-start player) to orient it.

        Raises:
            ValueError: when ``players`` is not 2.
        """
        if players != 2:
            raise ValueError("Reversed Civilizations is for exactly 2 players.")
        deck = tuple(Rng.derive(seed, "deck").shuffled(DECK_IDS))
        return settle(new_state(deck, options["turn_seconds"]), [])

    def to_act(self, state: State) -> frozenset[int]:
        """Return the seat deciding now (the queue's front step, else the action phase's actor)."""
        if state.phase == "over":
            return frozenset()
        return frozenset((state.queue[0].seat if state.queue else state.actor,))

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Return ``seat``'s legal actions: the front decision's answers, else the main actions
        (see ``engine.civilization.actions`` and ``.steps`` for the shapes); ``[]`` if idle."""
        if seat not in self.to_act(state):
            return []
        return answers(state, state.queue[0]) if state.queue else main_actions(state, seat)

    def apply(self, state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        """Return ``(new_state, events)`` after ``seat`` plays ``action``; never mutates ``state``.

        Raises:
            InvalidAction: ``malformed_action``/``unknown_action``.
            IllegalAction: ``game_over``, ``not_your_turn``, ``decision_pending`` (a follow-up
                choice is due), or a main action's code from ``actions.why_illegal``.
        """
        _check_shape(action)
        if state.phase == "over":
            raise IllegalAction("game_over", "The match is over.")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", "It is not your turn.")
        action = dict(action)
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(*self._why(state, seat, action))
        log: Log = []
        if state.queue:
            step = state.queue[0]
            log.append(("decision", {"seat": seat, "step": step.kind, "action": action}))
            new = answer(state, step, action)
        else:
            log.append(("main_action", {"seat": seat, "action": action}))
            new = apply_main(state, seat, action)
        new = settle(new._replace(actions=state.actions + 1), log)
        if new.phase != "over" and new.actions >= MAX_LENGTH:
            new = finish(new, standing_winner(new), "max_length")
        if new.phase == "over":
            log.append(("match_over", {"winner": new.winner, "reason": new.reason}))
        return new, [Event(kind, data) for kind, data in log]

    def _why(self, state: State, seat: int, action: dict[str, Any]) -> tuple[str, str]:
        if state.queue:
            expected = {a["type"] for a in answers(state, state.queue[0])}
            if action["type"] not in expected:
                return "decision_pending", "Finish the pending choice first."
            return "not_allowed", "That answer is not allowed now."
        if action["type"] not in MAIN_TYPES:
            return "not_allowed", "There is no choice pending."
        return why_illegal(state, seat, action)

    def view(self, state: State, viewer: int | None) -> dict[str, Any]:
        """Return the public view (all but the deck order), JSON-ready; see docs/protocol.md."""
        outcome = self.outcome(state)
        return public_view(state, viewer, self.to_act(state),
                           None if outcome is None else outcome.to_json())

    def outcome(self, state: State) -> Outcome | None:
        """Return the outcome once over: the winner ranks 1 (there are no draws: the 王权 tie-break
        always decides). ``detail`` has leaders, resources, the 王权 seat and the round."""
        if state.phase != "over":
            return None
        ranks = tuple(1 if s == state.winner else 2 for s in (0, 1))
        detail = {"leaders": [leaders_placed(state, s) for s in (0, 1)],
                  "resources": [total(state, s) for s in (0, 1)],
                  "kingship": kingship_seat(state), "round": state.round}
        return Outcome(ranks, state.reason, detail)

    def deadline_action(self, state: State, seat: int) -> dict[str, Any]:
        """Return what a timeout plays: pass as a main action, else the first legal answer
        (rulings, "Clocks")."""
        legal = self.legal_actions(state, seat)
        return {"type": "pass"} if {"type": "pass"} in legal else legal[0]

    def clock_seconds(self, state: State, seat: int) -> int:
        """Return ``turn_seconds``: every decision has the same clock."""
        return state.turn_seconds

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """Return the finished state in which ``seat`` resigned (the other seat wins)."""
        new = finish(state, 1 - seat, "resign")
        return new, [Event("match_over", {"winner": 1 - seat, "reason": "resign"})]

    def dump(self, state: State) -> dict[str, Any]:
        """Return the raw state as JSON-ready data (includes the deck order: never for clients)."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> State:
        """Inverse of ``dump``."""
        return load_state(data)

    def redeal(self, state: State, viewer: int | None, rng: Rng) -> State:
        """Return ``state`` with everything ``viewer`` cannot see re-dealt from ``rng``: only the
        deck order is hidden (from everyone), so the deck is shuffled; the rest is unchanged."""
        return state._replace(deck=tuple(rng.shuffled(state.deck)))

    def sample(self, view: Mapping[str, Any], seat: int, rng: Rng) -> State:
        """Return a state consistent with ``view`` (``seat``'s own view): every public fact
        copied, the unseen cards in a deck order drawn from ``rng`` (``sample.sample``)."""
        return sample(view, rng)
