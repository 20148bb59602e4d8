"""Setup, harvest, progress, clean-up, the end conditions and each tie-break (seed, 游戏设置,
游戏玩法, 游戏结束; rulings, "Setup and rounds" and "End")."""

from __future__ import annotations

from engine.civilization import GAME
from engine.civilization.state import NEUTRAL, workers_in_hand

from .helpers import EMPTY, card, make, play, take

PASS = {"type": "pass"}


def test_setup_reveals_one_card_for_the_non_start_player_to_orient():
    state = GAME.new_game(GAME.validate_options({}), 2, b"setup")
    assert GAME.to_act(state) == {1} and state.revealed is not None and len(state.deck) == 15
    assert GAME.legal_actions(state, 1) == [{"type": "orient", "slot": 0}, {"type": "orient", "slot": 1}]
    first = state.revealed
    state = play(state, 1, {"type": "orient", "slot": 1})
    # Slot 1 of the card faces seat 1, so slot 0 faces seat 0.
    assert state.row[1].id == first and state.row[1].facing == 0
    # Round 1 harvest: 婚姻 faces seat 1, who takes a resource.
    assert state.round == 1 and state.phase == "harvest" and GAME.to_act(state) == {1}
    state = play(state, 1, take("wheat"))
    assert state.resources == ((0, 0, 0), (0, 0, 1))
    # Progress: the next card for seat 1 (non-start) to orient; then seat 0 (王权) acts.
    assert state.phase == "progress" and len(state.deck) == 14
    state = play(state, 1, {"type": "orient", "slot": 0})
    assert state.row[2].facing == 1 and state.phase == "action" and GAME.to_act(state) == {0}


def test_a_game_of_passes_has_fifteen_action_phases():
    state = GAME.new_game(GAME.validate_options({}), 2, b"passes")
    phases = 0
    while GAME.to_act(state):
        seat = next(iter(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        if PASS in legal and state.passed == (False, False):
            phases += 1
        state = play(state, seat, PASS if PASS in legal else legal[0])
    assert phases == 15 and state.round == 15 and len(state.row) == 17
    assert GAME.outcome(state).reason == "deck_empty"


def test_harvest_pays_leaders_and_marriage_then_progress_and_action():
    row = [card(0, 0), card(1, 0, leader=1), card(3, 1, leader=1), card(4, 0, leader=0)]
    state = make(row, ((0, 0, 0), (0, 0, 0)), deck=(16, 15), passed=(True, False), actor=1)
    state = play(state, 1, PASS)
    # Leaders: card 1 (meat) and card 3 (fish) for seat 1, card 4 (wheat) for seat 0.
    assert state.round == 4 and state.start == 0
    assert state.resources == ((0, 0, 1), (1, 1, 0))
    assert GAME.to_act(state) == {1}  # 婚姻 faces seat 1
    state = play(state, 1, take("fish"))
    assert state.resources[1] == (2, 1, 0)
    assert state.revealed == 16 and state.deck == (15,) and GAME.to_act(state) == {1}
    state = play(state, 1, {"type": "orient", "slot": 0})
    assert state.row[4].id == 16 and state.row[4].facing == 1
    assert state.phase == "action" and GAME.to_act(state) == {0} and state.passed == (False, False)


def test_leaders_placed_by_breakthrough_also_harvest():
    # A leader on S's neighbour placed by 突破 stands like any other: card 2 costs wheat.
    row = [card(0, 0), card(2, 1, leader=0)]
    state = play(make(row, deck=(16,), passed=(False, True)), 0, PASS)
    assert state.resources[0] == (0, 0, 1)


def test_clean_up_rotates_each_card_once_and_sends_workers_home():
    row = [card(0, 0), card(16, 0, workers=(0, 1)), card(1, 0, workers=(0, EMPTY)),
           card(11, 0, workers=(EMPTY, NEUTRAL))]
    state = make(row, deck=(15,), passed=(True, False), actor=1)
    state = play(state, 1, PASS)
    # 16: both slots ↺ and taken -> turned once; 1: 织网 has no ↺; 11: neutral on ↺ 雇佣; S: empty.
    assert [c.facing for c in state.row] == [0, 1, 0, 1]
    assert all(c.workers == (EMPTY, EMPTY) for c in state.row)
    assert workers_in_hand(state, 0) == 2 and workers_in_hand(state, 1) == 2


def test_passed_player_takes_no_more_actions():
    state = make([card(0, 0), card(1, 0), card(2, 0)], actor=0)
    state = play(state, 0, PASS)
    assert GAME.to_act(state) == {1}
    state = play(state, 1, {"type": "place", "card": 1, "resolve": False})
    assert GAME.to_act(state) == {1}  # seat 0 passed, seat 1 goes on


def test_fifth_leader_ends_the_game_at_once():
    row = [card(0, 0)] + [card(i, 1, leader=0) for i in (1, 2, 3, 4)] + [card(5, 0)]
    state = make(row, ((5, 0, 0), (9, 9, 9)))
    assert {"type": "leader", "card": 5} in GAME.legal_actions(state, 0)
    state = play(state, 0, {"type": "leader", "card": 5})
    assert GAME.to_act(state) == frozenset() and state.resources[0] == (0, 0, 0)
    outcome = GAME.outcome(state)
    assert outcome.ranks == (1, 2) and outcome.reason == "five_leaders"


def test_fifth_leader_by_breakthrough_ends_the_game_before_its_bonus():
    row = [card(0, 0)] + [card(i, 0, leader=0) for i in (1, 2, 3, 4)] + [card(10, 1)]
    # Paying 5 wheat and the only leaderless card are both forced, so placing ends the match.
    state = play(make(row, ((0, 0, 6), (0, 0, 0))), 0, {"type": "place", "card": 5, "resolve": True})
    assert GAME.outcome(state).reason == "five_leaders" and state.queue == ()
    assert state.resources[0] == (0, 0, 1)


def _end(row, resources):
    state = make(row, resources, deck=(), passed=(True, False), actor=1)
    return GAME.outcome(play(state, 1, PASS))


def test_end_most_leaders_wins():
    outcome = _end([card(0, 0), card(1, 0, leader=1), card(2, 0, leader=1), card(3, 0, leader=0)],
                   ((9, 9, 9), (0, 0, 0)))
    assert outcome.reason == "deck_empty" and outcome.ranks == (2, 1)


def test_end_tie_on_leaders_most_resources_wins():
    outcome = _end([card(0, 1), card(1, 0, leader=1), card(2, 0, leader=0)], ((3, 2, 2), (2, 2, 2)))
    assert outcome.ranks == (1, 2)


def test_end_tie_on_resources_the_player_facing_kingship_wins():
    outcome = _end([card(0, 1), card(1, 0, leader=1), card(2, 0, leader=0)], ((3, 2, 2), (2, 2, 3)))
    assert outcome.ranks == (2, 1)


def test_end_kingship_tie_break_is_read_after_the_final_rotation():
    # 王权 faces seat 0 with a worker on it: the last clean-up turns S, so seat 1 faces 王权.
    outcome = _end([card(0, 0, workers=(0, EMPTY))], ((1, 1, 1), (1, 1, 1)))
    assert outcome.ranks == (2, 1) and outcome.detail["kingship"] == 1


def test_resign_gives_the_match_to_the_other_seat():
    state, _ = GAME.resign(make([card(0, 0)]), 1)
    assert GAME.outcome(state).ranks == (1, 2) and GAME.outcome(state).reason == "resign"


def test_the_maximum_length_ends_the_match_on_the_standings():
    from engine.civilization.game import MAX_LENGTH
    state = make([card(0, 1), card(1, 0)], ((2, 0, 0), (1, 0, 0)))._replace(actions=MAX_LENGTH - 1)
    state = play(state, 0, {"type": "place", "card": 1, "resolve": False})
    outcome = GAME.outcome(state)
    # No leaders; resources 2 against 1: seat 0 wins.
    assert outcome.reason == "max_length" and outcome.ranks == (1, 2)


def test_the_view_names_no_actor_once_the_match_is_over():
    from engine.civilization.game import MAX_LENGTH
    leaders = make([card(0, 0)] + [card(i, 1, leader=0) for i in (1, 2, 3, 4)] + [card(5, 0)],
                   ((5, 0, 0), (9, 9, 9)))
    last_pass = make([card(0, 0)], deck=(), passed=(True, False), actor=1)
    longest = make([card(0, 1), card(1, 0)])._replace(actions=MAX_LENGTH - 1)
    assert [GAME.view(s, v)["actor"] for s in (leaders, last_pass) for v in (0, 1, None)] == [
        0, 0, 0, 1, 1, 1]
    overs = [play(leaders, 0, {"type": "leader", "card": 5}), play(last_pass, 1, PASS),
             play(longest, 0, {"type": "place", "card": 1, "resolve": False}),
             GAME.resign(leaders, 1)[0]]
    assert [GAME.outcome(s).reason for s in overs] == ["five_leaders", "deck_empty", "max_length",
                                                      "resign"]
    assert [s.actor for s in overs] == [1, 1, 1, 0]
    for over in overs:
        assert over.phase == "over" and GAME.to_act(over) == frozenset()
        assert [GAME.view(over, v)["actor"] for v in (0, 1, None)] == [None, None, None]


def test_a_card_turned_by_kingship_offers_its_other_slot_at_once():
    # Card 1 faces seat 0 with 织网; after 王权 turns it, 雇佣 faces seat 0 (unaffordable: place only).
    state = play(make([card(0, 0), card(1, 0)], passed=(False, True)), 0,
                 {"type": "place", "card": 0, "resolve": True}, take("fish"),
                 {"type": "rotate", "card": 1})
    assert GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 0) == [{"type": "place", "card": 1, "resolve": False},
                                            {"type": "pass"}]
