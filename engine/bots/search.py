"""Determinized information-set Monte-Carlo tree search (single-observer ISMCTS).

One search decides for the seat a view belongs to, from that view and its legal actions only.
Every iteration:

1. draws a complete state consistent with the view (``game.sample(view, seat, rng)``);
2. walks the shared tree from the root by UCT. A node is an information set of the searching
   seat reached by a sequence of canonical action keys (``action_key``, below the root
   prefixed with the acting seat); each child keeps its
   visit count, its reward sum per seat and its availability count (how often it was legal when
   its parent was visited), so statistics are shared across the sampled worlds. The acting
   seat at a node picks ``argmax mean[actor] + c * sqrt(ln(available) / visits)``; an untried
   legal action is expanded first, in the profile's move order;
3. plays on from the new node with the profile's rollout policy for at most
   ``profile.rollout_plies`` actions, or until ``profile.finished`` says the horizon is reached;
4. backs up the reward vector (one value in ``[0, 1]`` per seat, ``profile.reward``, drawn
   toward 0.5 by ``profile.discount`` per action played in the iteration, so a sooner win is
   worth more than a later one) to every node of the walk.

The root's actions are the profile's candidates (``profile.candidates``: the best few legal
actions by the profile's prior score, best first: the greedy bot's, or mahjong's
``engine.mahjong.plan``). The decision is the root action with the most visits (the higher
mean reward, then the earlier candidate, on a tie); with a ``profile.keep_margin`` above 0 the
prior's choice (the first candidate) is kept unless the decision's mean reward beats it by more
than that margin (mahjong: the search then only overrules the plan's action when its samples
show a clear loss, such as a discard that deals in). Deterministic for a given ``Rng`` stream
and iteration budget: every iteration draws its world and its choices from ``Rng.derive`` of one seed taken from the bot's
``Rng``. A sample that raises ``ValueError`` (an extreme endgame the engine cannot re-deal) is
skipped; when no sample succeeds the profile's fallback (the greedy bot) decides.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Rng

__all__ = ["Node", "SearchBot", "action_key", "search"]


def action_key(action: Mapping[str, Any]) -> str:
    """Return a canonical text key of ``action`` (keys sorted, lists kept in order)."""
    return _key(action)


def _key(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{k}:{_key(value[k])}" for k in sorted(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_key(v) for v in value) + "]"
    return repr(value)


class Node:
    """One information-set node: statistics of the action that leads to it, and its children.

    Attributes:
        visits: how many iterations went through this node.
        available: how many times its action was legal when its parent was visited.
        rewards: the reward sum per seat over ``visits``.
        children: ``{action key: Node}``.
    """

    __slots__ = ("visits", "available", "rewards", "children")

    def __init__(self, seats: int) -> None:
        self.visits = 0
        self.available = 0
        self.rewards = [0.0] * seats
        self.children: dict[str, Node] = {}

    def mean(self, seat: int) -> float:
        """Return the mean reward of ``seat`` (0.5 before any visit)."""
        return self.rewards[seat] / self.visits if self.visits else 0.5


def _uct(child: Node, seat: int, exploration: float) -> float:
    return child.mean(seat) + exploration * math.sqrt(math.log(child.available) / child.visits)


def _select(node: Node, keyed: list[tuple[str, dict[str, Any]]], seat: int,
            exploration: float) -> tuple[str, dict[str, Any], bool]:
    """Return ``(key, action, expanded)``: the first untried action, else the best by UCT."""
    for key, action in keyed:
        if key not in node.children:
            return key, action, True
    best = max(keyed, key=lambda pair: _uct(node.children[pair[0]], seat, exploration))
    return best[0], best[1], False


def _iterate(profile: Any, root: Node, state: Any, seat: int, root_keys: set[str],
             rng: Rng) -> None:
    """Run one iteration from the sampled ``state`` (module doc, steps 2-4)."""
    game, seats = profile.game, len(root.rewards)
    start, path, node, depth = state, [root], root, 0
    while not profile.finished(start, state):
        actor = profile.actor(state, seat if depth == 0 else None)
        legal = game.legal_actions(state, actor)
        if depth == 0:
            keyed = [(key, a) for key, a in ((action_key(a), a) for a in legal)
                     if key in root_keys]
        else:
            keyed = [(f"{actor}:{action_key(a)}", a) for a in profile.order(state, actor, legal)]
        for key, _ in keyed:
            child = node.children.get(key)
            if child is not None:
                child.available += 1
        key, action, expanded = _select(node, keyed, actor, profile.exploration)
        if expanded:
            node.children[key] = Node(seats)
            node.children[key].available = 1
        node = node.children[key]
        path.append(node)
        state, _ = game.apply(state, actor, action)
        depth += 1
        if expanded:
            break
    state, plies = _rollout(profile, start, state, rng)
    shrink = profile.discount ** (depth + plies)
    reward = [0.5 + (r - 0.5) * shrink for r in profile.reward(start, state, seat)]
    for visited in path:
        visited.visits += 1
        for s in range(seats):
            visited.rewards[s] += reward[s]


def _rollout(profile: Any, start: Any, state: Any, rng: Rng) -> tuple[Any, int]:
    """Play ``profile.rollout_plies`` actions at most with the rollout policy; return the state
    reached and the number of actions played."""
    game, plies = profile.game, 0
    while plies < profile.rollout_plies and not profile.finished(start, state):
        actor = profile.actor(state, None)
        legal = game.legal_actions(state, actor)
        state, _ = game.apply(state, actor, profile.policy(state, actor, legal, rng))
        plies += 1
    return state, plies


def search(profile: Any, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
           iterations: int, rng: Rng,
           should_stop: Callable[[], bool] | None = None) -> tuple[Node, int]:
    """Search ``iterations`` times from ``view``, the root's actions being ``legal`` (the seat's
    legal actions or a part of them); return ``(root, iterations done)``.

    ``should_stop`` is asked before each iteration; the search ends as soon as it returns True.
    Iterations whose sample raises ``ValueError`` count as done but add nothing.
    """
    seat = profile.seat_of(view)
    root_keys = {action_key(a) for a in legal}
    root = Node(profile.seats(view))
    seed, done = b"", 0
    for n in range(iterations):
        if should_stop is not None and should_stop():
            break
        if not seed:                 # drawn only once an iteration runs (see SearchBot.choose)
            seed = bytes(rng.randbelow(256) for _ in range(16))
        stream = Rng.derive(seed, "iteration", n)
        done += 1
        try:
            state = profile.game.sample(view, seat, stream)
        except ValueError:
            continue
        _iterate(profile, root, state, profile.acting_seat(state, seat, view), root_keys,
                 stream)
    return root, done


def best_root_action(root: Node, legal: Sequence[dict[str, Any]], seat: int
                     ) -> dict[str, Any] | None:
    """Return a copy of the action of ``legal`` most visited at ``root`` (a tie: the higher
    mean reward of ``seat``, then the earlier action), or ``None`` when none was visited."""
    best, best_rank = None, (0, 0.0)
    for action in legal:
        child = root.children.get(action_key(action))
        if child is not None and child.visits and (child.visits, child.mean(seat)) > best_rank:
            best, best_rank = action, (child.visits, child.mean(seat))
    return None if best is None else dict(best)


def _keep_greedy(root: Node, candidates: Sequence[dict[str, Any]], picked: dict[str, Any],
                 seat: int, margin: float) -> dict[str, Any]:
    """Return ``picked``, or the prior's choice ``candidates[0]`` when it was visited and
    ``picked``'s mean reward for ``seat`` does not beat it by more than ``margin``."""
    if margin <= 0 or picked == candidates[0]:
        return picked
    greedy = root.children.get(action_key(candidates[0]))
    chosen = root.children[action_key(picked)]
    if greedy is not None and greedy.visits and chosen.mean(seat) - greedy.mean(seat) <= margin:
        return dict(candidates[0])
    return picked


class SearchBot:
    """A ``Bot`` searching ``iterations`` times per decision with ``profile`` (module doc).

    Args:
        profile: the game's search profile (``engine.bots.profiles``).
        iterations: the iteration budget per decision (at least 1).
        should_stop: optional safety net asked between iterations (see ``search``).
    """

    def __init__(self, profile: Any, iterations: int,
                 should_stop: Callable[[], bool] | None = None) -> None:
        if iterations < 1:
            raise ValueError("A search needs at least one iteration.")
        self.profile = profile
        self.iterations = iterations
        self.should_stop = should_stop
        #: Iterations done by the last ``choose`` (fewer than ``iterations`` when stopped).
        self.last_iterations = 0

    def choose(self, game: Any, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        """Return the searched action of ``legal`` (a copy); a single legal action is returned
        without search, and the profile's fallback bot decides (with ``rng``, untouched when
        no iteration ran) when no root action was visited: ``should_stop`` fired at once, or
        no world could be sampled.

        Raises:
            ValueError: when ``legal`` is empty.
        """
        if not legal:
            raise ValueError("No legal action to choose from.")
        if len(legal) == 1:
            self.last_iterations = 0
            return dict(legal[0])
        candidates = self.profile.candidates(view, legal)
        root, self.last_iterations = search(self.profile, view, candidates, self.iterations,
                                            rng, self.should_stop)
        seat = self.profile.seat_of(view)
        picked = best_root_action(root, candidates, seat)
        if picked is None:
            return self.profile.fallback.choose(game, view, legal, rng)
        return _keep_greedy(root, candidates, picked, seat, self.profile.keep_margin)
