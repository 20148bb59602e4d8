"""Seeded random playouts of registered games, shared by the game-wide contract tests.

``variants(game)`` gives the room options a contract test plays; ``states(...)`` the states of
one seeded random playout (every ``every``-th, the last, and a resigned one).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

#: Room options per game (a short match where a game allows one; other games: defaults plus
#: every non-default choice and flipped flag, see ``variants``).
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "zipai": [{"hands": 1}],
    "numgr": [{}, {"variant_bomb": True, "variant_333": True}],
    "grid_reversal": [{"width": 3}, {}],
    "mahjong": [{"hands": 4}, {"rules": "mcr"}],
}


def variants(game) -> list[dict[str, Any]]:
    """Return the option sets to play: ``OPTIONS`` for the game, else the defaults, each other
    choice and each flag flipped."""
    if game.spec.id in OPTIONS:
        return OPTIONS[game.spec.id]
    out: list[dict[str, Any]] = [{}]
    for spec in game.spec.options:
        if spec.kind == "choice":
            out += [{spec.name: c} for c in spec.choices if c != spec.default]
        elif spec.kind == "bool":
            out.append({spec.name: not spec.default})
    return out


def match_seed(game, label: str, number: int) -> bytes:
    """Return the 16-byte match seed of playout ``number`` of a test (``label``)."""
    return hashlib.sha256(f"{label}/{game.spec.id}/{number}".encode()).digest()[:16]


def states(game, options: dict[str, Any], number: int, every: int,
           label: str = "playout") -> Iterator[Any]:
    """Yield states of one seeded random playout with ``options``: every ``every``-th state
    from the first, the final one, and the state after seat 0 resigns midway."""
    options = game.validate_options(options)
    state = game.new_game(options, game.seats(options), match_seed(game, label, number))
    chooser = random.Random(number)
    middle = None
    for step in range(game.spec.max_length + 1):
        acting = sorted(game.to_act(state))
        if step % every == 0 or not acting:
            yield state
        if not acting:
            break
        if step == every:
            middle = state
        seat = chooser.choice(acting)
        state, _ = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
    if middle is not None:
        yield game.resign(middle, 0)[0]


def play_out(game, state, chooser: random.Random) -> Any:
    """Return the final state of a random playout from ``state`` (asserting it ends within
    ``spec.max_length`` actions)."""
    for _ in range(game.spec.max_length + 1):
        acting = sorted(game.to_act(state))
        if not acting:
            return state
        seat = chooser.choice(acting)
        state, _ = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
    raise AssertionError(f"{game.spec.id} did not end within {game.spec.max_length} actions")
