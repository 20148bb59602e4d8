"""The re-deal keeps the cards the public stack and the setup need (rulings "Effect
cards", "Setup", TIPS 1). The first re-deal moved the card of a pending Swap (b) out of its
owner's hand, so resolving it raised ValueError."""

from collections import Counter

from engine.core import Rng
from engine.grid_reversal import GAME
from engine.grid_reversal.redeal import kept_cards, redeal
from engine.grid_reversal.state import MOTHER

from .boards import SWAP_BOARD, act, board, draw, kinds, make

SEEDS = [bytes([n]) for n in range(12)]


def _pending_swap_in():
    # Seat 0 plays Swap (b): its 2 is to replace the a1 on (4, 1); the Ban window is open.
    state = make(SWAP_BOARD, hands=(("2", "3", "SWAP"), ()), deck=("1", "1", "4", "4", "BAN"))
    state, _ = act(state, 0, {"type": "swap_in", "cell": [4, 1], "card": "2"})
    return state


def test_a_pending_swap_in_keeps_its_card_in_the_owners_hand():
    state = _pending_swap_in()
    assert kept_cards(state, 0) == ("2",)
    hands = set()
    for viewer in (1, None):
        for seed in SEEDS:
            other = redeal(state, viewer, Rng(seed))
            assert "2" in other.hands[0] and len(other.hands[0]) == 2
            hands.add(other.hands[0])
            # The pool 3 1 1 4 4 BAN is shared by seat 0's other card and the deck.
            assert Counter(other.hands[0]) + Counter(other.deck) == Counter(
                ("2", "3", "1", "1", "4", "4", "BAN"))
            after, events = act(other, 1, {"type": "decline"})
            # The a2 on (4, 1) fires with a3 (2 + 3 = 5): past a3 the b4 on (2, 1) flips; past
            # the a2, (5, 1) is empty. The a4 flipped sums 7 with a3: no chain; every card
            # keeps a same-owner neighbour: no breakage.
            assert kinds(events) == ["window_closed", "swapped_in", "fired"]
            assert draw(after) == board("""
                . .  b1 .  .
                . b3 b2 .  .
                . a4 .  .  .
                . a3 .  .  .
                . a2 .  .  .
                . .  a4 .  .
            """)
            assert after.discard == ("SWAP", "1")
            assert after.hands[0] == tuple(c for c in other.hands[0] if c != "2")
    assert len(hands) > 1  # seat 0's other card still moves


def test_a_hand_still_choosing_its_mother_card_keeps_a_number_card():
    # One number card among eleven: every reachable deal gives it to seat 1's hand of six
    # (TIPS 1: a hand without a number card is redealt), so seat 1 may still choose it.
    state = make(SWAP_BOARD, hands=(("2",), ("1", "BAN", "BOMB", "SWAP", "LIGHTNING",
                                               "SUPER_ADD")),
                 deck=("BAN", "BOMB", "SWAP", "LIGHTNING", "SUPER_ADD"), phase=MOTHER)
    for seed in SEEDS:
        other = redeal(state, 0, Rng(seed))
        assert GAME.legal_actions(other, 1) == [{"type": "choose_mother", "card": "1"}]


def test_kept_cards_are_the_secret_choice_and_the_pending_swap_in_card():
    state = make(SWAP_BOARD, hands=(("2", "3"), ("4",)), phase=MOTHER, choices=("3", None))
    assert kept_cards(state, 0) == ("3",) and kept_cards(state, 1) == ()
    other = redeal(state, 1, Rng(b"x"))
    assert other.hands[0] == ("2", "3") and other.hands[1] == ("4",)


def test_redeal_is_deterministic_and_pure():
    state = _pending_swap_in()
    before = GAME.dump(state)
    assert GAME.dump(redeal(state, 1, Rng(b"s"))) == GAME.dump(redeal(state, 1, Rng(b"s")))
    assert GAME.dump(state) == before
