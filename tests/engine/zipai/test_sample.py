"""``GAME.sample``: a match drawn from one seat's view (rulings "Hidden information", "Deal and
turn flow"), and the facts the view shows for it. The game-wide checks are
tests/engine/test_sample_contract.py."""

from collections import Counter

import pytest

from engine.core import Rng
from engine.zipai import GAME
from engine.zipai.cards import deck
from engine.zipai.reachable import concealed_faults
from engine.zipai.sample import _other_player
from engine.zipai.state import HIDDEN_KINDS, Group, clone
from tests.engine import playouts
from tests.engine.zipai.builders import (
    BASE,
    all_cards,
    cards,
    discarded,
    drawn,
    player,
    table,
    to_discard,
)

KEYS = [bytes([n]) for n in range(30)]
HU, PASS, PENG = {"type": "hu"}, {"type": "pass"}, {"type": "peng"}


def _complete(match):
    """Return ``match`` with every card of the 80 it lacks appended to the stock."""
    match = clone(match)
    missing = Counter(deck())
    missing.subtract(all_cards(match))
    match.hand.stock += sorted(missing.elements())
    return match


def _hu_vs_peng():
    """Seat 0 draws 七: seat 1 may 胡 or 吃, seat 2 may 碰 (tests/engine/zipai/test_claims.py)."""
    table_ = table([player("拾"), player(BASE + " 八九"), player("七七 拾")], stock="七 伍 一")
    return drawn(_complete(table_), 0)[0]


def test_a_seats_own_decision_and_the_public_facts_are_in_its_view():
    state = to_discard(table([player("八八 拾"), player("九"), player(BASE + " 八九")],
                             dealer=2, dealer_discarded=False), 2)
    state.hand.self_win = "tianhu"
    view = GAME.view(state, 2)
    assert (view["dealer_discarded"], view["turn_seconds"]) == (False, 20)
    assert {k: view["me"][k] for k in ("self_win", "must_discard", "options", "answer")} == {
        "self_win": "tianhu", "must_discard": True, "options": None, "answer": None}
    assert (GAME.view(state, 0)["me"]["self_win"], GAME.view(state, 0)["me"]["must_discard"]) == (
        None, None)
    after, _ = discarded(state, 2, "八")  # seat 0 may 碰 it: the window stays open
    assert GAME.view(after, 0)["exposed"] == {"card": "x8", "seat": 2, "source": "discard",
                                              "dihu": True}
    assert GAME.view(after, 0)["dealer_discarded"] is True
    passed = table([player("七七 拾", passed_peng="七", chou="七"), player(), player()])
    assert GAME.view(passed, 0)["me"]["passed_peng"] == ["x7"]


def test_the_seats_offered_answers_are_kept_and_someone_is_left_to_answer():
    state = _hu_vs_peng()
    view = GAME.view(state, 2)
    for key in KEYS:
        other = GAME.sample(view, 2, Rng(key))
        assert GAME.legal_actions(other, 2) == [PENG, PASS]
        # The drawer holds no pair of 七: its draw would have been a forced 扫.
        assert other.hand.players[0].hand.count("x7") < 2
    answered, _ = GAME.apply(state, 2, PASS)
    view = GAME.view(answered, 2)
    for key in KEYS:
        other = GAME.sample(view, 2, Rng(key))
        assert other.hand.window.answers == {2: PASS} and GAME.to_act(other)
        assert 2 not in GAME.to_act(other) and GAME.legal_actions(other, 2) == []


def test_the_dealer_conceals_the_liangzhang_until_a_copy_shows():
    state = GAME.new_game(GAME.validate_options({}), 3, b"liang")
    dealer, liang = state.hand.dealer, state.hand.liang
    seat = (dealer + 1) % 3
    view = GAME.view(state, seat)
    for key in KEYS[:10]:
        player_ = GAME.sample(view, seat, Rng(key)).hand.players[dealer]
        concealed = player_.hand + [c for g in player_.groups
                                    if g.in_hand or g.kind in HIDDEN_KINDS for c in g.cards]
        assert liang in concealed


def test_samples_keep_the_invariants_of_reachable_states():
    for number in range(3):
        for state in playouts.states(GAME, {"hands": 1}, number, 2, "zipai-sample"):
            for seat in range(3):
                other = GAME.sample(GAME.view(state, seat), seat, Rng(bytes([number, seat])))
                seats = [s for s in range(3) if s != seat]
                assert concealed_faults(other, seats) == []
                for s in seats:
                    in_hand = [g for g in other.hand.players[s].groups if g.in_hand]
                    assert len(in_hand) <= 1 and all(g.cards == [g.cards[0]] * 4
                                                     for g in in_hand)


def test_four_of_a_kind_among_concealed_cards_is_the_opening_saochuan_kept_in_hand():
    four = cards("三三三三 五")
    other = _other_player({"pile": []}, [], four)
    assert (other.hand, other.fours) == (["x5"], 1)
    assert other.groups[0] == Group("saochuan", ["x3"] * 4, True)
    assert _other_player({"pile": []}, [], four + cards("六六六六")) is None


def test_a_resign_in_a_claim_window_leaves_the_exposed_card_out():
    state, _ = GAME.resign(_hu_vs_peng(), 0)
    for seat in range(3):
        view = GAME.view(state, seat)
        other = GAME.sample(view, seat, Rng(b"r"))
        assert GAME.view(other, seat) == view and sum(all_cards(other).values()) == 79


def test_a_spectators_view_is_refused():
    with pytest.raises(ValueError, match="a seat's own view"):
        GAME.sample(GAME.view(_hu_vs_peng(), None), 0, Rng(b"s"))


def test_counts_that_do_not_add_up_are_refused():
    view = GAME.view(_hu_vs_peng(), 2)
    view["stock_size"] += 1
    with pytest.raises(ValueError, match="do not add up"):
        GAME.sample(view, 2, Rng(b"s"))
