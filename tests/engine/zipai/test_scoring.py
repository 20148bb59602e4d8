"""Scoring with exact values: 过碰, 过扫, 翻醒, multipliers and payments (seed 4.1–5, rulings
"胡息 table" and "Scoring"). BASE is the 12-胡息 concealed base of builders.py."""

from engine.zipai import GAME, flow, parse_cards
from engine.zipai.scoring import fan_xing, payments
from engine.zipai.state import clone
from tests.engine.zipai.builders import BASE, discarded, drawn, player, table

HU = {"type": "hu"}


def _win_on_discard(passed_peng: str):
    seat1 = player(BASE + " 拾拾", chou=passed_peng, passed_peng=passed_peng)
    base = table([player("拾 十"), seat1, player("十")], stock="四")
    state, _ = discarded(base, 0, "拾")
    assert GAME.legal_actions(state, 1) == [HU]
    state, _ = GAME.apply(state, 1, HU)
    return state.results[0]


def test_guopeng_triple_completed_by_another_players_card_counts_zero():
    result = _win_on_discard(passed_peng="拾")
    # BASE 12 + 过碰 拾拾拾 0 = 12 → 1 舵; 点炮 (no multiplier); 醒: 四 → 五, one 五 → 1.
    # Points (1 + 1) × 1 = 2, paid by the discarder alone.
    assert result["huxi"] == 12 and result["duo"] == 1
    assert {"kind": "guopeng", "cards": ["d10"] * 3, "huxi": 0, "concealed": True} in result["groups"]
    assert result["payer"] == 0 and result["payments"] == [-2, 2, 0]


def test_the_same_triple_without_a_passed_peng_scores_as_peng():
    result = _win_on_discard(passed_peng="")
    # BASE 12 + 碰 (big) 3 = 15 → 2 舵; (2 + 1) × 1 = 3.
    assert result["huxi"] == 15 and result["duo"] == 2
    assert result["payments"] == [-3, 3, 0]


def test_guosao_by_own_draw_scores_as_the_table_says_and_shows_one_card():
    seat1 = player(BASE + " 拾拾", chou="拾", passed_peng="拾")
    state, events = drawn(table([player("十"), seat1, player("十")], stock="拾 四"), 1)
    assert [g.kind for g in state.hand.players[1].groups] == ["guosao"]
    assert GAME.view(state, 0)["players"][1]["groups"] == [
        {"kind": "guosao", "cards": ["d10", None, None], "in_hand": False}]
    assert [e.data["card"] for e in events if e.kind == "drawn"] == ["d10"]
    state, _ = GAME.apply(state, 1, HU)
    result = state.results[0]
    # BASE 12 + 过扫 (big) 6 = 18 → 3 舵; 自摸 ×2 → 6; 醒 四 → 五: 1. 7 from each other seat.
    assert (result["huxi"], result["duo"], result["points"]) == (18, 3, 7)
    assert result["payments"] == [-7, 14, -7]


def test_fan_xing_turns_again_on_four_copies():
    winner = parse_cards("五五五五 拾拾 一")
    # 四 → 醒 五: all four are the winner's → turn again; 玖 → 醒 拾: two → stop.
    assert fan_xing(parse_cards("四 玖 一"), winner) == [
        {"turned": "x4", "face": "x5", "count": 4}, {"turned": "d9", "face": "d10", "count": 2}]
    # 十 → 一 and 拾 → 壹 wrap around; an empty stock turns nothing.
    assert fan_xing(parse_cards("十"), winner) == [{"turned": "x10", "face": "x1", "count": 1}]
    assert fan_xing(parse_cards("拾"), winner) == [{"turned": "d10", "face": "d1", "count": 0}]
    assert fan_xing([], winner) == []


def _tianhu_table(hand: str, groups=(), stock: str = ""):
    state = table([player(hand, groups=list(groups)), player("十"), player("十")], stock=stock,
                  dealer=0, dealer_discarded=False)
    state = clone(state)
    assert flow.start_discard(state, 0, True, "tianhu") is None
    return state


def test_tianhu_with_an_opening_saochuan_and_a_double_xing_turn():
    # Dealer: opening 扫穿 八八八八 (9) + 一二三 3 + 壹贰叁 6 + 二七十 3 + 肆伍陆 + 柒捌玖 + pair 九九
    # = 21 胡息 → 1 + ⌊11 / 3⌋ = 4 舵; 天胡 ×2 → 8. 醒: 七 → 八 (four, the 扫穿) → turn 九 → 十
    # (one, in 二七十): 5. Points 8 + 5 = 13, from each of the two others.
    state = _tianhu_table("一二三 壹贰叁 二七十 肆伍陆 柒捌玖 九九", [("saochuan", "八八八八")],
                          stock="七 九 一")
    assert GAME.legal_actions(state, 0)[0] == HU
    state, _ = GAME.apply(state, 0, HU)
    result = state.results[0]
    assert (result["huxi"], result["duo"], result["factor"], result["xing_count"]) == (21, 4, 2, 5)
    assert result["multipliers"] == [{"name": "tianhu", "factor": 2}]
    assert result["payments"] == [26, -13, -13]


def test_tianhu_timeout_discards_the_rightmost_card():
    state = _tianhu_table(BASE + " 八八八", stock="七")
    # the 坎 八八八 is never discarded; the highest free card is 玖 (d9).
    assert GAME.deadline_action(state, 0) == {"type": "discard", "card": "d9"}
    state, _ = GAME.apply(state, 0, HU)
    # BASE 12 + 坎 八 3 = 15 → 2 舵 ×2 = 4; 醒 七 → 八: three → 7 each.
    assert state.results[0]["payments"] == [14, -7, -7]


def test_dihu_both_others_pay():
    base = table([player("十 拾"), player(BASE + " 八九"), player("十")], stock="伍", dealer=0,
                 dealer_discarded=False)
    state, _ = discarded(base, 0, "十")
    state, _ = GAME.apply(state, 1, HU)
    result = state.results[0]
    # 12 → 1 舵, 地胡 ×2 → 2; 醒 伍 → 陆: 1 → 3 from each other seat (地胡 is not 点炮).
    assert result["multipliers"] == [{"name": "dihu", "factor": 2}]
    assert result["payer"] is None and result["payments"] == [-3, 6, -3]


def test_haidi_on_the_last_stock_card_has_no_xing():
    state, _ = drawn(table([player("十"), player(BASE + " 拾拾"), player("十")], stock="拾"), 1)
    state, _ = GAME.apply(state, 1, HU)
    result = state.results[0]
    # 12 + 扫 6 = 18 → 3 舵 × 自摸 2 × 海底 2 = 12; no 翻醒 → 12 from each other seat.
    assert [m["name"] for m in result["multipliers"]] == ["zimo", "haidi"]
    assert result["xing"] == [] and result["payments"] == [-12, 24, -12]


def test_stake_multiplies_the_points():
    seat1 = player(BASE + " 拾拾")
    base = table([player("拾 十"), seat1, player("十")], stock="四", stake=3)
    state, _ = discarded(base, 0, "拾")
    state, _ = GAME.apply(state, 1, HU)
    # (2 舵 + 1 醒) × 3 = 9 from the discarder.
    assert state.results[0]["payments"] == [-9, 9, 0]


def test_payments_split():
    assert payments(winner=2, payer=1, points=5) == [0, -5, 5]
    assert payments(winner=2, payer=None, points=5) == [-5, -5, 10]
