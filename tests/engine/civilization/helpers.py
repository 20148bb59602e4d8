"""Builders of hand-made Reversed Civilizations states for the unit tests.

Card ids (deck data, rulings "Deck"): 0 S 王权/婚姻, 1 织网/雇佣, 2 狩猎/劳作, 3 耕种/交易,
4 捕获/规划, 5 畜牧/协作, 6 采集/掠夺, 7 织网/商贸, 8 狩猎/律法, 9 耕种/学习, 10 捕获/突破,
11 畜牧/雇佣, 12 采集/劳作, 13 交易/掠夺, 14 规划/商贸, 15 协作/律法, 16 学习/突破.
``facing`` is the seat slot 0 (the first named) faces.
"""

from __future__ import annotations

from engine.civilization import GAME
from engine.civilization.state import EMPTY, Card, State, Step


def card(card_id: int, facing: int, leader: int | None = None,
         workers: tuple[int, int] = (EMPTY, EMPTY)) -> Card:
    return Card(card_id, facing, leader, workers)


def make(row, resources=((0, 0, 0), (0, 0, 0)), *, unlocked=(2, 2), deck=(16,), phase="action",
         actor=0, start=0, passed=(False, False), queue=(), round_no=3) -> State:
    return State(60, round_no, phase, start, actor, passed, tuple(row), tuple(deck), None,
                 tuple(tuple(r) for r in resources), unlocked, tuple(queue), 0, None, "")


def play(state: State, seat: int, *actions: dict) -> State:
    """Apply ``actions`` in turn for ``seat`` (each must be legal)."""
    for action in actions:
        state, _ = GAME.apply(state, seat, action)
    return state


def place(i: int, resolve: bool = True) -> dict:
    return {"type": "place", "card": i, "resolve": resolve}


def take(resource: str) -> dict:
    return {"type": "take", "resource": resource}


__all__ = ["card", "make", "play", "place", "take", "Step", "EMPTY"]
