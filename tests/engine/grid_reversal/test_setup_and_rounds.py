"""Setup (rule 32, TIPS 1) and the round's draws (rule 41, "Board and deck")."""

from collections import Counter

from engine.grid_reversal import GAME
from engine.grid_reversal.data import build_deck
from engine.grid_reversal.deck import draw as draw_cards
from engine.grid_reversal.setup import _deal

from .boards import act, kinds, make

EFFECTS6 = ("BAN", "BOMB", "SUPER_ADD", "SWAP", "LIGHTNING", "BAN")


def test_the_default_deck_has_42_cards():
    deck = build_deck(8, 2)
    assert len(deck) == 42
    assert Counter(deck) == {"1": 8, "2": 8, "3": 8, "4": 8, "BAN": 2, "BOMB": 2,
                             "SUPER_ADD": 2, "SWAP": 2, "LIGHTNING": 2}


def test_a_hand_without_a_number_card_is_shown_and_redrawn():
    deck = EFFECTS6 + ("1", "2", "3", "4") * 3
    hand, rest, shown = _deal(deck, b"seed", 1)
    assert shown[0] == (1, ("BAN", "BAN", "BOMB", "SUPER_ADD", "SWAP", "LIGHTNING"))
    assert all(s == 1 and not set(cards) & set("1234") for s, cards in shown)
    assert len(hand) == 6 and set(hand) & {"1", "2", "3", "4"}
    assert Counter(hand) + Counter(rest) == Counter(deck)


def test_a_hand_with_a_number_card_is_kept():
    deck = ("1",) + EFFECTS6 + ("2",) * 5
    assert _deal(deck, b"seed", 0) == (("1", "BAN", "BOMB", "SUPER_ADD", "SWAP", "LIGHTNING"),
                                       ("BAN",) + ("2",) * 5, [])


def test_new_game_deals_six_each_from_the_shuffled_deck():
    state = GAME.new_game(GAME.validate_options({}), 2, b"deal")
    assert [len(h) for h in state.hands] == [6, 6] and len(state.deck) == 30
    assert Counter(state.hands[0]) + Counter(state.hands[1]) + Counter(state.deck) == Counter(
        build_deck(8, 2))
    assert GAME.to_act(state) == frozenset({0, 1}) and state.phase == "mother"


def test_mother_cards_are_chosen_secretly_and_revealed_together():
    state = GAME.new_game(GAME.validate_options({}), 2, b"deal")
    first, second = state.first, 1 - state.first
    mine = [next(c for c in state.hands[s] if c in "1234") for s in (0, 1)]
    state, events = act(state, second, {"type": "choose_mother", "card": mine[second]})
    assert events[0].visible_to == frozenset({second})
    assert GAME.to_act(state) == frozenset({first})
    assert GAME.view(state, second)["my_choice"] == mine[second]
    assert GAME.view(state, first)["my_choice"] is None
    assert GAME.view(state, first)["hand_sizes"] == {"0": 6, "1": 6}
    assert all(cell is None for row in GAME.view(state, first)["grid"] for cell in row)
    state, events = act(state, first, {"type": "choose_mother", "card": mine[first]})
    assert kinds(events) == ["mother_chosen", "mothers_revealed"]
    grid = GAME.view(state, None)["grid"]
    assert grid[5][2] == {"owner": first, "value": int(mine[first]), "mother": True}
    assert grid[0][2] == {"owner": second, "value": int(mine[second]), "mother": True}
    assert [len(h) for h in state.hands] == [5, 5] and state.phase == "setup_discard"


def test_setup_discards_then_round_one_draws():
    state = GAME.new_game(GAME.validate_options({}), 2, b"deal")
    for seat in (0, 1):
        state, _ = act(state, seat, GAME.deadline_action(state, seat))
    first, second = state.first, 1 - state.first
    hands = state.hands
    state, _ = act(state, first, {"type": "discard", "card": hands[first][0]})
    assert state.discard == () and GAME.to_act(state) == frozenset({second})
    state, events = act(state, second, {"type": "discard", "card": hands[second][-1]})
    assert state.discard == (hands[first][0], hands[second][-1])
    assert state.round == 1 and state.phase == "discard" and state.turn == first
    assert [len(h) for h in state.hands] == [6 if s == first else 4 for s in (0, 1)]
    drew = [e for e in events if e.kind == "drew_cards"]
    assert drew[0].visible_to == frozenset({first}) and len(drew[0].data["cards"]) == 2
    for _ in range(2):
        state, _ = act(state, first, {"type": "discard", "card": state.hands[first][0]})
    assert state.turn == second and state.phase == "discard"
    assert [len(h) for h in state.hands] == [4 if s == first else 6 for s in (0, 1)]


def test_an_empty_deck_is_the_reshuffled_discard_pile():
    state = make("""
        . . b1 . .
        . . .  . .
        . . .  . .
        . . .  . .
        . . .  . .
        . . a1 . .
    """, deck=("4",), discard=("1", "1"))
    state, events = draw_cards(state, 0, 2)
    assert kinds(events) == ["deck_reshuffled", "drew", "drew_cards"]
    assert state.hands[0] == ("1", "4") and state.deck == ("1",) and state.discard == ()
    state, events = draw_cards(state, 1, 2)
    assert state.hands[1] == ("1",) and events[0].data == {"seat": 1, "count": 1}
