"""Per-viewer views of a mahjong match (rulings "Match, clocks and bots", hidden information).

Everyone sees discards (in order; the hand's latest marked, taken ones marked), exposed sets
with where their claimed tile came from, flowers, ready declarations, the number of tiles left
in the wall, hand sizes, seat and prevalent winds, the dealer and the table order, whose turn
it is, that claims are pending (never who was asked or what they answered), the score sheets
(every hand revealed at its end) and the totals. A seat also sees its own standing tiles
(sorted, the drawn tile apart), its own concealed kongs and its own claim-window status and
answer. Nobody sees another hand, the wall's order or another seat's concealed kong before the
hand's end (its score sheet reveals every hand) or, for the last hand, the match's end.

Shape (JSON-ready)::

    {"game": "mahjong", "seat": 0 | None, "options": {...}, "rules": "hebei" | "mcr",
     "hands": 8, "hand_no": 1, "first_dealer": 2, "prevalent_wind": "E" | None,
     "dealer": 2, "order": [2, 3, 0, 1], "seat_winds": ["W", "N", "E", "S"],
     "wall_left": 83, "phase": "turn" | "claim" | "finished", "turn": 2 | None,
     "step": "deal" | "draw" | "kong" | "claimed", "claims_pending": False,
     "claim": None | {"tile", "from", "robbing", "last", "first"},
     "last_discard": None | {"seat": 1, "index": 4},
     "players": [{"seat", "wind", "hand_size", "drawn": bool, "ready": bool,
                  "melds": [{"kind", "tiles" (four None: another's concealed kong), "from",
                             "claimed"}],
                  "flowers": [...], "discards": [{"tile", "taken", "ready"}],
                  "revealed": None | {"concealed", "drawn"} (once the match is over)}, ...],
     "me": None | {"hand": [...], "drawn": "5m" | None,
                   "claim": None | "asked" | "answered", "answer": None | {...}},
     "totals": [...], "results": [score sheets], "resigned": None, "outcome": None | {...}}
"""

from __future__ import annotations

from typing import Any

from engine.mahjong.scoring import meld_json
from engine.mahjong.state import Hand, Match, Player
from engine.mahjong.table import match_hands, prevalent_wind, seat_wind


def _player_view(hand: Hand, seat: int, viewer: int | None, over: bool) -> dict[str, Any]:
    player = hand.players[seat]
    hidden = not over and viewer != seat
    return {
        "seat": seat, "wind": seat_wind(hand.order, hand.dealer, seat),
        "hand_size": len(player.concealed) + (player.drawn is not None),
        "drawn": player.drawn is not None, "ready": player.ready,
        "melds": [meld_json(m, hidden and m.kind == "concealed_kong") for m in player.melds],
        "flowers": list(player.flowers),
        "discards": [{"tile": d.tile, "taken": d.taken, "ready": d.ready}
                     for d in player.discards],
        "revealed": ({"concealed": list(player.concealed), "drawn": player.drawn}
                     if over else None),
    }


def _claim(hand: Hand) -> dict[str, Any] | None:
    window = hand.window
    if hand.phase != "claim" or window is None:
        return None
    return {"tile": window.tile, "from": window.source, "robbing": window.robbing,
            "last": window.last, "first": window.first}


def _mine(hand: Hand, viewer: int | None) -> dict[str, Any] | None:
    if viewer is None:
        return None
    player: Player = hand.players[viewer]
    status, given = None, None
    if hand.phase == "claim" and viewer in hand.asked:
        given = hand.answers.get(viewer)
        status = "asked" if given is None else "answered"
    return {"hand": list(player.concealed), "drawn": player.drawn, "claim": status,
            "answer": None if given is None else dict(given)}


def _last_discard(hand: Hand) -> dict[str, int] | None:
    seat = hand.last_discarder
    if seat is None:
        return None
    return {"seat": seat, "index": len(hand.players[seat].discards) - 1}


def view(match: Match, viewer: int | None) -> dict[str, Any]:
    """Return what ``viewer`` (a seat, or None = spectator) may see (shape in the module doc;
    the caller adds ``outcome``)."""
    hand = match.hand
    over = match.over
    phase = "finished" if over else hand.phase
    return {
        "game": "mahjong", "seat": viewer, "options": dict(match.options),
        "rules": match.rules, "hands": match_hands(match.options), "hand_no": hand.number,
        "first_dealer": match.first_dealer,
        "prevalent_wind": prevalent_wind(match.rules, hand.number),
        "dealer": hand.dealer, "order": list(hand.order),
        "seat_winds": [seat_wind(hand.order, hand.dealer, s) for s in range(len(hand.players))],
        "wall_left": hand.wall_left, "phase": phase,
        "turn": hand.turn if phase == "turn" else None, "step": hand.step,
        "claims_pending": phase == "claim", "claim": _claim(hand),
        "last_discard": _last_discard(hand),
        "players": [_player_view(hand, s, viewer, over) for s in range(len(hand.players))],
        "me": _mine(hand, viewer),
        "totals": list(match.totals), "results": list(match.results),
        "resigned": match.resigned,
    }
