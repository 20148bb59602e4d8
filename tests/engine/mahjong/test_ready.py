"""Hebei ready declaration (报听) and the locked hand: only wins, kongs that keep the waits and
the drawn tile's discard; the engine discards at once when nothing else is legal; no 碰; ``mcr``
never locks (rulings "Hebei: ready declaration")."""

import pytest

from engine.core import IllegalAction
from engine.mahjong import GAME
from tests.engine.mahjong.builders import JUNK, discarded, player, table, turn

WIN, PASS = {"type": "win"}, {"type": "pass"}
SEAT2, SEAT3 = player("3377m3377p3468s6z"), player("1199m1199p1289s4z")
SHANPON = "123m456p789s1122z"                 # waits on 1z and 2z
NO_MAN = [player("2288p 2468s 5567z 1z"), player("3377p 3579s 1234z 6z"),
          player("4466p 1357s 2234z 7z")]      # no 万 at all


def _ready_variants(state, seat):
    return [a for a in GAME.legal_actions(state, seat) if a.get("ready")]


def test_a_discard_that_leaves_a_ready_hand_may_declare_it():
    state = turn(table([player("2288m2288p2468s6z"), player(SHANPON), SEAT2, SEAT3],
                       head="5s"), 1, drawn="9m")
    # Only discarding 9m leaves a ready hand (1z/2z).
    assert _ready_variants(state, 1) == [{"type": "discard", "tile": "9m", "ready": True}]
    state, events = GAME.apply(state, 1, {"type": "discard", "tile": "9m", "ready": True})
    assert events[0].data == {"seat": 1, "tile": "9m", "ready": True, "auto": False}
    mine = GAME.view(state, 0)["players"][1]
    assert mine["ready"] is True and mine["discards"] == [{"tile": "9m", "taken": False,
                                                           "ready": True}]


def test_no_declaration_when_every_winning_tile_is_held():
    # With 555z exposed, 123m 456p 789s 5z waits only on the fourth 5z it holds: discarding 7z
    # may not declare; discarding 5z (waiting on 7z) may.
    state = turn(table([player("2288m2288p2468s6z"),
                        player("123m456p789s5z", melds=[("pung", "555z", 2)]), SEAT2, SEAT3]),
                 1, drawn="7z")
    assert _ready_variants(state, 1) == [{"type": "discard", "tile": "5z", "ready": True}]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 1, {"type": "discard", "tile": "7z", "ready": True})
    assert refused.value.code == "not_ready"


def test_mcr_has_no_ready_declaration():
    state = turn(table([player("2288m2288p2468s6z"), player(SHANPON), SEAT2, SEAT3],
                       rules="mcr"), 1, drawn="9m")
    assert _ready_variants(state, 1) == []
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 1, {"type": "discard", "tile": "9m", "ready": True})
    assert refused.value.code == "no_ready"


def test_a_locked_hand_with_nothing_to_choose_discards_its_draw_at_once():
    base = table([player("6z 19m 39s 369p 577z 16s", discards="8s"), player(SHANPON, ready=True),
                  player("3377m3377p3468s7z"), SEAT3], head="5m 2s")
    state, events = discarded(base, 0, "6z", drawn_tile="4z")
    assert [(e.kind, e.data.get("seat"), e.data.get("auto")) for e in events] == [
        ("discarded", 0, False), ("drew", 1, None), ("discarded", 1, True), ("drew", 2, None)]
    assert state.hand.players[1].discards[-1].tile == "5m"
    assert GAME.to_act(state) == {2} and state.hand.players[2].drawn == "2s"


def test_a_locked_hand_may_win_or_discard_the_drawn_tile():
    state = turn(table([player("2288m2288p2468s6z"), player(SHANPON, ready=True), SEAT2, SEAT3],
                       head="9p"), 1, drawn="1z")
    assert GAME.legal_actions(state, 1) == [WIN, {"type": "discard", "tile": "1z"}]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 1, {"type": "discard", "tile": "1m"})
    assert refused.value.code == "ready_locked"


def test_a_locked_hand_may_make_a_kong_that_keeps_its_waits():
    # 111m 456p 789s 55z 77z waits on 5z/7z; a kong of 1m keeps both.
    state = turn(table([player("2288m2288p2468s6z"), player("111m456p789s5577z", ready=True),
                        SEAT2, player("2299m2299p2389s4z")], head="9p", tail="3z"), 1, drawn="1m")
    assert GAME.legal_actions(state, 1) == [{"type": "kong", "tile": "1m"},
                                            {"type": "discard", "tile": "1m"}]
    # The replacement 3z is no win: the engine discards it at once.
    state, events = GAME.apply(state, 1, {"type": "kong", "tile": "1m"})
    assert [e.kind for e in events] == ["kong", "drew", "discarded", "drew"]
    assert state.hand.players[1].discards[-1].tile == "3z"


def test_a_kong_that_changes_the_waits_is_refused():
    # 九莲宝灯 waits on every 万; a kong of 1m would leave fewer waits.
    state = turn(table([NO_MAN[0], player("1112345678999m", ready=True), *NO_MAN[1:]],
                       head="9p"), 1, drawn="1m")
    assert GAME.legal_actions(state, 1) == [WIN, {"type": "discard", "tile": "1m"}]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 1, {"type": "kong", "tile": "1m"})
    assert refused.value.code == "kong_breaks_ready"


def test_a_kong_that_changes_the_waits_leaves_only_the_discard():
    # 3444m 789p 789s 555z waits on 2m/3m/5m; a kong of 4m would leave only 3m: not listed,
    # so the drawn 4m is discarded at once.
    state = turn(table([player("2288m2288p2468s6z"), player("3444m789p789s555z", ready=True),
                        SEAT2, SEAT3], head="9p", tail="1s"), 1, drawn="4m")
    assert [d.tile for d in state.hand.players[1].discards] == ["4m"]
    assert GAME.to_act(state) == {2}


def test_a_locked_hand_may_claim_a_keeping_kong_but_never_pung():
    base = table([player("1m " + JUNK, discards="8s"), player("111m456p789s5577z", ready=True),
                  SEAT2, player("2299m2299p2389s4z")], head="9p", tail="3z")
    state, _ = discarded(base, 0, "1m", drawn_tile="2z")
    assert GAME.to_act(state) == {1}
    assert GAME.legal_actions(state, 1) == [{"type": "kong", "tile": "1m"}, PASS]
    shanpon = table([player("1z " + JUNK, discards="8s"), player(SHANPON, ready=True),
                     SEAT2, SEAT3], head="9p")
    state, _ = discarded(shanpon, 0, "1z", drawn_tile="2s")
    assert GAME.legal_actions(state, 1) == [WIN, PASS]       # holds 11z, yet no 碰


def test_the_discard_after_a_pung_may_declare_ready():
    base = table([player("5z " + JUNK, discards="8s"), player("55z 123m456p789s12z"),
                  SEAT2, SEAT3], head="9p")
    state, _ = discarded(base, 0, "5z", drawn_tile="4z")
    state, _ = GAME.apply(state, 1, {"type": "pung"})
    assert _ready_variants(state, 1) == [{"type": "discard", "tile": "1z", "ready": True},
                                         {"type": "discard", "tile": "2z", "ready": True}]
