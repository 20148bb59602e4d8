"""The NumGR ``Game``: spec, options, action validation and dispatch (engine/core.py protocol).

Actions (all listed by ``legal_actions``):
``{"type": "play", "main", "base", "mode", "base_mode", "copy", "lock"}`` (see ``plays``),
``{"type": "end_step"}`` (ends step 2, defense, with the HP check, or step 3, attack),
``{"type": "discard", "card": str | null}`` (step 4; refill and hand-over follow).
Error codes: ``malformed_action``, ``unknown_action`` (InvalidAction); ``game_over``,
``not_your_turn``, ``wrong_step``, ``card_not_in_hand``, ``illegal_play`` (IllegalAction).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from engine.numgr import cards as C
from engine.numgr import state as S
from engine.numgr.plays import PLAY_KEYS, all_plays, play_action, plays_for_main
from engine.numgr.redeal import redeal
from engine.numgr.resolve import new_stack, place
from engine.numgr.sample import sample
from engine.numgr.turn import HAND_SIZE, LAST_TURN, end_defense, end_turn, finish, start_turn
from engine.numgr.view import view

#: A bound on actions in one turn: every play uses up at least one card net (5 in hand, at most
#: 2 released held cards), two ``end_step``, one ``discard``; with a wide safety margin.
#: At most LAST_TURN - 1 turns are played.
MAX_ACTIONS_PER_TURN = 16

SPEC = GameSpec(
    id="numgr",
    titles={"en": "NumGR", "zh": "NumGR 数字对决", "ja": "NumGR ナンバーデュエル"},
    min_players=2,
    max_players=2,
    hidden_information=True,
    max_length=(LAST_TURN - 1) * MAX_ACTIONS_PER_TURN,
    options=(
        OptionSpec("hp", "int", 2, minimum=1, maximum=5, label="Hit points"),
        OptionSpec("variant_bomb", "bool", False, label="Bomb variant"),
        OptionSpec("variant_333", "bool", False, label="333 variant"),
        OptionSpec("turn_seconds", "int", 90, minimum=10, maximum=600,
                   label="Seconds per decision"),
    ),
)

_NULL = type(None)
_SHAPES: dict[str, dict[str, Any]] = {
    "play": {"main": str, "base": (str, _NULL), "mode": (str, _NULL), "base_mode": (str, _NULL),
             "copy": (str, _NULL), "lock": (int, _NULL)},
    "end_step": {},
    "discard": {"card": (str, _NULL)},
}


class NumGR(GameBase):
    """The NumGR duel (seed 001; rulings shared/rules/numgr.md): 2 seats; options ``hp`` 1–5,
    the variants and ``turn_seconds`` (``GameBase.validate_options``)."""

    spec = SPEC

    def new_game(self, options: Mapping[str, Any], players: int, seed: bytes) -> S.State:
        """Shuffle the 32 cards, deal 5 to each seat, pick the first player, start its turn.

        Seed 【游戏流程】{准备环节} ①–③ (the first player is drawn from the seed).
        Raises ValueError unless ``players`` is 2.
        """
        if players != 2:
            raise ValueError("NumGR is played by exactly 2 players.")
        opts = self.validate_options(options)
        deck = Rng.derive(seed, "numgr", "deal").shuffled(C.DECK)
        first = Rng.derive(seed, "numgr", "first").coin()
        state = S.State(seed=seed.hex(), options=opts, deck=deck[2 * HAND_SIZE:],
                        discard=[], hands=[deck[:HAND_SIZE], deck[HAND_SIZE:2 * HAND_SIZE]],
                        pending=[[], []], hp=[opts["hp"]] * 2, stacks=[], current=first,
                        step="defense")
        start_turn(state, first, [])
        return state

    def to_act(self, state: S.State) -> frozenset[int]:
        """The current player, or nobody once the match is over."""
        return frozenset() if state.step == "over" else frozenset({state.current})

    def legal_actions(self, state: S.State, seat: int) -> list[dict[str, Any]]:
        """Every legal action of ``seat``: ``end_step`` then plays in steps 2–3; in step 4
        ``discard`` of nothing then of each hand card (sorted)."""
        if state.step == "over" or seat != state.current:
            return []
        if state.step == "discard":
            return [{"type": "discard", "card": c} for c in [None, *sorted(state.hands[seat])]]
        return [{"type": "end_step"}, *all_plays(state, seat)]

    def _check_turn(self, state: S.State, seat: int) -> None:
        if state.step == "over":
            raise IllegalAction("game_over", "The match is over.")
        if seat != state.current:
            raise IllegalAction("not_your_turn", "It is not your turn.")

    def apply(self, state: S.State, seat: int,
              action: Mapping[str, Any]) -> tuple[S.State, list[Event]]:
        """Return ``(new_state, events)``; ``state`` is never changed.

        Raises:
            InvalidAction: malformed action (shape, types, unknown card code).
            IllegalAction: ``game_over``, ``not_your_turn``, ``wrong_step``, ``card_not_in_hand``,
                ``illegal_play``.
        """
        kind = check_action(action, _SHAPES)
        self._check_turn(state, seat)
        new = state.clone()
        events: list[Event] = []
        if kind == "play":
            self._play(new, seat, action, events)
        elif kind == "end_step":
            self._end_step(new, events)
        else:
            self._discard(new, seat, action["card"], events)
        return new, events

    def _play(self, state: S.State, seat: int, action: Mapping[str, Any],
              events: list[Event]) -> None:
        if state.step not in ("defense", "attack"):
            raise IllegalAction("wrong_step", "Stacks are played in the defense or attack step.")
        fields = {k: action[k] for k in PLAY_KEYS}
        for key in ("main", "base"):
            card = fields[key]
            if card is not None and card not in C.CARDS:
                raise InvalidAction("malformed_action", f"{card!r} is not a NumGR card.")
            if card is not None and card not in state.hands[seat] + state.pending[seat]:
                raise IllegalAction("card_not_in_hand", f"{card} is not in your hand.")
        if play_action(**fields) not in plays_for_main(state, seat, fields["main"]):
            raise IllegalAction("illegal_play", "That stack cannot be played now.")
        for card in (fields["main"], fields["base"]):
            if card is not None:
                (state.hands[seat] if card in state.hands[seat] else state.pending[seat]).remove(
                    card)
        stack = new_stack(state, seat, **fields)
        stack.shown = stack.is_theta and stack.base is not None and C.face(stack.base) == C.THETA
        self._announce(stack, events)
        place(state, stack, events)

    @staticmethod
    def _announce(stack: S.Stack, events: list[Event]) -> None:
        """Emit ``stack_played`` for everyone; a face-down held card (``base: null`` there) is
        told to its owner alone in ``card_held``."""
        hidden = stack.is_theta and stack.base is not None and not stack.shown
        events.append(Event("stack_played", {
            "seat": stack.owner, "id": stack.id, "main": stack.main,
            "base": None if hidden else stack.base, "mode": stack.mode,
            "base_mode": stack.base_mode, "copy": stack.copy, "lock": stack.lock}))
        if hidden:
            events.append(Event("card_held", {"id": stack.id, "card": stack.base},
                                visible_to=frozenset({stack.owner})))

    def _end_step(self, state: S.State, events: list[Event]) -> None:
        if state.step == "defense":
            end_defense(state, events)
        elif state.step == "attack":
            state.step = "discard"
        else:
            raise IllegalAction("wrong_step", "Choose a card to discard (or none).")
        events.append(Event("step", {"seat": state.current, "step": state.step}))

    def _discard(self, state: S.State, seat: int, card: str | None,
                 events: list[Event]) -> None:
        if state.step != "discard":
            raise IllegalAction("wrong_step", "Discarding happens in step 4.")
        if card is not None and card not in state.hands[seat]:
            raise IllegalAction("card_not_in_hand", f"{card} is not in your hand.")
        end_turn(state, card, events)

    def view(self, state: S.State, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` may see (docs/protocol.md, "NumGR view")."""
        return view(state, viewer)

    def outcome(self, state: S.State) -> Outcome | None:
        """``ko`` (a seat reached 0 HP), ``draw`` (game-length rule) or ``resign``; else None."""
        return Outcome.from_json(state.outcome) if state.outcome else None

    def deadline_action(self, state: S.State, seat: int) -> dict[str, Any]:
        """On timeout the current step ends as it stands; step 4 discards nothing."""
        if state.step == "discard":
            return {"type": "discard", "card": None}
        return {"type": "end_step"}

    def clock_seconds(self, state: S.State, seat: int) -> int:
        """Every decision gets the room's ``turn_seconds``."""
        return state.options["turn_seconds"]

    def resign(self, state: S.State, seat: int) -> tuple[S.State, list[Event]]:
        """Return the finished state in which ``seat`` resigned (the other seat wins)."""
        new = state.clone()
        events: list[Event] = []
        finish(new, (2, 1) if seat == 0 else (1, 2), "resign", events)
        return new, events

    def sample(self, view: Mapping[str, Any], seat: int, rng: Rng) -> S.State:
        """Return a state consistent with ``view`` (``seat``'s own view), the hidden cards drawn
        from ``rng`` (``engine.numgr.sample``).

        Raises:
            ValueError: for a view that is not a seat's view of a reachable state.
        """
        return sample(view, seat, rng)

    def redeal(self, state: S.State, viewer: int | None, rng: Rng) -> S.State:
        """Re-deal from ``rng`` everything ``viewer`` may not see (see ``engine.numgr.redeal``)."""
        return redeal(state, viewer, rng)

    def dump(self, state: S.State) -> dict[str, Any]:
        """The raw state as JSON-ready data."""
        return S.dump(state)

    def load(self, data: Mapping[str, Any]) -> S.State:
        """Inverse of ``dump``."""
        return S.load(data)


GAME = NumGR()
