"""Competition (MCR) hand scoring as the engine uses it: the fan list of a hand through
``mcr_fan``, the 8-point minimum and the payments (rulings "Scoring: `mcr`").

- Minimum: 8 points not counting flowers (起和分 8分; 花牌分不计在起和分内); a seat whose hand
  would score less is not offered the win.
- Payment (底分 8): won on a discard, the discarder pays 8 + total and the other two pay 8 each;
  self-drawn, each of the three pays 8 + total; 抢杠和: the robbed player pays as the discarder.
"""

from __future__ import annotations

from functools import lru_cache

from engine.mahjong import mcr_fans

SEATS = 4
MINIMUM = mcr_fans.MINIMUM_POINTS
BASE = 8

Fans = tuple[tuple[str, int], ...]


@lru_cache(maxsize=1 << 14)
def fans(hand: str, win_tile: str, melds: tuple[tuple[str, str], ...], *, self_drawn: bool,
         fourth_tile: bool, kong: bool, wall_last: bool, seat_wind: str, round_wind: str,
         flowers: int) -> Fans | None:
    """Return ``mcr_fan``'s fans of a hand (same arguments) as a tuple, or ``None`` when the
    hand is not complete. Memoised: the engine asks again for every listed win."""
    try:
        return tuple(mcr_fans.mcr_fan(hand, win_tile, melds, self_drawn=self_drawn,
                                       fourth_tile=fourth_tile, kong=kong,
                                       wall_last=wall_last, seat_wind=seat_wind,
                                       round_wind=round_wind, flowers=flowers))
    except ValueError:
        return None


def total_and_minimum(fan_list: Fans) -> tuple[int, int]:
    """Return (the hand's total, flowers included; the points toward the 8-point minimum)."""
    return mcr_fans.mcr_total(fan_list)


def win_payments(winner: int, points: int, payer: int | None) -> list[int]:
    """Return each seat's score change for a win worth ``points`` (the total, flowers
    included): ``payer`` the discarder or robbed player, ``None`` when self-drawn."""
    out = [0] * SEATS
    for seat in range(SEATS):
        if seat == winner:
            continue
        owed = BASE + points if payer is None or seat == payer else BASE
        out[seat] -= owed
        out[winner] += owed
    return out
