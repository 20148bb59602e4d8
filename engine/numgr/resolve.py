"""Resolving stacks in the play areas: arrival, reflection, removal, locks, releases, variants.

Rule sources: seed {字母牌α} ①–④, {字母牌θ} ①–④, {底牌/主牌} (base cards share their main card's
fate, except a θ's locked card), 【规则变种】; rulings "What a play does" and "Variants".
All functions change the given (already cloned) state in place and append events.
"""

from __future__ import annotations

from collections import Counter

from engine.core import Event
from engine.numgr import cards as C
from engine.numgr.effects import effective, removed_by, stack_value
from engine.numgr.state import BOMB, CARD, TRIPLE, Stack, State


def holds_card(stack: Stack) -> bool:
    """Whether ``stack`` is a θ (or β copying θ) holding a hand card face-down as its base."""
    return stack.is_theta and stack.base is not None


def auto_release(card: str) -> bool:
    """Whether a released held card takes effect at once as a stack in its owner's area.

    Ruling: a plain 1/2/3 (not ☆) and an α need no choice; every other card (0, γ, β, θ, ☆ number)
    waits in its owner's area as *pending*, to be completed or played by its owner this turn (or
    the owner's next turn when released in the opponent's turn), else it is discarded.
    """
    f, a = C.face(card), C.attr(card)
    return f == C.ALPHA or (C.is_number_face(f) and a != C.ANY)


def release_card(state: State, owner: int, card: str, events: list[Event], *,
                 cleanup: bool = False, spared_by: int | None = None) -> None:
    """Release a held card back to its owner's area (rulings "Turn" step 1 and α/θ rulings).

    A card that waits as pending is usable until the end of its owner's turn; released outside
    the owner's clean-up during the owner's own turn (its θ reflected or removed), it is kept
    through the owner's next turn too ("completed by its owner in the owner's next turn").
    ``spared_by`` is the id of the α that reflected the θ: the stack a card taking effect at once
    forms is never reflected by that α (seed 底牌的连同效应, "θ被α反射后，不反射被封锁的牌").
    """
    pending = not auto_release(card)
    events.append(Event("card_released", {"seat": owner, "card": card, "pending": pending}))
    if not pending:
        place(state, new_stack(state, owner, card, spared_by=spared_by), events)
        return
    state.pending[owner].append(card)
    if not cleanup and owner == state.current:
        state.kept.append(card)


def new_stack(state: State, seat: int, main: str | None, **fields) -> Stack:
    """Return a fresh stack in ``seat``'s area with the next id (not yet placed)."""
    stack = Stack(id=state.next_id, owner=seat, area=seat, main=main, **fields)
    state.next_id += 1
    return stack


def remove_stack(state: State, stack: Stack, events: list[Event], *, keep_held: bool = True,
                 reason: str = "removed") -> None:
    """Take ``stack`` out of the areas: its cards go to the discard pile.

    A θ's held card does not share its fate (seed 底牌的连同效应): with ``keep_held`` it is released to
    its owner, otherwise (Bomb: "locked cards too") it is discarded too.
    """
    if stack not in state.stacks:  # already gone as a side effect of an earlier removal
        return
    state.stacks.remove(stack)
    for other in state.stacks:
        if other.lock == stack.id:
            other.lock = None
    held = stack.base if holds_card(stack) and keep_held else None
    gone = [c for c in stack.cards() if c != held]
    state.discard.extend(gone)
    events.append(Event("stack_" + reason, {"id": stack.id, "area": stack.area, "cards": gone}))
    if held:
        release_card(state, stack.owner, held, events)


def fire_removals(state: State, stack: Stack, events: list[Event]) -> None:
    """Apply the one-shot □ effects of ``stack`` against the opponent of its current area.

    Locked stacks are never removed (rulings "Number n").
    """
    removes = stack_value(stack).removes
    if not removes:
        return
    live = {s.id for s in effective(state)}
    victims = [s for s in state.area(1 - stack.area)
               if s.id in live and any(removed_by(s, r) for r in removes)]
    for victim in victims:
        remove_stack(state, victim, events)


def reflect(state: State, stack: Stack, alpha: Stack, events: list[Event]) -> None:
    """Move ``stack`` to the area of ``alpha`` (the reflecting α), where it works for that side
    (seed {字母牌α}).

    A reflected □ removes again, now from the other area. A reflected θ turns to its new side
    and releases what it locked or held (seed α ④, θ ③): the locked stack stays where it is,
    and the held card stays in its owner's area, never reflected by ``alpha`` (seed 底牌的连同效应:
    "θ被α反射后，不反射被封锁的牌"; rulings "What a play does").
    """
    stack.area = alpha.area
    stack.reflected = True
    events.append(Event("stack_reflected", {"id": stack.id, "to": alpha.area}))
    if stack.is_theta:
        stack.lock = None
        if stack.base is not None:
            held, stack.base, stack.shown = stack.base, None, False
            release_card(state, stack.owner, held, events, spared_by=alpha.id)
    fire_removals(state, stack, events)


def _reflector(state: State, stack: Stack, live: set[int]) -> Stack | None:
    """Return the first effective α in the other area that reflects ``stack`` now, if any
    (never the α that spared it, see ``Stack.spared_by``)."""
    if stack.reflected or stack.id not in live or stack.attr is None:
        return None
    return next((a for a in state.area(1 - stack.area) if a.is_alpha and a.id in live
                 and a.attr == stack.attr and a.id != stack.spared_by), None)


def _next_reflection(state: State) -> tuple[Stack, Stack] | None:
    """Return ``(α, target)`` for the next reflection due, in stack id order, or ``None``."""
    live = {s.id for s in effective(state)}
    for target in state.stacks:
        alpha = _reflector(state, target, live)
        if alpha is not None:
            return alpha, target
    return None


def settle(state: State, events: list[Event]) -> None:
    """Run α reflections and variant triggers until nothing more happens.

    α reflects continuously while effective, each stack at most once (seed α ①).
    """
    while True:
        move = _next_reflection(state)
        if move is not None:
            reflect(state, move[1], move[0], events)
            continue
        if not check_variants(state, events):
            return


def place(state: State, stack: Stack, events: list[Event]) -> None:
    """Put a new stack in its area and resolve it.

    An opponent α of the stack's attribute reflects it before its own effects (seed α ②: playing
    ○ into an opposing ○α is like discarding it); then its □ effects fire from the area it ended in,
    a θ locks its target, and reflections and variants settle.
    """
    state.stacks.append(stack)
    alpha = _reflector(state, stack, {s.id for s in effective(state)})
    if alpha is not None:
        reflect(state, stack, alpha, events)
    else:
        if stack.lock is not None:
            events.append(Event("stack_locked", {"id": stack.lock, "by": stack.id}))
        fire_removals(state, stack, events)
    settle(state, events)


# --------------------------------------------------------------------------- variants


def _main_faces(state: State, seat: int) -> Counter:
    """Count printed faces of main cards of ``seat``'s effective card stacks (bases excluded)."""
    return Counter(s.face for s in effective(state) if s.area == seat and s.kind == CARD)


def _missing_attr(state: State, seat: int, face: str) -> str:
    """Return the attribute none of ``seat``'s effective main cards of ``face`` has."""
    present = {s.attr for s in effective(state)
               if s.area == seat and s.kind == CARD and s.face == face}
    return next(a for a in C.ATTRIBUTES if a not in present)


def check_variants(state: State, events: list[Event]) -> bool:
    """Trigger Bomb (4 of a face) and 333 (3 of a face) once per arrival; return if one fired.

    Rulings "Variants": a trigger stands while the count stays reached and can fire again only
    after the count drops below it.
    """
    opts = state.options
    rules = [(BOMB, 4)] * bool(opts["variant_bomb"]) + [(TRIPLE, 3)] * bool(opts["variant_333"])
    for seat in (0, 1):
        counts = _main_faces(state, seat)
        state.triggered = [t for t in state.triggered
                           if t[0] != seat or counts[t[1]] >= (4 if t[2] == BOMB else 3)]
        for kind, need in rules:
            for face_, count in sorted(counts.items()):
                fires = count == need if kind == TRIPLE else count >= need
                if fires and [seat, face_, kind] not in state.triggered:
                    state.triggered.append([seat, face_, kind])
                    _trigger(state, seat, face_, kind, events)
                    return True
    return False


def _trigger(state: State, seat: int, face_: str, kind: str, events: list[Event]) -> None:
    """Fire a Bomb (remove every opponent stack, locked and held cards too; 4 unstoppable) or a
    333 (a stack of the missing attribute with 3 unstoppable attack)."""
    events.append(Event("variant", {"seat": seat, "kind": kind, "face": face_}))
    if kind == BOMB:
        for victim in state.area(1 - seat):
            remove_stack(state, victim, events, keep_held=False)
        state.stacks.append(new_stack(state, seat, None, kind=BOMB, v_face=face_))
        return
    missing = _missing_attr(state, seat, face_)
    stack = new_stack(state, seat, None, kind=TRIPLE, v_face=face_, v_attr=missing)
    state.stacks.append(stack)
    alpha = _reflector(state, stack, {s.id for s in effective(state)})
    if alpha is not None:
        reflect(state, stack, alpha, events)
