"""A deterministic greedy player for seeded test matches: it wins whenever it may, makes every
kong it may, claims a pung or chow that brings its hand nearer to ready, declares ready when it
can, and otherwise discards the tile that leaves the hand nearest to ready
(``shapes.shanten``), the last such tile in sort order. It reads the raw state: a test tool,
not a bot."""

from __future__ import annotations

from typing import Any

from engine.mahjong import GAME
from engine.mahjong.bot import best_after_discard
from engine.mahjong.shapes import shanten
from engine.mahjong.state import Meld

WIN, PASS = {"type": "win"}, {"type": "pass"}


def _claim(state, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    player = state.hand.players[seat]
    tile = state.hand.window.tile
    now = shanten(player.concealed, player.melds, state.rules)
    for action in legal:
        if action["type"] == "kong":
            return action
        if action["type"] in ("pung", "chow"):
            used = [tile, tile] if action["type"] == "pung" else action["tiles"]
            rest = list(player.concealed)
            for t in used:
                rest.remove(t)
            melds = player.melds + [Meld("pung", (tile,) * 3)]
            if best_after_discard(rest, len(melds), state.rules) < now:
                return action
    return PASS


def choose(state, seat: int) -> dict[str, Any]:
    """Return the greedy action of ``seat`` (which must be deciding)."""
    legal = GAME.legal_actions(state, seat)
    if WIN in legal:
        return WIN
    if state.hand.phase == "claim":
        return _claim(state, seat, legal)
    kongs = [a for a in legal if a["type"] == "kong"]
    if kongs:
        return kongs[0]
    player = state.hand.players[seat]
    best = None
    for action in legal:
        rest = player.held()
        rest.remove(action["tile"])
        key = (shanten(rest, player.melds, state.rules), not action.get("ready", False))
        if best is None or key <= best[0]:
            best = (key, action)
    return best[1]


def play(options: dict[str, Any], seed: bytes):
    """Play a whole match with every seat greedy (the lowest deciding seat acts first);
    return (final state, number of actions)."""
    state = GAME.new_game(GAME.validate_options(options), 4, seed)
    count = 0
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, choose(state, seat))
        count += 1
    return state, count
