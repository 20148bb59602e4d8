"""字牌 Zipai (Guilin-style, three players): a pure rules engine.

Public API (rulings "Public API"): ``GAME``, ``parse_cards``, ``best_hand_huxi``, ``duo``.
Modules: ``cards`` (deck, codes), ``groups`` (shapes, 胡息 table, 舵), ``split`` (best split),
``winning`` (win check), ``claims`` (claim options), ``flow`` (turn flow), ``scoring``,
``state`` (state and dump/load), ``view`` (per-viewer views), ``game`` (the protocol object).
"""

from engine.zipai.cards import parse_cards
from engine.zipai.game import GAME
from engine.zipai.groups import duo
from engine.zipai.split import best_hand_huxi

__all__ = ["GAME", "parse_cards", "best_hand_huxi", "duo"]
