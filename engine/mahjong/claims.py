"""Claim windows: who is asked on a discard or an added kong, what each may answer, and which
answer wins (rulings "Claims on a discard", "The end of the wall", "Hebei: ready declaration").

- 和 any other seat (``mcr``: at 8 points without flowers); 碰 any other seat with a pair of
  the tile; 明杠 any other seat with three (a tile must be left in the wall for the
  replacement); 吃 only the discarder's 下家 and only in ``mcr``, with two tiles of the suit
  making a chow, every choice listed. On the discard made when the wall was empty and on an
  added kong (抢杠和) only 和. A locked Hebei hand may 和 and make a 明杠 that keeps its waits,
  never 碰.
- Only seats with a claim are asked; each may also pass (declining has no penalty).
- Priority 和 > 碰/杠 > 吃; of several 和 the first seat in turn order after the source wins
  (截和).

Listed per seat in this order: ``win``, ``kong``, ``pung``, chows by lowest tile, ``pass``.
"""

from __future__ import annotations

from typing import Any

from engine.mahjong import ready
from engine.mahjong.state import Match, Meld, Player, Window
from engine.mahjong.table import next_seat, seats_after
from engine.mahjong.tiles import is_suited, number, suit
from engine.mahjong.winning import claim_win

WIN, PUNG, PASS = {"type": "win"}, {"type": "pung"}, {"type": "pass"}
#: Answer ranks: the lower wins (和 > 碰/杠 > 吃; a pass never takes the tile).
RANK = {"win": 0, "kong": 1, "pung": 1, "chow": 2}


def chow_pairs(concealed: list[str], tile: str) -> list[list[str]]:
    """Return every pair of held tiles that makes a chow with ``tile``, by the chow's lowest
    tile: ``[[n-2, n-1], [n-1, n+1], [n+1, n+2]]`` as far as held."""
    if not is_suited(tile):
        return []
    n, s = number(tile), suit(tile)
    out = []
    for a, b in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)):
        if 1 <= a and b <= 9 and f"{a}{s}" in concealed and f"{b}{s}" in concealed:
            out.append([f"{a}{s}", f"{b}{s}"])
    return out


def _melded_kong_keeps(player: Player, tile: str) -> bool:
    """Whether a locked hand's 明杠 of ``tile`` keeps its waits (an unlocked one: always)."""
    if not player.ready:
        return True
    after = [t for t in player.concealed if t != tile]
    return ready.keeps_waits(player.concealed, player.melds, after,
                             player.melds + [Meld("kong", (tile,) * 4)])


def seat_options(match: Match, seat: int, window: Window) -> tuple[dict[str, Any], ...]:
    """Return ``seat``'s listed answers on ``window`` (empty: not asked)."""
    hand = match.hand
    player = hand.players[seat]
    tile = window.tile
    out: list[dict[str, Any]] = []
    if claim_win(match, seat, window) is not None:
        out.append(WIN)
    if not (window.robbing or window.last):
        held = player.concealed.count(tile)
        if held == 3 and hand.wall_left >= 1 and _melded_kong_keeps(player, tile):
            out.append({"type": "kong", "tile": tile})
        if held >= 2 and not player.ready:
            out.append(PUNG)
        if match.rules == "mcr" and seat == next_seat(hand.order, window.source):
            out += [{"type": "chow", "tiles": pair} for pair in chow_pairs(player.concealed, tile)]
    return tuple(out + [PASS]) if out else ()


def window_options(match: Match, window: Window) -> dict[int, tuple[dict[str, Any], ...]]:
    """Return ``{asked seat: listed answers}`` for a window (no entry: the seat cannot claim)."""
    asked = {}
    for seat in seats_after(match.hand.order, window.source):
        options = seat_options(match, seat, window)
        if options:
            asked[seat] = options
    return asked


def winning_answer(match: Match) -> tuple[int, dict[str, Any]] | None:
    """Return ``(seat, answer)`` that takes the window's tile once every asked seat answered:
    the best rank, ties (several 和) to the first seat in turn order after the source; None
    when every seat passed."""
    hand = match.hand
    best = None
    assert hand.window is not None, "the claim phase has an open window"
    for seat in seats_after(hand.order, hand.window.source):
        answer = hand.answers.get(seat)
        if answer is None or answer["type"] == "pass":
            continue
        if best is None or RANK[answer["type"]] < RANK[best[1]["type"]]:
            best = (seat, answer)
    return best
