"""The deals of ``tests.engine.mahjong.seeds`` give what the tests dealt from them rely on (run
everywhere: the browser tests that use them skip without Chromium)."""

from __future__ import annotations

from engine.mahjong import GAME
from engine.mahjong.bot import score
from tests.engine.mahjong.seeds import MCR_FIRST_CLAIM, MCR_SEED


def test_the_competition_seed_opens_with_a_pung_for_bob():
    """The engine, dealt ``MCR_SEED`` with the competition rules, gives the hand the browser test
    relies on: seat 2 deals; 8s is its normal bot's only best-scoring action (so the bot plays it
    whatever its random stream); then Bob alone is asked, and may 碰."""
    state = GAME.new_game(GAME.validate_options({"rules": "mcr"}), 4, MCR_SEED)
    assert GAME.to_act(state) == {2}
    view, legal = GAME.view(state, 2), GAME.legal_actions(state, 2)
    values = [score(view, action) for action in legal]
    assert [a for a, v in zip(legal, values) if v == max(values)] == [
        {"type": "discard", "tile": "8s"}]
    state, _ = GAME.apply(state, 2, {"type": "discard", "tile": "8s"})
    assert GAME.to_act(state) == {1}
    claim = GAME.view(state, 1)["claim"]
    assert {"tile": claim["tile"], "from": claim["from"],
            "legal": GAME.legal_actions(state, 1)} == MCR_FIRST_CLAIM
