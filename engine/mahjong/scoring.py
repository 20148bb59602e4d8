"""The score sheet of a finished hand (rulings "Scoring: `mcr`", "Scoring: `hebei`").

A sheet is JSON-ready::

    {"hand": 3, "dealer": 1, "prevalent_wind": "E" | None, "seat_winds": ["W", "E", "S", "N"],
     "result": "win" | "draw", "winner": 2 | None, "payer": 0 | None,
     "way": "self_drawn" | "discard" | "robbing" | None, "win_tile": "5p" | None,
     "fans": [["all_pungs", 6], …]  (mcr), "doublings": ["all_pungs", "self_drawn"]  (hebei),
     "total": 24  (mcr points, flowers included; hebei value; 0 on a draw),
     "payments": [-32, 0, 96, -32, …], "kong_points": [0, 3, 0, -3]  (hebei; mcr: zeros),
     "scores": payments + kong points, "totals": running totals after the hand,
     "hands": [{"concealed": […], "melds": [{"kind", "tiles", "from", "claimed"}], "flowers": […]}
               per seat: every hand revealed]}
"""

from __future__ import annotations

from typing import Any

from engine.mahjong import hebei, mcr
from engine.mahjong.state import Match, Meld, Player
from engine.mahjong.table import SEATS, prevalent_wind, seat_winds
from engine.mahjong.tiles import sorted_tiles
from engine.mahjong.winning import Win


def meld_json(meld: Meld, hidden: bool = False) -> dict[str, Any]:
    """Return a meld as JSON (``hidden``: a concealed kong seen by others, four ``None``)."""
    tiles = [None] * 4 if hidden else list(meld.tiles)
    return {"kind": meld.kind, "tiles": tiles, "from": meld.source, "claimed": meld.claimed}


def revealed(player: Player) -> dict[str, Any]:
    """Return a seat's whole hand as the end of a hand shows it."""
    return {"concealed": sorted_tiles(player.held()),
            "melds": [meld_json(m) for m in player.melds], "flowers": list(player.flowers)}


def _payments(match: Match, win: Win | None) -> list[int]:
    if win is None:
        return [0] * SEATS
    if match.rules == "mcr":
        return mcr.win_payments(win.seat, win.total, win.payer)
    return hebei.win_payments(win.seat, win.total, win.way, win.payer)


def _kong_points(match: Match) -> list[int]:
    if match.rules != "hebei":
        return [0] * SEATS
    return hebei.kong_points([p.melds for p in match.hand.players])


def sheet(match: Match, win: Win | None, robbed: bool = False) -> dict[str, Any]:
    """Return the sheet of the hand that just ended with ``win`` (None: a draw, 荒庄), before
    the totals are updated (``totals`` in the sheet are the totals after it).

    ``robbed``: the win robbed an added kong (the way is then ``"robbing"``)."""
    hand = match.hand
    payments = _payments(match, win)
    kongs = _kong_points(match)
    scores = [p + k for p, k in zip(payments, kongs)]
    way = None if win is None else (
        "self_drawn" if win.self_drawn else "robbing" if robbed else "discard")
    return {
        "hand": hand.number, "dealer": hand.dealer,
        "prevalent_wind": prevalent_wind(match.rules, hand.number),
        "seat_winds": seat_winds(hand.order, hand.dealer),
        "result": "draw" if win is None else "win",
        "winner": None if win is None else win.seat,
        "payer": None if win is None else win.payer,
        "way": way, "win_tile": None if win is None else win.win_tile,
        "fans": [] if win is None else [list(f) for f in win.fans],
        "doublings": [] if win is None else list(win.doublings),
        "total": 0 if win is None else win.total,
        "payments": payments, "kong_points": kongs, "scores": scores,
        "totals": [t + s for t, s in zip(match.totals, scores)],
        "hands": [revealed(p) for p in hand.players],
    }
