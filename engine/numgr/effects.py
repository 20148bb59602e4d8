"""What stacks are worth: locks (effectiveness), attack/defense/removal values, area totals.

Rule sources: seed 【卡牌细则】 {数字牌123}, {数字牌0}, {字母牌γ}, {字母牌θ}; rulings "What a
play does", "Variants" ("○ cannot stop") and "Turn" step 2 (the HP check).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.numgr import cards as C
from engine.numgr.state import BOMB, CARD, TRIPLE, Stack, State

#: Unstoppable attack of a Bomb and of a 333 stack (rulings "Variants").
BOMB_ATTACK, TRIPLE_ATTACK = 4, 3
#: γ synergy value with a number base and with a letter base (seed {字母牌γ}).
SYNERGY_NUMBER, SYNERGY_LETTER = 2, 3


@dataclass(frozen=True)
class Value:
    """What one stack contributes while effective.

    Attributes:
        attack: ordinary attack points.
        defense: defense points.
        unstoppable: attack points that ○ defense cannot stop (Bomb 4, 333 3).
        removes: removal effects fired on arrival: ``("n", n)`` removes opponent number stacks
            showing n; ``("numbers", with_beta)`` removes every opponent number stack (and every
            β stack when ``with_beta``, the □β□0 ruling).
    """

    attack: int = 0
    defense: int = 0
    unstoppable: int = 0
    removes: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Totals:
    """An area's sums over its effective stacks (points).

    ``defense_circle`` is defense from stacks whose attribute is ○; ``defense_other`` from the rest
    (only the latter can stop unstoppable attack).
    """

    attack: int = 0
    unstoppable: int = 0
    defense_other: int = 0
    defense_circle: int = 0

    @property
    def defense(self) -> int:
        """All defense points."""
        return self.defense_other + self.defense_circle


def locked_ids(state: State) -> set[int]:
    """Return the ids of stacks locked under an effective θ (rulings "Effective").

    A θ only locks a stack played before it, so walking from the newest stack down decides each θ's
    own effectiveness before its target's: a locked θ locks nothing (seed θ ③, a double lock).
    """
    locked: set[int] = set()
    for stack in sorted(state.stacks, key=lambda s: -s.id):
        if stack.is_theta and stack.lock is not None and stack.id not in locked:
            locked.add(stack.lock)
    return locked


def effective(state: State) -> list[Stack]:
    """Return the stacks that take effect now (not locked under a θ), in id order."""
    locked = locked_ids(state)
    return [s for s in state.stacks if s.id not in locked]


def _single(effect: str | None, n: int) -> Value:
    """One card effect of value ``n``: ``atk`` n attack, ``def`` n defense, ``rem`` removes n."""
    if effect == C.ATK:
        return Value(attack=n)
    if effect == C.DEF:
        return Value(defense=n)
    return Value(removes=(("n", n),))


def _doubled(effect: str | None, n: int, with_beta: bool) -> Value:
    """A 0 of the main card's attribute: 2n attack, 2n defense, or remove every number stack."""
    if effect == C.ATK:
        return Value(attack=2 * n)
    if effect == C.DEF:
        return Value(defense=2 * n)
    return Value(removes=(("numbers", with_beta),))


def _plus(a: Value, b: Value) -> Value:
    """Both effects of a stack: points add up, removals are both kept."""
    return Value(a.attack + b.attack, a.defense + b.defense, a.unstoppable + b.unstoppable,
                 a.removes + b.removes)


def number_value(stack: Stack) -> Value:
    """Value of a number stack (a 1/2/3, or a β copying one) with an optional 0 base.

    Seed {数字牌0}: a 0 of the same attribute doubles the effect (□: removes every number stack;
    □β□0 also every β stack); a 0 of another attribute adds its own effect with the same value
    (○0△2 = 2 attack and 2 defense). A ☆ card uses its chosen effect.
    """
    acts_as, main = stack.acts_as, stack.main
    assert acts_as is not None and main is not None, "a number stack has a main card"
    n = int(acts_as)
    main_attr = C.attr(main)
    main_effect = stack.mode if main_attr == C.ANY else main_attr
    if stack.base is None:
        return _single(main_effect, n)
    base_attr = C.attr(stack.base)
    if base_attr == main_attr:
        return _doubled(main_effect, n, with_beta=stack.face == C.BETA)
    base_effect = stack.base_mode if base_attr == C.ANY else base_attr
    return _plus(_single(main_effect, n), _single(base_effect, n))


def synergy_value(stack: Stack) -> Value:
    """Value of a γ (or β copying γ): 2 with a number base, 3 with a letter base.

    Seed {字母牌γ}; the base's own effect does not apply (ruling).
    """
    assert stack.base is not None, "a γ stack always has a base card"
    points = SYNERGY_NUMBER if C.is_numeric_card(stack.base) else SYNERGY_LETTER
    return Value(attack=points) if stack.mode == C.ATK else Value(defense=points)


def stack_value(stack: Stack) -> Value:
    """Return what ``stack`` contributes while effective (α and θ contribute no points)."""
    if stack.kind == BOMB:
        return Value(unstoppable=BOMB_ATTACK)
    if stack.kind == TRIPLE:
        return Value(unstoppable=TRIPLE_ATTACK)
    if C.is_number_face(stack.acts_as or ""):
        return number_value(stack)
    if stack.acts_as == C.GAMMA:
        return synergy_value(stack)
    return Value()


def area_totals(state: State, seat: int) -> Totals:
    """Sum attack and defense over ``seat``'s effective area stacks (rulings "Turn" step 2)."""
    attack = unstoppable = other = circle = 0
    for stack in effective(state):
        if stack.area != seat:
            continue
        value = stack_value(stack)
        attack += value.attack
        unstoppable += value.unstoppable
        if stack.attr == C.DEF:
            circle += value.defense
        else:
            other += value.defense
    return Totals(attack, unstoppable, other, circle)


def loses_hp(attack: Totals, defense: Totals) -> bool:
    """Return whether the defender loses 1 HP at the end of its defense step.

    Rulings "Turn" step 2 and "Variants": ordinary attack greater than all defense loses; with
    unstoppable attack the defender survives only if its non-○ defense covers the unstoppable part
    and the defense left over (non-○ remainder plus ○ defense) covers the ordinary attack.
    """
    if attack.unstoppable > defense.defense_other:
        return True
    left = defense.defense_other - attack.unstoppable + defense.defense_circle
    return attack.attack > left


def is_number_stack(stack: Stack) -> bool:
    """Whether □ removal sees the stack as a number stack: a 1/2/3 main card or a number 333.

    A β copying a number is not one (seed β ①).
    """
    if stack.kind == TRIPLE:
        return C.is_number_face(stack.v_face)
    return stack.kind == CARD and C.is_number_face(stack.face)


def removed_by(stack: Stack, removal: tuple[str, object]) -> bool:
    """Whether one removal effect (see ``Value.removes``) removes ``stack``."""
    kind, arg = removal
    if kind == "n":
        face = stack.face
        return is_number_stack(stack) and face is not None and int(face) == arg
    return is_number_stack(stack) or (bool(arg) and stack.kind == CARD and stack.face == C.BETA)
