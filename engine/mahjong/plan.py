"""A value-aware one-ply score of mahjong actions from a seat's view, both rule sets.

Used by the search bot's mahjong profile to order and choose its root candidates
(``engine.bots.profiles``). Like ``engine.mahjong.bot.score`` it reads only the seat's view
(shape: ``engine.mahjong.view``) and one legal action, and returns a float, higher better.

Every action is valued by the hand it leaves (``hand_value`` of 13 − 3·k standing tiles with
k declared sets), in tiers that never overlap::

    win                        1000
    hebei: any kong             900
    ready, gain g > 0           50 + min(g, 40000) / 1000          (50 … 90)
    mcr: outs o > 0            −50 + o / 100                       (about −50 … −48)
    mcr: second outs o2 > 0   −150 + o2 / 100                      (about −150 … −148)
    otherwise (greedy)        −100 × shanten + useful / 1000       (bot.py's discard score;
                                ``mcr``: a hand at shanten ≤ 1 without outs counts as 2,
                                one at shanten 2 without second outs as 3; ``hebei``: useful
                                tiles of a kind held as a pair count 1 + 3 times)

- gain: the sum over the winning kinds ``w`` of the hand (``shapes.winning_tiles``) of
  ``unseen(w) × points(w)``; ``unseen`` = 4 − the copies the seat sees (its own hand, every
  discard still in a pool, every declared set: ``bot._seen``); ``points`` (``mcr``, rulings
  "Scoring: `mcr`"): ``0.75 ×`` the total on a discard plus ``0.25 ×`` the total self-drawn,
  each only when it reaches the 8-point minimum without flowers (the test ``legal_actions``
  applies through ``winning._score``; ``mcr.fans`` and ``mcr.total_and_minimum``), so a wait
  scoring under 8 both ways adds nothing; ``hebei``: ``hebei.hebei_value`` on a discard.
- outs (``mcr`` only, a hand at shanten ≤ 1 without a ≥ 8-point wait): the unseen copies of
  every kind ``x`` such that the hand with ``x`` has a discard leaving a ready hand whose gain
  (counted the same way) is above 0.
- second outs (``mcr`` only, a hand at shanten 2): the unseen copies of every
  kind ``x`` such that the hand with ``x`` has a discard leaving a hand at shanten ≤ 1 with
  outs or gain above 0.
- A discard scores the hand it leaves (− 1/2 with ``"ready"``, a ``hebei`` 报听 locks the hand);
  a pass in a claim window scores the standing hand; a 碰 or 吃 the best of the hands left by
  the claim and one discard, a claimed kong (明杠) the hand after it. A claim is worth its
  hand only when that beats passing (by at least 50, one shanten, below the outs tier), else
  the pass less 1. A kong in one's turn scores the hand after it (+ 1/1000: it draws a
  replacement).
- ``hebei`` useful tiles (``PAIR_CLAIM``): a kind that lowers the shanten and that the hand
  holds two or more of counts ``1 + PAIR_CLAIM`` times its unseen copies. Hebei has no 吃
  (rulings "Claims on a discard"), so a tile a hand needs for a sequence comes only from its own
  draws, while a kind held as a pair also comes as a 碰 from any of the three other seats'
  discards, and a pung may grow into a kong (paid even on a draw). Counted this way the plan
  keeps pairs over sequence shapes of equal count; against the greedy bots, on duplicate deals
  (bench/HISTORY.md), it gained mostly kong points.
- ``hebei``: every kong the seat may make scores 900 (``KONG_TIER``, below a win only): it is
  paid at the hand's end even on a draw (3 from the discarder, or 1 or 2 from each other seat),
  more than most hands are worth. A discard also pays its danger (``engine.mahjong.defence``):
  ``danger × 10/1000`` (ten useful tiles per unit: it orders discards of one tier), or
  ``danger × 100`` (a shanten step per unit: the hand folds) when the hand left is two or more
  from ready and another seat has declared ready (``defence.threat`` 1).

The fan figures are those of the seat's own winds and flowers (``view["seat_winds"]``,
``view["prevalent_wind"]``, the seat's flowers); 和绝张, 杠上开花 and the last-tile fans are
not assumed. Pure and deterministic: no randomness at all (the ``rng`` of ``choose`` is
unused), memoised per hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from engine.core import Rng
from engine.mahjong import defence, hebei, mcr
from engine.mahjong.bot import _seen, useful_tiles
from engine.mahjong.notation import ARG_KIND
from engine.mahjong.shapes import shanten, winning_tiles
from engine.mahjong.tiles import COPIES, INDEX, KINDS, counts, sorted_tiles, tiles_text

__all__ = ["score", "choose", "hand_value", "gain", "outs", "second_outs", "wait_points", "Context"]

WIN = 1000.0
READY_TIER = 50.0
OUTS_TIER = -50.0
SECOND_TIER = -150.0
SHANTEN_WEIGHT = 100.0
GAIN_CAP = 40000.0
READY_COST = 0.5
CLAIM_STEP = 50.0
KONG_BONUS = 1 / 1000
KONG_TIER = 900.0
DEFEND = 10 / 1000
FOLD = 100.0
FOLD_SHANTEN = 2
DISCARD_SHARE = 0.75
PAIR_CLAIM = 3

#: ``(rules, seat wind letter, prevalent wind letter or "E", flowers, unseen per kind (34))``.
Context = tuple[str, str, str, int, tuple[int, ...]]
#: Declared sets as ``mcr_fan`` arguments: ``((kind, tiles text), …)``.
Melds = tuple[tuple[str, str], ...]


def _points(hand: tuple[str, ...], tile: str, melds: Melds, ctx: Context, self_drawn: bool
            ) -> int:
    """The total of the win, 0 when below the minimum (``mcr``) or not complete."""
    rules, seat_wind, round_wind, flowers = ctx[:4]
    text = tiles_text(hand)
    if rules == "mcr":
        found = mcr.fans(text, tile, melds, self_drawn=self_drawn, fourth_tile=False,
                         kong=False, wall_last=False, seat_wind=seat_wind,
                         round_wind=round_wind, flowers=flowers)
        if found is None:
            return 0
        total, toward_minimum = mcr.total_and_minimum(found)
        return total if toward_minimum >= mcr.MINIMUM else 0
    try:
        value, _ = hebei.hebei_value(text, tile, melds, self_drawn=self_drawn)
    except ValueError:
        return 0
    return value


def wait_points(hand: tuple[str, ...], tile: str, melds: Melds, ctx: Context) -> float:
    """Return the points a win on ``tile`` counts for (module doc: ``mcr`` 0.75 × on a discard
    + 0.25 × self-drawn, each 0 below 8 points; ``hebei``: the value on a discard).
    ``hand``: 13 − 3·k standing tiles in sort order. Memoised without the unseen counts, which
    it does not read: the same hands come back decision after decision."""
    return _wait_points(hand, tile, melds, ctx[:4])


@lru_cache(maxsize=1 << 15)
def _wait_points(hand: tuple[str, ...], tile: str, melds: Melds, ctx: tuple) -> float:
    if ctx[0] != "mcr":
        return float(_points(hand, tile, melds, ctx, False))
    return (DISCARD_SHARE * _points(hand, tile, melds, ctx, False)
            + (1 - DISCARD_SHARE) * _points(hand, tile, melds, ctx, True))


def _unseen(ctx: Context, tile: str) -> int:
    return max(0, COPIES - ctx[4][INDEX[tile]])


@lru_cache(maxsize=1 << 14)
def gain(hand: tuple[str, ...], melds: Melds, ctx: Context) -> float:
    """Return the expected gain of a hand of 13 − 3·k tiles in sort order: Σ over its winning
    kinds of unseen copies × ``wait_points`` (0 when not ready)."""
    total = 0.0
    for tile in sorted_tiles(winning_tiles(hand, melds, ctx[0])):
        left = _unseen(ctx, tile)
        if left:
            total += left * wait_points(hand, tile, melds, ctx)
    return total


@lru_cache(maxsize=1 << 14)
def outs(hand: tuple[str, ...], melds: Melds, ctx: Context) -> int:
    """Return the unseen tiles that, drawn, let the hand (13 − 3·k tiles, sort order) discard to
    a ready hand with ``gain`` above 0 (module doc)."""
    return _draws_to(hand, melds, ctx, 0, lambda rest: gain(rest, melds, ctx) > 0)


@lru_cache(maxsize=1 << 14)
def second_outs(hand: tuple[str, ...], melds: Melds, ctx: Context) -> int:
    """Return the unseen tiles that, drawn, let the hand (13 − 3·k tiles, sort order) discard to
    a hand at shanten ≤ 1 with ``outs`` or ``gain`` above 0 (module doc)."""
    rules = ctx[0]
    return _draws_to(hand, melds, ctx, 1, lambda rest: shanten(rest, melds, rules) <= 1 and (
        outs(rest, melds, ctx) > 0 or gain(rest, melds, ctx) > 0))


def _draws_to(hand: tuple[str, ...], melds: Melds, ctx: Context, most: int,
              reached: Callable[[tuple[str, ...]], bool]) -> int:
    """Return the unseen copies of every kind whose draw leaves the hand at shanten ≤ ``most``
    and has a discard (of another tile) leaving a hand (sort order) for which ``reached``."""
    total = 0
    for kind in KINDS:
        left = _unseen(ctx, kind)
        if not left:
            continue
        more = sorted_tiles([*hand, kind])
        if shanten(more, melds, ctx[0]) > most:
            continue
        for tile in dict.fromkeys(more):
            if tile == kind:
                continue
            rest = list(more)
            rest.remove(tile)
            if reached(tuple(rest)):
                total += left
                break
    return total


@lru_cache(maxsize=1 << 14)
def hand_value(hand: tuple[str, ...], melds: Melds, ctx: Context) -> float:
    """Return the tiered value of a hand of 13 − 3·k standing tiles in sort order (module
    doc)."""
    rules = ctx[0]
    now = shanten(hand, melds, rules)
    if now == 0:
        g = gain(hand, melds, ctx)
        if g > 0:
            return READY_TIER + min(g, GAIN_CAP) / 1000
    if rules == "mcr" and now <= 1:
        o = outs(hand, melds, ctx)
        if o > 0:
            return OUTS_TIER + o / 100
        now = 2
    elif rules == "mcr" and now == 2:
        o = second_outs(hand, melds, ctx)
        if o > 0:
            return SECOND_TIER + o / 100
        now = 3
    if rules == "hebei":
        return -SHANTEN_WEIGHT * now + _claimable_useful(hand, melds, ctx, now) / 1000
    return -SHANTEN_WEIGHT * now + useful_tiles(list(hand), len(melds), rules, ctx[4]) / 1000


def _claimable_useful(hand: tuple[str, ...], melds: Melds, ctx: Context, now: int) -> int:
    """``hebei``: the unseen copies of each kind whose draw lowers the shanten of ``hand`` (at
    shanten ``now``), ``1 + PAIR_CLAIM`` times for a kind it holds two or more of (module
    doc)."""
    held = counts(list(hand))
    total = 0
    for kind in KINDS:
        left = _unseen(ctx, kind)
        if left and shanten([*hand, kind], melds, ctx[0]) < now:
            total += left * (1 + PAIR_CLAIM if held[INDEX[kind]] >= 2 else 1)
    return total


def _context(view: Mapping[str, Any], held: Sequence[str]) -> Context:
    seat = view["seat"]
    unseen = _seen(view, held)
    return (view["rules"], view["seat_winds"][seat], view["prevalent_wind"] or "E",
            len(view["players"][seat]["flowers"]), unseen)


def _melds(view: Mapping[str, Any]) -> Melds:
    return tuple((ARG_KIND[m["kind"]], tiles_text(m["tiles"]))
                 for m in view["players"][view["seat"]]["melds"])


def _without(tiles: Sequence[str], used: Sequence[str]) -> list[str]:
    rest = list(tiles)
    for t in used:
        rest.remove(t)
    return rest


def _best_discard(held: Sequence[str], melds: Melds, ctx: Context) -> float:
    return max(hand_value(tuple(sorted_tiles(_without(held, [t]))), melds, ctx)
               for t in dict.fromkeys(held))


def _claim(view: Mapping[str, Any], action: Mapping[str, Any], ctx: Context) -> float:
    hand, melds = list(view["me"]["hand"]), _melds(view)
    tile = view["claim"]["tile"]
    now_value = hand_value(tuple(sorted_tiles(hand)), melds, ctx)
    kind = action["type"]
    if kind == "kong":
        rest = _without(hand, [tile] * 3)
        more = (*melds, ("kong", tiles_text([tile] * 4)))
        after = hand_value(tuple(sorted_tiles(rest)), more, ctx)
    else:
        used = [tile] * 2 if kind == "pung" else list(action["tiles"])
        arg = ("pon", tiles_text([tile] * 3)) if kind == "pung" else (
            "chi", tiles_text(sorted_tiles([tile, *used])))
        after = _best_discard(_without(hand, used), (*melds, arg), ctx)
    needed = 0.0 if after >= OUTS_TIER else CLAIM_STEP
    return after if after > now_value + needed else now_value - 1


def _own_kong(view: Mapping[str, Any], tile: str, held: Sequence[str], ctx: Context) -> float:
    melds = _melds(view)
    rest = [t for t in held if t != tile]
    if len(held) - len(rest) == 4:
        melds = (*melds, ("concealed_kong", tiles_text([tile] * 4)))
    else:                                   # an added kong: its pung becomes a kong
        rest = _without(held, [tile])
        text = tiles_text([tile] * 3)
        melds = tuple(("kong", tiles_text([tile] * 4)) if m == ("pon", text) else m
                      for m in melds)
    return hand_value(tuple(sorted_tiles(rest)), melds, ctx) + KONG_BONUS


def score(view: Mapping[str, Any], action: Mapping[str, Any]) -> float:
    """Return the value of ``action`` for ``view["seat"]`` (tiers in the module doc)."""
    kind = action["type"]
    if kind == "win":
        return WIN
    me = view["me"]
    held = list(me["hand"]) + ([me["drawn"]] if me["drawn"] else [])
    ctx = _context(view, held)
    if kind == "pass":
        return hand_value(tuple(sorted_tiles(me["hand"])), _melds(view), ctx)
    if kind == "kong" and ctx[0] == "hebei":
        return KONG_TIER
    if kind in ("pung", "chow") or (kind == "kong" and view["phase"] == "claim"):
        return _claim(view, action, ctx)
    if kind == "kong":
        return _own_kong(view, action["tile"], held, ctx)
    rest = tuple(sorted_tiles(_without(held, [action["tile"]])))
    value = hand_value(rest, _melds(view), ctx)
    if ctx[0] == "hebei":
        value -= _defence(view, action["tile"], rest, ctx)
    return value - (READY_COST if action.get("ready") else 0)


def _defence(view: Mapping[str, Any], tile: str, rest: tuple[str, ...], ctx: Context) -> float:
    """The ``hebei`` discard's danger cost (module doc): ``defence.danger`` × 10/1000 (ten
    useful tiles per unit), × 100 (a shanten step) when the hand left is two or more from ready
    and another seat has declared ready."""
    unseen = defence.unseen_counts(ctx[4])
    risk = defence.danger(view, tile, unseen)
    if not risk:
        return 0.0
    if shanten(rest, _melds(view), ctx[0]) >= FOLD_SHANTEN:    # danger: a seat is ready
        return FOLD * risk
    return DEFEND * risk


def choose(view: Mapping[str, Any], legal: Sequence[dict[str, Any]], rng: Rng | None = None
           ) -> dict[str, Any]:
    """Return a copy of the first best action of ``legal`` by ``score`` (``rng`` unused: the
    choice is deterministic).

    Raises:
        ValueError: when ``legal`` is empty.
    """
    if not legal:
        raise ValueError("No legal action to choose from.")
    values = [score(view, a) for a in legal]
    return dict(legal[values.index(max(values))])
