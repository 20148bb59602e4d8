"""Claim windows: priority, hidden askers, 放炮必胡, 下比, 臭牌, 重舵 (rulings "Deal and turn
flow", seed 3.2–3.6). Positions are built by hand; expected values are worked out in comments."""

import pytest

from engine.core import IllegalAction
from engine.zipai import GAME
from engine.zipai.state import clone
from tests.engine.zipai.builders import BASE, cards, discarded, drawn, player, table

HU, PASS, PENG = {"type": "hu"}, {"type": "pass"}, {"type": "peng"}


def _chi(two: str, *bi: str) -> dict:
    return {"type": "chi", "cards": cards(two), "bi": sorted(cards(g) for g in bi)}


def _hu_vs_peng_table():
    # Seat 0 draws 七. Seat 1 wins with it (BASE 12 with 七八九), and as the seat after the
    # drawer it may also 吃 七八九 (its other 七 must go to a 比: 二七十). Seat 2 holds 七七 (碰).
    return table([player("拾"), player(BASE + " 八九"), player("七七 拾")], stock="七 伍 一")


def test_only_seats_with_a_claim_are_asked_and_hu_beats_peng():
    state, _ = drawn(_hu_vs_peng_table(), 0)
    assert GAME.to_act(state) == {1, 2}
    legal = GAME.legal_actions(state, 1)
    assert legal[0] == HU and legal[-1] == PASS
    assert _chi("八九", "二七十") in legal and _chi("八九") not in legal
    assert GAME.legal_actions(state, 2) == [PENG, PASS]
    assert GAME.legal_actions(state, 0) == []
    state, _ = GAME.apply(state, 2, PENG)
    assert GAME.to_act(state) == {1}
    state, events = GAME.apply(state, 1, HU)
    result = state.results[0]
    # BASE 12 + 七八九 0 = 12 胡息 → 1 舵, no multiplier (won on another's draw). 醒: the top
    # stock card 伍 makes 陆 the 醒; seat 1 holds one 陆 → 1. Points (1 + 1) × 1 = 2, and on a
    # win on another player's draw both others pay.
    assert (result["winner"], result["huxi"], result["duo"], result["xing_count"]) == (1, 12, 1, 1)
    assert result["multipliers"] == []
    assert result["payments"] == [-2, 4, -2]
    assert state.totals == [-2, 4, -2]
    assert "hand_over" in [e.kind for e in events]


def test_a_chi_answer_loses_to_peng_and_is_not_a_pass():
    state, _ = drawn(_hu_vs_peng_table(), 0)
    state, _ = GAME.apply(state, 1, _chi("八九", "二七十"))
    state, _ = GAME.apply(state, 2, PENG)
    players = state.hand.players
    assert [g.kind for g in players[2].groups] == ["peng"]
    assert players[1].chou == [] and players[1].groups == []
    assert state.hand.phase == "discard" and state.hand.turn == 2


def test_two_winners_on_a_discard_the_first_in_order_takes_it():
    # Seats 1 and 2 both win on 十 (八九十). Seat 0 discards it; order after the discarder: 1, 2.
    base = table([player("十 拾"), player(BASE + " 八九"), player(BASE + " 八九")],
                 stock="伍", dealer=1)
    state, _ = discarded(base, 0, "十")
    assert GAME.to_act(state) == {1, 2}
    # 放炮必胡: on a discard a player who can win must win — the only legal answer.
    assert GAME.legal_actions(state, 1) == [HU]
    assert GAME.legal_actions(state, 2) == [HU]
    assert GAME.deadline_action(state, 2) == HU
    state, _ = GAME.apply(state, 2, HU)
    state, _ = GAME.apply(state, 1, HU)
    result = state.results[0]
    # 12 胡息 → 1 舵; 点炮: seat 0 alone pays (1 × 1 + 醒 1 (伍 → 陆)) × 1 = 2.
    assert result["winner"] == 1 and result["payer"] == 0
    assert result["payments"] == [-2, 2, 0]


def test_drawers_forced_sao_resolves_first_then_the_drawer_may_win():
    # Seat 1 holds 拾拾 and draws 拾: forced 扫 (shown to nobody). Seat 2 could win on 拾 too
    # (BASE + 拾拾 as a 碰) but is never asked: the 扫 takes the card.
    base = table([player("十"), player(BASE + " 拾拾"), player(BASE + " 拾拾")], stock="拾 四")
    state, events = drawn(base, 1)
    assert GAME.to_act(state) == {1}
    legal = GAME.legal_actions(state, 1)
    assert legal[0] == HU and all(a["type"] == "discard" for a in legal[1:])
    assert len(legal) == 1 + 17          # BASE has 17 different faces, all free to discard
    assert [g.kind for g in state.hand.players[1].groups] == ["sao"]
    public = [e for e in events if e.kind == "drawn"][0]
    assert public.visible_to is None and public.data["card"] is None
    assert GAME.view(state, 0)["players"][1]["groups"] == [
        {"kind": "sao", "cards": [None, None, None], "in_hand": False}]
    state, _ = GAME.apply(state, 1, HU)
    result = state.results[0]
    # BASE 12 + 扫 of big 拾 6 = 18 → 3 舵, 自摸 ×2 → 6; 醒: 四 turned → 五, one 五 → +1 = 7;
    # both others pay 7.
    assert (result["huxi"], result["duo"], result["factor"], result["xing_count"]) == (18, 3, 2, 1)
    assert result["multipliers"] == [{"name": "zimo", "factor": 2}]
    assert result["payments"] == [-7, 14, -7]


def test_other_views_say_only_that_claims_are_pending():
    state, _ = drawn(_hu_vs_peng_table(), 0)
    other = clone(state)
    other.hand.window.options = {2: [PENG, PASS]}
    for viewer in (0, None):
        seen = GAME.view(state, viewer)
        assert seen == GAME.view(other, viewer)
        assert seen["claims_pending"] is True
        assert seen["exposed"] == {"card": "x7", "seat": 0, "source": "draw", "dihu": False}
    mine = GAME.view(state, 0)["me"]
    assert (mine["claim"], mine["options"], mine["answer"]) == (None, None, None)
    assert GAME.view(state, 1)["me"]["claim"] == "asked"
    # A seat's own view lists the answers it is offered (its legal list) and the one it gave.
    assert GAME.view(state, 2)["me"]["options"] == [PENG, PASS]
    assert GAME.view(state, 1)["me"]["options"] == GAME.legal_actions(state, 1)
    answered, _ = GAME.apply(state, 2, PASS)
    assert GAME.view(answered, 2)["me"]["claim"] == "answered"
    assert GAME.view(answered, 2)["me"]["answer"] == PASS
    assert GAME.view(answered, 0) == GAME.view(state, 0)


def test_xia_bi_makes_a_chi_illegal():
    # Seat 0 discards 五; seat 1 holds 三四五 伍 玖. 三四+五 would leave its own 五 without a 比
    # group (五 with 伍玖 is no group), so only 五伍+五 (大小三搭, using the held 五) is legal.
    base = table([player("五 拾"), player("三四五 伍 玖"), player("拾")], stock="拾")
    state, _ = discarded(base, 0, "五")
    assert GAME.legal_actions(state, 1) == [_chi("五伍"), PASS]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 1, _chi("三四"))
    assert info.value.code == "bi_required"


def test_xia_bi_groups_are_listed_with_the_chi():
    # 三四+五 with 比 五六七, or 六七+五 with 比 三四五; 四六+五 leaves 五 with 三七玖: illegal.
    base = table([player("五 拾"), player("三四五六七 玖"), player("拾")], stock="拾")
    state, _ = discarded(base, 0, "五")
    assert GAME.legal_actions(state, 1) == [_chi("三四", "五六七"), _chi("六七", "三四五"), PASS]
    state, _ = GAME.apply(state, 1, _chi("六七", "三四五"))
    seat1 = state.hand.players[1]
    assert [(g.kind, g.cards) for g in seat1.groups] == [
        ("chi", cards("五六七")), ("bi", cards("三四五"))]
    assert seat1.hand == cards("玖") and state.hand.turn == 1


def test_chou_blocks_a_later_chi_of_the_same_card():
    # Seat 1 passes 吃 of 五 (三四五): 五 becomes 臭 for it. Seat 1 then draws 五 itself: no 吃
    # is offered, the card goes to its pile, and seat 2 draws 六, which it may 吃 (六七八).
    base = table([player("五 拾"), player("三四 捌捌 玖"), player("七八 拾")], stock="五 六")
    state, _ = discarded(base, 0, "五")
    assert GAME.legal_actions(state, 1) == [_chi("三四"), PASS]
    state, _ = GAME.apply(state, 1, PASS)
    players = state.hand.players
    assert players[1].chou == ["x5"] and players[1].passed_peng == []
    assert players[0].pile == ["x5"] and players[1].pile == ["x5"]
    assert GAME.to_act(state) == {2}
    assert state.hand.window.card == "x6"


def test_chou_blocks_a_later_peng_and_remembers_the_passed_peng():
    # Seat 0 discards 捌; seat 1 (捌捌) passes its 碰, then draws 玖 (forced 扫 of 玖玖玖) and
    # must discard. Seat 2 discards 捌 again: seat 1 is not asked (臭), seat 0 has no 吃, so the
    # card goes to seat 2's pile and seat 0 draws 十 (forced 扫) and must discard.
    base = table([player("捌 十十 叁"), player("三四 捌捌 玖玖"), player("捌 拾")], stock="玖 十")
    state, _ = discarded(base, 0, "捌")
    assert GAME.legal_actions(state, 1) == [PENG, PASS]
    state, _ = GAME.apply(state, 1, PASS)
    seat1 = state.hand.players[1]
    assert seat1.chou == ["d8"] and seat1.passed_peng == ["d8"]
    assert state.hand.phase == "discard" and state.hand.turn == 1
    again, _ = discarded(state, 2, "捌")
    assert again.hand.players[2].pile == ["d8"]
    assert again.hand.phase == "discard" and again.hand.turn == 0


def test_chongduo_needs_no_discard():
    # Seat 1 already has a 开舵 (its first 4-group) and a 坎 of 六. Seat 0 discards 六: the
    # 开舵 is forced (nobody is asked); as its second 4-group (重舵) seat 1 does not discard and
    # seat 2 draws 贰, which completes seat 2's 贰贰 as a forced 扫 — seat 2 now discards.
    seat1 = player("六六六 一二 九", groups=[("kaiduo", "壹壹壹壹")])
    base = table([player("六 拾"), seat1, player("贰贰 五")], stock="贰 拾")
    state, _ = discarded(base, 0, "六")
    after = state.hand.players[1]
    assert [g.kind for g in after.groups] == ["kaiduo", "kaiduo"]
    assert after.hand == cards("一二 九") and after.fours == 2
    assert state.hand.phase == "discard" and state.hand.turn == 2


def test_first_kaiduo_is_followed_by_a_discard():
    base = table([player("六 拾"), player("六六六 一二 九"), player("贰贰 五")], stock="贰 拾")
    state, _ = discarded(base, 0, "六")
    assert state.hand.players[1].fours == 1
    assert state.hand.phase == "discard" and state.hand.turn == 1
    assert GAME.legal_actions(state, 1) == [{"type": "discard", "card": c}
                                            for c in cards("一二九")]


def test_kaiduo_from_a_sao_on_another_players_discard_is_shown():
    # Seat 1's face-down 扫 of 拾 becomes a shown 开舵 on seat 0's discard (no one is asked).
    seat1 = player("一二 九", groups=[("sao", "拾拾拾")])
    base = table([player("拾 十"), seat1, player("五")], stock="五")
    before = GAME.view(base, 2)["players"][1]["groups"]
    assert before == [{"kind": "sao", "cards": [None] * 3, "in_hand": False}]
    state, _ = discarded(base, 0, "拾")
    assert GAME.view(state, 2)["players"][1]["groups"] == [
        {"kind": "kaiduo", "cards": ["d10"] * 4, "in_hand": False}]
    assert state.hand.phase == "discard" and state.hand.turn == 1   # first 4-group: discard


def test_kaiduo_from_a_peng_only_on_ones_own_draw():
    seat1 = player("一二 九", groups=[("peng", "拾拾拾")])
    # another player's discard of 拾: a 碰 cannot grow, the card goes to the discarder's pile
    # (then seat 1 draws 五 onto 五五: forced 扫, it discards).
    other, _ = discarded(table([player("拾 十"), player("一二 九 五五", groups=[("peng", "拾拾拾")]),
                                player("三")], stock="五"), 0, "拾")
    assert other.hand.players[0].pile == ["d10"]
    assert [g.kind for g in other.hand.players[1].groups] == ["peng", "sao"]
    # its own draw of 拾: the 开舵 is forced, then it discards.
    state, _ = drawn(table([player("十"), seat1, player("三")], stock="拾 五"), 1)
    assert [(g.kind, g.cards) for g in state.hand.players[1].groups] == [("kaiduo", ["d10"] * 4)]
    assert state.hand.phase == "discard" and state.hand.turn == 1


def test_a_seat_that_can_win_or_make_its_forced_kaiduo_chooses_and_never_passes():
    # Seat 1: 一二三 壹贰叁 二七十 四五六 肆伍陆 坎 拾拾拾 捌玖; seat 0 draws 拾.
    # 胡: 捌玖拾 0 + 坎 拾 6 + 3 + 6 + 3 + 0 + 0 = 18 (as a 开舵 the rest needs a pair: no split).
    seat1 = player("一二三 壹贰叁 二七十 四五六 肆伍陆 拾拾拾 捌玖")
    state, _ = drawn(table([player("一"), seat1, player("三")], stock="拾 二"), 0)
    assert GAME.legal_actions(state, 1) == [HU, {"type": "kaiduo"}]
    assert GAME.deadline_action(state, 1) == {"type": "kaiduo"}
    won, _ = GAME.apply(state, 1, HU)
    # 18 → 3 舵; on another's draw: no multiplier; 醒 二 → 三: one 三 → (3 + 1) × 1 = 4 each.
    assert won.results[0]["huxi"] == 18 and won.results[0]["payments"] == [-4, 8, -4]
    made, _ = GAME.apply(state, 1, {"type": "kaiduo"})
    assert made.hand.players[1].groups[0].kind == "kaiduo" and made.hand.turn == 1


def test_no_card_left_to_discard_passes_the_turn():
    # Seat 1 draws 拾 onto 拾拾: forced 扫; only the 坎 三三三 is left (3 + 6 = 9 胡息: no win),
    # so seat 2 draws: 五 onto 五五, forced 扫, and seat 2 discards.
    base = table([player("一"), player("拾拾 三三三"), player("五五 一")], stock="拾 五")
    state, _ = drawn(base, 1)
    assert state.hand.players[1].hand == cards("三三三")
    assert state.hand.phase == "discard" and state.hand.turn == 2
