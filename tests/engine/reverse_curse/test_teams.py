"""Team formats 2v2 and 3v3 (rulings "Formats", "Match flow" 2-6, "Hidden information")."""

from collections import Counter

import pytest

from engine.core import IllegalAction, Rng
from engine.reverse_curse import GAME
from engine.reverse_curse.cards import DECK, MONSTERS
from engine.reverse_curse.state import deployment_side, seats_of, side_of

from .helpers import make_state, new_match, play

D, E, M = "DOUBLE_BUBBLE", "ECHO_FLOW", "MIRROR_PILLAR"
SIREN = "SILENCE_SIREN"
VEIL, SWITCH, SPY, SHARE, MOLE, UNICORN = MONSTERS


def _error(state, seat, action):
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    return info.value.code


@pytest.mark.parametrize("fmt, seats, size", [("2v2", 4, 3), ("3v3", 6, 2)])
def test_team_deal_and_alternating_sides(fmt, seats, size):
    seed = b"team"
    state = new_match(seed, format=fmt)
    shuffled = Rng.derive(seed, "set", 1).shuffled(DECK)
    assert state.hands == tuple(tuple(shuffled[i * size:(i + 1) * size]) for i in range(seats))
    assert state.deck == tuple(shuffled[12:])
    parity = Rng.derive(seed, "sides").coin()
    up = [s for s in range(seats) if s % 2 == parity]
    down = [s for s in range(seats) if s % 2 != parity]
    assert GAME.view(state, None)["sides"] == {"UP": up, "DOWN": down}
    assert GAME.to_act(state) == frozenset(range(seats))  # simultaneous mulligan, everyone


def test_teammates_see_each_others_hands_and_face_down_cards():
    state = make_state([["+1", D], ["-1", "-2"], ["+2", E], ["-3", M]], fmt="2v2")
    state = play(state, 2, E)
    mate, rival = GAME.view(state, 0), GAME.view(state, 1)
    assert mate["hands"] == {"0": ["+1", D], "2": ["+2"]}
    assert rival["hands"] == {"1": ["-1", "-2"], "3": ["-3", M]}
    assert GAME.view(state, None)["hands"] == {}
    assert mate["field"][0]["card"] == E and rival["field"][0]["card"] is None
    assert mate["hand_sizes"] == {"0": 2, "1": 2, "2": 1, "3": 2}


def test_every_member_with_cards_may_play_and_a_late_teammate_gets_already_played():
    state = make_state([["+1"], ["-1"], [D], ["-3"]], fmt="2v2")
    assert GAME.to_act(state) == {0, 2}
    after = play(state, 0, "+1")
    assert GAME.to_act(after) == {1, 3}
    assert _error(after, 2, {"type": "play", "card": D}) == "already_played"
    assert _error(after, 0, {"type": "play", "card": D}) == "not_your_turn"


def test_a_member_without_cards_is_not_asked():
    state = make_state([[], ["-1"], [D], ["-3"]], fmt="2v2", turn=3,
                       field=[("+1", 0, True), ("-2", 1, True)])
    assert GAME.to_act(state) == {2}
    assert GAME.legal_actions(state, 0) == []
    assert _error(state, 0, {"type": "play", "card": "+1"}) == "card_not_in_hand"


def test_any_member_mulligans_for_the_side_and_draws_the_card():
    state = make_state([["+1"], ["-1"], [D], ["-3"]], fmt="2v2", phase="mulligan", turn=0,
                       deck=["+2", "-2"])
    state, _ = GAME.apply(state, 2, {"type": "mulligan", "card": D})
    assert GAME.to_act(state) == {1, 3}
    assert GAME.view(state, 0)["mulligan"] == {"mine": D}
    assert _error(state, 0, {"type": "mulligan", "card": None}) == "already_played"
    state, _ = GAME.apply(state, 3, {"type": "mulligan", "card": None})
    assert state.hands == (("+1",), ("-1",), ("+2",), ("-3",)) and state.graveyard == (D,)


def test_any_member_chooses_the_order_and_shops():
    field = [(c, i % 2, True) for i, c in enumerate(["+1", "-1"] * 5 + ["+2"])]
    state = make_state([[], ["+1"], [], []], fmt="2v2", turn=12, field=field, deck=(),
                       monsters=True, last_actor=((2, 1, "deployment"), None))
    state = play(state, 1, "+1")  # result +3: DOWN (seats 1, 3) is behind
    assert state.phase == "order" and GAME.to_act(state) == {1, 3}
    assert _error(state, 0, {"type": "choose_order", "first": True}) == "not_your_turn"
    state, _ = GAME.apply(state, 3, {"type": "choose_order", "first": False})
    assert state.first_side == "UP"
    state, _ = GAME.apply(state, 2, {"type": "mulligan", "card": None})
    state, _ = GAME.apply(state, 1, {"type": "mulligan", "card": None})
    assert state.phase == "shop" and GAME.to_act(state) == {1, 3}  # DOWN is behind
    state, _ = GAME.apply(state, 1, {"type": "recruit", "monster": state.offer[0]})
    assert _error(state, 3, {"type": "pass"}) == "already_played"
    assert GAME.to_act(state) == {0, 2}


def test_share_bear_in_a_team_swaps_between_members_who_gave():
    state = make_state([[], ["-3"], ["+3"], []], fmt="2v2", turn=11, monsters=True,
                       held=(SHARE, None), energy=(1, 0), deck=(),
                       field=[("+1", i % 2, True) for i in range(10)])
    assert GAME.to_act(state) == {2}
    state, _ = GAME.apply(state, 2, {"type": "summon"})
    assert state.hands == ((), ("+3",), ("-3",), ())


def test_switch_witch_in_a_team_uses_the_summoners_own_hand():
    state = make_state([["+1"], ["-1"], ["+3"], ["-3"]], fmt="2v2", monsters=True,
                       held=(SWITCH, None), deck=["-2"])
    state, _ = GAME.apply(state, 2, {"type": "summon"})
    assert state.hands == (("+1",), ("-1",), ("-2",), ("-3",)) and state.graveyard == ("+3",)
    assert GAME.to_act(state) == {0, 2}


def test_team_resign_and_outcome_rank_every_member():
    state = make_state([["+1"]] * 6, fmt="3v3", up_parity=1, deck=())
    assert [side_of(state, s) for s in range(6)] == ["DOWN", "UP"] * 3
    ended, _ = GAME.resign(state, 4)
    assert GAME.outcome(ended).ranks == (2, 1, 2, 1, 2, 1)


def _team_deployment(seed: bytes):
    """A 2v2 match (no monsters) from ``seed``, every order/mulligan clock timed out, at the
    first deployment turn."""
    state = new_match(seed, format="2v2", monsters=False)
    while state.phase != "deployment":
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.deadline_action(state, seat))
    return state


def test_team_timeout_plays_a_random_card_of_the_whole_side():
    state = _team_deployment(b"seed")
    assert (state.set_no, state.turn, deployment_side(state)) == (1, 1, "UP")
    assert state.hands[0] == ("-1", "-1", "-2") and state.hands[2] == ("-2", "+1", SIREN)
    assert GAME.to_act(state) == {0, 2}
    # Both clocks run out together; the draw over the side's six cards falls on seat 2's +1,
    # so the room plays it as seat 2, whichever of the two clocks it fires.
    assert GAME.deadline_seat(state, 0) == 2 and GAME.deadline_seat(state, 2) == 2
    assert GAME.deadline_action(state, 2) == {"type": "play", "card": "+1"}
    # Asked for seat 0 directly, the move is still one of seat 0's own (legal) cards.
    assert GAME.deadline_action(state, 0) == {"type": "play", "card": "-1"}
    state, events = GAME.apply(state, 2, GAME.deadline_action(state, 2))
    assert [(e.kind, e.data) for e in events] == [("card_played", {
        "turn": 1, "seat": 2, "side": "UP", "face_up": True, "card": "+1"})]
    assert state.hands[2] == ("-2", SIREN) and GAME.to_act(state) == {1, 3}


def test_team_timeouts_play_every_members_cards():
    # 200 seeded matches, one deployment timeout each: the six cards of the side are equally
    # likely, so each member's are played about 100 times (94 and 106 here; binomial σ ≈ 7).
    members = [0, 0]
    for n in range(200):
        state = _team_deployment(n.to_bytes(8, "big"))
        seats = seats_of(state, deployment_side(state))
        assert [len(state.hands[s]) for s in seats] == [3, 3]
        members[seats.index(GAME.deadline_seat(state, min(GAME.to_act(state))))] += 1
    assert members == [94, 106]
    assert all(70 <= count <= 130 for count in members)


def test_team_timeout_is_uniform_over_cards_not_members():
    # Seat 0 holds three cards and seat 2 one: seat 2's is drawn about a quarter of the time.
    picks = Counter()
    for n in range(200):
        state = make_state([["+1", "+2", "+3"], ["-1"], [D], ["-3"]], fmt="2v2",
                           seed=n.to_bytes(2, "big"))
        seat = GAME.deadline_seat(state, 0)
        picks[GAME.deadline_action(state, seat)["card"], seat] += 1
    assert picks == {("+1", 0): 49, ("+2", 0): 50, ("+3", 0): 55, (D, 2): 46}
    assert 30 <= picks[D, 2] <= 70


