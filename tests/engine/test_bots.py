"""The easy and normal bots for every registered game ("Play vs computer").

Contract: bots play full matches to the end, always choosing a listed legal action, from their
seat's view only, deterministically for a given rng seed. Normal (greedy) beats easy (random)
in more than half of N matches. Each game's greedy score is pinned on hand-made views.
"""

from __future__ import annotations

import copy

import pytest

from engine.bots import BUDGETS, LEVELS, RandomBot, ScoringBot, best_action, greedy_bot, make_bot
from engine.core import Rng
from engine.grid_reversal import bot as grid_bot
from engine.numgr import bot as numgr_bot
from engine.registry import GAMES
from engine.reverse_curse import bot as rc_bot
from engine.zipai import bot as zipai_bot

#: Fast options per game so the contract stays quick (zipai: one hand).
FAST = {"zipai": {"hands": 1}}
#: Options of the greedy-vs-random duels: three hands of zipai (one is too often a drawn hand).
DUEL = {"zipai": {"hands": 3}}
DUEL_MATCHES = 40


def _options(game_id: str) -> dict:
    game = GAMES[game_id]
    try:
        return game.validate_options(FAST.get(game_id, {}))
    except ValueError:
        return game.validate_options({})


def play_match(game_id: str, levels: list[str], seed: bytes, options=None):
    """Play one match, seat ``i`` run by ``levels[i]``; return (actions taken, outcome)."""
    game = GAMES[game_id]
    options = options or _options(game_id)
    players = game.seats(options)
    bots = [make_bot(game_id, levels[i]) for i in range(players)]
    state = game.new_game(options, players, seed)
    taken = []
    for step in range(game.spec.max_length + 1):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = acting[0]
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        frozen_view, frozen_legal = copy.deepcopy(view), copy.deepcopy(legal)
        action = bots[seat].choose(game, view, legal, Rng.derive(seed, "bot", seat, step))
        assert action in legal, f"{game_id}: {action} is not legal"
        assert view == frozen_view and legal == frozen_legal, "a bot changed its inputs"
        state, _ = game.apply(state, seat, action)
        taken.append((seat, action))
    outcome = game.outcome(state)
    assert outcome is not None, f"{game_id} did not end"
    return taken, outcome


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("pair", [("easy", "normal"), ("normal", "normal")])
def test_bots_play_to_the_end_deterministically(game_id, pair):
    players = GAMES[game_id].seats(_options(game_id))
    levels = [pair[i % 2] for i in range(players)]
    seed = f"contract/{game_id}".encode()
    first = play_match(game_id, levels, seed)
    assert play_match(game_id, levels, seed) == first


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_greedy_beats_random_in_more_than_half(game_id):
    options = GAMES[game_id].validate_options(DUEL.get(game_id, {}))
    players = GAMES[game_id].seats(options)
    wins = 0
    for n in range(DUEL_MATCHES):
        greedy_seat = n % players
        levels = ["normal" if s == greedy_seat else "easy" for s in range(players)]
        _, outcome = play_match(game_id, levels, f"duel/{game_id}/{n}".encode(), options)
        wins += outcome.ranks[greedy_seat] == 1 and not outcome.draw
    assert wins > DUEL_MATCHES // 2, f"{game_id}: greedy won only {wins}/{DUEL_MATCHES}"


def test_levels_and_factories():
    assert LEVELS == ("easy", "normal", "hard", "expert")
    assert isinstance(make_bot("numgr", "easy"), RandomBot)
    assert set(BUDGETS) == {"hard", "expert"} and BUDGETS["expert"] == 5 * BUDGETS["hard"]
    for game_id in GAMES:
        assert not isinstance(greedy_bot(game_id), RandomBot), game_id
    assert isinstance(greedy_bot("no_such_game"), RandomBot)
    with pytest.raises(ValueError):
        make_bot("numgr", "greedy")
    with pytest.raises(ValueError):
        ScoringBot(lambda v, a: 0).choose(None, {}, [], Rng(b"x"))


def test_scoring_bot_breaks_ties_with_its_rng_only():
    bot = ScoringBot(lambda view, action: -abs(action["n"] - 2))
    legal = [{"n": 0}, {"n": 1}, {"n": 3}, {"n": 4}]
    picks = {bot.choose(None, {}, legal, Rng.derive(b"t", i))["n"] for i in range(40)}
    assert picks == {1, 3}
    assert bot.choose(None, {}, [{"n": 2}, {"n": 1}], Rng(b"t")) == {"n": 2}


# --------------------------------------------------------------------------- Reverse Curse


def _rc_view(side: str, field: list) -> dict:
    return {"my_side": side, "field": [{"card": c} for c in field]}


def test_reverse_curse_score_is_the_partial_lifo_total():
    view = _rc_view("DOWN", ["+2", None])  # the opponent's face-down card is left out
    # [+2, -3]: top -3 first (total -3), then +2 -> -1; DOWN wants negative: +1.
    assert rc_bot.score(view, {"type": "play", "card": "-3"}) == 1
    # FLIP_TRAP on top flips 0, then +2 -> 2: DOWN scores -2.
    assert rc_bot.score(view, {"type": "play", "card": "FLIP_TRAP"}) == -2
    # REVERSE_CURSE on top turns the sign for the cards below: +2 counts -2 -> DOWN scores 2.
    assert rc_bot.score(view, {"type": "play", "card": "REVERSE_CURSE"}) == 2
    # Summon: the current partial total (+2 -> -2 for DOWN) minus the penalty 1.
    assert rc_bot.score(view, {"type": "summon"}) == -3
    up = _rc_view("UP", [])
    assert rc_bot.score(up, {"type": "mulligan", "card": "-2"}) == 2
    assert rc_bot.score(up, {"type": "mulligan", "card": "ECHO_FLOW"}) == 0
    assert rc_bot.score(up, {"type": "mulligan", "card": None}) == 0
    assert rc_bot.score(up, {"type": "recruit", "monster": "SPY_EYE"}) == 1
    assert rc_bot.score(up, {"type": "pass"}) == 0


# --------------------------------------------------------------------------- Grid Reversal


def _grid(pieces: dict) -> list:
    rows = [[None] * 5 for _ in range(6)]
    for (r, c), (owner, value, mother) in pieces.items():
        rows[r][c] = {"owner": owner, "value": value, "mother": mother}
    return rows


def test_grid_reversal_score_counts_the_first_wave():
    # Own 2 at (2,2); placing 3 at (3,2) makes a pair summing to 5 along the column:
    # its ends are (1,2) and (4,2); only (4,2) holds an opponent card.
    view = {"my_seat": 0, "grid": _grid({(2, 2): (0, 2, False), (4, 2): (1, 1, False)})}
    assert grid_bot.score(view, {"type": "place", "card": "3", "cell": [3, 2]}) == 11
    assert grid_bot.score(view, {"type": "place", "card": "2", "cell": [3, 2]}) == 1
    mother = {"my_seat": 0, "grid": _grid({(2, 2): (0, 2, False), (4, 2): (1, 1, True)})}
    assert grid_bot.score(mother, {"type": "place", "card": "3", "cell": [3, 2]}) == 1011
    line = {"my_seat": 1, "grid": _grid({(1, 0): (1, 1, False), (1, 1): (1, 1, False),
                                          (1, 2): (1, 3, False), (1, 3): (0, 4, False)})}
    action = {"type": "super_add_line", "cells": [[1, 0], [1, 1], [1, 2]]}
    assert grid_bot.score(line, action) == 9.5
    # Swapping (1,1)=1 and (1,2)=3: the 3 now at (1,1) sums 4 with both neighbours, the 1 at
    # (1,2) sums 4 with the 3; (1,3) is the opponent's. Nothing fires: -0.5.
    assert grid_bot.score(line, {"type": "swap_cells", "cells": [[1, 1], [1, 2]]}) == -0.5
    assert grid_bot.score(line, {"type": "end_stage"}) == 0
    assert grid_bot.score(line, {"type": "discard", "card": "BOMB"}) == 1
    assert grid_bot.score(line, {"type": "discard", "card": "4"}) == 0


# --------------------------------------------------------------------------- NumGR


def _numgr_view(step: str, opp_attack: int, my_defense: int, opp_area=()) -> dict:
    totals = [{"attack": 0, "defense": my_defense}, {"attack": opp_attack, "defense": 0}]
    return {"seat": 0, "step": step, "totals": totals, "areas": [[], list(opp_area)]}


def _play(main, base=None, mode=None, base_mode=None, copy=None, lock=None):
    return {"type": "play", "main": main, "base": base, "mode": mode, "base_mode": base_mode,
            "copy": copy, "lock": lock}


def test_numgr_score_weighs_the_defense_deficit():
    view = _numgr_view("defense", opp_attack=4, my_defense=1)  # deficit 3
    assert numgr_bot.score(view, _play("2def")) == pytest.approx(5.9)
    assert numgr_bot.score(view, _play("3def", base="0def")) == pytest.approx(8.9)  # 6, capped 3
    assert numgr_bot.score(view, _play("1atk", base="0def")) == pytest.approx(3.9)  # 1 def + 1 atk
    assert numgr_bot.score(view, _play("2any", mode="atk")) == pytest.approx(1.9)
    assert numgr_bot.score(view, {"type": "end_step"}) == 0
    attack = _numgr_view("attack", opp_attack=4, my_defense=1)
    assert numgr_bot.score(attack, _play("2def")) == pytest.approx(-0.1)
    assert numgr_bot.score(attack, _play("Bany", mode="atk", copy="3")) == pytest.approx(2.9)


def test_numgr_score_counts_removed_and_locked_attack():
    stack = {"id": 7, "face": "2", "attr": "atk", "attack": 2, "locked_by": None}
    view = _numgr_view("defense", opp_attack=2, my_defense=0, opp_area=[stack])
    assert numgr_bot.score(view, _play("2rem")) == pytest.approx(5.9)   # removes the △2
    assert numgr_bot.score(view, _play("3rem")) == pytest.approx(-0.1)  # nothing shows 3
    assert numgr_bot.score(view, _play("Tdef", lock=7)) == pytest.approx(5.9)
    # α△ takes the △2 over: 2 cut (x3) and 2 attack of ours.
    assert numgr_bot.score(view, _play("Aatk")) == pytest.approx(7.9)
    assert numgr_bot.score(view, {"type": "discard", "card": "Gdef"}) == 0.5
    assert numgr_bot.score(view, {"type": "discard", "card": "1def"}) == -1
    assert numgr_bot.score(view, {"type": "discard", "card": None}) == 0


# --------------------------------------------------------------------------- Zipai


def test_zipai_score_discards_the_loosest_card_and_takes_wins():
    hand = ["x2", "x2", "d2", "x3", "x7", "d9"]
    view = {"seat": 0, "me": {"hand": hand}, "exposed": {"card": "x2"}}
    # x2: one copy (2) + d2 (1) + x3 (1) + x7 red (1) = 5; d9: nothing = 0.
    assert zipai_bot.links("x2", hand) == 5
    assert zipai_bot.score(view, {"type": "discard", "card": "d9"}) == 0
    assert zipai_bot.score(view, {"type": "discard", "card": "x2"}) == -5
    assert zipai_bot.score(view, {"type": "hu"}) == 1000
    assert zipai_bot.score(view, {"type": "peng"}) == 2
    assert zipai_bot.score(view, {"type": "chi", "cards": ["x1", "x3"], "bi": []}) == 4
    assert zipai_bot.score(view, {"type": "chi", "cards": ["x3", "x4"], "bi": [["x2", "x3", "x4"]]}) == 0
    assert zipai_bot.score(view, {"type": "pass"}) == 0


def test_best_action_picks_the_top_value_and_breaks_ties_with_the_rng():
    legal = [{"type": "a"}, {"type": "b"}, {"type": "c"}]
    value = {"a": 1, "b": 3, "c": 3}
    picked = best_action(legal, lambda action: value[action["type"]], Rng(b"tie"))
    assert picked in ({"type": "b"}, {"type": "c"})
    assert picked is not legal[1] and picked is not legal[2]  # a copy
    again = best_action(legal, lambda action: value[action["type"]], Rng(b"tie"))
    assert again == picked
    assert best_action(legal, lambda action: -value[action["type"]], Rng(b"x")) == {"type": "a"}
    with pytest.raises(ValueError):
        best_action([], lambda action: 0, Rng(b"x"))
