"""θ locks: holding a hand card, locking an opponent stack, frozen stacks, double locks
(seed {字母牌θ} ①–④; rulings "Turn" step 1 and "θ locks")."""

from engine.numgr import GAME
from engine.numgr.effects import area_totals, locked_ids
from tests.engine.numgr.helpers import act, area_mains, make_state, play, put

OPP_HAND = ["1def", "2rem", "3rem", "Brem", "Grem"]  # cards that never attack seat 0


def test_theta_holding_a_hand_card_counts_next_turn():
    state = make_state([["Tatk", "3atk"], OPP_HAND], step="attack")
    state = play(state, 0, "Tatk", base="3atk")
    assert area_totals(state, 0).attack == 0          # held, not yet in effect
    state = act(state, 0, "end", None)                # seat 1's turn
    state = act(state, 1, "end")                      # seat 1's HP check: 0 attack
    assert state.hp == [2, 2]
    state = act(state, 1, "end", None)                # seat 0's clean-up releases the △3
    assert area_mains(state, 0) == ["3atk"]
    assert area_totals(state, 0).attack == 3
    assert "Tatk" in state.discard
    state = act(state, 0, "end", "end", None)
    state = act(state, 1, "end")                      # seat 1 must now defend 3
    assert state.hp == [2, 1]


def test_held_card_is_hidden_from_the_opponent_only():
    state = play(make_state([["Tatk", "3atk"], []]), 0, "Tatk", base="3atk")
    mine = GAME.view(state, 0)["areas"][0][0]
    theirs = GAME.view(state, 1)["areas"][0][0]
    spectator = GAME.view(state, None)["areas"][0][0]
    assert mine["base"] == "3atk" and not mine["held_hidden"]
    assert theirs["base"] is None and theirs["held_hidden"]
    assert spectator == theirs


def test_beta_copying_theta_shows_a_held_theta():
    state = make_state([["Bdef", "Tdef"], []])
    put(state, 1, "Trem")  # β may copy θ only while a θ is a main card in an area
    state = play(state, 0, "Bdef", copy="T", base="Tdef")
    stack = state.area(0)[0]
    assert stack.shown and GAME.view(state, 1)["areas"][0][0]["base"] == "Tdef"


def _locked_attack_position():
    """Seat 1 attacks with △3; seat 0 (defense step) locks it with △θ."""
    state = make_state([["Tatk"], OPP_HAND])
    put(state, 1, "3atk")
    return play(state, 0, "Tatk", lock=1)


def test_theta_locking_an_attack_stops_it_now():
    state = _locked_attack_position()
    assert area_totals(state, 1).attack == 0 and locked_ids(state) == {1}
    state = act(state, 0, "end")
    assert state.hp == [2, 2]


def test_cleanup_keeps_a_stack_frozen_under_the_opponent_theta():
    state = act(_locked_attack_position(), 0, "end", "end", None)   # seat 1's clean-up
    assert area_mains(state, 1) == ["3atk"]
    assert GAME.view(state, 0)["areas"][1][0]["locked_by"] == 2


def test_locked_attack_must_still_be_defended_after_release():
    state = act(_locked_attack_position(), 0, "end", "end", None)
    state = act(state, 1, "end", "end", None)         # seat 0's clean-up discards the θ
    assert area_mains(state, 0) == [] and area_mains(state, 1) == ["3atk"]
    assert area_totals(state, 1).attack == 3
    state = act(state, 0, "end")
    assert state.hp == [1, 2]


def test_a_locked_stack_is_not_removed():
    state = make_state([["2rem"], []])
    put(state, 1, "2atk")
    put(state, 0, "Tatk", lock=1)
    state = play(state, 0, "2rem")
    assert area_mains(state, 1) == ["2atk"]


def test_locking_a_theta_frees_what_it_locked():
    # Seat 1's △θ locks seat 0's △3; seat 0's β copying θ locks that θ (seed θ ③, β ③).
    state = make_state([["Batk"], []])
    put(state, 0, "3atk")
    put(state, 1, "Tatk", lock=1)
    assert area_totals(state, 0).attack == 0
    state = play(state, 0, "Batk", copy="T", lock=2)
    assert locked_ids(state) == {2}
    assert area_totals(state, 0).attack == 3


def test_held_zero_must_be_completed_this_turn():
    state = make_state([["2atk", "1def"], OPP_HAND], current=1, step="discard")
    put(state, 0, "Tatk", base="0atk")
    state = act(state, 1, None)                        # seat 0's clean-up releases the 0
    assert state.pending[0] == ["0atk"]
    done = play(state, 0, "2atk", base="0atk")
    assert area_totals(done, 0).attack == 4 and done.pending[0] == []
    idle = act(state, 0, "end", "end", None)           # never completed: discarded
    assert idle.pending[0] == [] and "0atk" in idle.discard


def test_held_number_takes_no_zero_later():
    state = make_state([["0atk"], OPP_HAND], current=1, step="discard")
    put(state, 0, "Tany", base="2any")
    state = act(state, 1, None)
    assert state.pending[0] == ["2any"]
    assert GAME.legal_actions(state, 0)[1:] == [
        {"type": "play", "main": "2any", "base": None, "mode": m, "base_mode": None,
         "copy": None, "lock": None} for m in ("atk", "def", "rem")]


def test_a_theta_never_holds_two_cards_and_needs_a_target():
    state = make_state([["Tdef"], []])
    assert GAME.legal_actions(state, 0) == [{"type": "end_step"}]


def test_held_card_events_reach_its_owner_only():
    state = make_state([["Tatk", "3atk"], []])
    _, events = GAME.apply(state, 0, {"type": "play", "main": "Tatk", "base": "3atk",
                                      "mode": None, "base_mode": None, "copy": None,
                                      "lock": None})
    for viewer in (1, None):
        seen = [e.to_json() for e in events if e.visible(viewer)]
        assert "3atk" not in str(seen) and seen[0]["kind"] == "stack_played"
    assert [e.data["card"] for e in events if e.kind == "card_held" and e.visible(0)] == ["3atk"]


def test_held_zero_released_by_reflection_in_its_owners_turn_waits_for_the_next_turn():
    # Seat 0 holds △0 under △θ straight into seat 1's △α: the θ is reflected, the 0 is
    # released now and may still be completed in seat 0's next turn.
    state = make_state([["Tatk", "0atk"], OPP_HAND], step="attack")
    put(state, 1, "Aatk")
    state = play(state, 0, "Tatk", base="0atk")
    assert area_mains(state, 1) == ["Aatk", "Tatk"] and state.pending[0] == ["0atk"]
    state = act(state, 0, "end", None)
    assert state.pending[0] == ["0atk"]
    state = act(state, 1, "end", "end", None)
    assert state.pending[0] == ["0atk"]
    state = act(state, 0, "end", "end", None)
    assert state.pending[0] == [] and "0atk" in state.discard


def test_reflected_theta_releases_the_stack_it_locked():
    state = make_state([["Aatk"], []])
    put(state, 0, "3atk")
    put(state, 1, "Tatk", lock=1)
    assert area_totals(state, 0).attack == 0
    state = play(state, 0, "Aatk")
    assert area_mains(state, 0) == ["3atk", "Tatk", "Aatk"]
    assert area_totals(state, 0).attack == 3 and locked_ids(state) == set()
