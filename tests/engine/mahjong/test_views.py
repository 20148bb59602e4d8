"""Views hide every other hand, the wall and others' concealed kongs before the hand ends, and
who may claim; ``redeal`` and ``sample`` give states a seat cannot tell from the real one
(rulings "Match, clocks and bots": hidden information)."""

import json
import random

import pytest

from engine.core import Rng
from engine.mahjong import GAME
from engine.mahjong.ready import waits
from tests.engine.mahjong import policy
from tests.engine.mahjong.builders import drawn, every_tile, full_set, player, table

SEATS = (0, 1, 2, 3)


def _positions(options, seed, every=3):
    """Yield states of a seeded match (greedy, with some random moves) every few actions."""
    state = GAME.new_game(GAME.validate_options(options), 4, seed)
    chooser = random.Random(seed)
    step = 0
    while GAME.to_act(state):
        if step % every == 0:
            yield state
        seat = chooser.choice(sorted(GAME.to_act(state)))
        action = (policy.choose(state, seat) if chooser.random() < 0.8
                  else chooser.choice(GAME.legal_actions(state, seat)))
        state, _ = GAME.apply(state, seat, action)
        step += 1
    yield state


def _concealed_kong_table():
    # Seat 2 holds a concealed kong of 6s; seat 0 discarded 5m, which seat 3 may win and
    # seat 1 may pung.
    state, _ = drawn(table([player("5m 1199m1199p1289s", discards="8s"),
                        player("55m 13p 245s 99s 1234z"),
                        player("2288m 2p 478s 67z", melds=[("concealed_kong", "6666s")]),
                        player("34m 123p 456p 789s 11z")], head="7z 1s 2s 3s", fill=True),
                 0)
    return GAME.apply(state, 0, {"type": "discard", "tile": "5m"})[0]


def test_a_view_shows_only_the_viewers_own_tiles():
    state = _concealed_kong_table()
    view = GAME.view(state, 1)
    assert view["me"]["hand"] == state.hand.players[1].concealed and view["me"]["drawn"] is None
    for seat, shown in enumerate(view["players"]):
        assert set(shown) == {"seat", "wind", "hand_size", "drawn", "ready", "melds", "flowers",
                              "discards", "revealed"}
        assert shown["revealed"] is None
        assert shown["hand_size"] == len(state.hand.players[seat].held())
    assert view["players"][2]["melds"] == [{"kind": "concealed_kong", "tiles": [None] * 4,
                                            "from": None, "claimed": None}]
    assert GAME.view(state, 2)["players"][2]["melds"][0]["tiles"] == ["6s"] * 4
    assert GAME.view(state, None)["me"] is None
    text = json.dumps(GAME.view(state, None))
    assert "wall" not in GAME.view(state, None) and '"6s"' not in text


def test_a_view_never_tells_who_may_claim():
    state = _concealed_kong_table()
    assert GAME.to_act(state) == {1, 3}
    views = {viewer: GAME.view(state, viewer) for viewer in (None, 0, 2)}
    assert all(v["claims_pending"] and v["turn"] is None for v in views.values())
    assert views[0]["me"]["claim"] is None and views[2]["me"]["claim"] is None
    # Nothing but ``seat`` and ``me`` differs between a seat not asked and a spectator.
    strip = {k: v for k, v in views[0].items() if k not in ("seat", "me")}
    assert strip == {k: v for k, v in views[None].items() if k not in ("seat", "me")}


def test_the_score_sheet_reveals_every_hand_at_the_hand_end():
    state = _concealed_kong_table()
    state, _ = GAME.apply(state, 1, {"type": "pass"})
    state, _ = GAME.apply(state, 3, {"type": "win"})
    hands = GAME.view(state, 0)["results"][0]["hands"]
    assert hands[2]["melds"][0]["tiles"] == ["6s"] * 4
    assert hands[3]["concealed"] == ["3m", "4m", "5m", "1p", "2p", "3p", "4p", "5p", "6p",
                                     "7s", "8s", "9s", "1z", "1z"]


@pytest.mark.parametrize("options", [{"hands": 4}, {"rules": "mcr"}])
def test_redeal_and_sample_keep_every_view_and_legal_list(options):
    moved = sampled = 0
    for n, state in enumerate(_positions(options, b"views")):
        for viewer in (*SEATS, None):
            view = GAME.view(state, viewer)
            other = GAME.redeal(state, viewer, Rng.derive(b"redeal", n, viewer))
            assert GAME.view(other, viewer) == view
            assert every_tile(other) == every_tile(state)
            moved += GAME.dump(other) != GAME.dump(state)
            if viewer is None:
                continue
            assert GAME.legal_actions(other, viewer) == GAME.legal_actions(state, viewer)
            guess = GAME.sample(view, viewer, Rng.derive(b"sample", n, viewer))
            assert GAME.view(guess, viewer) == view
            assert GAME.legal_actions(guess, viewer) == GAME.legal_actions(state, viewer)
            assert GAME.to_act(guess) == GAME.to_act(state) or not GAME.to_act_is_public(state)
            sampled += 1
    assert moved > 100 and sampled > 100


def test_sample_is_deterministic_and_keeps_the_tile_counts():
    state = _concealed_kong_table()
    view = GAME.view(state, 1)
    one = GAME.sample(view, 1, Rng(b"same"))
    assert GAME.dump(one) == GAME.dump(GAME.sample(view, 1, Rng(b"same")))
    assert every_tile(one) == full_set("hebei")
    assert one.hand.players[1].concealed == state.hand.players[1].concealed
    kong = one.hand.players[2].melds[0].tiles
    assert len(set(kong)) == 1 and None not in kong
    # The window stays pending: seat 1 itself is still to answer.
    assert 1 in GAME.to_act(one)


def test_a_sampled_window_has_another_claimer_once_the_seat_answered():
    state = _concealed_kong_table()
    state, _ = GAME.apply(state, 1, {"type": "pass"})      # seat 3 still to answer
    view = GAME.view(state, 1)
    for n in range(8):
        guess = GAME.sample(view, 1, Rng.derive(b"after", n))
        assert GAME.to_act(guess) and 1 not in GAME.to_act(guess)
        assert GAME.view(guess, 1) == view


def test_a_sampled_locked_hand_is_ready():
    state, _ = drawn(table([player("2288m2288p2468s6z"), player("123m456p789s1122z", ready=True),
                        player("3377m3377p3468s6z"), player("1199m1199p1289s4z")],
                       head="3z 9p 8p 7p", fill=True), 0)
    view = GAME.view(state, 0)
    for n in range(8):
        guess = GAME.sample(view, 0, Rng.derive(b"ready", n))
        locked = guess.hand.players[1]
        assert locked.ready and waits(locked.concealed, locked.melds)
