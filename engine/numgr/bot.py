"""The greedy one-ply score of NumGR (used by ``engine.bots.ScoringBot``).

It reads only the seat's view (``seat``, ``step``, ``totals``, ``areas``) and the candidate
action. A play is summarised by ``gain`` (rulings "What a play does", read on the visible
areas; letters other than γ, β-as-number and θ-locks/α-reflections are approximated):

    attack, defense   a number n (or a β copying n; ☆ by its chosen mode): n of its effect;
                      over a 0 of the same attribute 2n; over a 0 of another attribute n of
                      each of the two effects; a γ: 2 (3 over a letter base) of its mode
    cut               opponent attack taken away: □n removes the opponent's unlocked number
                      stacks showing n (□ over a same-attribute 0: every number stack); a θ
                      locking a stack takes its attack; an α takes (and adds to ours) the attack
                      of the opponent's stacks of its attribute

Then, with ``deficit = max(0, opponent attack - our defense)`` (step 2 loses 1 HP when the
attack is greater):

    play in step 2 (defense)   3 * min(defense + cut, deficit) + attack - 0.1
    play in step 3 (attack)    attack - 0.1
    end_step                   0
    discard c (step 4)         0.5 for a letter card (α β γ θ), -1 for a number card
    discard nothing            0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.numgr import cards as C

__all__ = ["score", "Gain", "gain", "PLAY_COST", "DEFENSE_WEIGHT"]

PLAY_COST = 0.1
DEFENSE_WEIGHT = 3


@dataclass(frozen=True)
class Gain:
    """What a play adds for us: ``attack``, ``defense`` and ``cut`` (opponent attack removed)."""

    attack: int = 0
    defense: int = 0
    cut: int = 0


def _number(action: Mapping[str, Any]) -> int | None:
    main = action["main"]
    if C.is_number_face(C.face(main)):
        return int(C.face(main))
    copy = action.get("copy")
    return int(copy) if copy and C.is_number_face(copy) else None


def _effect(attribute: str, mode: str | None) -> str:
    return mode if attribute == C.ANY and mode else attribute


def _removed(view: Mapping[str, Any], n: int | None) -> int:
    """Attack of the opponent's unlocked number stacks showing ``n`` (``None``: every number)."""
    opp = view["areas"][1 - view["seat"]]
    return sum(s["attack"] for s in opp if s["locked_by"] is None and C.is_number_face(s["face"])
               and (n is None or s["face"] == str(n)))


def _add(values: dict[str, int], effect: str, amount: int, view: Mapping[str, Any],
         n: int | None) -> None:
    if effect == C.REM:
        values["cut"] += _removed(view, n)
    elif effect in (C.ATK, C.DEF):
        values[effect] += amount


def _number_gain(view: Mapping[str, Any], action: Mapping[str, Any], n: int) -> Gain:
    values = {C.ATK: 0, C.DEF: 0, "cut": 0}
    effect = _effect(C.attr(action["main"]), action.get("mode"))
    base = action.get("base")
    if base is None:
        _add(values, effect, n, view, n)
    elif C.attr(base) == C.attr(action["main"]):
        _add(values, effect, 2 * n, view, None)
    else:
        _add(values, effect, n, view, n)
        _add(values, _effect(C.attr(base), action.get("base_mode")), n, view, n)
    return Gain(values[C.ATK], values[C.DEF], values["cut"])


def _letter_gain(view: Mapping[str, Any], action: Mapping[str, Any]) -> Gain:
    face = action.get("copy") if C.face(action["main"]) == C.BETA else C.face(action["main"])
    opp = view["areas"][1 - view["seat"]]
    if face == C.GAMMA and action.get("base"):
        points = 2 if C.is_numeric_card(action["base"]) else 3
        mode = action.get("mode")
        return Gain(points if mode == C.ATK else 0, points if mode == C.DEF else 0)
    if face == C.THETA and action.get("lock") is not None:
        return Gain(cut=sum(s["attack"] for s in opp if s["id"] == action["lock"]))
    if face == C.ALPHA:
        taken = sum(s["attack"] for s in opp
                    if s["attr"] == C.attr(action["main"]) and s["locked_by"] is None)
        return Gain(attack=taken, cut=taken)
    return Gain()


def gain(view: Mapping[str, Any], action: Mapping[str, Any]) -> Gain:
    """Return the ``Gain`` of a play action (see the module docstring)."""
    n = _number(action)
    return _number_gain(view, action, n) if n is not None else _letter_gain(view, action)


def score(view: Mapping[str, Any], action: Mapping[str, Any]) -> float:
    """Return the value of ``action`` for ``view["seat"]`` (table in the module docstring)."""
    kind = action["type"]
    if kind == "discard":
        card = action["card"]
        if card is None:
            return 0
        return 0.5 if C.face(card) in C.LETTER_FACES else -1
    if kind != "play":
        return 0
    g = gain(view, action)
    if view["step"] == "defense":
        me, opp = view["totals"][view["seat"]], view["totals"][1 - view["seat"]]
        deficit = max(0, opp["attack"] - me["defense"])
        return DEFENSE_WEIGHT * min(g.defense + g.cut, deficit) + g.attack - PLAY_COST
    return g.attack - PLAY_COST
