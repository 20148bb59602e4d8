"""麻将 Mahjong (four players; rule sets ``hebei`` and ``mcr``): a pure rules engine.

Public API: ``GAME``, ``parse_tiles``, ``mcr_fan``, ``MCR_FANS``, ``hebei_value``,
``HEBEI_DOUBLINGS``.

Modules: ``tiles`` (codes, tile sets, parsing), ``shapes`` (winning shapes, waits, shanten),
``mcr_fans`` (the Chinese Official fan table and calculator), ``hebei`` (Hebei values, payments,
kong points), ``mcr`` (the engine's use of ``mcr_fan``: minimum, payments), ``winning`` (who may
win now, with which flags), ``table`` (seats, winds, dealers), ``wall``, ``deal``, ``turn`` (the
turn's listed actions), ``claims`` (claim windows), ``ready`` (报听), ``flow`` (the turn
flow), ``scoring`` (score sheets), ``progress`` (next hand, ranking), ``state``, ``view``,
``hidden`` and ``construct`` (re-deals and samples), ``actions`` (shapes, errors), ``game``.
"""

from engine.mahjong.game import GAME
from engine.mahjong.hebei import HEBEI_DOUBLINGS, hebei_value
from engine.mahjong.mcr_fans import MCR_FANS, mcr_fan
from engine.mahjong.tiles import parse_tiles

__all__ = ["GAME", "parse_tiles", "mcr_fan", "MCR_FANS", "hebei_value", "HEBEI_DOUBLINGS"]
