"""The determinization contract of every registered game: ``sample`` and ``sides``.

For seeded random states of every game (several option variants; every ``EVERY``-th state of a
playout, the last one and a resigned one) and every seat, with ``v = view(s, seat)``:

* **consistent**: ``view(sample(v, seat, rng), seat) == v`` and the legal actions of ``seat``
  agree; ``sample`` leaves ``v`` as it was;
* **deterministic**: the same rng key gives the same ``dump``;
* **playable**: every seat to act in a sample can play its listed actions; a few samples are
  played out to the end;
* **not fixed**: whenever the unseen cards can be placed in more than one way (``AMBIGUOUS``,
  worked out per game from the true state), one of ``SAMPLES`` samples places them otherwise:
  another seat's view differs (lists compared as multisets, so only a different placement
  counts, not an order) or, for a game whose hidden part no seat sees (``BY_DUMP``), the
  ``dump`` with its seed removed differs.

``sides(options, seats)`` puts every seat in exactly one group and matches the teams the engine
plays: a resigning seat's group shares one rank and every other seat ranks better; Reverse
Curse's groups are the view's ``sides``.

A new game must add its entry to ``AMBIGUOUS``: the test fails, not skips, without it.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine.core import Rng
from engine.registry import GAMES

from . import playouts

#: States of a playout checked: every ``EVERY``-th (besides the last and a resigned one); 3
#: for a game not listed.
EVERY: dict[str, int] = {"civilization": 3, "grid_reversal": 3, "numgr": 2,
                         "reverse_curse": 3, "zipai": 1}
#: Option variants played besides ``playouts.variants`` (a second hand; a small deck).
MORE_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "zipai": [{"hands": 2}],
    "grid_reversal": [{"number_copies": 4, "effect_copies": 4, "depth": 2}],
}
#: Playouts per option variant.
PLAYOUTS = 3
#: Samples checked per game, at least.
MIN_SAMPLES = 200
#: Samples drawn before a hidden card is called fixed to its true place.
SAMPLES = 200
#: Every ``PLACEMENT_STRIDE``-th (state, seat) pair is checked for another placement, at least
#: ``MIN_PLACEMENT_CHECKS`` per game.
PLACEMENT_STRIDE = 3
MIN_PLACEMENT_CHECKS = 50
#: Samples per game played out to the end.
PLAYED_OUT = 3


# --------------------------------------------------------------------------- ambiguity per game


def _civilization(state, seat: int) -> bool:
    """The deck's order is the only hidden fact: two cards can trade places."""
    return len(state.deck) >= 2


def _numgr(state, seat: int) -> bool:
    """The 32 cards are unique: a card of the opponent's hand can trade with a deck card; a held
    card with another unseen card of its θ's attribute (never a θ)."""
    from engine.numgr import cards as C
    from engine.numgr.resolve import holds_card
    opponent = 1 - seat
    held = [s for s in state.stacks if holds_card(s) and not s.shown and s.owner != seat]
    pool = list(state.hands[opponent]) + list(state.deck) + [s.base for s in held]
    fits = [sum(C.attr(c) == s.attr and C.face(c) != C.THETA for c in pool) for s in held]
    return bool(state.hands[opponent] and state.deck) or any(n >= 2 for n in fits)


def _grid_reversal(state, seat: int) -> bool:
    """A card of the opponent's hand (but a waiting Swap (b) card) can trade with a deck card of
    another code."""
    opponent = 1 - seat
    kept = Counter(p.move.card for p in state.stack
                   if p.seat == opponent and p.move.type == "swap_in")
    free = Counter(state.hands[opponent]) - kept
    return bool(free and state.deck and len(set(free) | set(state.deck)) >= 2)


def _reverse_curse(state, seat: int) -> bool:
    """A card of the other side's hands can trade with a deck card of another code, or a
    face-down card it played with another unseen special."""
    from engine.reverse_curse.cards import SPECIALS
    from engine.reverse_curse.state import field_resolved, players, side_of
    side = side_of(state, seat)
    hands = [c for s in range(players(state)) if side_of(state, s) != side
             for c in state.hands[s]]
    slots = [] if field_resolved(state) else [
        f.card for f in state.field if not f.face_up and f.side != side]
    pool = hands + list(state.deck) + slots
    specials = sum(c in SPECIALS for c in pool)
    return bool(hands and state.deck and len(set(pool)) >= 2) or bool(slots and specials >= 2)


def _zipai(state, seat: int) -> bool:
    """Another seat's concealed card can trade with a stock card, or with a third seat's, of
    another face."""
    from engine.zipai.state import HIDDEN_KINDS
    hand = state.hand
    others = [p for s, p in enumerate(hand.players) if s != seat]
    concealed = [p.hand + [c for g in p.groups if g.in_hand or g.kind in HIDDEN_KINDS
                           for c in g.cards] for p in others]
    pool = [c for cards in concealed for c in cards] + list(hand.stock)
    holders = sum(bool(cards) for cards in concealed)
    return holders >= 1 and (bool(hand.stock) or holders >= 2) and len(set(pool)) >= 2


def _mahjong(state, seat: int) -> bool:
    """Before the hand's end, a concealed tile of another seat whose hand is not locked ready
    can trade with a wall tile, or with a third such seat's, of another kind."""
    hand = state.hand
    if state.over or hand.phase == "finished":
        return False
    concealed = [p.concealed for s, p in enumerate(hand.players) if s != seat and not p.ready]
    pool = [t for tiles in concealed for t in tiles] + [
        t for t in hand.wall[hand.head:hand.tail] if not t.endswith("f")]
    holders = sum(bool(tiles) for tiles in concealed)
    wall = hand.tail > hand.head
    return holders >= 1 and (wall or holders >= 2) and len(set(pool)) >= 2


#: Game id -> whether the cards ``seat`` cannot see can be placed in more than one way in
#: ``state`` (the true state), under the rules' constraints.
AMBIGUOUS: dict[str, Callable[[Any, int], bool]] = {
    "civilization": _civilization,
    "grid_reversal": _grid_reversal,
    "mahjong": _mahjong,
    "numgr": _numgr,
    "reverse_curse": _reverse_curse,
    "zipai": _zipai,
}
#: Games whose hidden part no seat sees (only the deck's order): compared by ``dump``.
BY_DUMP = frozenset({"civilization"})


def _multisets(value: Any) -> Any:
    """Return ``value`` with every list sorted (recursively), so that equal contents in another
    order compare equal."""
    if isinstance(value, dict):
        return {k: _multisets(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((_multisets(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def _without_seed(dump: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in dump.items() if k != "seed"}


def _placement(game, state, seat: int, players: int) -> Any:
    """What shows where the hidden cards are: the other seats' views (as multisets), or the
    seedless ``dump`` for a ``BY_DUMP`` game."""
    if game.spec.id in BY_DUMP:
        return _without_seed(game.dump(state))
    return [_multisets(game.view(state, other)) for other in range(players) if other != seat]


# --------------------------------------------------------------------------- the checks


def _options(game) -> list[dict[str, Any]]:
    return playouts.variants(game) + MORE_OPTIONS.get(game.spec.id, [])


def _cases(game):
    """Yield ``(seats, state)`` for every checked state of every variant and playout."""
    for options in _options(game):
        players = game.seats(game.validate_options(options))
        for number in range(PLAYOUTS):
            for state in playouts.states(game, options, number, EVERY.get(game.spec.id, 3),
                                        "sample"):
                yield players, state


def _check_sample(game, state, seat: int, key: bytes):
    """Check one sample of ``seat``'s view of ``state`` (consistent, deterministic, playable,
    the view unchanged); return it."""
    view = game.view(state, seat)
    before = copy.deepcopy(view)
    sampled = game.sample(view, seat, Rng(key))
    assert view == before, "sample changed the view"
    assert game.view(sampled, seat) == view, f"the sample's view of {seat} differs"
    assert game.legal_actions(sampled, seat) == game.legal_actions(state, seat)
    assert game.dump(game.sample(view, seat, Rng(key))) == game.dump(sampled), (
        "sample is not deterministic for a given rng")
    for acting in sorted(game.to_act(sampled)):
        for action in game.legal_actions(sampled, acting):
            game.apply(sampled, acting, action)
    return sampled


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_sample_is_a_playable_state_the_seat_cannot_tell_from_the_real_one(game_id):
    game = GAMES[game_id]
    checked, to_play = 0, []
    for players, state in _cases(game):
        for seat in range(players):
            sampled = _check_sample(game, state, seat, f"{checked}/{seat}".encode())
            checked += 1
            if game.to_act(sampled) and checked % 7 == 0 and len(to_play) < PLAYED_OUT:
                to_play.append(sampled)
    assert checked >= MIN_SAMPLES, f"only {checked} samples checked"
    assert len(to_play) == PLAYED_OUT, "too few samples with a seat to act to play out"
    for n, sampled in enumerate(to_play):
        final = playouts.play_out(game, sampled, random.Random(n))
        assert game.outcome(final) is not None


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_no_hidden_card_is_fixed_to_its_true_place(game_id):
    game = GAMES[game_id]
    assert game_id in AMBIGUOUS, f"add {game_id}'s condition to AMBIGUOUS"
    ambiguous = AMBIGUOUS[game_id]
    checked = pairs = 0
    for players, state in _cases(game):
        for seat in range(players):
            pairs += 1
            if pairs % PLACEMENT_STRIDE or not ambiguous(state, seat):
                continue
            true = _placement(game, state, seat, players)
            view = game.view(state, seat)
            seen = []
            for n in range(SAMPLES):
                sampled = game.sample(view, seat, Rng(f"{checked}/{n}".encode()))
                seen.append(_placement(game, sampled, seat, players))
                if seen[-1] != true and seen[-1] != seen[0]:
                    break
            assert any(p != true for p in seen), (
                f"seat {seat}: every sample places the unseen cards as they are")
            assert any(p != seen[0] for p in seen), f"seat {seat}: every sample is the same"
            checked += 1
    assert checked >= MIN_PLACEMENT_CHECKS, f"only {checked} states with unseen cards to place"


# --------------------------------------------------------------------------- sides


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_sides_group_every_seat_once_and_are_the_teams_the_engine_plays(game_id):
    game = GAMES[game_id]
    for options in map(game.validate_options, _options(game)):
        players = game.seats(options)
        groups = game.sides(options, players)
        assert sorted(s for group in groups for s in group) == list(range(players))
        state = game.new_game(options, players, b"sides")
        for seat in range(players):
            ranks = game.outcome(game.resign(state, seat)[0]).ranks
            group = next(g for g in groups if seat in g)
            assert {ranks[s] for s in group} == {ranks[seat]}
            assert all(ranks[s] < ranks[seat] for s in range(players) if s not in group)


def test_reverse_curse_sides_are_the_views_teams_even_seats_first():
    game = GAMES["reverse_curse"]
    for fmt, expected in (("1v1", ((0,), (1,))), ("2v2", ((0, 2), (1, 3))),
                          ("3v3", ((0, 2, 4), (1, 3, 5)))):
        options = game.validate_options({"format": fmt})
        assert game.sides(options, game.seats(options)) == expected
        for seed in (b"a", b"b", b"c", b"d"):
            view = game.view(game.new_game(options, game.seats(options), seed), None)
            assert {tuple(seats) for seats in view["sides"].values()} == set(expected)


def test_games_without_teams_seat_everyone_alone():
    for game_id in ("civilization", "grid_reversal", "numgr", "zipai"):
        game = GAMES[game_id]
        options = game.validate_options({})
        players = game.seats(options)
        assert game.sides(options, players) == tuple((s,) for s in range(players))
