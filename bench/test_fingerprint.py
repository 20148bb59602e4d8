"""Tests of ``bench.fingerprint`` (run with ``pytest bench/``; not part of ``make test``).

The expected bytes of the one-step game below are written out by hand from the module doc.
"""

from __future__ import annotations

import hashlib
import random
from types import SimpleNamespace

from bench.fingerprint import _encode, fingerprint, game_fingerprint
from engine.core import Event


class OneStepGame:
    """A one-seat game: the seat plays ``inc`` once, then the game is over (no outcome)."""

    spec = SimpleNamespace(id="one_step", max_length=5)

    def validate_options(self, raw):
        return {}

    def seats(self, options):
        return 1

    def new_game(self, options, players, seed):
        return 0

    def to_act(self, state):
        return frozenset({0}) if state < 1 else frozenset()

    def legal_actions(self, state, seat):
        return [{"type": "inc"}] if state < 1 else []

    def apply(self, state, seat, action):
        return state + 1, [Event("inc", {"n": state + 1})]

    def view(self, state, viewer):
        return {"n": state, "seat": viewer}

    def dump(self, state):
        return {"n": state}

    def deadline_action(self, state, seat):
        return {"type": "inc"}

    def outcome(self, state):
        return None


def test_encode_sorts_keys_and_sets():
    assert _encode({"b": 1, "a": frozenset({2, 1})}) == b'{"a": [1, 2], "b": 1}'
    assert _encode("臭") == '"臭"'.encode()


def test_one_step_game_hashes_every_observation_in_order():
    expected = hashlib.sha256(
        b'{"deadline": {"0": {"type": "inc"}}, "dump": {"n": 0}, "legal": [[{"type": "inc"}]],'
        b' "to_act": [0], "views": [{"n": 0, "seat": 0}, {"n": 0, "seat": null}]}'
        b'{"action": {"type": "inc"}, "events": [["inc", {"n": 1}, null]], "seat": 0}'
        b'{"deadline": {}, "dump": {"n": 1}, "legal": [[]], "to_act": [],'
        b' "views": [{"n": 1, "seat": 0}, {"n": 1, "seat": null}]}'
        b'null'
    ).hexdigest()
    digest = hashlib.sha256()
    steps = game_fingerprint(OneStepGame(), {}, 7, random.Random(0), digest)
    assert steps == 1
    assert digest.hexdigest() == expected


def test_registered_game_fingerprint_is_reproducible_and_seed_sensitive():
    first = fingerprint("numgr", games=2, seed=0)
    assert first == fingerprint("numgr", games=2, seed=0)
    assert first["sha256"] != fingerprint("numgr", games=2, seed=1)["sha256"]
    assert (first["game"], first["games"], first["options"]) == ("numgr", 2, {})
