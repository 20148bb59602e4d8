"""Reverse Curse Dungeons (LIFO: Mind Games, Match Edition): the engine package.

Public API: ``GAME`` (the ``engine.core.Game`` protocol), ``resolve_stack(cards)`` (the LIFO
result of a field given T1 first; rulings "Public API"), ``resolve(cards)`` (result and step
trace) and ``ladder(state)`` (per-set ladder records the server stores).
"""

from engine.reverse_curse.game import GAME, ReverseCurseGame
from engine.reverse_curse.outcome import ladder, resolved_count
from engine.reverse_curse.resolution import resolve, resolve_stack

__all__ = ["GAME", "ReverseCurseGame", "resolve_stack", "resolve", "ladder",
           "resolved_count"]
