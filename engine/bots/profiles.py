"""Per-game search profiles: what ``engine.bots.search`` needs to know about each game.

A ``Profile`` says which seat a view belongs to, who acts in a state, where a search iteration
stops (the match's end, or the end of the current hand for zipai and mahjong), the reward
vector it backs up, the rollout policy and its cut-off, and the exploration constant.

Rewards are one value in ``[0, 1]`` per seat:

- at a match's end: 1 for a seat ranked first, 0 otherwise, 0.5 for every seat on a draw
  (team games: every member of the winning side gets 1);
- at a hand's end (zipai, mahjong): ``0.5 + 0.5 * tanh(points / hand_scale)`` of the seat's
  payment for that hand (``results[-1]["payments"]`` in zipai, ``["scores"]`` in mahjong);
- at the rollout cut-off: ``0.5 + 0.4 * tanh(evaluation / eval_scale)`` of the game's
  evaluation for the seat (``EVALUATIONS``): never as good as a won match nor as bad as a lost
  one.

Evaluations (higher is better for ``seat``), each read from the raw state of a sampled world:

- civilization: ``engine.civilization.bot.score`` (10·leaders + resources + 5·workers, own
  less the opponent's);
- grid_reversal: own cards on the grid less the opponent's;
- numgr: own HP less the opponent's;
- reverse_curse: the ladder position toward the seat's goal (+ for UP), over the KO distance;
- zipai: 0 (a hand not finished is even);
- mahjong: the others' mean shanten (``shapes.shanten``) less the seat's; in ``hebei`` plus
  ``KONG_EVAL`` × the seat's kong points of the hand so far less the others' mean (kongs are
  paid even on a draw: a kong made is points banked).

The root's prior (``Profile.prior``) is the greedy bot's score, except for mahjong: the
value-aware ``engine.mahjong.plan`` (ready hands by their ≥ 8-point waits under ``mcr``, outs
one and two tiles from ready), searched with no rollout: each candidate is valued by the
tree's own few plies and the cut-off evaluation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from engine.core import Rng

__all__ = ["Profile", "profile", "EVALUATIONS"]

Evaluation = Callable[[Any, Any, int], float]


def _squash(value: float, scale: float, reach: float = 0.5) -> float:
    return 0.5 + reach * math.tanh(value / scale)


#: How far from 0.5 a cut-off evaluation may reach: below a finished match's 0 or 1.
EVAL_REACH = 0.4


# --------------------------------------------------------------------------- evaluations


def _civilization(game: Any, state: Any, seat: int) -> float:
    from engine.civilization.bot import score
    return score(state, seat)


def _grid_reversal(game: Any, state: Any, seat: int) -> float:
    return sum((1 if p.owner == seat else -1) for p in state.grid if p is not None)


def _numgr(game: Any, state: Any, seat: int) -> float:
    return state.hp[seat] - state.hp[1 - seat]


def _reverse_curse(game: Any, state: Any, seat: int) -> float:
    from engine.reverse_curse.state import UP, ko_distance, side_of
    sign = 1 if side_of(state, seat) == UP else -1
    return sign * state.position / max(1, ko_distance(state))


def _even(game: Any, state: Any, seat: int) -> float:
    return 0.0


def _mahjong_shanten(state: Any, seat: int) -> int:
    from engine.mahjong.shapes import shanten
    player = state.hand.players[seat]
    held = player.held()
    # In turn with a drawn tile, the best after one discard: the 14 − 3·k tiles' own shanten
    # (every shape leaves a tile spare unless complete, and a complete hand less one is ready).
    return max(0, shanten(held, player.melds, state.rules))


#: Cut-off evaluation units per point of the hand's kongs so far (``hebei``; ``mcr`` pays
#: none): a hand's points squash over 10 (``hand_scale``), the evaluation over 20.
KONG_EVAL = 2.0


def _mahjong(game: Any, state: Any, seat: int) -> float:
    from engine.mahjong.hebei import kong_points
    players = state.hand.players
    others = [s for s in range(len(players)) if s != seat]
    mine = _mahjong_shanten(state, seat)
    value = sum(_mahjong_shanten(state, s) for s in others) / len(others) - mine
    if state.rules == "hebei" and any(m.is_kong for p in players for m in p.melds):
        points = kong_points([p.melds for p in players])
        value += KONG_EVAL * (points[seat] - sum(points[s] for s in others) / len(others))
    return value


EVALUATIONS: dict[str, Evaluation] = {
    "civilization": _civilization, "grid_reversal": _grid_reversal, "numgr": _numgr,
    "reverse_curse": _reverse_curse, "zipai": _even, "mahjong": _mahjong,
}


# --------------------------------------------------------------------------- rollout policies


def _first_best(legal: Sequence[dict[str, Any]], value: Callable[[dict[str, Any]], float]
                ) -> dict[str, Any]:
    return max(legal, key=value)   # the first of the best on a tie


def view_greedy(game_id: str) -> Callable[..., dict[str, Any]]:
    """Return the rollout policy playing ``engine/<game>/bot.py``'s ``score`` on the actor's
    view (the first best action on a tie)."""
    score = import_module(f"engine.{game_id}.bot").score

    def policy(game: Any, state: Any, actor: int, legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        view = game.view(state, actor)
        return _first_best(legal, lambda action: score(view, action))
    return policy


def state_greedy(game: Any, state: Any, actor: int, legal: Sequence[dict[str, Any]],
                 rng: Rng) -> dict[str, Any]:
    """Civilization's cheap rollout policy: the action whose next state has the best
    ``engine.civilization.bot.score`` for the actor (follow-ups are not looked at)."""
    from engine.civilization.bot import score
    return _first_best(legal, lambda action: score(game.apply(state, actor, action)[0], actor))


def mahjong_policy(game: Any, state: Any, actor: int, legal: Sequence[dict[str, Any]],
                   rng: Rng) -> dict[str, Any]:
    """Mahjong's cheap rollout policy: win when listed; otherwise pass a claim; discard the
    tile leaving the lowest shanten (the first such tile); else the first legal action."""
    from engine.mahjong.shapes import shanten
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "win" in by_type:
        return by_type["win"][0]
    if "pass" in by_type:
        return by_type["pass"][0]
    if "discard" in by_type:
        player = state.hand.players[actor]
        held = player.held()

        def after(action: dict[str, Any]) -> int:
            rest = list(held)
            rest.remove(action["tile"])
            return -shanten(rest, player.melds, state.rules)
        return _first_best(by_type["discard"], after)
    return legal[0]


# --------------------------------------------------------------------------- the profile


@dataclass
class Profile:
    """How the search plays one game (module doc).

    Attributes:
        game_id, game: the engine id and its ``GAME``.
        fallback: the bot deciding when no world can be sampled (the greedy bot).
        rollout: ``rollout(game, state, actor, legal, rng) -> action``.
        rollout_plies: the most rollout actions before the evaluation cut-off.
        evaluation: ``evaluation(game, state, seat) -> float`` (higher is better for seat).
        eval_scale: the evaluation's squashing scale.
        per_hand: whether the horizon is the end of the current hand (``results`` grows).
        hand_scale: the squashing scale of a hand's points.
        exploration: the UCT constant ``c``.
        budget_share: hard's iterations for this game as a fraction of ``BUDGETS``.
        width: the most root actions searched (``candidates``).
        discount: the factor per action drawing a reward toward 0.5 (``engine.bots.search``).
        keep_margin: how much better in mean reward the searched action must be to overrule
            the prior's choice (0: never kept for its own sake; ``engine.bots.search``).
        prior_module: the module whose ``score(view, action) -> float`` gives the root's
            prior (``prior``, ``candidates``); ``None``: ``engine/<game>/bot.py``'s.
    """

    game_id: str
    game: Any
    fallback: Any
    rollout: Callable[..., dict[str, Any]]
    rollout_plies: int
    evaluation: Evaluation
    eval_scale: float
    per_hand: bool = False
    hand_scale: float = 10.0
    exploration: float = 0.7
    budget_share: float = 1.0
    width: int = 10
    discount: float = 0.99
    keep_margin: float = 0.0
    prior_module: str | None = None

    # -- seats

    def seat_of(self, view: Mapping[str, Any]) -> int:
        """Return the seat ``view`` belongs to (a team game: the first seat of its side)."""
        if self.game_id == "reverse_curse":
            return view["sides"][view["my_side"]][0]
        if self.game_id == "grid_reversal":
            return view["my_seat"]
        return view["seat"]

    def seats(self, view: Mapping[str, Any]) -> int:
        """Return the number of seats of the match ``view`` is of."""
        if self.game_id == "reverse_curse":
            return sum(len(members) for members in view["sides"].values())
        return {"zipai": 3, "mahjong": 4}.get(self.game_id, 2)

    def acting_seat(self, state: Any, seat: int, view: Mapping[str, Any]) -> int:
        """Return the seat of ``state`` that decides for ``view``: ``seat``, or in a team game
        whose view is the whole side's, the lowest member of the side in ``to_act``."""
        acting = self.game.to_act(state)
        if seat in acting or self.game_id != "reverse_curse":
            return seat
        side = [s for s in view["sides"][view["my_side"]] if s in acting]
        return min(side) if side else seat

    def actor(self, state: Any, preferred: int | None) -> int:
        """Return who acts in ``state``: ``preferred`` when given, else the lowest seat."""
        return preferred if preferred is not None else min(self.game.to_act(state))

    # -- horizon and rewards

    def finished(self, start: Any, state: Any) -> bool:
        """Return whether an iteration begun at ``start`` stops at ``state``."""
        if not self.game.to_act(state):
            return True
        return self.per_hand and len(state.results) > len(start.results)

    def reward(self, start: Any, state: Any, seat: int) -> list[float]:
        """Return the reward per seat of ``state`` reached from ``start`` (module doc)."""
        if self.per_hand and len(state.results) > len(start.results):
            sheet = state.results[len(start.results)]
            points = sheet.get("scores", sheet.get("payments"))
            return [_squash(p, self.hand_scale) for p in points]
        outcome = self.game.outcome(state)
        if outcome is not None:
            if outcome.draw:
                return [0.5] * len(outcome.ranks)
            return [1.0 if r == 1 else 0.0 for r in outcome.ranks]
        count = self._count(state)
        return [_squash(self.evaluation(self.game, state, s), self.eval_scale, EVAL_REACH)
                for s in range(count)]

    def _count(self, state: Any) -> int:
        if self.game_id == "reverse_curse":
            return len(state.hands)
        return {"zipai": 3, "mahjong": 4}.get(self.game_id, 2)

    # -- policies

    def policy(self, state: Any, actor: int, legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        """Return the rollout action of ``actor``."""
        return self.rollout(self.game, state, actor, legal, rng)

    def order(self, state: Any, actor: int, legal: Sequence[dict[str, Any]]
              ) -> Sequence[dict[str, Any]]:
        """Return ``legal`` in expansion order (the engine's order)."""
        return legal

    def candidates(self, view: Mapping[str, Any], legal: Sequence[dict[str, Any]]
                   ) -> list[dict[str, Any]]:
        """Return the root's actions: the ``width`` best of ``legal`` by the prior value of the
        view (``prior``), best first (a stable sort: the earlier legal action first on
        a tie), so the search's own ties go to the prior's choice."""
        values = self.prior(view, legal)
        keep = sorted(range(len(legal)), key=lambda i: -values[i])[:self.width]
        return [legal[i] for i in keep]

    def prior(self, view: Mapping[str, Any], legal: Sequence[dict[str, Any]]) -> list[float]:
        """Return the prior value of each action of ``legal`` for the seat of ``view``: the
        ``score`` of ``prior_module``, else of the greedy bot."""
        if self.game_id == "civilization":
            from engine.civilization.bot import sample_rng
            seat = view["seat"]
            state = self.game.sample(view, seat, sample_rng(view))
            return [self.fallback.evaluate(state, seat, action) for action in legal]
        score = import_module(self.prior_module or f"engine.{self.game_id}.bot").score
        return [score(view, action) for action in legal]


def profile(game_id: str) -> Profile:
    """Return the search profile of ``game_id``.

    Raises:
        ValueError: for a game without a profile.
    """
    from engine.bots import greedy_bot
    from engine.registry import get_game
    if game_id not in SETTINGS:
        raise ValueError(f"No search profile for {game_id!r}.")
    rollout, plies, scale, extra = SETTINGS[game_id]
    policy = view_greedy(game_id) if rollout == "view" else rollout
    return Profile(game_id, get_game(game_id), greedy_bot(game_id), policy, plies,
                   EVALUATIONS[game_id], scale, **extra)


#: ``game_id -> (rollout policy or "view", rollout plies, eval scale, other Profile fields)``.
SETTINGS: dict[str, tuple[Any, int, float, dict[str, Any]]] = {
    "civilization": (state_greedy, 12, 40.0, {"budget_share": 0.35}),
    "grid_reversal": ("view", 12, 4.0, {"budget_share": 0.4}),
    "numgr": ("view", 16, 1.5, {"budget_share": 0.35}),
    "reverse_curse": ("view", 24, 0.5, {"budget_share": 0.9}),
    "zipai": ("view", 60, 1.0, {"per_hand": True, "hand_scale": 10.0, "budget_share": 0.65}),
    "mahjong": (mahjong_policy, 0, 20.0, {"per_hand": True, "hand_scale": 10.0,
                                         "budget_share": 0.2, "width": 3,
                                         "keep_margin": 0.03,
                                         "prior_module": "engine.mahjong.plan"}),
}
