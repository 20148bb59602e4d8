"""One information-set invariance test for every registered game.

For seeded random playouts, at every step and for every viewer (each seat and a spectator):

* **re-deal invariance**: the viewer's ``view`` and ``legal_actions`` are identical for the real
  state and for ``GAME.redeal(state, viewer, s)`` (everything the viewer may not see re-dealt) for
  a few ``s``; when the real next action is legal in both and the viewer's views after it are
  identical, the events it sends to the viewer are identical too (an action whose rules reveal
  something, such as a resolved set or a shown mulligan, changes the next view and is skipped);
* **hidden choices**: two legal actions of another seat of a secret kind (``HIDDEN_CHOICES``)
  after which the viewer's view is identical send the viewer identical events (no event echoes
  a face-down card or a secret answer);
* **waiting privacy**: an answer in a simultaneous window that leaves it open (others still to
  act) changes nothing in the view, legal list or events of the seats still asked and of a
  spectator (ARCHITECTURE.md: who is being waited for must not show);
* **no raw state**: views and events never contain the match seed (hex, base64 or raw) or a
  raw-state key (``seed``, ``deck``, ``stock``, ``rng``); a hidden raw value under any other
  key would differ under a re-deal, so the first check catches it.

Every game has ``redeal`` (a protocol member; ``GameBase``'s default, the state itself, refuses a
game with ``spec.hidden_information``, so such a game without its own fails here, never skips).
Per-game leak tests stay in the game folders (they pin game-specific re-deal rules).
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import GameBase, GameSpec, Rng
from engine.registry import GAMES

from . import playouts

#: Re-deal seeds tried per step and viewer.
REDEALS = 2
#: Alternative actions of the acting seat tried per step (hidden-choice check).
ALTERNATIVES = 3
#: Playouts per game at least (each option variant is played at least once).
PLAYOUTS = 4
#: Keys of raw state that no frame may carry (views show ``deck_size``, never the order).
#: A hidden raw value copied under another key is caught by the re-deal comparison already.
RAW_KEYS = frozenset({"seed", "deck", "stock", "rng"})
#: Action types that carry a choice hidden from other viewers (rulings "Hidden information"):
#: two such actions a viewer's view cannot tell apart must send it equal events. Not generic:
#: a public action can leave no trace in the next view (a discard reshuffled into the deck at
#: once), so only the types the rulings make secret are compared.
HIDDEN_CHOICES: dict[str, frozenset[str]] = {
    "reverse_curse": frozenset({"play", "mulligan"}),  # face-down cards; mulligan answer
    "grid_reversal": frozenset({"choose_mother"}),     # chosen together, revealed together
    "numgr": frozenset({"play"}),                      # a card held face-down under a θ
}


def _visible(events, viewer) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if e.visible(viewer)]


def _secrets(seed: bytes) -> list[str]:
    """The forms of the match seed that must never appear in a frame."""
    return [seed.hex(), seed.hex().upper(), base64.b64encode(seed).decode(),
            base64.urlsafe_b64encode(seed).decode(), seed.decode("latin-1")]


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


class Checker:
    """The checks of one playout; counts how often each non-trivial comparison really ran."""

    def __init__(self, game, seed: bytes, players: int) -> None:
        self.game, self.seed, self.players = game, seed, players
        self.viewers = [*range(players), None]
        self.counts = {"moved": 0, "events": 0, "alternatives": 0, "waiting": 0}

    def frame_is_clean(self, frame: Any) -> None:
        """No seed (any encoding) and no raw-state key (``RAW_KEYS``) in a view or events."""
        text = json.dumps(frame, ensure_ascii=False)
        for secret in _secrets(self.seed):
            assert secret not in text, "the match seed leaks into a frame"
        raw = RAW_KEYS & set(_keys(frame))
        assert not raw, f"a frame carries raw state {sorted(raw)}"

    def step(self, state, seat: int, action: dict, after, events) -> None:
        """Run every check at ``state`` whose next move is ``seat`` playing ``action``."""
        dumped = self.game.dump(state)
        for viewer in self.viewers:
            view = self.game.view(state, viewer)
            self.frame_is_clean(view)
            self.frame_is_clean(_visible(events, viewer))
            for n in range(REDEALS):
                self.redealt(state, dumped, viewer, view, f"{n}/{viewer}".encode(),
                             seat, action, after, events)
        assert self.game.dump(state) == dumped, "redeal mutated its input"
        self.alternatives(state, seat, action, after, events)
        self.waiting(state, seat, after, events)

    def redealt(self, state, dumped, viewer, view, key: bytes, seat, action, after,
                events) -> None:
        """Re-deal invariance of the view, the legal list and the next events."""
        game = self.game
        other = game.redeal(state, viewer, Rng(key))
        assert game.view(other, viewer) == view, f"view of {viewer} depends on hidden state"
        if viewer is not None:
            assert game.legal_actions(other, viewer) == game.legal_actions(state, viewer)
        other_dump = game.dump(other)
        self.counts["moved"] += other_dump != dumped
        if action not in game.legal_actions(other, seat):
            return
        # A re-deal builds only states the rules can reach, so a listed action never crashes.
        other_after, other_events = game.apply(other, seat, action)
        if game.view(other_after, viewer) == game.view(after, viewer):
            self.counts["events"] += 1
            assert _visible(other_events, viewer) == _visible(events, viewer), (
                f"events to {viewer} depend on hidden state")

    def alternatives(self, state, seat, action, after, events) -> None:
        """Two actions of ``seat`` that its own view tells apart but another viewer's view does
        not (a hidden choice) send that viewer equal events."""
        game = self.game
        hidden = HIDDEN_CHOICES.get(game.spec.id, frozenset())
        if action["type"] not in hidden:
            return
        legal = [a for a in game.legal_actions(state, seat)
                 if a != action and a["type"] == action["type"]]
        for alt in random.Random(repr(action)).sample(legal, min(ALTERNATIVES, len(legal))):
            alt_after, alt_events = game.apply(state, seat, alt)
            if game.view(alt_after, seat) == game.view(after, seat):
                continue  # a difference no view keeps: nothing hidden to protect
            for viewer in self.viewers:
                if viewer == seat:
                    continue
                if game.view(alt_after, viewer) == game.view(after, viewer):
                    self.counts["alternatives"] += 1
                    assert _visible(alt_events, viewer) == _visible(events, viewer), (
                        f"events to {viewer} tell {action} from {alt}")

    def waiting(self, state, seat, after, events) -> None:
        """An answer that leaves a simultaneous window open is invisible to the seats still
        asked and to spectators."""
        before, now = self.game.to_act(state), self.game.to_act(after)
        if len(before) < 2 or not now or seat in now or not now < before:
            return
        for viewer in [*sorted(now), None]:
            self.counts["waiting"] += 1
            assert self.game.view(after, viewer) == self.game.view(state, viewer), (
                f"{viewer} sees that seat {seat} answered")
            assert _visible(events, viewer) == [], f"{viewer} is told that seat {seat} answered"
            if viewer is not None:
                assert self.game.legal_actions(after, viewer) == self.game.legal_actions(
                    state, viewer)


def _playout(game, options: dict[str, Any], number: int) -> dict[str, int]:
    """Play one seeded random game with every check; return the checker's counts."""
    options = game.validate_options(options)
    players = game.seats(options)
    seed = playouts.match_seed(game, "leak", number)
    state = game.new_game(options, players, seed)
    checker = Checker(game, seed, players)
    chooser = random.Random(number)
    for _ in range(game.spec.max_length + 1):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = chooser.choice(acting)
        action = chooser.choice(game.legal_actions(state, seat))
        after, events = game.apply(state, seat, action)
        checker.step(state, seat, action, after, events)
        state = after
    for viewer in checker.viewers:
        checker.frame_is_clean(game.view(state, viewer))
    return checker.counts


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_views_and_events_do_not_depend_on_hidden_information(game_id):
    game = GAMES[game_id]
    variants = playouts.variants(game)
    totals = {"moved": 0, "events": 0, "alternatives": 0, "waiting": 0}
    for number in range(max(PLAYOUTS, len(variants))):
        counts = _playout(game, variants[number % len(variants)], number)
        totals = {k: totals[k] + counts[k] for k in totals}
    if game.spec.hidden_information:
        assert totals["moved"] > 0, "redeal never changed the hidden state"
    assert totals["events"] > 0, "no next-action event comparison ran"
    if game_id in HIDDEN_CHOICES:
        assert totals["alternatives"] > 0, "no hidden-choice comparison ran"


def test_a_hidden_information_game_without_redeal_fails_rather_than_skips():
    class NoRedeal(GameBase):
        spec = GameSpec("no_redeal", {"en": "x"}, 2, 2, hidden_information=True, max_length=1)

    class Open(GameBase):
        spec = GameSpec("open", {"en": "x"}, 2, 2, hidden_information=False, max_length=1)

    with pytest.raises(NotImplementedError, match="no_redeal has hidden information"):
        NoRedeal().redeal("state", 0, Rng(b"k"))
    assert Open().redeal("state", 0, Rng(b"k")) == "state"
