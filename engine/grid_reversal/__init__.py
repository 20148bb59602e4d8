"""逆转 Grid Reversal: a two-player card game of flipping the opponent's cards on a shared grid.

Modules: ``data`` (cards, limits), ``options`` (room options, spec), ``board`` (geometry),
``state`` (immutable state, dump/load), ``moves`` (action shapes), ``grid`` (grid questions),
``reversal`` (firing and chains), ``effects`` (breakage and effect cards), ``flow`` (rounds,
stages, standoff, draws), ``setup`` (deal, mother cards), ``legal`` (the legal moves),
``refusals`` (error codes), ``turns`` (what each move does), ``view``, ``redeal``, ``game``.
"""

from .game import GAME, GridReversal

__all__ = ["GAME", "GridReversal"]
