"""The re-deal builds only states the rules can reach (rulings "Deal and turn flow").

The states below are the ones on which the first re-deal broke ``apply``: it gave a concealed
hand four of a kind (``split.take_kans`` raised ValueError) and it moved the cards of a seat
whose 胡 the stored claim window or discard turn lists (``scoring.win_result`` got None). Each
pool is small enough that the reachable re-deals are worked out by hand in the comments.
"""

import random
from collections import Counter

from engine.core import Rng
from engine.zipai import GAME
from engine.zipai.reachable import concealed_faults, same_decisions
from engine.zipai.redeal import deal_hidden, redeal
from tests.engine.zipai.builders import cards, discarded, player, table, to_discard

HU = {"type": "hu"}
SEEDS = [bytes([n]) for n in range(12)]
# Seat 1 wins with 二七 壹贰叁 and a shown 碰 of 捌: 二七十 3 + 壹贰叁 6 + 碰 捌 3 = 12 胡息.
WINNER = cards("二七 壹贰叁")


def _four_table():
    # Seat 0 (dealer) discards 一. The hidden pool of viewer 0 is 四 伍 (seat 1) and 四四四 柒
    # (seat 2), empty stock. Seat 2 must get 4 of the 6 cards without 四四四四, so the reachable
    # deals of seat 2 are 四四四伍, 四四四柒 and 四四伍柒 (seat 1 gets the two others).
    return to_discard(table([player("一 二"), player("四 伍"), player("四四四 柒")],
                            dealer=0, hands=1), 0)


def test_a_redeal_never_conceals_four_of_a_kind():
    state = _four_table()
    seen = set()
    for seed in SEEDS:
        other = redeal(state, 0, Rng(seed))
        seen.add(tuple(other.hand.players[2].hand))
        # Nobody can claim 一 (no 一二三/一一壹 shape, no pair, no win with 3 or 5 cards): it
        # goes to seat 0's pile, seat 1 finds the stock empty (荒庄), and the 1-hand match ends.
        _, events = GAME.apply(other, 0, {"type": "discard", "card": "x1"})
        assert [e.kind for e in events] == ["discarded", "to_pile", "hand_over", "match_over"]
    assert seen == {tuple(cards("四四四伍")), tuple(cards("四四四柒")), tuple(cards("四四伍柒"))}


def _hu_window():
    # Seat 0 discards 十; seat 1 wins on it (12 胡息), so on a discard only seat 1 is asked
    # (放炮必胡): window {1: [hu]}. Seat 0 keeps 四五八, seat 2 holds 四肆, the stock is 三四.
    base = table([player("十 四五八"), player("二七 壹贰叁", groups=[("peng", "捌捌捌")]),
                  player("四 肆")], stock="三 四", dealer=0, hands=1)
    return discarded(base, 0, "十")[0]


def test_a_redeal_keeps_a_hand_that_the_claim_window_lists_a_hu_for():
    state = _hu_window()
    assert state.hand.window.options == {1: [HU]}
    stocks = set()
    for viewer in (0, 2, None):
        for seed in SEEDS:
            other = redeal(state, viewer, Rng(seed))
            # 十 fits only in 二七十 (no 九 or 拾 in any pool), and the other three cards need
            # ≥ 4 胡息: only 壹贰叁 (the pool has one 壹, 贰, 叁 and no big triple). So seat 1's
            # hand is forced; the rest moves freely.
            assert other.hand.players[1].hand == WINNER
            assert GAME.legal_actions(other, 1) == [HU]
            stocks.add(tuple(other.hand.stock))
            after, _ = GAME.apply(other, 1, HU)
            result = after.results[0]
            # 12 胡息 → 1 舵, no multiplier (点炮). 醒: the stock top is one of 三四五八肆,
            # making 四五六九伍 the 醒 face; the winner holds none → 0. Seat 0 alone pays 1.
            assert (result["huxi"], result["duo"], result["xing_count"]) == (12, 1, 0)
            assert result["payments"] == [-1, 1, 0]
    assert len(stocks) > 1  # the other hidden cards still move


def test_a_redeal_keeps_a_self_drawn_win_of_the_discarding_seat():
    # Seat 1 decides after a forced 扫 (self_win "zimo") with 二七十 壹贰叁 and its 碰: 12 胡息.
    base = table([player("四五八"), player("二七十 壹贰叁", groups=[("peng", "捌捌捌")]),
                  player("四 肆")], stock="三 四", dealer=0, hands=1)
    state = to_discard(base, 1)
    state.hand.self_win = "zimo"
    for seed in SEEDS:
        other = redeal(state, 0, Rng(seed))
        # Viewer 0's pool is 二七十 壹贰叁 四肆 三四: the only two groups worth ≥ 9 are 二七十 +
        # 壹贰叁, so seat 1's hand stays. 1 舵 × 2 (自摸) = 2; 醒 0 (the stock top is 三, 四 or
        # 肆: 醒 face 四, 五 or 伍, none held); both others pay 2.
        assert other.hand.players[1].hand == cards("二七十 壹贰叁")
        after, _ = GAME.apply(other, 1, HU)
        assert after.results[0]["payments"] == [-2, 4, -2]


def test_the_unchecked_deal_does_break_these_states():
    # Without the checks (``deal_hidden`` alone, every other seat open), the same pools give
    # the unreachable states the re-deal must reject.
    four, window = _four_table(), _hu_window()
    fours = windows = 0
    for n in range(40):
        dealt = deal_hidden(four, [1, 2], Rng.derive(b"raw", n))
        fours += concealed_faults(dealt, [1, 2]) == ["four_in_hand:2"]
        dealt = deal_hidden(window, [0, 1], Rng.derive(b"raw", n))
        windows += not same_decisions(window, dealt, [0, 1])
    assert fours > 0 and windows > 0


def test_concealed_faults_names_each_broken_invariant():
    state = table([player("四四四四"), player("五 六", groups=[("peng", "五五五")]),
                   player("七七七", groups=[("sao", "八八八")], passed_peng="八")])
    state.hand.players[0].pile = cards("七")
    assert concealed_faults(state, [0, 1, 2]) == [
        "four_in_hand:0", "set_face_in_hand:1", "sao_after_passed_peng:2", "kan_of_pile_face:2"]
    assert concealed_faults(state, [1]) == ["set_face_in_hand:1"]


def test_real_states_break_no_invariant_and_keep_their_window():
    # The invariants hold in every state a seeded game reaches, and a stored window is what
    # the rules list for the real cards.
    for seed in range(6):
        state = GAME.new_game(GAME.validate_options({"hands": 1}), 3, b"inv" + bytes([seed]))
        chooser = random.Random(seed)
        while GAME.to_act(state):
            assert concealed_faults(state, [0, 1, 2]) == []
            if state.hand.phase == "claim":
                assert same_decisions(state, state, [])
            seat = chooser.choice(sorted(GAME.to_act(state)))
            state, _ = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))


def test_redeal_is_deterministic_pure_and_keeps_every_card():
    state = GAME.new_game(GAME.validate_options({}), 3, b"pure")
    before = GAME.dump(state)
    first, again = redeal(state, 1, Rng(b"s")), redeal(state, 1, Rng(b"s"))
    assert GAME.dump(first) == GAME.dump(again) and GAME.dump(state) == before
    assert GAME.dump(redeal(state, 1, Rng(b"t"))) != GAME.dump(first)

    def every_card(match):
        hand = match.hand
        return Counter(hand.stock) + sum(
            (Counter(p.hand) + Counter(c for g in p.groups for c in g.cards)
             for p in hand.players), Counter())

    assert every_card(first) == every_card(state)
    assert first.hand.players[1].hand == state.hand.players[1].hand
