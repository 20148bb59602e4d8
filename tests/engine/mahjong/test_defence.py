"""The danger estimate of ``engine.mahjong.defence`` and the ``hebei`` plan's use of it, on
hand-made views; the values by hand from the module docstrings."""

import pytest

from engine.mahjong import defence, plan
from engine.mahjong.bot import score as greedy
from engine.mahjong.tiles import COPIES, counts, parse_tiles, sorted_tiles


def _view(hand: str, drawn: str, discards: str = "", ready: bool = True) -> dict:
    """Seat 1 to discard in ``hebei``; seat 2 has discarded ``discards`` (and declared ready)."""
    players = [{"melds": [], "discards": [], "flowers": [], "ready": False} for _ in range(4)]
    players[2]["discards"] = [{"tile": t, "taken": False, "ready": False}
                              for t in parse_tiles(discards)]
    players[2]["ready"] = ready
    return {"seat": 1, "rules": "hebei", "players": players, "seat_winds": ["N", "E", "S", "W"],
            "prevalent_wind": None, "phase": "turn", "claim": None,
            "me": {"hand": parse_tiles(hand), "drawn": drawn}}


def _unseen(seen: str) -> tuple[int, ...]:
    return tuple(COPIES - n for n in counts(parse_tiles(seen)))


def test_threat_is_a_ready_declaration_only():
    player = {"ready": False, "melds": [None, None], "discards": [None] * 14}
    assert defence.threat(player) == 0
    assert defence.threat({**player, "ready": True}) == 1


def test_risk_per_tile():
    shown = frozenset(parse_tiles("3z1p7p9s"))
    unseen = _unseen("3z")
    assert defence.risk("3z", shown, unseen) == 0.2                 # its own discard
    assert defence.risk("1z", shown, unseen) == pytest.approx(0.6)  # 4 unseen × 0.15
    assert defence.risk("1z", shown, _unseen("111z")) == pytest.approx(0.15)
    assert defence.risk("1z", shown, _unseen("1111z")) == 0         # nothing to wait with
    assert defence.risk("5m", shown, unseen) == 1.0
    assert defence.risk("2m", shown, unseen) == 0.8
    assert defence.risk("9m", shown, unseen) == 0.6
    assert defence.risk("4p", shown, unseen) == 0.5                 # 筋 1p-4p-7p both sides
    assert defence.risk("6s", shown, unseen) == 1.0                 # 筋 needs 3s and 9s
    assert defence.risk("5s", shown, unseen) == 1.0                 # 2s and 8s not shown
    assert defence.risk("5s", shown, _unseen("3333s4444s5555s6666s7777s")) == 0.1


def test_danger_sums_threat_times_risk_over_the_other_seats():
    view = _view("123m", None, discards="5m")
    view["players"][3]["ready"] = True
    view["players"][3]["discards"] = [{"tile": "1z", "taken": False, "ready": False}]
    view["players"][0]["discards"] = [{"tile": "9p", "taken": False, "ready": False}] * 14
    unseen = _unseen("")
    # Seat 2 (ready) discarded 5m: 0.2; seat 3 (ready): 1.0; seat 0 (not ready): nothing.
    assert defence.danger(view, "5m", unseen) == pytest.approx(0.2 + 1.0)
    assert defence.danger(view, "1z", unseen) == pytest.approx(0.6 + 0.2)
    assert defence.danger(view, "9p", unseen) == pytest.approx(0.6 + 0.6)


# Seat 1 holds 159m 26p 37s 1234z 55z and draws 9s: five from ready whatever it discards, the
# isolated middle tiles 5m 2p 6p 3s 7s keep the most useful tiles (greedy −400 each). Seat 2 has
# declared ready and discarded 6p 2z 3m: the hand is two or more from ready, so each unit of
# danger costs a shanten step (100): 6p (its own discard, 0.2: −420) beats 5m (1.0: −500).
FAR = ("159m26p37s1234z55z", "9s", "6p2z3m")


def test_a_hand_far_from_ready_folds_to_the_ready_seats_own_discard():
    view = _view(*FAR)
    held = sorted_tiles(parse_tiles(FAR[0]) + [FAR[1]])
    legal = [{"type": "discard", "tile": t} for t in dict.fromkeys(held)]
    five, six = {"type": "discard", "tile": "5m"}, {"type": "discard", "tile": "6p"}
    assert greedy(view, five) == greedy(view, six) == pytest.approx(-399.98)
    assert plan.score(view, six) == pytest.approx(plan.score(view, five) + 80)
    assert plan.choose(view, legal) == six
    calm = _view(*FAR, ready=False)                 # no declaration: no threat, no cost
    assert plan.choose(calm, legal) == five
    assert plan.score(calm, five) == pytest.approx(-399.98)


def test_a_hand_near_ready_pays_only_a_small_danger_cost():
    # 123m 456p 789s 11z 5m 9m, drawn 3z: one from ready after 3z, 5m or 9m out. Against the
    # ready seat 2 (discards 9m): 9m costs 0.2 × 10/1000, 5m 1.0 × 10/1000, 3z 3 × 0.15 = 0.45
    # (three copies unseen: the fourth is the one drawn).
    view = _view("123m456p789s11z59m", "3z", "9m")
    legal = [{"type": "discard", "tile": t} for t in ("5m", "9m", "3z")]
    values = [plan.score(view, a) for a in legal]
    calm = [plan.score(_view("123m456p789s11z59m", "3z", "9m", ready=False), a) for a in legal]
    assert [c - v for c, v in zip(calm, values)] == pytest.approx([0.010, 0.002, 0.0045])
    assert all(v > -200 for v in values)            # never a shanten step
    # Hebei kongs are always taken (each pays at the hand's end even on a draw).
    assert plan.score(view, {"type": "kong", "tile": "1m"}) == plan.KONG_TIER
