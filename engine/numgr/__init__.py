"""NumGR, a 1v1 card duel: 32 cards, stacks, reflection, imitation, synergy and locks.

Rules: shared/rules/numgr.md (binding rulings) over seed 001. ``GAME`` is the engine object.
Modules: ``cards`` (deck), ``state`` (state + dump/load), ``effects`` (values, locks, totals),
``plays`` (legal plays), ``resolve`` (arrival, reflection, removal, variants), ``turn`` (the turn
steps), ``view`` (per-viewer view), ``redeal`` (leak tests), ``game`` (the protocol object).
"""

from engine.numgr.game import GAME

__all__ = ["GAME"]
