"""Action shapes, their canonical form, and the error a refused action gets.

Actions (JSON objects; tiles are MPSZ codes, ``"5m"``):

- ``{"type": "discard", "tile": "3m"}``; in ``hebei`` also ``{"type": "discard", "tile": "3m",
  "ready": true}`` to declare ready (报听) with that discard (``"ready": false`` is the plain
  discard);
- ``{"type": "win"}`` (自摸, on the deal, or on the claimed tile);
- ``{"type": "kong", "tile": "5m"}``: in one's turn a concealed kong (four held) or an added
  kong (to one's exposed pung); in a claim window a 明杠 on the discard (``tile`` = the discard);
- ``{"type": "pung"}`` (碰 the discard);
- ``{"type": "chow", "tiles": ["3m", "5m"]}`` (吃, ``mcr``): the two held tiles that make the
  chow with the discard, in any order (listed in sort order);
- ``{"type": "pass"}`` (decline every claim in a window).

``InvalidAction`` codes: ``malformed_action``, ``unknown_action``, ``unknown_tile``.
``IllegalAction`` codes: ``game_over``, ``not_your_turn``, ``tile_not_in_hand``,
``ready_locked`` (a locked hand may only discard its drawn tile, and may not 碰),
``not_ready`` (a ready declaration that leaves no live wait, or a second one), ``no_ready``
(``mcr`` has no ready declaration), ``not_complete`` (no winning shape), ``below_minimum``
(``mcr``: under 8 points without flowers), ``wall_empty`` (no kong without a tile left),
``wins_only`` (only 和 on the final discard and on an added kong), ``no_chow`` (吃: ``hebei``
never, ``mcr`` only the discarder's 下家), ``kong_breaks_ready`` (the kong changes a locked
hand's waits), ``not_allowed`` (anything else not listed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import IllegalAction, InvalidAction, check_action, require_keys
from engine.mahjong.shapes import is_complete
from engine.mahjong.state import Match
from engine.mahjong.table import next_seat
from engine.mahjong.tiles import KINDS, sorted_tiles
from engine.mahjong.turn import kong_tiles

SHAPES: dict[str, dict[str, type]] = {
    "discard": {"tile": str}, "win": {}, "pass": {}, "pung": {}, "kong": {"tile": str},
    "chow": {"tiles": list},
}
_KINDS = frozenset(KINDS)


def _tile(value: Any) -> str:
    if not isinstance(value, str) or value not in _KINDS:
        raise InvalidAction("unknown_tile", f"{value!r} is not a tile code (1m…9s, 1z…7z).")
    return value


def normalise(action: Any) -> dict[str, Any]:
    """Return ``action`` checked for shape in the canonical form ``legal_actions`` lists.

    Raises:
        InvalidAction: ``malformed_action``, ``unknown_action`` or ``unknown_tile``.
    """
    if isinstance(action, Mapping) and action.get("type") == "discard" and "ready" in action:
        require_keys(action, {"tile": str, "ready": bool})
        out: dict[str, Any] = {"type": "discard", "tile": _tile(action["tile"])}
        if action["ready"]:
            out["ready"] = True
        return out
    kind = check_action(action, SHAPES)
    if kind in ("discard", "kong"):
        return {"type": kind, "tile": _tile(action["tile"])}
    if kind == "chow":
        tiles = action["tiles"]
        if len(tiles) != 2:
            raise InvalidAction("malformed_action", "A chow names the two held tiles.")
        return {"type": kind, "tiles": sorted_tiles(_tile(t) for t in tiles)}
    return {"type": kind}


def why_illegal(match: Match, seat: int, action: dict[str, Any]) -> IllegalAction:
    """Return the most specific error for a well-formed action of a deciding ``seat`` that is
    not listed (codes in the module doc)."""
    hand = match.hand
    if hand.phase == "claim":
        return _claim_refusal(match, seat, action)
    return _turn_refusal(match, seat, action)


def _win_refusal(match: Match, tiles: list[str], melds) -> IllegalAction:
    if match.rules == "mcr" and is_complete(tiles, melds, "mcr"):
        return IllegalAction("below_minimum", "The hand scores under 8 points (flowers aside).")
    return IllegalAction("not_complete", "The hand is not a winning shape.")


def _claim_refusal(match: Match, seat: int, action: dict[str, Any]) -> IllegalAction:
    hand = match.hand
    window, player, kind = hand.window, hand.players[seat], action["type"]
    assert window is not None, "the claim phase has an open window"
    if kind == "win":
        return _win_refusal(match, player.concealed + [window.tile], player.melds)
    if kind == "discard":
        return IllegalAction("not_allowed", "Answer the claim window: win, claim or pass.")
    if window.robbing or window.last:
        return IllegalAction("wins_only", "Only a win may be claimed on this tile.")
    if kind == "chow":
        if match.rules != "mcr" or seat != next_seat(hand.order, window.source):
            return IllegalAction("no_chow", "Only the discarder's next seat may chow (mcr).")
        return IllegalAction("tile_not_in_hand", "You do not hold those tiles for a chow.")
    if kind == "pung" and player.ready:
        return IllegalAction("ready_locked", "A hand declared ready may not pung.")
    if kind == "kong" and action["tile"] != window.tile:
        return IllegalAction("not_allowed", "A kong in a claim window is of the discard.")
    if kind == "kong" and player.concealed.count(window.tile) == 3:
        if hand.wall_left < 1:
            return IllegalAction("wall_empty", "No kong may be declared with the wall empty.")
        return IllegalAction("kong_breaks_ready", "That kong changes your ready hand's waits.")
    if kind in ("kong", "pung"):
        return IllegalAction("tile_not_in_hand", "You do not hold enough of that tile.")
    return IllegalAction("not_allowed", f"{kind!r} is not allowed now.")


def _turn_refusal(match: Match, seat: int, action: dict[str, Any]) -> IllegalAction:
    hand = match.hand
    player, kind = hand.players[seat], action["type"]
    held = player.held()
    if kind == "win" and hand.step != "claimed":
        return _win_refusal(match, held, player.melds)
    if kind == "discard":
        if action["tile"] not in held:
            return IllegalAction("tile_not_in_hand", f"You do not hold {action['tile']}.")
        if player.ready:
            return IllegalAction("ready_locked", "A hand declared ready discards its drawn tile.")
        if match.rules != "hebei":
            return IllegalAction("no_ready", "The competition rules have no ready declaration.")
        return IllegalAction("not_ready", "That discard does not leave a ready hand.")
    if kind == "kong" and hand.step != "claimed":
        if hand.wall_left < 1:
            return IllegalAction("wall_empty", "No kong may be declared with the wall empty.")
        if action["tile"] in kong_tiles(player):
            return IllegalAction("kong_breaks_ready", "That kong changes your ready hand's waits.")
        return IllegalAction("tile_not_in_hand", "You hold no kong of that tile.")
    return IllegalAction("not_allowed", f"{kind!r} is not allowed now.")
