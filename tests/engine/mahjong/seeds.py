"""Match seeds other tests deal from, with what each deal gives (checked in ``test_seeds``)."""

from __future__ import annotations

import hashlib

#: The competition hand's match seed (``tests/e2e/test_browser_mahjong.py``), found by running
#: the engine over candidate seeds: seat 2 (a bot) deals, and its first discard, 8s, is its
#: greedy bot's only best action (no tie for the bot's random stream to break), on which seat 1
#: (Bob) may 碰 — the hand's first claim window, the same every run.
MCR_SEED = hashlib.sha256(b"claim120").digest()
#: Bob's first claim window in that hand: the discarded tile, its discarder, his legal actions.
MCR_FIRST_CLAIM = {"tile": "8s", "from": 2, "legal": [{"type": "pung"}, {"type": "pass"}]}
