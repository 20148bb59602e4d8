"""The information-set search bot (``engine.bots.search``) for every game.

Contract: the same seed and budget give the same action; the bot sees only a view (its choice
is the same for the real state's view and for the view of a state sampled from it); every
chosen action is legal; ``should_stop`` cuts the search and a legal action is still returned.
"""

from __future__ import annotations

import copy

import pytest

from engine.bots import BUDGETS, LEVELS, decide, greedy_bot, iterations, make_bot, search_profile
from engine.bots.search import Node, SearchBot, action_key, best_root_action
from engine.core import Rng
from tests.engine.bots.positions import OPTIONS, game_of, position

NAMES = ["civilization", "grid_reversal", "mahjong", "mahjong_mcr", "numgr", "reverse_curse",
         "zipai"]
#: A step of each game's seeded playout where the seat to act has several actions.
STEPS = {"civilization": 4, "grid_reversal": 8, "mahjong": 7, "mahjong_mcr": 7, "numgr": 7,
         "reverse_curse": 5, "zipai": 4}
SMALL = 6


def _decision(name: str):
    state, seat = position(name, f"search/{name}".encode(), STEPS[name])
    game = game_of(name)
    legal = game.legal_actions(state, seat)
    assert len(legal) > 1, f"{name}: pick a step with a real choice"
    return game, state, seat, game.view(state, seat), legal


def _bot(name: str, budget: int = SMALL, should_stop=None) -> SearchBot:
    return SearchBot(search_profile(game_of(name).spec.id), budget, should_stop)


def test_action_key_is_canonical():
    assert action_key({"type": "play", "b": [1, "x"], "a": None}) == \
        "{a:None,b:[1,'x'],type:'play'}"
    assert action_key({"a": 1, "type": "t"}) == action_key({"type": "t", "a": 1})


def test_levels_and_budgets():
    assert LEVELS == ("easy", "normal", "hard", "expert")
    for name in ("numgr", "mahjong"):
        hard, expert = make_bot(name, "hard"), make_bot(name, "expert")
        assert isinstance(hard, SearchBot) and isinstance(expert, SearchBot)
        assert hard.iterations == iterations(name, "hard")
        assert expert.iterations == iterations(name, "expert")
        assert 4.5 <= expert.iterations / hard.iterations <= 5.5
    assert iterations("numgr", "hard") == round(BUDGETS["hard"] * 0.35)
    with pytest.raises(ValueError):
        SearchBot(search_profile("numgr"), 0)


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_and_budget_give_the_same_action(name):
    game, _, _, view, legal = _decision(name)
    frozen = copy.deepcopy((view, legal))
    first = _bot(name).choose(game, view, legal, Rng(b"same"))
    assert first in legal
    assert _bot(name).choose(game, view, legal, Rng(b"same")) == first
    assert (view, legal) == frozen, "the bot changed its inputs"


@pytest.mark.parametrize("name", NAMES)
def test_the_choice_depends_on_the_view_only(name):
    game, _, seat, view, legal = _decision(name)
    sampled = game.sample(view, seat, Rng(b"world"))
    assert game.view(sampled, seat) == view
    assert game.legal_actions(sampled, seat) == legal
    real = _bot(name).choose(game, view, legal, Rng(b"pick"))
    again = _bot(name).choose(game, game.view(sampled, seat), legal, Rng(b"pick"))
    assert real == again


@pytest.mark.parametrize("name", NAMES)
def test_every_chosen_action_is_legal_over_a_playout(name):
    game = game_of(name)
    options = game.validate_options(OPTIONS.get(name, {}))
    seed = f"legal/{name}".encode()
    state = game.new_game(options, game.seats(options), seed)
    bot = _bot(name, budget=2)
    for step in range(40):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = acting[-1] if step % 2 else acting[0]
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        action = bot.choose(game, view, legal, Rng.derive(seed, step))
        assert action in legal, f"{name} step {step}: {action}"
        state, _ = game.apply(state, seat, action)


@pytest.mark.parametrize("name", ["numgr", "zipai", "mahjong"])
def test_should_stop_cuts_the_search(name):
    game, _, _, view, legal = _decision(name)
    asked = []

    def stop_after_three() -> bool:
        asked.append(1)
        return len(asked) > 3

    bot = _bot(name, budget=50, should_stop=stop_after_three)
    assert bot.choose(game, view, legal, Rng(b"cap")) in legal
    assert bot.last_iterations == 3 and len(asked) == 4
    stopped = _bot(name, budget=50, should_stop=lambda: True)
    action = stopped.choose(game, view, legal, Rng(b"cap"))
    assert stopped.last_iterations == 0
    assert action == greedy_bot(game.spec.id).choose(game, view, legal, Rng(b"cap"))


def test_decide_passes_should_stop_and_returns_the_action_only():
    game, _, _, view, legal = _decision("numgr")
    action = decide("numgr", "hard", view, legal, b"seed", should_stop=lambda: True)
    assert action == greedy_bot("numgr").choose(game, view, legal, Rng(b"seed"))


def test_a_single_legal_action_is_played_without_search():
    bot = _bot("numgr", should_stop=lambda: pytest.fail("asked"))
    assert bot.choose(None, {}, [{"type": "end_step"}], Rng(b"x")) == {"type": "end_step"}
    with pytest.raises(ValueError):
        bot.choose(None, {}, [], Rng(b"x"))


def test_the_most_visited_root_action_is_played():
    root = Node(2)
    for key, visits in (("{type:'a'}", 3), ("{type:'b'}", 5), ("{type:'c'}", 5)):
        root.children[key] = Node(2)
        root.children[key].visits = visits
    legal = [{"type": "a"}, {"type": "b"}, {"type": "c"}]
    assert best_root_action(root, legal, 0) == {"type": "b"}       # a tie: the earlier
    root.children["{type:'b'}"].rewards = [2.0, 2.0]               # means 0.4 and 0.4
    root.children["{type:'c'}"].rewards = [4.0, 1.0]               # means 0.8 and 0.2
    assert best_root_action(root, legal, 0) == {"type": "c"}
    assert best_root_action(root, legal, 1) == {"type": "b"}
    assert best_root_action(Node(2), legal, 0) is None


# --------------------------------------------------------------------------- showcases

#: ``(game, seed, step, expected action at hard's budget)``: a win in one among several legal
#: actions (reverse_curse: the greedy bot summons instead; grid_reversal: the one place of 72
#: that flips the mother card; civilization: the match-winning leader when every line wins), or
#: a blunder to avoid (numgr: ending the defense step there loses the match at once).
SHOWCASES = [
    ("reverse_curse", b"show/reverse_curse/12", 67, {"type": "play", "card": "-2"}),
    ("reverse_curse", b"show/reverse_curse/31", 102, {"type": "play", "card": "+1"}),
    ("grid_reversal", b"show/grid_reversal/2", 50, {"type": "place", "card": "3", "cell": [3, 2]}),
    ("grid_reversal", b"show/grid_reversal/4", 32, {"type": "place", "card": "4", "cell": [2, 2]}),
    ("civilization", b"show/civilization/0", 62, {"type": "leader", "card": 7}),
    ("civilization", b"show/civilization/1", 108, {"type": "leader", "card": 9}),
    ("numgr", b"show/numgr/0", 38, {"type": "play", "main": "2def", "base": None, "mode": None,
                                    "base_mode": None, "copy": None, "lock": None}),
    ("zipai", b"show/zipai/3", 31, {"type": "hu"}),
    ("mahjong", b"show/mahjong/1", 101, {"type": "win"}),
    ("mahjong", b"show/mahjong/0", 101, {"type": "win"}),
    # Hebei kongs the greedy bot declines: a 明杠 on 9p it passes (its shanten does not fall),
    # and a 加杠 of 7m it skips for a discard, ready (a kong pays even when the hand is drawn).
    ("mahjong", b"show/mahjong/kong/1", 142, {"type": "kong", "tile": "9p"}),
    ("mahjong", b"show/mahjong/kong/1", 227, {"type": "kong", "tile": "7m"}),
]


@pytest.mark.parametrize("name,seed,step,expected", SHOWCASES)
def test_showcase_positions_at_hards_budget(name, seed, step, expected):
    game = game_of(name)
    state, seat = position(name, seed, step)
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    assert decide(game.spec.id, "hard", view, legal, b"showcase") == expected


def test_the_greedy_choice_is_kept_unless_clearly_beaten():
    from engine.bots.search import _keep_greedy
    root = Node(1)
    for key, visits, total in (("{type:'g'}", 4, 2.0), ("{type:'s'}", 6, 3.3)):
        root.children[key] = Node(1)
        root.children[key].visits, root.children[key].rewards = visits, [total]
    candidates = [{"type": "g"}, {"type": "s"}]
    picked = {"type": "s"}                                     # mean 0.55 against 0.5
    assert _keep_greedy(root, candidates, picked, 0, 0.0) == {"type": "s"}
    assert _keep_greedy(root, candidates, picked, 0, 0.1) == {"type": "g"}
    assert _keep_greedy(root, candidates, picked, 0, 0.04) == {"type": "s"}
