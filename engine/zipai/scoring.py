"""Scoring a won hand: 舵, multipliers, 翻醒 and payments (seed 4.2–5, rulings "Scoring").

Win points = (舵 × multipliers + 醒) × stake. On 点炮 the discarder alone pays them; on any other
win each of the two others pays them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.zipai.cards import next_face
from engine.zipai.groups import duo
from engine.zipai.winning import WinHand

MULTIPLIER_NAMES = ("zimo", "haidi", "tianhu", "dihu")


def multipliers(flags: Sequence[str]) -> list[dict[str, Any]]:
    """Return ``[{"name", "factor": 2}]`` for each of 自摸/海底/天胡/地胡 present in ``flags``."""
    return [{"name": name, "factor": 2} for name in MULTIPLIER_NAMES if name in flags]


def fan_xing(stock: Sequence[str], winner_cards: Sequence[str]) -> list[dict[str, Any]]:
    """Return the 翻醒 turns: ``[{"turned", "face", "count"}]`` (seed 4.4; ruling on 手中).

    The top stock card is turned; the 醒 face is the same case, value + 1 (十 → 一). ``count`` is
    how many of the winner's cards (hand and groups) show that face. When all four copies are the
    winner's, the next stock card is turned too, while stock remains. Empty stock: no turn.
    """
    turns = []
    for turned in stock:
        xing_face = next_face(turned)
        count = sum(1 for c in winner_cards if c == xing_face)
        turns.append({"turned": turned, "face": xing_face, "count": count})
        if count < 4:
            break
    return turns


def payments(winner: int, payer: int | None, points: int, seats: int = 3) -> list[int]:
    """Return the score change of every seat: the payer alone pays on 点炮, else both others pay."""
    out = [0] * seats
    payers = [payer] if payer is not None else [s for s in range(seats) if s != winner]
    for seat in payers:
        out[seat] -= points
        out[winner] += points
    return out


def win_result(win: WinHand, *, winner: int, payer: int | None, flags: Sequence[str],
               xing_turns: list[dict[str, Any]], stake: int) -> dict[str, Any]:
    """Return the scoring breakdown of a win (JSON-ready).

    Keys: ``winner``, ``huxi``, ``duo``, ``multipliers``, ``factor``, ``xing`` (turns),
    ``xing_count``, ``points`` (paid by each payer), ``payer`` (None when both others pay),
    ``payments`` (per seat), ``groups`` (the winning groups with their 胡息).
    """
    base = duo(win.huxi)
    mults = multipliers(flags)
    factor = 1
    for m in mults:
        factor *= m["factor"]
    xing_count = sum(t["count"] for t in xing_turns)
    points = (base * factor + xing_count) * stake
    return {
        "winner": winner, "huxi": win.huxi, "duo": base, "multipliers": mults, "factor": factor,
        "xing": xing_turns, "xing_count": xing_count, "stake": stake, "points": points,
        "payer": payer, "payments": payments(winner, payer, points), "groups": list(win.groups),
    }
