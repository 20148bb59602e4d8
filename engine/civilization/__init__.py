"""逆转文明 Reversed Civilizations: a 2-player worker-placement engine (``GAME``).

Modules: ``data`` (the card file), ``state`` (immutable state and helpers), ``effects`` (the 18
slot effects), ``steps`` (follow-up decisions), ``actions`` (main actions), ``flow`` (rounds and
clean-up), ``ending`` (leaders and the end), ``view``, ``serial``, ``game`` (the protocol), ``bot``
(the greedy bot).
"""

from engine.civilization.game import CivilizationGame

GAME = CivilizationGame()

__all__ = ["GAME", "CivilizationGame"]
