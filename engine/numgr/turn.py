"""The five-step turn: clean-up, defense with the HP check, attack, discard, refill; game length.

Rule sources: seed 【游戏流程】{回合流程} ①–⑤ and {胜利条件}; rulings "Turn" (clean-up with θ
releases and frozen stacks, the HP check at the end of step 2, the game-length draw rule).
Functions change the given (already cloned) state in place and append events.
"""

from __future__ import annotations

from engine.core import Event, Rng
from engine.numgr.effects import area_totals, locked_ids, loses_hp
from engine.numgr.resolve import holds_card, release_card, remove_stack, settle
from engine.numgr.state import State

HAND_SIZE = 5
#: Rulings "Game length": a draw after this many turns in a row with no HP lost ...
QUIET_TURNS = 60
#: ... or when the game reaches this turn number.
LAST_TURN = 300


def cleanup(state: State, seat: int, events: list[Event]) -> None:
    """Step 1: discard ``seat``'s area except stacks frozen under an opponent θ.

    Each discarded θ releases what it held (the card returns to its owner's area and takes
    effect) or locked (the stack takes effect again). Rulings "Turn" step 1, seed ①.
    """
    frozen = locked_ids(state)
    doomed = [s for s in state.area(seat) if s.id not in frozen]
    held = [(s.owner, s.base) for s in doomed if s.base is not None and holds_card(s)]
    for stack in doomed:
        if holds_card(stack):
            stack.base = None
        remove_stack(state, stack, events, reason="discarded")
    for owner, card in held:
        release_card(state, owner, card, events, cleanup=True)
    settle(state, events)


def start_turn(state: State, seat: int, events: list[Event]) -> None:
    """Begin ``seat``'s turn: clean-up, then the defense step."""
    state.current = seat
    state.hp_lost = False
    events.append(Event("turn_started", {"seat": seat, "turn": state.turn}))
    cleanup(state, seat, events)
    state.step = "defense"


def finish(state: State, ranks: tuple[int, int], reason: str, events: list[Event]) -> None:
    """End the match with ``ranks`` (1 = winner; equal ranks = draw)."""
    state.step = "over"
    state.outcome = {"ranks": list(ranks), "reason": reason,
                     "detail": {"hp": list(state.hp), "turn": state.turn}}
    events.append(Event("match_over", dict(state.outcome)))


def end_defense(state: State, events: list[Event]) -> None:
    """End step 2: the HP check (opponent attack against own defense); 0 HP loses (``ko``)."""
    seat = state.current
    attack, defense = area_totals(state, 1 - seat), area_totals(state, seat)
    lost = loses_hp(attack, defense)
    if lost:
        state.hp[seat] -= 1
        state.hp_lost = True
    events.append(Event("hp_check", {
        "seat": seat, "attack": attack.attack, "unstoppable": attack.unstoppable,
        "defense": defense.defense, "defense_circle": defense.defense_circle,
        "lost": lost, "hp": state.hp[seat]}))
    if state.hp[seat] <= 0:
        ranks = (2, 1) if seat == 0 else (1, 2)
        finish(state, ranks, "ko", events)
    else:
        state.step = "attack"


def draw_card(state: State, events: list[Event]) -> str | None:
    """Take the top card, reshuffling the discard pile into the deck when it runs out."""
    if not state.deck and state.discard:
        state.reshuffles += 1
        state.deck = Rng.derive(bytes.fromhex(state.seed), "numgr", "reshuffle",
                                state.reshuffles).shuffled(state.discard)
        state.discard = []
        events.append(Event("reshuffled", {"deck_size": len(state.deck)}))
    return state.deck.pop(0) if state.deck else None


def refill(state: State, seat: int, events: list[Event]) -> None:
    """Step 5: draw up to ``HAND_SIZE`` cards (fewer only if deck and discard are both empty)."""
    drawn = []
    while len(state.hands[seat]) < HAND_SIZE:
        card = draw_card(state, events)
        if card is None:
            break
        state.hands[seat].append(card)
        drawn.append(card)
    events.append(Event("cards_drawn", {"seat": seat, "count": len(drawn)}))
    events.append(Event("cards_drawn_private", {"seat": seat, "cards": drawn},
                        visible_to=frozenset({seat})))


def drop_pending(state: State, seat: int, events: list[Event]) -> None:
    """Discard ``seat``'s pending cards at the end of its turn, except those kept once for its
    next turn (see ``resolve.release_card``)."""
    dropped = [c for c in state.pending[seat] if c not in state.kept]
    state.kept = [c for c in state.kept if c in state.pending[1 - seat]]
    state.pending[seat] = [c for c in state.pending[seat] if c not in dropped]
    if dropped:
        events.append(Event("pending_discarded", {"seat": seat, "cards": dropped}))
        state.discard.extend(dropped)


def end_turn(state: State, discard: str | None, events: list[Event]) -> None:
    """Steps 4–5 and the hand-over: discard (optional), refill, drop unused pending cards,
    apply the game-length rule, start the opponent's turn."""
    seat = state.current
    if discard is not None:
        state.hands[seat].remove(discard)
        state.discard.append(discard)
        events.append(Event("card_discarded", {"seat": seat, "card": discard}))
    refill(state, seat, events)
    drop_pending(state, seat, events)
    state.quiet = 0 if state.hp_lost else state.quiet + 1
    state.turn += 1
    if state.quiet >= QUIET_TURNS or state.turn >= LAST_TURN:
        finish(state, (1, 1), "draw", events)
        return
    start_turn(state, 1 - seat, events)
