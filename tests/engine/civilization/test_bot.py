"""The bot interface, the greedy bot's fixed score and choices, and the balance tool."""

from __future__ import annotations

import io
from collections import Counter

from engine.bots import RandomBot, greedy_bot
from engine.civilization import GAME
from engine.civilization.bot import CivilizationGreedyBot, score
from engine.core import Rng
from tools.balance import placed_slot, play_match, run

from .helpers import card, make, place


def test_score_is_leaders_resources_and_workers():
    row = [card(0, 0), card(1, 0, leader=0), card(2, 0, leader=0), card(3, 0, leader=1)]
    state = make(row, ((3, 1, 0), (1, 1, 1)), unlocked=(3, 2))
    # seat 0: 10*2 + 4 + 5*3 = 39; seat 1: 10*1 + 3 + 5*2 = 23.
    assert score(state, 0) == 16 and score(state, 1) == -16


def test_greedy_prefers_a_leader_to_a_harvest_slot():
    # Leader on card 1 (meat): -5 resources +10 = +5; 织网: +3; 王权: +1.
    state = make([card(0, 0), card(1, 0)], ((0, 5, 0), (0, 0, 0)))
    bot = greedy_bot("civilization")
    assert bot.choose(GAME, GAME.view(state, 0), GAME.legal_actions(state, 0),
                      Rng(b"t")) == {"type": "leader", "card": 1}


def test_greedy_values_a_move_with_its_follow_ups():
    # Value = own score - the opponent's (workers 2 each cancel out). 协作 on (6,0,0): meat
    # set to fish gives (6,6,0) -> 12; 狩猎 gives (6,3,0) -> 9.
    state = make([card(0, 0), card(5, 1), card(2, 0)], ((6, 0, 0), (0, 0, 0)))
    bot = CivilizationGreedyBot()
    assert bot.evaluate(state, 0, place(1)) == 12
    assert bot.evaluate(state, 0, place(2)) == 9
    assert bot.choose(GAME, GAME.view(state, 0), GAME.legal_actions(state, 0), Rng(b"t")) == place(1)


def test_random_bot_plays_a_legal_action():
    state = make([card(0, 0), card(1, 0)])
    legal = GAME.legal_actions(state, 0)
    assert RandomBot().choose(GAME, GAME.view(state, 0), legal, Rng(b"r")) in legal


def test_greedy_beats_random():
    wins = 0
    for n in range(10):
        seed = f"gr/{n}".encode()
        greedy, rand = greedy_bot("civilization"), RandomBot()
        bots = [greedy, rand] if n % 2 == 0 else [rand, greedy]
        outcome = play_match(GAME, bots, seed, Counter())
        wins += (n % 2) in outcome.winners
    assert wins >= 9


def test_placed_slot_reads_the_slot_facing_the_seat():
    view = GAME.view(make([card(0, 0), card(4, 1)]), 0)
    assert placed_slot(view, 0, place(1)) == "planning"
    assert placed_slot(view, 1, place(1)) == "capture"
    assert placed_slot(view, 0, {"type": "pass"}) is None


def test_balance_run_prints_the_figures():
    out = io.StringIO()
    run("civilization", 3, out)
    text = out.getvalue()
    assert "round-1 start player wins: " in text and "/3 = " in text and "balance check:" in text
