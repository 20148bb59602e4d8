"""麻将 Mahjong (four players; rule sets ``hebei`` and ``mcr``): a pure rules engine.

Modules: ``tiles`` (codes, tile sets, parsing), ``shapes`` (winning shapes, waits, shanten),
``mcr_fans`` (the Chinese Official fan table and calculator).
"""

from engine.mahjong.tiles import parse_tiles

__all__ = ["parse_tiles"]
